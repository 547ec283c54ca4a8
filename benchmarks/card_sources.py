"""The labelled card sources the card benchmark scores, the augmentations and the scoring.

A *source* is a list of labelled shots (``photos-single``, ``photos-deals``,
``photos-misc``, ``photos-webcam-felt``, synthetic bands, augmented copies of the
real photos). Scoring turns what the reader reported for a shot into verdicts,
one per report, each with its confidence, so figures can be taken at any
confidence threshold and a threshold can be chosen on some sources and applied
to another (the leave-one-source-out table).

>>> shot = Shot("x", np.zeros((4, 4, 3), np.uint8), (LabelledCard("Kd", ((10.0, 10.0),)),))
>>> seen = [CardObservation("Kd", (0.0, 0.0), (12.0, 9.0), 0.9),
...         CardObservation("Qs", (0.0, 0.0), (90.0, 90.0), 0.8)]
>>> [(v.confidence, v.verdict) for v in score_shot(shot, seen)]
[(0.9, 'right'), (0.8, 'wrong')]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from vision.imageio import read_image
from vision.observations import CardObservation

CARDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "cards"
#: A report is at a labelled index when within this many pixels of it (the data README).
INDEX_TOLERANCE = 40.0
Point = tuple[float, float]
Verdict = Literal["right", "wrong", "ignored", "unsure"]


@dataclass(frozen=True)
class LabelledCard:
    """A card a person can read in a shot: its name and its labelled index centres.

    ``one_corner``: only the most legible index is labelled (the felt photos), so a
    report of the card from its other index is right too when the labelled index lies
    on the card the report outlines.
    """

    name: str
    index_points: tuple[Point, ...]
    one_corner: bool = False


@dataclass(frozen=True)
class Shot:
    """One labelled image. ``single``: one card, scored by the most confident report."""

    name: str
    image: np.ndarray
    cards: tuple[LabelledCard, ...]
    ignore: tuple[Point, ...] = ()
    single: bool = False


@dataclass(frozen=True)
class Scored:
    """One report's verdict and confidence (``right`` once per labelled card)."""

    confidence: float
    verdict: Verdict
    text: str = ""


