"""Teaching a deck: show each card once, guided, and keep what it looks like.

:class:`DeckTeacher` is the guided session as a state machine fed with camera frames:
it asks for one card at a time ("show card 6X (3/9)"), waits until exactly one card
lies still in view, captures its face, and waits for the player to confirm (or redo);
any card can be skipped and taught later. The next capture waits until the last card
has been taken away or moved, so a card left lying is never taught twice. The result is a
:class:`~vision.profile.DeckProfile`. :func:`teach_from_images` does the same from
one photo (or scan) per card, named after the card.

>>> from vision.scenes.synthetic import ExpressionCard, SceneBuilder, render_expression_card
>>> card = render_expression_card(ExpressionCard("6x", "6X"))
>>> builder = SceneBuilder(seed=1)
>>> scene = builder.build([card], height_cm=45.0, rotation=0.0, glare=False)
>>> teacher = DeckTeacher(["6x", "2x+4"], deck_name="home", labels={"6x": "6X"})
>>> teacher.status.message
'show card 6X (1/2)'
>>> for _ in range(teacher.steady_frames):
...     status = teacher.feed(scene.image)
>>> status.step, status.message
(<Step.CONFIRM: 'confirm'>, 'captured 6X (1/2): keep it?')
>>> teacher.confirm().message
'show card 2x+4 (2/2)'
>>> teacher.skip().step, teacher.profile().card_ids
(<Step.DONE: 'done'>, ['6x'])
"""

from __future__ import annotations

import enum
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import ExpressionError
from vision.imageio import read_image
from vision.outline import Quad, find_card_outlines
from vision.profile import (
    DeckProfile,
    Image,
    OutlineFinder,
    ProfileError,
    link_catalogue,
    warp_face,
)

#: Frames in a row a card must lie still before it is captured.
STEADY_FRAMES = 5
#: How far (pixels) a corner may move between frames and still count as still.
STEADY_PIXELS = 4.0
#: Narrowest card (pixels) worth capturing: smaller faces lose the fine print.
MIN_CARD_WIDTH = 70.0
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")
#: A photo without a card outline counts as cropped to the card if its edges are this light.
CROPPED_EDGE = 140.0


class Step(enum.Enum):
    """Where a teaching session is."""

    SHOW = "show"
    CONFIRM = "confirm"
    DONE = "done"


@dataclass(frozen=True)
class TeachStatus:
    """What the session wants now: ``message`` is the line to show the player."""

    step: Step
    card_id: str | None
    position: int
    total: int
    message: str


