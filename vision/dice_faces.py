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
from collections.abc import Sequence
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
    threshold constant) over a square of ``pip_block`` pixels. ``wide_block``: when not 0, a
    pip is measured on a threshold over this wider square, where its blob is larger and at most
    ``wide_growth`` times as large (a large pip's core alone passes the narrow threshold).
    ``ring_contrast``: how much the ring round a pip, ``ring_radius`` pip radii out, must
    differ from its centre, ``ring_fraction`` on what share of the ring. ``pip_roundness``:
    minimum minor/major
    axis ratio; ``roundness_drop``: how much less round than the roundest pip of the crop a
    top-face pip may be (side-face pips are seen edge-on). ``link``: pips closer than this
    many diameters belong to one face; ``size_ratio``: and no more unlike in size;
    ``link_shade``: and with rings no more unlike in lightness.
    ``face_shade``: a pip whose surroundings are this much darker than the brightest of its
    group is on a side face. ``pattern_tolerance`` (in pip diameters) and ``max_dropped``: a
    group not laid out like a die face loses up to ``max_dropped`` pips to become one.
    ``pip_colours``: when not 0, up to this many more searches per crop, each along the colour
    axis of a face found (:mod:`vision.dice_pip_colours`: pips on marbled bodies).
    """

    pip_contrast: float = 12.0
    pip_block: int = 21
    wide_block: int = 31
    wide_growth: float = 2.0
    ring_radius: float = 1.8
    ring_contrast: float = 30.0
    ring_fraction: float = 0.6
    pip_roundness: float = 0.35
    roundness_drop: float = 0.25
    link: float = 3.4
    link_shade: float = 16.0
    size_ratio: float = 1.7
    face_shade: float = 30.0
    pattern_tolerance: float = 0.6
    max_dropped: int = 2
    min_pip_area: int = 12
    max_pip_area: int = 900
    pip_colours: int = 0


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
    """The top face of one die: its pips, their polarity (1 darker than the face, -1 lighter),
    the channel they were found in (0 lightness, 1 red-green, 2 yellow-blue) and the size of
    the group they came from."""

    pips: tuple[Pip, ...]
    polarity: int
    channel: int
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


def faces_in_planes(planes: Sequence[Image], settings: FaceSettings) -> list[Face]:
    """The candidate top faces in a Lab crop's :func:`channels`: pips darker or lighter than
    their face in lightness, or redder, greener, yellower or bluer (red pips on a black die)."""
    faces = []
    for channel_index, channel in enumerate(planes):
        narrow = contrast_masks(channel, settings.pip_block, settings.pip_contrast)
        wide = (
            contrast_masks(channel, settings.wide_block, settings.pip_contrast)
            if settings.wide_block
            else None
        )
        for side, polarity in enumerate((1, -1)):
            flipped = channel if polarity == 1 else cv2.bitwise_not(channel)
            pips = find_pips(flipped, narrow[side], wide and wide[side], settings)
            faces.extend(_faces(pips, polarity, channel_index, settings))
    return faces


def contrast_masks(channel: Image, block: int, contrast: float) -> tuple[Image, Image]:
    """Where ``channel`` is darker, and where lighter, than its mean over a ``block`` square
    by ``contrast`` (1, else 0): OpenCV's mean adaptive threshold of the channel and of its
    inverse, from one mean."""
    mean = cv2.boxFilter(
        channel, -1, (block, block), borderType=cv2.BORDER_REPLICATE | cv2.BORDER_ISOLATED
    )
    difference = cv2.subtract(channel, mean, dtype=cv2.CV_16S)
    least = math.floor(contrast)
    return (difference <= -least).view(np.uint8), (difference >= least).view(np.uint8)


def channels(lab: Image) -> list[Image]:
    """Lightness, and the two colour axes of Lab stretched to the range of lightness."""
    lightness, red_green, yellow_blue = cv2.split(lab)
    return [
        lightness,
        cv2.convertScaleAbs(red_green, alpha=2.5, beta=-2.5 * 128 + 128),
        cv2.convertScaleAbs(yellow_blue, alpha=2.5, beta=-2.5 * 128 + 128),
    ]


def find_pips(
    channel: Image, mask: Image, wide_mask: Image | None, settings: FaceSettings
) -> list[Pip]:
    """Dark, round, filled blobs of ``mask`` (dark in ``channel``) with a ring of brighter
    face around them (measured for all blobs at once: shape from pixel moments, rings by
    sampling), rounder than ``pip_roundness`` and ringed on ``ring_fraction`` of the ring,
    their areas measured on ``wide_mask`` where given (:func:`_wide_areas`). Each test
    leaves out blobs before the costlier measurements that follow it."""
    blobs = _Blobs.of(mask)
    areas = blobs.total()
    widths, heights = blobs.extent(blobs.columns), blobs.extent(blobs.rows)
    sized = (
        (areas >= settings.min_pip_area)
        & (areas <= settings.max_pip_area)
        & (np.maximum(widths, heights) <= 3 * np.minimum(widths, heights))
    )
    sized[0] = False
    if not sized.any():
        return []
    present = np.maximum(areas, 1.0)  # the background has no pixels here
    mean_x, mean_y = blobs.total(blobs.x) / present, blobs.total(blobs.y) / present
    minor, major = _axes(blobs, mean_x, mean_y, areas)
    filled = areas / (4.0 * math.pi * np.sqrt(minor * major)) >= 0.7
    round_enough = np.sqrt(minor / major) > settings.pip_roundness
    chosen = np.nonzero(sized & filled & round_enough)[0]
    xs, ys = mean_x[chosen], mean_y[chosen]
    pip_areas = areas[chosen]
    if wide_mask is not None:
        pip_areas = _wide_areas(wide_mask, xs, ys, pip_areas, settings.wide_growth)
    radii = np.sqrt(pip_areas / math.pi)
    ring_radii = settings.ring_radius * radii
    share, ring, centre = _rings(channel, xs, ys, ring_radii, settings.ring_contrast)
    ringed = share >= settings.ring_fraction
    chosen, xs, ys, radii = chosen[ringed], xs[ringed], ys[ringed], radii[ringed]
    pip_areas, share, centre = pip_areas[ringed], share[ringed], centre[ringed]
    level = _median(ring[ringed])
    wide, _, _ = _rings(
        channel, xs, ys, 2.6 * radii, settings.ring_contrast, samples=2 * RING_SAMPLES
    )
    roundness = np.sqrt(minor[chosen] / major[chosen])
    return [
        Pip(*(float(v) for v in values))
        for values in zip(
            xs, ys, pip_areas, roundness, share, level, level - centre, wide, strict=True
        )
    ]


def _wide_areas(
    wide_mask: Image,
    xs: npt.NDArray[np.float64],
    ys: npt.NDArray[np.float64],
    areas: npt.NDArray[np.float64],
    growth: float,
) -> npt.NDArray[np.float64]:
    """Each pip's area on ``wide_mask``, where its blob there (the 8-connected one under its
    centre) is larger and at most ``growth`` times as large; else its own. Only the blobs
    under pips are measured (flood filled, each once), not the whole mask."""
    filled = wide_mask.astype(np.float32)  # mask 1; each blob filled becomes -1, -2, ...
    height, width = filled.shape
    sizes: dict[float, float] = {}
    result = areas.copy()
    for index, (x, y) in enumerate(zip(xs.astype(int), ys.astype(int), strict=True)):
        seed = (min(x, width - 1), min(y, height - 1))
        value = float(filled[seed[1], seed[0]])
        if value == 0.0:
            continue
        if value > 0.0:
            value = -1.0 - len(sizes)
            sizes[value] = float(cv2.floodFill(filled, None, seed, value, flags=8)[0])
        if areas[index] < sizes[value] <= growth * areas[index]:
            result[index] = sizes[value]
    return result


@dataclass(frozen=True)
class _Blobs:
    """The pixels of a mask's 8-connected blobs in raster order: each one's blob label and
    coordinates, and how many labels there are (0 the background, which has no pixels here).
    Blobs are measured over these pixels alone, giving what ``connectedComponentsWithStats``
    gives, five times faster on die crops (its statistics visit every pixel, mostly
    background)."""

    labels: npt.NDArray[np.int32]
    columns: npt.NDArray[np.int32]
    rows: npt.NDArray[np.int32]
    x: npt.NDArray[np.float64]
    y: npt.NDArray[np.float64]
    count: int

    @classmethod
    def of(cls, mask: Image) -> _Blobs:
        count, labels = cv2.connectedComponents(mask)
        found = cv2.findNonZero(mask)  # raster order
        points = np.zeros((0, 2), np.int32) if found is None else np.asarray(found, np.int32)
        columns, rows = points.reshape(-1, 2).T
        x, y = columns.astype(np.float64), rows.astype(np.float64)
        return cls(np.asarray(labels, np.int32)[rows, columns], columns, rows, x, y, count)

    def total(self, weights: npt.NDArray[np.float64] | None = None) -> npt.NDArray[np.float64]:
        """Per label, the sum of ``weights`` over its pixels (without: its area)."""
        return np.bincount(self.labels, weights, minlength=self.count).astype(np.float64)

    def extent(self, coordinates: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        """Per label, how many pixels its blob spans along ``coordinates`` (columns or rows)."""
        low = np.full(self.count, np.iinfo(np.int32).max, np.int32)
        high = np.full(self.count, -1, np.int32)
        np.minimum.at(low, self.labels, coordinates)
        np.maximum.at(high, self.labels, coordinates)
        span: npt.NDArray[np.int32] = high - low + 1
        return span


def _axes(
    blobs: _Blobs,
    mean_x: npt.NDArray[np.float64],
    mean_y: npt.NDArray[np.float64],
    areas: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The variances along the minor and major axis of every blob (sample covariance of its
    pixel coordinates, like ``np.cov``)."""
    x, y = blobs.x, blobs.y
    n = np.maximum(areas, 2.0)
    xx = (blobs.total(x * x) - n * mean_x**2) / (n - 1.0)
    yy = (blobs.total(y * y) - n * mean_y**2) / (n - 1.0)
    xy = (blobs.total(x * y) - n * mean_x * mean_y) / (n - 1.0)
    half_sum = (xx + yy) / 2.0
    root = np.sqrt(np.maximum(((xx - yy) / 2.0) ** 2 + xy**2, 0.0))
    return np.maximum(half_sum - root, 1e-6), np.maximum(half_sum + root, 1e-6)


