"""Pips and faces in one die-sized crop: the geometric half of the dice reader.

A crop is scaled so that a die is about ``CROP_DIE_SIDE`` pixels across, so every size here is
in those pixels. Pips are round blobs that differ from their surroundings in lightness, of
one polarity per face: dark pips (``polarity=1``) on a light face or light pips
(``polarity=-1``) on a dark or coloured one. Pips are linked into a face when close for their
size, alike in size and on a face of the same lightness; a group not laid out like a die face
(checked up to an affine view) drops its weakest pips to become one.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[Any]
Point = tuple[float, float]

MAX_PIPS = 6
MAX_GROUP = 9  # more round blobs linked than this is a pattern (dotted cloth, mesh), not a die
RING_SAMPLES = 24
FACE_SIDE_IN_PIPS = 5.5  # a die face is about this many pip diameters across


@dataclass(frozen=True)
class FaceSettings:
    """The tunable parts of pip and face finding (sizes in crop pixels or pip diameters).

    ``pip_contrast``: how much a pip's mean lightness must differ from the local mean (adaptive
    threshold constant). ``ring_contrast``: how much the ring round a pip must differ from its
    centre, ``ring_fraction`` on what share of the ring. ``pip_roundness``: minimum minor/major
    axis ratio; ``roundness_drop``: how much less round than the roundest pip of the crop a
    top-face pip may be (side-face pips are seen edge-on). ``link``: pips closer than this
    many diameters belong to one face; ``size_ratio``: and no more unlike in size.
    ``face_shade``: a pip whose surroundings are this much darker than the brightest of the
    crop is on a side face. ``pattern_tolerance`` (in pip diameters) and ``max_dropped``: a
    group not laid out like a die face loses up to ``max_dropped`` pips to become one.
    """

    pip_contrast: float = 12.0
    ring_contrast: float = 30.0
    ring_fraction: float = 0.6
    pip_roundness: float = 0.45
    roundness_drop: float = 0.25
    link: float = 3.4
    size_ratio: float = 1.7
    face_shade: float = 30.0
    pattern_tolerance: float = 0.6
    max_dropped: int = 2
    min_pip_area: int = 12
    max_pip_area: int = 900


@dataclass(frozen=True)
class Pip:
    """One blob: centre and size in crop pixels, shape, and its ring of face around it.

    ``ring_share``: share of the ring that differs from the centre by the ring contrast;
    ``ring_level``: the ring's median lightness (flipped for light pips, so higher is always
    the face); ``contrast``: ring median minus centre lightness (also flipped);
    ``wide_ring_share``: the same share on a wider ring (a lone pip must be in clear face).
    """

    x: float
    y: float
    area: float
    roundness: float
    ring_share: float
    ring_level: float
    contrast: float
    wide_ring_share: float

    @property
    def diameter(self) -> float:
        return 2.0 * math.sqrt(self.area / math.pi)

    @property
    def strength(self) -> float:
        return self.area * self.roundness


@dataclass(frozen=True)
class Face:
    """The top face of one die: its pips and their polarity, and the group it came from."""

    pips: tuple[Pip, ...]
    polarity: int
    group_size: int

    @property
    def value(self) -> int:
        return len(self.pips)

    @property
    def center(self) -> Point:
        return (
            float(sum(p.x for p in self.pips) / len(self.pips)),
            float(sum(p.y for p in self.pips) / len(self.pips)),
        )

    @property
    def pip_diameter(self) -> float:
        return float(np.median([p.diameter for p in self.pips]))

    @property
    def strength(self) -> float:
        return sum(p.strength for p in self.pips) / len(self.pips)


def faces_in_crop(lightness: Image, settings: FaceSettings) -> list[Face]:
    """The candidate top faces in a crop's lightness channel, both polarities."""
    faces = []
    for polarity in (1, -1):
        channel = lightness if polarity == 1 else cv2.bitwise_not(lightness)
        pips = [
            p
            for p in find_pips(channel, settings)
            if p.ring_share >= settings.ring_fraction and p.roundness > settings.pip_roundness
        ]
        faces.extend(_faces(pips, polarity, settings))
    return faces