class DeckTeacher:
    """A guided teaching session over ``card_ids`` (taught in that order).

    ``labels`` maps ids to what is printed on the cards (shown in prompts);
    ``catalogue`` is the link stored in the profile. Feed camera frames with
    :meth:`feed`; answer a capture with :meth:`confirm` or :meth:`redo`; :meth:`skip`
    leaves the current card untaught, :meth:`back` returns to the previous one.
    """

    def __init__(
        self,
        card_ids: Sequence[str],
        *,
        deck_name: str,
        labels: Mapping[str, str] | None = None,
        catalogue: str | None = None,
        find_outlines: OutlineFinder = find_card_outlines,
        steady_frames: int = STEADY_FRAMES,
        steady_pixels: float = STEADY_PIXELS,
    ) -> None:
        if not card_ids:
            raise ProfileError("nothing to teach: no cards given")
        if len(set(card_ids)) != len(card_ids):
            raise ProfileError("a card id is listed twice")
        self.card_ids = list(card_ids)
        self.deck_name = deck_name
        self.labels = dict(labels or {})
        self.catalogue = catalogue
        self.find_outlines = find_outlines
        self.steady_frames = steady_frames
        self.steady_pixels = steady_pixels
        self.faces: dict[str, Image] = {}
        self._position = 0
        self._captured: Image | None = None
        self._last_quad: Quad | None = None
        self._steady = 0
        self._note = ""
        self._taken_away: Quad | None = None

    @property
    def status(self) -> TeachStatus:
        """The current step and its prompt."""
        total = len(self.card_ids)
        if self._position >= total:
            taught = len(self.faces)
            return TeachStatus(
                Step.DONE, None, total, total, f"done: {taught} of {total} cards taught"
            )
        card_id = self.card_ids[self._position]
        label = self.labels.get(card_id, card_id)
        where = f"({self._position + 1}/{total})"
        if self._captured is not None:
            return TeachStatus(
                Step.CONFIRM,
                card_id,
                self._position + 1,
                total,
                f"captured {label} {where}: keep it?",
            )
        note = f" - {self._note}" if self._note else ""
        return TeachStatus(
            Step.SHOW, card_id, self._position + 1, total, f"show card {label} {where}{note}"
        )

    def feed(self, frame_bgr: Image) -> TeachStatus:
        """Look at one frame; captures the card once it has lain still long enough."""
        if self.status.step is not Step.SHOW:
            return self.status
        outlines = self.find_outlines(frame_bgr)
        if len(outlines) != 1:
            self._last_quad, self._steady, self._taken_away = None, 0, None
            self._note = "no card in view" if not outlines else f"{len(outlines)} cards in view"
            return self.status
        quad = outlines[0]
        width = min(math.dist(quad[0], quad[1]), math.dist(quad[2], quad[3]))
        if width < MIN_CARD_WIDTH:
            self._last_quad, self._steady = None, 0
            self._note = (
                f"the card is only {width:.0f} px wide; bring the camera closer "
                "or use a higher resolution"
            )
            return self.status
        if self._taken_away is not None:
            if _moved(quad, self._taken_away) <= 2 * self.steady_pixels:
                self._note = "take the last card away first"
                return self.status
            self._taken_away = None
        if self._last_quad is not None and _moved(quad, self._last_quad) <= self.steady_pixels:
            self._steady += 1
        else:
            self._steady = 1
        self._last_quad, self._note = quad, "hold still"
        if self._steady >= self.steady_frames:
            self._captured = warp_face(frame_bgr, quad)
            self._taken_away = quad
            self._last_quad, self._steady, self._note = None, 0, ""
        return self.status

    def offer(self, face: Image) -> TeachStatus:
        """Take ``face`` (a canonical face, e.g. from a photo) as the current card's capture."""
        if self.status.step is Step.SHOW:
            self._captured, self._note = face, ""
        return self.status

    def confirm(self) -> TeachStatus:
        """Keep the captured face and move on to the next card."""
        if self._captured is not None:
            self.faces[self.card_ids[self._position]] = self._captured
            self._captured = None
            self._position += 1
        return self.status

    def redo(self) -> TeachStatus:
        """Throw the capture away and show the same card again (it may stay where it is)."""
        self._captured, self._note, self._taken_away = None, "", None
        return self.status

    def skip(self) -> TeachStatus:
        """Leave the current card untaught and go on."""
        if self._position < len(self.card_ids):
            self._captured, self._note = None, ""
            self._position += 1
        return self.status

    def back(self) -> TeachStatus:
        """Return to the previous card and teach it again."""
        self._captured, self._note, self._taken_away = None, "", None
        if self._position > 0:
            self._position -= 1
            self.faces.pop(self.card_ids[self._position], None)
        return self.status

    def profile(self) -> DeckProfile:
        """The taught faces so far, in deck order."""
        faces = {card_id: self.faces[card_id] for card_id in self.card_ids if card_id in self.faces}
        return DeckProfile(self.deck_name, faces, self.catalogue)


def catalogue_cards(
    link: str, tokens: Sequence[str] | None = None, data: str | None = None
) -> tuple[list[str], dict[str, str]]:
    """Card ids to teach from a catalogue (see :func:`~vision.profile.link_catalogue`),
    and their printed texts for the prompts: all its cards, or those ``tokens`` name
    (ids or printed texts).

    >>> catalogue_cards("21x", ["6X", "x/2"])
    (['6x', 'x/2'], {'6x': '6X', 'x/2': 'X/2'})
    """
    catalogue = link_catalogue(link, data)
    if not tokens:
        chosen = list(catalogue)
    else:
        chosen = []
        for token in tokens:
            try:
                card = catalogue.card(token) if token in catalogue else catalogue.resolve(token)
            except ExpressionError:
                card = None  # neither a card of the catalogue nor an expression
            if card is None or card.id not in catalogue:
                raise ProfileError(f"card {token!r} is not in catalogue {link!r}")
            chosen.append(card)
    return list(dict.fromkeys(card.id for card in chosen)), {card.id: card.text for card in chosen}