def _rings(
    channel: Image,
    xs: npt.NDArray[np.float64],
    ys: npt.NDArray[np.float64],
    radii: npt.NDArray[np.float64],
    contrast: float,
    samples: int = RING_SAMPLES,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """On a circle round each pip: the share of pixels brighter than its centre by
    ``contrast``, the pixels, and the centre's lightness."""
    height, width = channel.shape
    cosines, sines = _circle(samples)
    ring_x = _within((xs[:, None] + radii[:, None] * cosines).astype(int), width - 1)
    ring_y = _within((ys[:, None] + radii[:, None] * sines).astype(int), height - 1)
    ring = channel[ring_y, ring_x].astype(np.float64)
    centre = channel[
        np.minimum(ys.astype(int), height - 1), np.minimum(xs.astype(int), width - 1)
    ].astype(np.float64)
    share = np.count_nonzero(ring > centre[:, None] + contrast, axis=1) / samples
    return share, ring, centre


def _median(rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The median of each row of an even count of values, as ``np.median`` gives it (the
    mean of the middle two), cheaper on small arrays."""
    middle = rows.shape[1] // 2
    pair = np.sort(rows, axis=1)[:, middle - 1 : middle + 1]
    median: npt.NDArray[np.float64] = pair.sum(axis=1) / 2.0
    return median


def _within(indices: npt.NDArray[np.int_], last: int) -> npt.NDArray[np.int_]:
    """``indices`` clipped to 0..``last`` (cheaper than ``np.clip`` on small arrays)."""
    clipped: npt.NDArray[np.int_] = np.minimum(np.maximum(indices, 0), last)
    return clipped


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


def _faces(pips: list[Pip], polarity: int, channel: int, settings: FaceSettings) -> list[Face]:
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
            and abs(first.ring_level - second.ring_level) <= settings.link_shade
        ):
            parent[root(i)] = root(j)
    groups: dict[int, list[Pip]] = {}
    for i, pip in enumerate(pips):
        groups.setdefault(root(i), []).append(pip)
    faces = []
    for group in groups.values():
        top = _top_face_pips(group, settings)
        if len(top) <= MAX_GROUP:
            faces.append(Face(_best_pattern(top, settings), polarity, channel, len(group)))
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