@dataclass
class Tally:
    """Verdicts over the shots of a source: the figures at any threshold."""

    legible: int = 0
    verdicts: list[Scored] = field(default_factory=list)

    def add(self, legible: int, verdicts: Iterable[Scored]) -> None:
        """Count one more shot."""
        self.legible += legible
        self.verdicts.extend(verdicts)

    def at(self, threshold: float) -> tuple[int, int, int]:
        """(found, reported, wrong) counting reports at ``threshold`` or above."""
        kept = [v for v in self.verdicts if v.confidence >= threshold]
        found = sum(v.verdict == "right" for v in kept)
        wrong = sum(v.verdict == "wrong" for v in kept)
        return found, found + wrong, wrong

    def unsure(self) -> tuple[int, int]:
        """(unsure reports, of which would have been right)."""
        return sum(v.verdict == "unsure" for v in self.verdicts), sum(
            v.text.startswith("right") for v in self.verdicts if v.verdict == "unsure"
        )

    def line(self, threshold: float = 0.0) -> str:
        """Found and wrong as percentages with the counts."""
        found, reported, wrong = self.at(threshold)
        return (
            f"found {percent(found, self.legible)} ({found}/{self.legible}), "
            f"wrong {percent(wrong, reported)} ({wrong}/{reported})"
        )

    def misses(self, threshold: float = 0.0) -> list[str]:
        """The wrong reports at ``threshold`` or above, as text."""
        return [
            v.text for v in self.verdicts if v.verdict == "wrong" and v.confidence >= threshold
        ]


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a percentage with one decimal.

    >>> percent(1, 3), percent(0, 0)
    ('33.3 %', '-')
    """
    return f"{100 * part / whole:.1f} %" if whole else "-"


def near(point: Point, spots: Iterable[Point], tolerance: float = INDEX_TOLERANCE) -> bool:
    """Whether ``point`` lies within ``tolerance`` pixels of one of ``spots``."""
    return any(np.hypot(point[0] - x, point[1] - y) <= tolerance for x, y in spots)


def on_card(report: CardObservation, point: Point) -> bool:
    """Whether ``point`` lies on the card outline ``report`` gives (grown by half the
    index tolerance)."""
    if len(report.corners) < 3:
        return False
    quad = np.array(report.corners, np.float32)
    return cv2.pointPolygonTest(quad, point, True) >= -INDEX_TOLERANCE / 2


def matches(report: CardObservation, card: LabelledCard) -> bool:
    """Whether ``report`` names ``card`` where it lies (anywhere, if no index is labelled)."""
    if report.card != card.name:
        return False
    if not card.index_points or near(report.index, card.index_points):
        return True
    return card.one_corner and any(on_card(report, point) for point in card.index_points)


def score_shot(shot: Shot, reports: Sequence[CardObservation]) -> list[Scored]:
    """A verdict per report: ``right`` for the first (most confident) report of a labelled
    card where it lies, ``ignored`` at an unreadable fragment, ``unsure`` for reports the
    reader marked unsure (not counted as reports), else ``wrong``. A single-card shot is
    judged by its most confident sure report alone."""
    ordered = sorted(reports, key=lambda seen: -seen.confidence)
    if shot.single:
        sure = [seen for seen in ordered if not seen.unsure]
        ordered = sure[:1] + [seen for seen in ordered if seen.unsure]
    found: set[str] = set()
    verdicts: list[Scored] = []
    for seen in ordered:
        where = f"{seen.card}@{seen.index[0]:.0f},{seen.index[1]:.0f} in {shot.name}"
        card = next((c for c in shot.cards if c.name not in found and matches(seen, c)), None)
        if seen.unsure:
            verdicts.append(Scored(seen.confidence, "unsure", ("right " if card else "") + where))
        elif card is not None:
            found.add(card.name)
            verdicts.append(Scored(seen.confidence, "right", where))
        elif near(seen.index, shot.ignore):
            verdicts.append(Scored(seen.confidence, "ignored", where))
        else:
            verdicts.append(Scored(seen.confidence, "wrong", where))
    return verdicts


def single_shots(cards_dir: Path = CARDS) -> list[Shot]:
    """The 52 single-card photos (the file name is the card)."""
    return [
        Shot(path.name, read_image(path), (LabelledCard(path.stem, ()),), single=True)
        for path in sorted((cards_dir / "photos-single").glob("*.jpg"))
    ]


def misc_shots(cards_dir: Path = CARDS) -> list[Shot]:
    """The two photos of a single card on a surface (the name starts the file name)."""
    return [
        Shot(path.name, read_image(path), (LabelledCard(path.name.split("-")[0], ()),), single=True)
        for path in sorted((cards_dir / "photos-misc").iterdir())
        if path.suffix in {".png", ".jpg"}
    ]


def deal_shots(cards_dir: Path = CARDS) -> list[Shot]:
    """The three fanned bridge deals, with both legible indices of each card labelled."""
    shots = []
    for labels_path in sorted((cards_dir / "photos-deals").glob("deal*.json")):
        labels = json.loads(labels_path.read_text())
        cards = tuple(
            LabelledCard(
                entry["card"], tuple((float(x), float(y)) for x, y in entry["index_centers_px"])
            )
            for entry in labels["cards"]
        )
        ignore = tuple(
            (float(x), float(y))
            for x, y in (f["px"] for f in labels["unreadable_fragments_ignore"])
        )
        shots.append(
            Shot(labels_path.stem, read_image(labels_path.parent / labels["image"]), cards, ignore)
        )
    return shots


def felt_shots(cards_dir: Path = CARDS) -> list[Shot]:
    """The 20 webcam photos over felt: one labelled index per card; the cards that cannot
    be read (slivers at the frame edge) are ignored spots."""
    folder = cards_dir / "photos-webcam-felt"
    labels = json.loads((folder / "labels.json").read_text())
    shots = []
    for name, entry in sorted(labels.items()):
        cards = tuple(
            LabelledCard(card["card"], ((float(card["index"][0]), float(card["index"][1])),), True)
            for card in entry["cards"]
        )
        ignore = tuple((float(s["index"][0]), float(s["index"][1])) for s in entry["not_legible"])
        shots.append(Shot(name, read_image(folder / name), cards, ignore))
    return shots


Augment = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def blue_cast(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """An untuned Pi camera: blue strongly up, red down."""
    gains = np.array([1.45, 1.0, 0.62]) * rng.uniform(0.95, 1.05, 3)
    return np.clip(image * gains, 0, 255).astype(np.uint8)


def warm_lamp(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A warm tungsten lamp: red up, blue well down, a little darker."""
    gains = np.array([0.55, 0.85, 1.15]) * rng.uniform(0.95, 1.05, 3)
    return np.clip(image * gains, 0, 255).astype(np.uint8)


