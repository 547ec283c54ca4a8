"""Find dice in a frame and count the pips on their top faces.

The method, in three steps, with every size measured relative to the pips found:

1. **Die bodies** are regions clearly brighter and less yellow than the table around them
   (the background is a heavy median of a quarter-size copy, so wood grain, shadows and
   uneven light cancel out).
2. **Pips** are dark, round, filled blobs inside a body whose surroundings are mostly
   bright die face. Pips on the side faces are seen edge-on, so they are flatter than the
   roundest pip of the body (dropped by ``roundness_drop``; motion blur flattens all pips
   alike, so this is relative), or sit on a shaded face (dropped by ``face_shade``).
3. **Faces**: the remaining pips are linked when closer than ``link`` pip diameters; each
   group is one top face and its size is the value; a group not laid out like a die face
   (checked up to an affine view: rows, parallelograms, centres) drops its weakest one or
   two pips, usually a side-face pip, to become one. Two groups closer than ``merge`` pip
   diameters are two faces of one die: the one with the larger, rounder pips wins. A face
   of one pip must sit in clear face all round (``lone_pip_ring``), and faces at the frame
   edge are dropped (``edge_margin``).

White dice with black pips are the default; ``dark=True`` reads dark dice with light pips
by inverting the picture. Figures on the real photos: ``python -m benchmarks dice``.

>>> import numpy as np
>>> find_dice(np.full((120, 160, 3), 150, np.uint8))
[]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.observations import DieObservation

Image = npt.NDArray[Any]
"""A frame as OpenCV gives it: height x width x 3, BGR, uint8."""
Point = tuple[float, float]

MAX_PIPS = 6
WORKING_WIDTH = 640
BACKGROUND_SIZE = (160, 120)
BACKGROUND_KERNEL = 31
RING_SAMPLES = 24


@dataclass(frozen=True)
class DiceSettings:
    """The tunable parts of :func:`find_dice` (defaults fitted on every third photo).

    ``contrast``: how much brighter (plus twice less yellow, in Lab units) than the table a
    die body must be. ``pip_roundness``: minimum minor/major axis ratio of a top-face pip;
    ``roundness_drop``: how much less round than the roundest pip of its body it may be.
    ``ring_fraction``: share of a ring around a pip that must be bright face.
    ``lone_pip_ring``: a face of one pip must be bright face on this share of a wider ring
    (a lone dark mark among others, like print on a label, is not a die).
    ``face_shade``: a pip whose surroundings are this much darker than the brightest pip
    surroundings of the same body is on a side face. ``link`` and ``merge``: in pip
    diameters, see the module text. ``colour_weight``: weight of "less yellow than the
    table" in the body test (0 ignores colour). ``edge_margin``: faces with a pip closer
    than this many pip diameters to the frame edge are dropped. ``min_body_area`` and
    ``min_pip_area``: in pixels, smaller blobs are noise. ``pattern_tolerance`` (in pip
    diameters) and ``max_dropped``: a group of pips not laid out like a die face loses up to
    ``max_dropped`` pips to become one.
    """

    contrast: float = 25.0
    pip_roundness: float = 0.45
    roundness_drop: float = 0.2
    ring_fraction: float = 0.7
    lone_pip_ring: float = 0.97
    face_shade: float = 16.0
    link: float = 4.0
    merge: float = 4.0
    colour_weight: float = 2.0
    edge_margin: float = 2.0
    pattern_tolerance: float = 0.6
    max_dropped: int = 2
    min_body_area: int = 150
    min_pip_area: int = 5


@dataclass(frozen=True)
class _Pip:
    x: float
    y: float
    area: float
    roundness: float
    ring_bright: float
    ring_level: float
    wide_ring_bright: float

    @property
    def diameter(self) -> float:
        return 2.0 * math.sqrt(self.area / math.pi)


@dataclass(frozen=True)
class _Face:
    pips: tuple[_Pip, ...]

    @property
    def center(self) -> tuple[float, float]:
        return (
            float(sum(p.x for p in self.pips) / len(self.pips)),
            float(sum(p.y for p in self.pips) / len(self.pips)),
        )

    @property
    def pip_diameter(self) -> float:
        return float(np.median([p.diameter for p in self.pips]))

    @property
    def strength(self) -> float:
        return sum(p.area * p.roundness for p in self.pips) / len(self.pips)

    @property
    def confidence(self) -> float:
        roundness = min(p.roundness for p in self.pips)
        ring = min(p.ring_bright for p in self.pips)
        return round(min(1.0, 0.5 * roundness + 0.5 * ring), 3)


def find_dice(
    image: Image, settings: DiceSettings | None = None, *, dark: bool = False
) -> list[DieObservation]:
    """Every die whose top face can be read in a BGR ``image``, left to right.

    ``dark=True`` is for dark dice with light pips. Frames wider than 800 pixels are read at
    640 pixels wide (the size the pixel thresholds suit); centres are in the frame's pixels.
    """
    settings = settings or DiceSettings()
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("find_dice needs a 3-channel BGR image")
    scale = 1.0
    if image.shape[1] > 1.25 * WORKING_WIDTH:  # pixel sizes below are tuned for 640 wide
        scale = WORKING_WIDTH / image.shape[1]
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if dark:
        image = cv2.bitwise_not(image)
        settings = replace(settings, colour_weight=0.0)
    lightness, _, yellowness = cv2.split(cv2.cvtColor(image, cv2.COLOR_BGR2LAB))
    body_mask = _bright_bodies(lightness, yellowness, settings)
    dark_mask = cv2.adaptiveThreshold(
        lightness, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 15, 20
    )
    faces: list[_Face] = []
    contours, _ = cv2.findContours(body_mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        if cv2.contourArea(contour) < settings.min_body_area:
            continue
        pips = _pips_in_body(cv2.convexHull(contour), dark_mask, lightness, settings)
        faces.extend(
            face
            for face in _faces(_top_face_pips(pips, settings), settings)
            if len(face.pips) > 1 or face.pips[0].wide_ring_bright >= settings.lone_pip_ring
        )
    height, width = lightness.shape
    dice = [
        DieObservation(
            value=len(face.pips),
            center=(face.center[0] / scale, face.center[1] / scale),
            confidence=face.confidence,
        )
        for face in _one_face_per_die(faces, settings)
        if not _at_edge(face, width, height, settings.edge_margin)
    ]
    return sorted(dice, key=lambda die: (die.center[0], die.center[1]))


def _at_edge(face: _Face, width: int, height: int, margin_in_pips: float) -> bool:
    """Whether a pip lies within ``margin_in_pips`` pip diameters of the frame edge: a die cut
    off by the edge cannot be read, and what is found there is mostly other objects."""
    margin = margin_in_pips * face.pip_diameter
    return any(
        p.x < margin or p.y < margin or p.x > width - margin or p.y > height - margin
        for p in face.pips
    )


def _bright_bodies(lightness: Image, yellowness: Image, settings: DiceSettings) -> Image:
    """Mask of pixels brighter and bluer than the local table (Lab L and b channels)."""
    height, width = lightness.shape

    def background(channel: Image) -> npt.NDArray[np.int16]:
        small = cv2.resize(channel, BACKGROUND_SIZE, interpolation=cv2.INTER_AREA)
        smooth = cv2.medianBlur(small, BACKGROUND_KERNEL)
        return cv2.resize(smooth, (width, height)).astype(np.int16)

    score = lightness.astype(np.int16) - background(lightness)
    if settings.colour_weight:
        bluer = background(yellowness) - yellowness.astype(np.int16)
        score = score + (settings.colour_weight * bluer).astype(np.int16)
    mask = (score > settings.contrast).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _pips_in_body(
    hull: Image, dark_mask: Image, lightness: Image, settings: DiceSettings
) -> list[_Pip]:
    """The dark blobs inside one body's convex hull, measured."""
    x0, y0, width, height = cv2.boundingRect(hull)
    inside = np.zeros((height, width), np.uint8)
    cv2.drawContours(inside, [hull - (x0, y0)], -1, 255, -1)
    blobs = dark_mask[y0 : y0 + height, x0 : x0 + width] & inside
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(blobs)
    pips = []
    for index in range(1, count):
        area = int(stats[index, cv2.CC_STAT_AREA])
        if area < settings.min_pip_area:
            continue
        left, top = stats[index, cv2.CC_STAT_LEFT], stats[index, cv2.CC_STAT_TOP]
        right = left + stats[index, cv2.CC_STAT_WIDTH]
        bottom = top + stats[index, cv2.CC_STAT_HEIGHT]
        ys, xs = np.nonzero(labels[top:bottom, left:right] == index)
        minor, major = np.linalg.eigvalsh(np.cov(np.vstack([xs, ys]).astype(np.float64)))
        minor, major = max(minor, 1e-6), max(major, 1e-6)
        filled = area / (4.0 * math.pi * math.sqrt(minor * major))
        if filled < 0.7:
            continue
        x, y = centroids[index][0] + x0, centroids[index][1] + y0
        radius = math.sqrt(area / math.pi)
        bright, level = _ring(lightness, x, y, 2.2 * radius)
        wide_bright, _ = _ring(lightness, x, y, 2.6 * radius, samples=2 * RING_SAMPLES)
        pips.append(_Pip(x, y, area, math.sqrt(minor / major), bright, level, wide_bright))
    return pips