def find_pips(channel: Image, settings: FaceSettings) -> list[Pip]:
    """Dark, round, filled blobs in ``channel`` with a ring of brighter face around them."""
    mask = cv2.adaptiveThreshold(
        channel,
        255,
        cv2.ADAPTIVE_THRESH_MEAN_C,
        cv2.THRESH_BINARY_INV,
        31,
        settings.pip_contrast,
    )
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
    pips = []
    for index in range(1, count):
        area = int(stats[index, cv2.CC_STAT_AREA])
        if not settings.min_pip_area <= area <= settings.max_pip_area:
            continue
        left, top = stats[index, cv2.CC_STAT_LEFT], stats[index, cv2.CC_STAT_TOP]
        width, height = stats[index, cv2.CC_STAT_WIDTH], stats[index, cv2.CC_STAT_HEIGHT]
        if max(width, height) > 3 * min(width, height):
            continue
        ys, xs = np.nonzero(labels[top : top + height, left : left + width] == index)
        minor, major = np.linalg.eigvalsh(np.cov(np.vstack([xs, ys]).astype(np.float64)))
        minor, major = max(minor, 1e-6), max(major, 1e-6)
        if area / (4.0 * math.pi * math.sqrt(minor * major)) < 0.7:  # not filled
            continue
        x, y = float(centroids[index][0]), float(centroids[index][1])
        radius = math.sqrt(area / math.pi)
        share, level, centre = _ring(channel, x, y, 2.2 * radius, settings.ring_contrast)
        wide, _, _ = _ring(
            channel, x, y, 2.6 * radius, settings.ring_contrast, samples=2 * RING_SAMPLES
        )
        roundness = math.sqrt(minor / major)
        pips.append(Pip(x, y, area, roundness, share, level, level - centre, wide))
    return pips


def _ring(
    channel: Image, x: float, y: float, radius: float, contrast: float, samples: int = RING_SAMPLES
) -> tuple[float, float, float]:
    """On a circle round a pip: the share of pixels brighter than its centre by ``contrast``,
    their median, and the centre's lightness."""
    height, width = channel.shape
    cosines, sines = _circle(samples)
    xs = np.clip((x + radius * cosines).astype(int), 0, width - 1)
    ys = np.clip((y + radius * sines).astype(int), 0, height - 1)
    ring = channel[ys, xs].astype(np.int16)
    centre = int(channel[min(int(y), height - 1), min(int(x), width - 1)])
    return float(np.mean(ring > centre + contrast)), float(np.median(ring)), float(centre)


