"""The labelled dice photos (three sources) and how a reading is scored against them.

Sources, under ``../shared/data/dice`` (see its README): ``photos`` (white dice, black pips,
wood), ``photos-coloured`` (coloured dice, mostly white pips, grey tray or white board) and
``photos-assorted`` (six-sided dice among polyhedral dice and clutter).

Matching: a reported die matches a labelled die when its centre lies inside the labelled box
(YOLO sources) or within ``MATCH_SHARE`` of the photo's longer side of the labelled centre
(19 px on a 640 px photo, 30 px on the 1000 px assorted photos; their centres are good to
about 15 px). Each label takes the nearest unused report. A report near no countable die is a
false report, unless it is near an ``uncertain`` die or a neutral object (a cube with digits
or a doubling cube), which neither reward nor penalise; a false report near a polyhedral die
counts as one on polyhedral dice.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from vision.observations import DieObservation

SOURCES = ("photos", "photos-coloured", "photos-assorted")
MATCH_SHARE = 0.03
KNOWN_LABEL_ERROR = ("five_1.txt", 1)  # a stray box labelled 1 over empty table
NEUTRAL_KINDS = ("d6-numeral", "doubling cube")


@dataclass(frozen=True)
class LabelledDie:
    """A countable die: value, centre, and the half-sizes of its box (0 when only a centre)."""

    value: int
    x: float
    y: float
    half_width: float = 0.0
    half_height: float = 0.0


@dataclass(frozen=True)
class LabelledPhoto:
    """One photo with its labels: countable dice, neutral spots and polyhedral dice."""

    source: str
    path: Path
    width: int
    height: int
    dice: tuple[LabelledDie, ...]
    neutral: tuple[tuple[float, float], ...] = ()
    polyhedral: tuple[tuple[float, float], ...] = ()

    @property
    def reach(self) -> float:
        """How far from a labelled centre a report may lie, in pixels."""
        return MATCH_SHARE * max(self.width, self.height)

    def matches(self, die: LabelledDie, x: float, y: float) -> bool:
        """Whether a report at (x, y) is on ``die``."""
        inside = abs(x - die.x) <= die.half_width and abs(y - die.y) <= die.half_height
        return inside or math.hypot(x - die.x, y - die.y) <= self.reach

    def near(self, spots: Iterable[tuple[float, float]], x: float, y: float) -> bool:
        """Whether (x, y) is within reach of one of ``spots``."""
        return any(math.hypot(x - sx, y - sy) <= self.reach for sx, sy in spots)


@dataclass
class Score:
    """Counts over labelled dice and reports. ``polyhedral`` counts the polyhedral dice seen,
    ``on_polyhedral`` the false reports on them."""

    labelled: int = 0
    right: int = 0
    wrong_value: int = 0
    false_reports: int = 0
    polyhedral: int = 0
    on_polyhedral: int = 0
    reported: int = 0

    @property
    def missed(self) -> int:
        return self.labelled - self.right - self.wrong_value

    @property
    def right_share(self) -> float:
        return self.right / self.labelled if self.labelled else 0.0

    @property
    def wrong_share(self) -> float:
        """Wrong values and false reports, as a share of all reports."""
        return (self.wrong_value + self.false_reports) / self.reported if self.reported else 0.0

    def add(self, other: Score) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Matched:
    """One photo's reports split by what they landed on (indices into the reports)."""

    right: list[int] = field(default_factory=list)
    wrong_value: list[int] = field(default_factory=list)
    false: list[int] = field(default_factory=list)
    neutral: list[int] = field(default_factory=list)
    on_polyhedral: list[int] = field(default_factory=list)
    label_of: dict[int, LabelledDie] = field(default_factory=dict)


def match(photo: LabelledPhoto, reports: Sequence[DieObservation]) -> Matched:
    """Pair labels with reports (nearest unused report first) and sort out the rest."""
    result = Matched()
    used: set[int] = set()
    for die in photo.dice:
        candidates = [
            (math.hypot(seen.center[0] - die.x, seen.center[1] - die.y), index)
            for index, seen in enumerate(reports)
            if index not in used and photo.matches(die, *seen.center)
        ]
        if not candidates:
            continue
        _, index = min(candidates)
        used.add(index)
        result.label_of[index] = die
        (result.right if reports[index].value == die.value else result.wrong_value).append(index)
    for index, seen in enumerate(reports):
        if index in used:
            continue
        if photo.near(photo.neutral, *seen.center):
            result.neutral.append(index)
            continue
        result.false.append(index)
        if photo.near(photo.polyhedral, *seen.center):
            result.on_polyhedral.append(index)
    return result


def score(photo: LabelledPhoto, reports: Sequence[DieObservation]) -> Score:
    """The counts for one photo."""
    matched = match(photo, reports)
    return Score(
        labelled=len(photo.dice),
        right=len(matched.right),
        wrong_value=len(matched.wrong_value),
        false_reports=len(matched.false),
        polyhedral=len(photo.polyhedral),
        on_polyhedral=len(matched.on_polyhedral),
        reported=len(reports) - len(matched.neutral),
    )


def load_source(data: Path, source: str) -> list[LabelledPhoto]:
    """Every labelled photo of one source folder under ``data`` (``.../shared/data/dice``)."""
    folder = data / source
    if source == "photos-assorted":
        return [_assorted(folder / f"{n}.jpg") for n in sorted(_numbers(folder))]
    return [_yolo(source, path) for path in sorted(folder.glob("*.jpg"))]


def _numbers(folder: Path) -> list[int]:
    return [int(path.stem) for path in folder.glob("*.json")]


def _yolo(source: str, path: Path) -> LabelledPhoto:
    height, width = _size(path)
    label_file = path.with_suffix(".txt")
    dice = []
    for line in label_file.read_text().splitlines():
        if not line.strip():
            continue
        klass, cx, cy, w, h = (float(part) for part in line.split())
        value = int(klass) + 1
        if (label_file.name, value) == KNOWN_LABEL_ERROR:
            continue
        dice.append(LabelledDie(value, cx * width, cy * height, w * width / 2.0, h * height / 2.0))
    return LabelledPhoto(source, path, width, height, tuple(dice))


def _assorted(path: Path) -> LabelledPhoto:
    height, width = _size(path)
    labels = json.loads(path.with_suffix(".json").read_text())
    dice = tuple(LabelledDie(d["value"], *map(float, d["center"])) for d in labels["dice"])
    uncertain = [tuple(map(float, d["at"])) for d in labels["uncertain"]]
    neutral = [
        tuple(map(float, d["at"]))
        for d in labels["other"]
        if any(kind in d["kind"] for kind in NEUTRAL_KINDS)
    ]
    polyhedral = [
        tuple(map(float, d["at"]))
        for d in labels["other"]
        if not any(kind in d["kind"] for kind in NEUTRAL_KINDS)
    ]
    return LabelledPhoto(
        "photos-assorted",
        path,
        width,
        height,
        dice,
        tuple((x, y) for x, y in uncertain + neutral),
        tuple((x, y) for x, y in polyhedral),
    )


def _size(path: Path) -> tuple[int, int]:
    image = cv2.imread(str(path))
    if image is None:
        raise FileNotFoundError(f"{path}: cannot read the photo")
    return int(image.shape[0]), int(image.shape[1])
