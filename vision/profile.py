"""Taught decks: what each card looks like, kept on disk, and a recogniser that uses it.

A :class:`DeckProfile` holds, per card id, the card's canonical face: the whole card
warped upright to :data:`FACE_SIZE` pixels. Features are derived from it when a
profile is loaded (a blurred grey thumbnail of the whole face and a sharper one of
its top-left corner), so a better matcher never needs the deck taught again.

On disk a profile is a directory (``<data dir>/decks/<name>/``) with
``manifest.json`` (format version, deck name, catalogue link, card ids in teaching
order) and ``faces.npz`` (one face image per card id). A missing or corrupt file is a
one-line :class:`ProfileError` naming the file.

:class:`ProfileRecognizer` finds whole cards with :func:`vision.outline.find_card_outlines`,
warps each to the canonical face in both orientations (upright and upside down) and
compares it with every taught card; the best match above a threshold is reported
with its catalogue id, anything less like a taught card is left out as unknown.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cardmath.catalogue import (
    BUILTIN,
    Card,
    Catalogue,
    builtin,
    load_catalogue,
    owner_catalogue,
)
from companion.errors import LocatedError
from companion.paths import data_dir
from vision.observations import CardObservation
from vision.outline import Quad, find_card_outlines, quad_centre

Array = NDArray[Any]
"""A numpy array as OpenCV returns it (its dtype is not tracked by the stubs)."""

Image = Array
"""An 8-bit BGR (or BGRA) image, height x width x channels."""
OutlineFinder = Callable[[Image], list[Quad]]

PROFILE_VERSION = 1
MANIFEST = "manifest.json"
FACES = "faces.npz"
#: Canonical face size (width, height) every card is warped to.
FACE_SIZE = (100, 140)
#: The canonical face's corners, clockwise from the top left, as a quad is ordered.
FACE_CORNERS = np.array(
    [(0, 0), (FACE_SIZE[0], 0), (FACE_SIZE[0], FACE_SIZE[1]), (0, FACE_SIZE[1])], np.float32
)
#: Feature thumbnails (width, height): the whole face, and its top-left corner.
WHOLE_SIZE = (50, 70)
CORNER_SIZE = (20, 26)
#: The top-left corner region (inside the inset) as fractions (width, height) of the face.
CORNER_FRACTION = (0.28, 0.24)
#: Share of the corner thumbnail in a match score (the whole face has the rest).
CORNER_WEIGHT = 0.3
#: Margin of the face (fraction of each side) left out of the features.
INSET = 0.04
#: Where an observation's ``index`` lies on the face (fractions), the corner region's centre.
INDEX_FRACTION = (0.12, 0.13)
#: Catalogue link meaning the built-in 21X cards merged with the owner's own catalogues.
OWNER_LINK = "owner"
#: A match scoring below this is an unknown card.
DEFAULT_THRESHOLD = 0.55
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class ProfileError(LocatedError):
    """A taught deck that is missing, corrupt or of an unknown format; names the file."""


def check_deck_name(name: str) -> str:
    """``name`` if it can name a deck directory (letters, digits, ``_ . -``).

    >>> check_deck_name("home-21x")
    'home-21x'
    >>> check_deck_name("../etc")
    Traceback (most recent call last):
    ...
    vision.profile.ProfileError: bad deck name '../etc': use letters, digits, '_', '.' or '-'
    """
    if not _NAME.match(name):
        raise ProfileError(f"bad deck name {name!r}: use letters, digits, '_', '.' or '-'")
    return name


def decks_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """``<data dir>/decks``, where taught profiles (and owner catalogues) live."""
    return data_dir(override) / "decks"


@cache
def link_catalogue(link: str, data: str | None = None) -> Catalogue:
    """The catalogue a profile is linked to (read once per process).

    ``link`` is a built-in name (``21x``, ``standard``), ``owner`` (the built-in 21X
    cards merged with the owner's catalogues in ``<data dir>/decks/*.toml``) or the
    path of a catalogue TOML file.
    """
    if link in BUILTIN:
        return builtin(link)
    if link == OWNER_LINK:
        return owner_catalogue(directory=data_dir(data))
    return load_catalogue(link)


def normal_link(link: str) -> str:
    """``link`` as stored in a manifest: a catalogue file by its absolute path."""
    return link if link in BUILTIN or link == OWNER_LINK else str(Path(link).resolve())


def warp_face(frame: Image, quad: Quad) -> Image:
    """The card inside ``quad`` warped to :data:`FACE_SIZE`, corner 0 at the top left.

    A card much bigger than that in the frame is warped at a multiple of the size and
    then shrunk by area averaging, so fine print does not alias.
    """
    width, height = FACE_SIZE
    corners = np.array(quad, np.float32)
    longest = float(max(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
    factor = int(min(4.0, max(1.0, longest / height)))
    warp = cv2.getPerspectiveTransform(corners, FACE_CORNERS * factor)
    face: Image = cv2.warpPerspective(
        frame,
        warp,
        (width * factor, height * factor),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    if factor > 1:
        face = cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)
    return face


def _normalised(image: Array) -> Array:
    vector = image.reshape(-1) - float(image.mean())
    norm = float(np.linalg.norm(vector))
    result: Array = vector / norm if norm > 1e-6 else vector
    return result


def face_features(face: Image) -> Array:
    """The feature vector of a canonical face: whole-face and corner thumbnails, each
    zero-mean and scaled so that a dot product of two is a weighted mean correlation.

    The outer :data:`INSET` of the face is left out: that is where an outline a few
    pixels off shows table instead of card.
    """
    grey = face if face.ndim == 2 else cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    width, height = FACE_SIZE
    inset_x, inset_y = round(width * INSET), round(height * INSET)
    inner = cv2.GaussianBlur(
        grey[inset_y:-inset_y, inset_x:-inset_x].astype(np.float32), (0, 0), 1.5
    )
    whole = cv2.resize(inner, WHOLE_SIZE, interpolation=cv2.INTER_AREA)
    corner_w = round(width * CORNER_FRACTION[0])
    corner_h = round(height * CORNER_FRACTION[1])
    corner = cv2.resize(inner[:corner_h, :corner_w], CORNER_SIZE, interpolation=cv2.INTER_AREA)
    features: Array = np.concatenate(
        [
            _normalised(whole) * np.float32(np.sqrt(1.0 - CORNER_WEIGHT)),
            _normalised(corner) * np.float32(np.sqrt(CORNER_WEIGHT)),
        ]
    )
    return features


@dataclass(frozen=True)
class DeckProfile:
    """A taught deck: canonical faces by card id, and the catalogue its ids come from."""

    name: str
    faces: Mapping[str, Image]
    catalogue: str | None = None

    @property
    def card_ids(self) -> list[str]:
        """The taught card ids, in teaching order."""
        return list(self.faces)

    def catalogue_card(self, card_id: str) -> Card:
        """The catalogue entry of a taught card (its printed text, expression and icons)."""
        if self.catalogue is None:
            raise ProfileError(f"deck {self.name!r} is not linked to a catalogue")
        return link_catalogue(self.catalogue).card(card_id)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the profile into ``directory`` (created); returns the directory."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        ids = self.card_ids
        arrays = {f"face{number}": self.faces[card_id] for number, card_id in enumerate(ids)}
        with (folder / FACES).open("wb") as stream:
            np.savez_compressed(stream, **arrays)  # type: ignore[arg-type]
        manifest = {
            "version": PROFILE_VERSION,
            "name": self.name,
            "catalogue": self.catalogue,
            "face_size": list(FACE_SIZE),
            "cards": ids,
        }
        (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        return folder

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> DeckProfile:
        """Read a profile written by :meth:`save`; :class:`ProfileError` names a bad file."""
        folder = Path(directory)
        manifest_path = folder / MANIFEST
        if not manifest_path.is_file():
            raise ProfileError("no taught deck here (manifest.json missing)", path=str(folder))
        name, link, card_ids = _read_manifest(manifest_path)
        faces_path = folder / FACES
        try:
            with np.load(faces_path, allow_pickle=False) as stored:
                arrays = {key: np.asarray(stored[key]) for key in stored.files}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
            reason = "missing" if not faces_path.exists() else f"unreadable ({error})"
            raise ProfileError(f"card faces {reason}", path=str(faces_path)) from None
        faces: dict[str, Image] = {}
        expected_shape = (FACE_SIZE[1], FACE_SIZE[0], 3)
        for number, card_id in enumerate(card_ids):
            face = arrays.get(f"face{number}")
            if face is None or face.shape != expected_shape or face.dtype != np.uint8:
                raise ProfileError(f"no valid face for card {card_id!r}", path=str(faces_path))
            faces[card_id] = face
        return cls(name, faces, link)


def _read_manifest(path: Path) -> tuple[str, str | None, list[str]]:
    """The deck name, catalogue link and card ids of a manifest, checked."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ProfileError(f"cannot read ({error})", path=str(path)) from None
    except json.JSONDecodeError as error:
        raise ProfileError(
            f"invalid JSON: {error.msg}", path=str(path), line=error.lineno
        ) from None
    if not isinstance(manifest, dict):
        raise ProfileError("expected a JSON object", path=str(path))
    if manifest.get("version") != PROFILE_VERSION:
        raise ProfileError(
            f"unsupported profile version {manifest.get('version')!r} (expected {PROFILE_VERSION})",
            path=str(path),
        )
    cards, name, link = manifest.get("cards"), manifest.get("name"), manifest.get("catalogue")
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        raise ProfileError("'cards' must be a list of card ids", path=str(path))
    if len(set(cards)) != len(cards):
        raise ProfileError("'cards' lists a card id twice", path=str(path))
    if not isinstance(name, str) or not (link is None or isinstance(link, str)):
        raise ProfileError("'name' and 'catalogue' must be text", path=str(path))
    if manifest.get("face_size") != list(FACE_SIZE):
        raise ProfileError(f"face size must be {list(FACE_SIZE)}", path=str(path))
    return name, link, cards


def load_deck(name: str, data: str | os.PathLike[str] | None = None) -> DeckProfile:
    """The taught deck called ``name`` from the data directory."""
    return DeckProfile.load(decks_dir(data) / check_deck_name(name))


def taught_decks(data: str | os.PathLike[str] | None = None) -> Iterator[Path]:
    """Directories of the taught decks in the data directory, by name."""
    folder = decks_dir(data)
    if folder.is_dir():
        yield from sorted(path for path in folder.iterdir() if (path / MANIFEST).is_file())


@dataclass(frozen=True)
class Match:
    """How a face compares with a profile: best card (None if unknown) and its score."""

    card_id: str | None
    score: float
    upside_down: bool
    runner_up: float


class ProfileRecognizer:
    """Recognise the cards of a taught deck in a frame.

    ``threshold`` (a correlation, -1 to 1) rejects faces not like any taught card;
    ``find_outlines`` finds whole-card quadrilaterals (V1's outline finder by default).
    """

    def __init__(
        self,
        profile: DeckProfile,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        find_outlines: OutlineFinder = find_card_outlines,
    ) -> None:
        if not profile.faces:
            raise ProfileError(f"deck {profile.name!r} has no taught cards")
        self.profile = profile
        self.threshold = threshold
        self.find_outlines = find_outlines
        self._ids = profile.card_ids
        self._features = np.stack([face_features(profile.faces[i]) for i in self._ids])

    def match_face(self, face: Image) -> Match:
        """Compare a canonical face (either way up) with every taught card."""
        turned = np.rot90(face, 2)
        scores = self._features @ np.stack([face_features(face), face_features(turned)]).T
        best = np.unravel_index(int(np.argmax(scores)), scores.shape)
        score = float(scores[best])
        card_scores = scores.max(axis=1)
        runner_up = float(np.partition(card_scores, -2)[-2]) if len(card_scores) > 1 else -1.0
        card_id = self._ids[int(best[0])] if score >= self.threshold else None
        return Match(card_id, score, bool(best[1] == 1), runner_up)

    def recognize(
        self, frame_bgr: Image, outlines: Sequence[Quad] | None = None
    ) -> list[CardObservation]:
        """Every whole taught card in the frame, as observations named by card id.

        ``outlines`` are the whole-card outlines if already found for this frame (the
        standard recogniser finds them too); otherwise they are found here.
        """
        observations = []
        quads = self.find_outlines(frame_bgr) if outlines is None else outlines
        for quad in quads:
            match = self.match_face(warp_face(frame_bgr, quad))
            if match.card_id is None:
                continue
            corners = quad[2:] + quad[:2] if match.upside_down else quad
            observations.append(
                CardObservation(
                    card=match.card_id,
                    center=quad_centre(corners),
                    index=face_point(corners, INDEX_FRACTION),
                    confidence=max(0.0, min(1.0, match.score)),
                    corners=corners,
                )
            )
        return observations


def face_point(quad: Quad, fraction: tuple[float, float]) -> tuple[float, float]:
    """The image point at ``fraction`` (x, y) of the face whose corners are ``quad``."""
    width, height = FACE_SIZE
    warp = cv2.getPerspectiveTransform(FACE_CORNERS, np.array(quad, np.float32))
    point = np.array([[[fraction[0] * width, fraction[1] * height]]], np.float32)
    x, y = cv2.perspectiveTransform(point, warp)[0, 0]
    return (float(x), float(y))
