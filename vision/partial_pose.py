"""Where a covered card may lie: card corners on the outline of what shows, the card
widths a frame suggests, and card outlines laid from them (:mod:`vision.partial`).

Each end of an outline edge may be a card corner (:func:`region_corners`); widths come
from whole sides and from :func:`calipers` across parallel edges (:func:`card_widths`);
:func:`hypotheses` lays cards from a corner, :func:`neighbours` (a row) and
:func:`fan_neighbours` (a fanned hand) lay the card under a card read, and
:func:`inside_shares` says how much of each lies on the cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.outline import CARD_ASPECT, Quad
from vision.profile import Array

Point = tuple[float, float]

#: A corner counts as a card corner if its angle is this close to 90 degrees.
RIGHT_ANGLE_TOLERANCE = 25.0
#: Card widths tried, and how close (share) two widths are to count as one; a whole
#: card read elsewhere supports its width this many times its size.
WIDTHS = 4
WIDTH_TOLERANCE = 0.06
KNOWN_WEIGHT = 4.0
#: Edges this close to parallel (degrees) facing each other, running side by side for
#: at least this share of the shorter, measure a card across (:func:`calipers`).
PARALLEL_DEGREES = 4.0
MIN_OVERLAP = 0.3
#: The card under a card read is looked for moved along its short side by these shares
#: of that side (a row; moved along the long side as well, a column's icon strips were
#: read wrong more often).
NEIGHBOUR_STEPS = tuple(k / 20 for k in range(10, 21))
#: The card under a card read in a fanned hand is looked for turned by these angles
#: (degrees), each way, about a pivot beyond either short side, this far from the card's
#: centre (shares of its long side; the refinement's small turns, scalings and shifts take
#: up a pivot nearer or farther): which end the hand pivots at is not known, so both are.
FAN_TURNS = tuple(range(9, 37, 2))
FAN_PIVOTS = (0.65,)
#: Two edges' lines meeting farther (pixels) than this from their polygon vertex make no corner.
CORNER_REACH = 12.0
#: Fewest outline points an edge needs to have its line fitted.
MIN_EDGE_POINTS = 8
#: The grid of points (across, down) :func:`inside_shares` tests a quad at.
INSIDE_GRID = (8, 11)


@dataclass(frozen=True)
class Corner:
    """Where a card may have a corner: its point, unit directions along the edge it was
    found on and along the card's other side, that edge's length, and whether the edge
    runs between two card corners (then its length is a whole side of a card)."""

    point: tuple[float, float]
    directions: tuple[tuple[float, float], tuple[float, float]]
    length: float
    whole: bool


def _fit_line(points: Array) -> tuple[Array, Array]:
    """A point on, and the unit direction of, the line through ``points``."""
    vx, vy, x, y = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x, y]), np.array([vx, vy])


def _intersect(first: tuple[Array, Array], second: tuple[Array, Array]) -> Array | None:
    (p, d), (q, e) = first, second
    cross = float(d[0] * e[1] - d[1] * e[0])
    if abs(cross) < 0.2:
        return None
    t = float((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / cross
    point: Array = p + t * d
    return point


def _edge_lines(contour: Array) -> tuple[Array, list[tuple[Array, Array] | None]]:
    """The simplified polygon of ``contour`` and each edge's line re-fitted to the outline
    points along its middle (None for an edge too short to fit)."""
    points = contour.reshape(-1, 2).astype(np.float64)
    perimeter = cv2.arcLength(contour, True)
    polygon = cv2.approxPolyDP(contour, max(2.5, 0.006 * perimeter), True).reshape(-1, 2)
    distances = np.linalg.norm(points[None, :, :] - polygon[:, None, :].astype(np.float64), axis=2)
    at = [int(np.argmin(row)) for row in distances]
    lines: list[tuple[Array, Array] | None] = []
    for k in range(len(polygon)):
        start, end = at[k], at[(k + 1) % len(polygon)]
        run = (
            points[start : end + 1]
            if end >= start
            else np.vstack([points[start:], points[: end + 1]])
        )
        trim = len(run) // 6
        middle = run[trim : len(run) - trim]
        lines.append(_fit_line(middle) if len(middle) >= MIN_EDGE_POINTS else None)
    return polygon, lines


def _unit(vector: Array) -> Array:
    unit: Array = vector / max(float(np.linalg.norm(vector)), 1e-9)
    return unit


def region_corners(contour: Array) -> list[Corner]:
    """Where a card may have a corner on a region's outer ``contour`` (OpenCV form).

    Every fitted edge gives one at each of its ends: along the edge and, into the region,
    along the neighbouring edge if the two make a convex corner of about a right angle
    (a card corner that shows), else square to the edge (the other edge is hidden).
    """
    polygon, lines = _edge_lines(contour)
    count = len(polygon)
    if count < 3:
        return []

    def inside(point: Array) -> bool:
        return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) > 0

    ends: list[Array] = []
    square: list[bool] = []
    for k in range(count):
        before, after = lines[k - 1], lines[k]
        vertex = polygon[k].astype(np.float64)
        point = None if before is None or after is None else _intersect(before, after)
        if point is None or np.linalg.norm(point - vertex) > CORNER_REACH:
            ends.append(vertex)
            square.append(False)
            continue
        ends.append(point)
        to_before = _unit(polygon[k - 1] - point)
        to_after = _unit(polygon[(k + 1) % count] - point)
        right = abs(float(to_before @ to_after)) <= math.sin(math.radians(RIGHT_ANGLE_TOLERANCE))
        square.append(right and inside(point + (to_before + to_after) * 4.0))
    corners = []
    for k, line in enumerate(lines):
        if line is None:
            continue
        length = float(np.linalg.norm(ends[(k + 1) % count] - ends[k]))
        whole = square[k] and square[(k + 1) % count]
        for end_at, towards, neighbour in (
            (k, (k + 1) % count, k - 1),
            ((k + 1) % count, k, (k + 1) % count),
        ):
            end = ends[end_at]
            along = line[1] if line[1] @ (polygon[towards] - polygon[end_at]) > 0 else -line[1]
            inward = np.array([-along[1], along[0]])
            if not inside(end + along * 6.0 + inward * 6.0):
                inward = -inward
            other_line = lines[neighbour]
            other = inward
            if square[end_at] and other_line is not None:
                other = other_line[1] if other_line[1] @ inward > 0 else -other_line[1]
            corners.append(
                Corner(
                    (float(end[0]), float(end[1])),
                    ((float(along[0]), float(along[1])), (float(other[0]), float(other[1]))),
                    length,
                    whole,
                )
            )
    return corners


def calipers(corners: Sequence[Corner]) -> list[tuple[float, float]]:
    """Distances across the cards between parallel edges that face each other (the two
    long sides of a column, the top and bottom of a row, opposite sides of a top card),
    each with how far the two edges run side by side (its weight).

    >>> top = Corner((0, 0), ((1, 0), (0, 1)), 100.0, False)
    >>> bottom = Corner((10, 140), ((1, 0), (0, -1)), 60.0, False)
    >>> calipers([top, bottom])
    [(140.0, 60.0), (140.0, 60.0)]
    """
    if len(corners) < 2:
        return []
    points = np.array([corner.point for corner in corners], np.float64)
    along = np.array([corner.directions[0] for corner in corners], np.float64)
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
    inward = np.array([corner.directions[1] for corner in corners], np.float64)
    normal *= np.where((normal * inward).sum(axis=1) < 0, -1.0, 1.0)[:, None]
    lengths = np.array([corner.length for corner in corners])
    facing = normal @ normal.T < -math.cos(math.radians(PARALLEL_DEGREES))
    offsets = points[None, :, :] - points[:, None, :]
    distance = (offsets * normal[:, None, :]).sum(axis=2)
    start = (offsets * along[:, None, :]).sum(axis=2)
    end = start + lengths[None, :] * (along @ along.T)
    low, high = np.minimum(start, end), np.maximum(start, end)
    overlap = np.minimum(high, lengths[:, None]) - np.maximum(low, 0.0)
    shorter = np.minimum(lengths[:, None], lengths[None, :])
    found = facing & (distance > 0) & (overlap >= MIN_OVERLAP * shorter)
    rows, columns = np.nonzero(found)
    return [
        (float(distance[i, j]), float(overlap[i, j]))
        for i, j in zip(rows, columns, strict=True)
    ]


def card_widths(corners: Sequence[Corner], known: Sequence[float] = ()) -> list[float]:
    """Likely card widths (short side, pixels), best supported first: from ``known``
    widths (whole cards elsewhere in the frame), the whole sides among ``corners`` and
    the :func:`calipers` across them, each a card's width or its height.

    >>> top = Corner((0, 0), ((1, 0), (0, 1)), 100.0, True)
    >>> left = Corner((0, 0), ((0, 1), (1, 0)), 140.0, True)
    >>> [round(w) for w in card_widths([top, left])]
    [100, 140, 71]
    """
    weighted = [(width, KNOWN_WEIGHT * width) for width in known]
    spans = [(corner.length, corner.length) for corner in corners if corner.whole]
    for span, weight in spans + calipers(corners):
        weighted += [(span, weight), (span / CARD_ASPECT, weight)]
    if not weighted:
        return []
    order = np.argsort([width for width, _ in weighted])
    sizes = np.array([weighted[k][0] for k in order])
    weights = np.cumsum([0.0] + [weighted[k][1] for k in order])
    # Each size's support: the weight of all sizes within the tolerance of it.
    low = np.searchsorted(sizes, sizes * (1.0 - WIDTH_TOLERANCE), side="left")
    high = np.searchsorted(sizes, sizes * (1.0 + WIDTH_TOLERANCE), side="right")
    widths: list[float] = []
    for best in np.argsort(weights[low] - weights[high], kind="stable"):
        width = float(np.median(sizes[low[best] : high[best]]))
        if all(abs(width - other) > WIDTH_TOLERANCE * other for other in widths):
            widths.append(width)
            if len(widths) == WIDTHS:
                break
    return widths


def hypotheses(corner: Corner, widths: Sequence[float]) -> list[Quad]:
    """Card outlines that fit ``corner``: each edge as the short side, at each width.

    >>> hypotheses(Corner((0, 0), ((1, 0), (0, 1)), 10.0, True), [10.0])[0]
    ((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))
    """
    quads = []
    px, py = corner.point
    (fx, fy), (sx, sy) = corner.directions
    for width in widths:
        short, long = width, width * CARD_ASPECT
        for along_first, along_second in ((short, long), (long, short)):
            a = (px + fx * along_first, py + fy * along_first)
            b = (px + sx * along_second, py + sy * along_second)
            quads.append(_clockwise((px, py), a, (a[0] + b[0] - px, a[1] + b[1] - py), b))
    return quads


def neighbours(quad: Quad) -> list[tuple[Quad, Array]]:
    """Where the card under a card read at ``quad`` may lie in a row: the same card moved
    along its short side, each way, by :data:`NEIGHBOUR_STEPS` of that side; each with
    the middle of its far side (the one that shows) as its anchor.

    >>> moved = neighbours(((0, 0), (10, 0), (10, 14), (0, 14)))
    >>> len(moved), moved[0][0][0], moved[0][1].tolist()
    (22, (5.0, 0.0), [15.0, 7.0])
    """
    corners = np.array(quad, np.float64)
    centre = corners.mean(axis=0)
    edge = corners[1] - corners[0]
    length = float(np.linalg.norm(edge))
    unit = edge / max(length, 1e-9)
    moved = []
    for sign in (1.0, -1.0):
        for step in NEIGHBOUR_STEPS:
            shift = sign * step * length * unit
            anchor = centre + shift + sign * 0.5 * length * unit
            moved.append((as_quad(corners + shift), anchor))
    return moved


def fan_neighbours(quad: Quad) -> list[tuple[Quad, Array]]:
    """Where the card under a card read at ``quad`` may lie in a fanned hand: the same
    card turned each way by :data:`FAN_TURNS` about a pivot on its long axis, beyond
    either short side (:data:`FAN_PIVOTS`); each with its pivot as its anchor, so the
    refinement turns and scales it about the hand's pivot.

    >>> turned = fan_neighbours(((0, 0), (10, 0), (10, 14), (0, 14)))
    >>> len(turned), turned[0][1].tolist()
    (56, [5.0, 16.1])
    """
    corners = np.array(quad, np.float64)
    centre = corners.mean(axis=0)
    axis = (corners[3] + corners[2] - corners[0] - corners[1]) / 2.0
    moved = []
    for end in (1.0, -1.0):
        for reach in FAN_PIVOTS:
            pivot = centre + end * reach * axis
            for sign in (1.0, -1.0):
                for degrees in FAN_TURNS:
                    angle = math.radians(sign * degrees)
                    rotation = np.array(
                        [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
                    )
                    moved.append((as_quad((corners - pivot) @ rotation.T + pivot), pivot))
    return moved


def _clockwise(p: Point, a: Point, c: Point, b: Point) -> Quad:
    """The parallelogram p, a, c, b (c opposite p) as :func:`~vision.outline.order_quad`
    orders a quad: clockwise on the image, the first edge a short side.

    >>> _clockwise((0, 0), (0, 14), (10, 14), (10, 0))
    ((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))
    """
    turn = (a[0] - p[0]) * (b[1] - p[1]) - (a[1] - p[1]) * (b[0] - p[0])
    ring = [p, a, c, b] if turn > 0 else [p, b, c, a]
    first = math.hypot(ring[1][0] - ring[0][0], ring[1][1] - ring[0][1])
    if first > math.hypot(ring[2][0] - ring[1][0], ring[2][1] - ring[1][1]):
        ring = ring[1:] + ring[:1]
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ring
    return (
        (float(x0), float(y0)),
        (float(x1), float(y1)),
        (float(x2), float(y2)),
        (float(x3), float(y3)),
    )


def as_quad(points: Array) -> Quad:
    """Four (x, y) rows as a quad, in their order."""
    (a, b), (c, d), (e, f), (g, h) = (tuple(float(v) for v in row) for row in points)
    return ((a, b), (c, d), (e, f), (g, h))


def inside_shares(quads: Sequence[Quad], region: Array, scale: float) -> Array:
    """How much of each of ``quads`` lies on ``region`` (a 0/255 mask, ``scale`` times
    the frame's size; off the frame is outside), from a grid of points inside each.

    >>> region = np.zeros((10, 10), np.uint8); region[:, :5] = 255
    >>> inside_shares([((0, 0), (10, 0), (10, 10), (0, 10))], region, 1.0).tolist()
    [0.5]
    """
    if not quads:
        return np.zeros(0)
    corners = np.array(quads, np.float64) * scale
    across, down = ((np.arange(count) + 0.5) / count for count in INSIDE_GRID)
    u, v = (grid.ravel()[None, :, None] for grid in np.meshgrid(across, down))
    points = (
        (1 - u) * (1 - v) * corners[:, None, 0]
        + u * (1 - v) * corners[:, None, 1]
        + u * v * corners[:, None, 2]
        + (1 - u) * v * corners[:, None, 3]
    )
    columns, rows = (np.floor(points[..., k]).astype(np.int64) for k in (0, 1))
    height, width = region.shape[:2]
    on_frame = (columns >= 0) & (columns < width) & (rows >= 0) & (rows < height)
    values = region[np.clip(rows, 0, height - 1), np.clip(columns, 0, width - 1)] > 0
    shares: Array = (values & on_frame).mean(axis=1)
    return shares