def _ring(
    lightness: Image, x: float, y: float, radius: float, samples: int = RING_SAMPLES
) -> tuple[float, float]:
    """On a circle around a pip: the share of clearly brighter pixels, and their median."""
    height, width = lightness.shape
    cosines, sines = _circle(samples)
    xs = np.clip((x + radius * cosines).astype(int), 0, width - 1)
    ys = np.clip((y + radius * sines).astype(int), 0, height - 1)
    ring = lightness[ys, xs].astype(np.int16)
    centre = int(lightness[min(int(y), height - 1), min(int(x), width - 1)])
    return float(np.mean(ring > centre + 40)), float(np.median(ring))


@cache
def _circle(samples: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Cosines and sines of ``samples`` angles evenly round a circle (made once per count)."""
    angles = np.linspace(0.0, 2.0 * math.pi, samples, endpoint=False)
    return np.cos(angles), np.sin(angles)


def _top_face_pips(pips: list[_Pip], settings: DiceSettings) -> list[_Pip]:
    """Drop the pips of side faces: flat, small, or on a shaded face."""
    if not pips:
        return []
    roundest = max(p.roundness for p in pips)
    least = max(settings.pip_roundness, roundest - settings.roundness_drop)
    round_pips = [p for p in pips if p.roundness > least]
    if not round_pips:
        return []
    largest = max(p.area for p in round_pips)
    candidates = [
        p
        for p in round_pips
        if p.area >= 0.45 * largest and p.ring_bright >= settings.ring_fraction
    ]
    if not candidates:
        return []
    brightest = max(p.ring_level for p in candidates)
    return [p for p in candidates if p.ring_level >= brightest - settings.face_shade]


def _faces(pips: list[_Pip], settings: DiceSettings) -> list[_Face]:
    """Group pips closer than ``link`` pip diameters (single linkage) into faces."""
    if not pips:
        return []
    diameter = float(np.median([p.diameter for p in pips]))
    parent = list(range(len(pips)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, first in enumerate(pips):
        for j in range(i + 1, len(pips)):
            second = pips[j]
            if math.hypot(first.x - second.x, first.y - second.y) < settings.link * diameter:
                parent[root(i)] = root(j)
    groups: dict[int, list[_Pip]] = {}
    for i, pip in enumerate(pips):
        groups.setdefault(root(i), []).append(pip)
    return [_Face(_best_pattern(group, diameter, settings)) for group in groups.values()]


def _best_pattern(group: list[_Pip], diameter: float, settings: DiceSettings) -> tuple[_Pip, ...]:
    """The group, or its strongest subset laid out like a die face when it is not one.

    A stray side-face pip breaks the pattern (five pips with none at the centre), so up to
    ``max_dropped`` pips are dropped to find a face layout; without one, the group stands.
    """
    ranked = sorted(group, key=lambda p: -p.area * p.roundness)
    tolerance = settings.pattern_tolerance * diameter
    for size in range(
        min(len(ranked), MAX_PIPS), max(len(ranked) - settings.max_dropped, 1) - 1, -1
    ):
        best: tuple[_Pip, ...] | None = None
        best_strength = -1.0
        for subset in itertools.combinations(ranked, size):
            if _is_face_layout([(p.x, p.y) for p in subset], tolerance):
                strength = sum(p.area * p.roundness for p in subset)
                if strength > best_strength:
                    best, best_strength = subset, strength
        if best is not None:
            return best
    return tuple(ranked[:MAX_PIPS])


def _is_face_layout(points: list[Point], tolerance: float) -> bool:
    """Whether pip centres are laid out as on a die face, allowing for an affine view.

    >>> _is_face_layout([(0, 0), (10, 0), (0, 10), (10, 10), (5, 5)], 2.0)
    True
    >>> _is_face_layout([(0, 0), (10, 0), (0, 10), (10, 10), (14, 5)], 2.0)
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
            if all(_is_face_layout(r, tolerance) for r in rows) and _is_parallelogram(
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


def _one_face_per_die(faces: list[_Face], settings: DiceSettings) -> list[_Face]:
    """Of faces closer than ``merge`` pip diameters, keep the one with the strongest pips."""
    kept: list[_Face] = []
    for face in sorted(faces, key=lambda f: -f.strength):
        x, y = face.center
        reach = settings.merge * face.pip_diameter
        if all(math.hypot(x - k.center[0], y - k.center[1]) > reach for k in kept):
            kept.append(face)
    return kept