def shadow_band(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A hard shadow (half the light) across the frame at a random angle, its edge 4 px soft."""
    height, width = image.shape[:2]
    angle = rng.uniform(0, np.pi)
    ys, xs = np.mgrid[0:height, 0:width]
    along = (xs - width / 2) * np.cos(angle) + (ys - height / 2) * np.sin(angle)
    offset = rng.uniform(-0.15, 0.15) * min(width, height)
    band = np.abs(along - offset) < 0.18 * min(width, height)
    shade = cv2.GaussianBlur(band.astype(np.float32), (0, 0), 4.0)
    factor = 1.0 - 0.55 * shade
    return np.asarray(np.clip(image * factor[:, :, None], 0, 255), np.uint8)


def glare(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp's reflection: a bright soft spot a fifth of the frame wide."""
    height, width = image.shape[:2]
    cx, cy = rng.uniform(0.25, 0.75) * width, rng.uniform(0.25, 0.75) * height
    sigma = 0.1 * max(width, height)
    ys, xs = np.mgrid[0:height, 0:width]
    spot = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2))
    return np.asarray(np.clip(image + 150.0 * spot[:, :, None], 0, 255), np.uint8)


def blur(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Slight defocus or motion: Gaussian blur of sigma 1.2-1.8 px (at 1280 px width)."""
    sigma = rng.uniform(1.2, 1.8) * max(image.shape[:2]) / 1280
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma))


AUGMENTATIONS: dict[str, Augment] = {
    "blue-cast": blue_cast,
    "warm-lamp": warm_lamp,
    "shadow-band": shadow_band,
    "glare": glare,
    "blur": blur,
}


def augmented(shots: Sequence[Shot], name: str, seed: int = 11) -> list[Shot]:
    """``shots`` with augmentation ``name`` applied (seeded), labels unchanged."""
    rng = np.random.default_rng(seed)
    change = AUGMENTATIONS[name]
    return [
        Shot(f"{shot.name}+{name}", change(shot.image, rng), shot.cards, shot.ignore, shot.single)
        for shot in shots
    ]


def tally(shots: Sequence[Shot], read: Callable[[np.ndarray], Sequence[CardObservation]]) -> Tally:
    """The verdicts of reading every shot with ``read``."""
    result = Tally()
    for shot in shots:
        result.add(len(shot.cards), score_shot(shot, read(shot.image)))
    return result


#: Thresholds a confidence cut is chosen from.
THRESHOLDS = tuple(round(0.5 + 0.01 * step, 2) for step in range(50))


def choose_threshold(tallies: Iterable[Tally], most_wrong: float = 0.01) -> float:
    """The lowest threshold at which the pooled ``tallies`` have at most ``most_wrong`` of
    their reports wrong (the highest threshold if none does)."""
    pooled = Tally()
    for one in tallies:
        pooled.add(one.legible, one.verdicts)
    for threshold in THRESHOLDS:
        _, reported, wrong = pooled.at(threshold)
        if wrong <= most_wrong * max(reported, 1):
            return threshold
    return THRESHOLDS[-1]


def family(source: str) -> str:
    """The source an augmented copy was made from (itself for the others)."""
    return source.split("+")[0]


def left_out_threshold(tallies: dict[str, Tally], name: str) -> float:
    """The threshold :func:`choose_threshold` picks for source ``name`` without it: on the
    other sources of ``tallies``, leaving out the augmented copies of ``name`` too."""
    return choose_threshold(t for other, t in tallies.items() if family(other) != family(name))