@cache
def _circle(samples: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Cosines and sines of ``samples`` angles evenly round a circle (made once per count)."""
    angles = np.linspace(0.0, 2.0 * math.pi, samples, endpoint=False)
    return np.cos(angles), np.sin(angles)


def _top_face_pips(pips: list[Pip], settings: FaceSettings) -> list[Pip]:
    """Of one linked group, drop the pips of side faces: flatter or more shaded than the
    group's best (side faces are seen edge-on and lit differently)."""
    roundest = max(p.roundness for p in pips)
    least = roundest - settings.roundness_drop
    round_pips = [p for p in pips if p.roundness >= least]
    brightest = max(p.ring_level for p in round_pips)
    return [p for p in round_pips if p.ring_level >= brightest - settings.face_shade]


def _faces(pips: list[Pip], polarity: int, settings: FaceSettings) -> list[Face]:
    """Link pips into faces (single linkage on nearness, likeness of size and of face)."""
    parent = list(range(len(pips)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (i, first), (j, second) in itertools.combinations(enumerate(pips), 2):
        small, large = sorted((first.diameter, second.diameter))
        distance = math.hypot(first.x - second.x, first.y - second.y)
        if (
            large <= settings.size_ratio * small
            and distance < settings.link * (small + large) / 2.0
            and abs(first.ring_level - second.ring_level) <= settings.face_shade
        ):
            parent[root(i)] = root(j)
    groups: dict[int, list[Pip]] = {}
    for i, pip in enumerate(pips):
        groups.setdefault(root(i), []).append(pip)
    faces = []
    for group in groups.values():
        if len(group) > MAX_GROUP:
            continue
        top = _top_face_pips(group, settings)
        faces.append(Face(_best_pattern(top, settings), polarity, len(group)))
    return faces


def _best_pattern(group: list[Pip], settings: FaceSettings) -> tuple[Pip, ...]:
    """The group, or its strongest subset laid out like a die face when it is not one.

    A stray side-face pip breaks the pattern (five pips with none at the centre), so up to
    ``max_dropped`` pips are dropped to find a face layout; without one, the group stands.
    """
    ranked = sorted(group, key=lambda p: -p.strength)
    tolerance = settings.pattern_tolerance * float(np.median([p.diameter for p in group]))
    for size in range(
        min(len(ranked), MAX_PIPS), max(len(ranked) - settings.max_dropped, 1) - 1, -1
    ):
        best: tuple[Pip, ...] | None = None
        best_strength = -1.0
        for subset in itertools.combinations(ranked, size):
            if is_face_layout([(p.x, p.y) for p in subset], tolerance):
                strength = sum(p.strength for p in subset)
                if strength > best_strength:
                    best, best_strength = subset, strength
        if best is not None:
            return best
    return tuple(ranked[:MAX_PIPS])


def is_face_layout(points: list[Point], tolerance: float) -> bool:
    """Whether pip centres are laid out as on a die face, allowing for an affine view.

    >>> is_face_layout([(0, 0), (10, 0), (0, 10), (10, 10), (5, 5)], 2.0)
    True
    >>> is_face_layout([(0, 0), (10, 0), (0, 10), (10, 10), (14, 5)], 2.0)
    False
    """
    count = len(points)
    if count <= 2:
        return True
    if count == 3:
        return any(_is_middle(points, middle, tolerance) for middle in range(3))
    if count == 4:
        return _is_parallelogram(points, tolerance)
    if count == 5:
        return any(
            math.dist(points[centre], _mean(corners)) < tolerance
            and _is_parallelogram(corners, tolerance)
            for centre in range(5)
            for corners in [[p for i, p in enumerate(points) if i != centre]]
        )
    if count == 6:  # two parallel rows of three
        for row in itertools.combinations(range(6), 3):
            if 0 not in row:
                continue  # each split once
            rows = [[points[i] for i in row], [points[i] for i in range(6) if i not in row]]
            if all(is_face_layout(r, tolerance) for r in rows) and _is_parallelogram(
                [end for r in rows for end in _ends(r)], tolerance
            ):
                return True
    return False


def _mean(points: list[Point]) -> Point:
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def _is_middle(points: list[Point], middle: int, tolerance: float) -> bool:
    """Whether ``points[middle]`` lies halfway between the other two of three."""
    ends = [p for i, p in enumerate(points) if i != middle]
    return math.dist(points[middle], _mean(ends)) < tolerance


def _ends(row: list[Point]) -> tuple[Point, Point]:
    """The two outer points of three in a line."""
    return max(itertools.combinations(row, 2), key=lambda pair: math.dist(*pair))


def _is_parallelogram(points: list[Point], tolerance: float) -> bool:
    """Whether four points are the corners of a parallelogram: its diagonals bisect."""
    a, b, c, d = points
    return any(
        math.dist(_mean([p, q]), _mean([r, t])) < tolerance
        and min(math.dist(p, q), math.dist(r, t)) > tolerance
        for (p, q), (r, t) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
    )
