"""Pips along a die's own colour axis: the pips of marbled and swirled bodies.

On a marbled die (swirls of a second colour, gold or pearl bodies) or with red pips on a dark
one, no single channel of :func:`vision.dice_faces.channels` separates the pips from the
body: the swirls pass the same thresholds, and the colour channels are blurred by the
camera's halved colour resolution. But the pips of one die share one colour, and a face
found in those channels, even with a pip or two missing, tells which: the Lab direction from
its pips' ring to its pips, whitened by the ring's own colour spread (the swirls' colours
weigh less, lightness, which is sharp, takes part). The crop is projected on that direction
and searched again as one more plane; of the faces found there only those whose pip count is
new where they lie are kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice_faces import Face, FaceSettings, faces_in_planes

Image = npt.NDArray[Any]
Vector = npt.NDArray[np.float64]

COLOUR_WEIGHTS = np.array([1.0, 2.5, 2.5])
"""Lab lightness and the two colour axes, weighted as in :func:`vision.dice_faces.channels`."""
LAB_GREY = np.array([0.0, 128.0, 128.0])
RING_POINTS = 12
SPREAD_FLOOR = 4.0
"""Added to the ring's colour variances (weighted Lab units squared): the whitening trusts no
spread below 2 levels, so a plain face's direction stays near the plain colour difference
(25 and 100 found fewer right counts, 1 no more)."""
AXIS_LIKE = 0.95
"""A direction this close to one of lightness, *a* or *b* repeats a plane already searched."""
SEED_APART = 2.5
"""Seed faces closer than this many pip diameters are on one die: one direction for both."""


def colour_axis_faces(
    lab: Image,
    found: Sequence[Face],
    first_channel: int,
    settings: FaceSettings,
    seeding: Sequence[Face] | None = None,
) -> tuple[list[Image], list[Face]]:
    """Planes of the Lab crop ``lab`` along the colour axes of up to ``settings.pip_colours``
    seed faces of ``seeding`` (by default ``found``), and the faces found in them (either
    polarity) with a pip count not found there yet (numbered as channels from
    ``first_channel``)."""
    planes: list[Image] = []
    faces: list[Face] = []
    known = _Known(found)
    for seed in _seeds(found if seeding is None else seeding, settings.pip_colours):
        direction, ring_mean = _axis(lab, seed, settings.ring_radius)
        if direction is None:
            continue
        plane = _projected(lab, direction, ring_mean)
        channel = first_channel + len(planes)
        planes.append(plane)
        for face in faces_in_planes([plane], settings):
            if not known.repeats(face):
                faces.append(replace(face, channel=channel))
                known.add(face)
    return planes, faces


def _weighted(lab: Image) -> Vector:
    """Lab colours (8-bit, last axis) as (L, 2.5 a, 2.5 b), colour axes about grey."""
    weighted: Vector = (lab.astype(np.float64) - LAB_GREY) * COLOUR_WEIGHTS
    return weighted


def _projected(lab: Image, direction: Vector, ring_mean: Vector) -> Image:
    """The 8-bit plane of the weighted colours along ``direction``, ``ring_mean`` at 128
    (one affine transform of the crop, saturated)."""
    gains = direction * COLOUR_WEIGHTS
    offset = 128.0 - float(ring_mean @ direction) - float(gains @ LAB_GREY)
    plane: Image = cv2.transform(lab, np.array([[*gains, offset]]))
    return plane


def _seeds(found: Sequence[Face], most: int) -> list[Face]:
    """The faces of two or more pips, largest group and clearest pips first, one per die, at
    most ``most``."""
    ranked = sorted(
        (face for face in found if face.value >= 2),
        key=lambda face: (-face.group_size, -sum(p.contrast for p in face.pips) / face.value),
    )
    seeds: list[Face] = []
    for face in ranked:
        if len(seeds) == most:
            break
        if all(
            math.dist(face.center, seed.center) > SEED_APART * seed.pip_diameter for seed in seeds
        ):
            seeds.append(face)
    return seeds


def _axis(lab: Image, seed: Face, ring_radius: float) -> tuple[Vector | None, Vector]:
    """The unit direction from the seed's rings (``ring_radius`` pip radii out) to its pips,
    whitened by the rings' colour spread (None when it is one of the planes already searched,
    or none), and the rings' mean colour."""
    height, width = lab.shape[:2]
    xs = np.array([p.x for p in seed.pips])
    ys = np.array([p.y for p in seed.pips])
    radii = np.array([p.diameter / 2.0 for p in seed.pips]) * ring_radius
    angles = np.linspace(0.0, 2.0 * math.pi, RING_POINTS, endpoint=False)
    ring_x = np.clip((xs[:, None] + radii[:, None] * np.cos(angles)).astype(int), 0, width - 1)
    ring_y = np.clip((ys[:, None] + radii[:, None] * np.sin(angles)).astype(int), 0, height - 1)
    ring = _weighted(lab[ring_y.ravel(), ring_x.ravel()])
    rows, columns = np.minimum(ys.astype(int), height - 1), np.minimum(xs.astype(int), width - 1)
    centres = _weighted(lab[rows, columns])
    ring_mean: Vector = ring.mean(axis=0)
    spread = np.cov(ring.T) + SPREAD_FLOOR * np.eye(3)
    direction: Vector = np.linalg.solve(spread, centres.mean(axis=0) - ring_mean)
    norm = float(np.linalg.norm(direction))
    if norm == 0.0 or float(np.abs(direction).max()) > AXIS_LIKE * norm:
        return None, ring_mean
    return direction / norm, ring_mean


class _Known:
    """The faces found so far, by pip count: their centres and pip diameters."""

    def __init__(self, found: Sequence[Face]) -> None:
        self._by_count: dict[int, list[tuple[float, float, float]]] = {}
        for face in found:
            self.add(face)

    def add(self, face: Face) -> None:
        self._by_count.setdefault(face.value, []).append((*face.center, face.pip_diameter))

    def repeats(self, face: Face) -> bool:
        """Whether a face of the same pip count lies within a pip diameter of ``face``."""
        x, y = face.center
        return any(
            math.hypot(x - other_x, y - other_y) < diameter
            for other_x, other_y, diameter in self._by_count.get(face.value, ())
        )