def _moved(quad: Quad, previous: Quad) -> float:
    return max(math.dist(a, b) for a, b in zip(quad, previous, strict=True))


def face_from_image(image: Image, find_outlines: OutlineFinder = find_card_outlines) -> Image:
    """The canonical face of the one card in a photo or scan.

    The image is framed with a dark margin so that a card filling it is still found
    with the same outline finder as at the table. An image with no card outline but a
    light edge all round is taken to be a photo already cropped to the card; anything
    else is a :class:`ProfileError`.
    """
    height, width = image.shape[:2]
    pad = max(height, width) // 5
    framed = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(40, 40, 40))
    outlines = find_outlines(framed)
    if len(outlines) > 1:
        raise ProfileError(f"{len(outlines)} cards in the image; show one card")
    if outlines:
        return warp_face(framed, outlines[0])
    if _edge_brightness(image) < CROPPED_EDGE:
        raise ProfileError(
            "no card found: lay the card alone on a darker surface, or crop the photo to it"
        )
    corners: Quad = (
        (0.0, 0.0),
        (float(width), 0.0),
        (float(width), float(height)),
        (0.0, float(height)),
    )
    if width > height:
        corners = (corners[1], corners[2], corners[3], corners[0])
    return warp_face(image, corners)


def _edge_brightness(image: Image) -> float:
    """Median of the darkest colour channel along the image's edges (card white is high)."""
    darkest = image.min(axis=2) if image.ndim == 3 else image
    band = max(2, min(darkest.shape) // 30)
    edges = np.concatenate(
        [
            darkest[:band].ravel(),
            darkest[-band:].ravel(),
            darkest[:, :band].ravel(),
            darkest[:, -band:].ravel(),
        ]
    )
    return float(np.median(edges))


def file_key(text: str) -> str:
    """How a card id or printed text is written as a file name: case and spaces ignored,
    ``/`` (not allowed in file names) written as ``_``.

    >>> file_key("X/2"), file_key("Xth prime"), file_key("10h")
    ('x_2', 'xthprime', '10h')
    """
    return re.sub(r"\s+", "", text).replace("/", "_").casefold()


def teach_from_images(
    directory: str | os.PathLike[str],
    card_ids: Sequence[str],
    *,
    deck_name: str,
    labels: Mapping[str, str] | None = None,
    catalogue: str | None = None,
    find_outlines: OutlineFinder = find_card_outlines,
    progress: Callable[[str], None] | None = None,
) -> DeckProfile:
    """Teach from one image per card in ``directory``, named by card id or printed text
    (see :func:`file_key`); ``progress`` receives a line per card.

    An image whose name matches no card, or a second image of a card, is a
    :class:`ProfileError`; cards without an image are skipped and left untaught.
    """
    folder = Path(directory)
    if not folder.is_dir():
        raise ProfileError("no such directory of card images", path=str(folder))
    keys: dict[str, str] = {}
    for card_id in card_ids:
        keys[file_key(card_id)] = card_id
        if labels and card_id in labels:
            keys.setdefault(file_key(labels[card_id]), card_id)
    images: dict[str, Path] = {}
    for file in sorted(folder.iterdir()):
        if file.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        named = keys.get(file_key(file.stem))
        if named is None:
            raise ProfileError("file name is not a card of this deck", path=str(file))
        if named in images:
            first = images[named].name
            raise ProfileError(f"second image of card {named!r} (first {first})", path=str(file))
        images[named] = file
    teacher = DeckTeacher(
        card_ids,
        deck_name=deck_name,
        labels=labels,
        catalogue=catalogue,
        find_outlines=find_outlines,
    )
    for position, card_id in enumerate(card_ids, start=1):
        path = images.get(card_id)
        label = teacher.labels.get(card_id, card_id)
        where = f"({position}/{len(card_ids)})"
        if path is None:
            teacher.skip()
            line = f"skipped {label} {where}: no image"
        else:
            try:
                teacher.offer(face_from_image(read_image(path), find_outlines))
            except ProfileError as error:
                raise ProfileError(error.message, path=str(path)) from None
            teacher.confirm()
            line = f"taught {label} {where} from {path.name}"
        if progress is not None:
            progress(line)
    return teacher.profile()
