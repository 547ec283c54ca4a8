"""Taught cards read from the part that shows: fanned hands, columns, overlapping rows.

Overlapping cards merge into one "card white" region, so :mod:`vision.outline` finds
no whole outline there, or one cut out of two cards. Whole reads stand only for cards
lying alone or confirmed by the matcher here (:class:`OverlapRecognizer`); what they
leave of the frame is read in three steps:

1. **Corners.** The outline of each group of cards (white parts with gaps such as a
   golden border or a shadow line bridged) and of each white part is simplified to a
   polygon; every edge is re-fitted to the outline points along its middle (so rounded
   card corners do not bend it). Each end of an edge may be a card corner: the card's
   other side runs along the next edge where the two make a convex right angle, else
   square to the edge (that side is hidden).
2. **Hypotheses.** From each corner a card is laid along its two sides, either taken as
   the short side, at the card widths the frame suggests: whole cards read, whole sides
   (an edge between two right-angle corners) and :func:`calipers` across parallel
   edges. A card reaching out of the group is impossible and dropped.
3. **Peeling.** Every hypothesis is sampled as a thumbnail of its face (light divided
   out) and compared with the taught faces, either way up, by normalised correlation
   over its visible part, weighted to where the taught faces differ: the visible part
   is the group less what cards read before it claim, or the white part it came from.
   The best are refined (small turns, scalings, shifts), the best reportable one is kept
   and its outline claimed, and the hypotheses it touches are scored again: the top
   card of a fan is whole and is read first, then the one under it, and so on. One
   read per physical card and never one card id twice.

A card whose face shows whole is reported from :data:`ACCEPT_SCORE` and is sure from
:data:`SURE_SCORE`; one read from a part (less than :data:`WHOLE_SHARE` of its face shows)
must pass the stricter :data:`ACCEPT_PART` and :data:`SURE_PART`, each with a lead over
the next best card. A read under its sure level is reported ``unsure``; anything under
its accept level (clutter, cards never taught, strips too narrow to tell) is not
reported at all. The levels were chosen on the tuning scenes of
``benchmarks/bench_taught_overlap.py`` (docs/vision-teaching.md has the figures).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.observations import CardObservation
from vision.outline import CARD_ASPECT, MIN_AREA_FRACTION, Quad, card_white_mask, side
from vision.profile import (
    DEFAULT_THRESHOLD,
    FACE_CORNERS,
    FACE_SIZE,
    INDEX_FRACTION,
    INSET,
    Array,
    DeckProfile,
    Image,
    ProfileRecognizer,
    face_point,
    quad_centre,
)

#: Thumbnail (width, height) of a face's inner part that partial matches are scored on.
THUMB_SIZE = (40, 56)
#: Blur (in canonical-face pixels) a frame gets before a face is sampled from it at
#: thumbnail size: the taught thumbnails' blur and shrinking together.
THUMB_BLUR = 1.7
#: Reach of the paper level divided out of a frame (in thumbnail blurs) and the grey
#: level paper gets.
FLAT_REACH = 4.0
PAPER_LEVEL = 230.0
#: Grey-level spread under which a part counts as plain (its correlation is damped).
MIN_SPREAD = 6.0
#: Most hypotheses compared with the taught faces in one matrix product.
BATCH = 8
#: Least weight of a thumbnail pixel in a match (where all taught faces look alike).
WEIGHT_FLOOR = 0.15
#: The visible part loses its rim (thumbnail pixels): shadows and borders of the cards over it.
ERODE = np.ones((3, 3), np.uint8)
#: Least share of a hypothesis' face that must still show (not claimed) to be scored.
MIN_VISIBLE = 0.3
#: Least share of a hypothesised card that must lie on card-white region (the rest runs
#: over table, and the card cannot be there).
MIN_INSIDE = 0.85
#: Scale of the mask that test is made on, and the grid of points (across, down) it
#: is made at (a coarse test is as good, and cheaper).
INSIDE_SCALE = 0.25
INSIDE_GRID = (8, 11)
#: Gaps (pixels) closed between the white parts of one group of cards: a celebrity card's
#: golden border or a shadow line splits the white of overlapping cards.
BRIDGE_PIXELS = 11
#: A group of cards larger than this share of the frame is a light table, not cards.
MAX_GROUP_FRACTION = 0.25
#: White parts smaller than this share of the frame give no corners.
MIN_PART_FRACTION = 0.0004
#: A card read whole lies alone if its group of cards is at most this much larger than
#: its outline. Its whole read stands from :data:`LONE_SCORE` if it lies alone, else
#: from :data:`ACCEPT_SCORE`; one under that is read from the parts that show.
ALONE_GROWTH = 1.25
LONE_SCORE = 0.7
#: A card read claims its outline grown by this factor (its border and shadow).
CLAIM_GROWTH = 1.08
#: Under this correlation a card (most of its face showing) is not reported at all.
ACCEPT_SCORE = 0.8
#: A part showing less than this share of its face needs :data:`ACCEPT_PART` to be
#: reported, and that much ahead of the next best card; it is sure from :data:`SURE_PART`.
WHOLE_SHARE = 0.9
ACCEPT_PART = 0.88
ACCEPT_PART_MARGIN = 0.05
SURE_PART = 0.94
#: At or over this correlation, and :data:`SURE_MARGIN` ahead of the next card, a read is sure.
SURE_SCORE = 0.75
SURE_MARGIN = 0.08
SURE_PART_MARGIN = 0.1
#: A part too close to two cards to tell by correlation is judged where their faces
#: differ by this many grey levels (if at least this share of its thumbnail), and read
#: as the one whose face explains it there this many times better.
PAIR_DIFF = 30.0
PAIR_LEAST = 0.01
PAIR_RATIO = 1.5
#: How many of the best hypotheses are refined before one is kept.
REFINED = 4
#: Moves tried when refining: turn (degrees) and scaling about the anchor corner, and
#: shift (per cent of the card's width), each at full reach and then halved.
REFINE_MOVES = (
    (-3.0, 1.0, 0.0, 0.0),
    (3.0, 1.0, 0.0, 0.0),
    (0.0, 0.92, 0.0, 0.0),
    (0.0, 1.08, 0.0, 0.0),
    (0.0, 1.0, -4.0, 0.0),
    (0.0, 1.0, 4.0, 0.0),
    (0.0, 1.0, 0.0, -4.0),
    (0.0, 1.0, 0.0, 4.0),
)
#: Hypotheses scoring under this are not refined; at most this many refinements a frame
#: (the best ones first, :data:`REFINED` at a time until one is reported).
REFINE_FLOOR = 0.4
MAX_REFINEMENTS = 48
#: Most rounds of moves in one refinement (each takes the best move).
REFINE_ROUNDS = 5
#: A refinement still under this score after this many rounds is given up (it has
#: never come to be read on the tuning scenes).
REFINE_PATIENCE = 2
REFINE_HOPE = 0.7
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
#: Each estimated width is tried as it is and grown: the white inside a celebrity card's
#: golden border is narrower than a whole card.
WIDTH_STEPS = (1.0,)
#: The card under a card read is looked for moved along either of its sides by these
#: shares of that side, scaled by these (a celebrity card's taught face is smaller).
NEIGHBOUR_STEPS = tuple(k / 20 for k in range(3, 21))
NEIGHBOUR_SCALES = ((1.0, 1.0),)
#: Two edges' lines meeting farther (pixels) than this from their polygon vertex make no corner.
CORNER_REACH = 12.0
#: Fewest outline points an edge needs to have its line fitted.
MIN_EDGE_POINTS = 8


@dataclass(frozen=True)
class Corner:
    """Where a card may have a corner: its point, unit directions along the edge it was
    found on and along the card's other side, that edge's length, and whether the edge
    runs between two card corners (then its length is a whole side of a card)."""

    point: tuple[float, float]
    directions: tuple[tuple[float, float], tuple[float, float]]
    length: float
    whole: bool


@dataclass(frozen=True)
class PartialRead:
    """One card read from its visible part: id, outline (face top-left first), score,
    the next best card's score and the share of the face that showed."""

    card_id: str
    quad: Quad
    score: float
    runner_up: float
    visible: float

    @property
    def unsure(self) -> bool:
        """Whether the referee should have a look before acting on it."""
        if self.visible >= WHOLE_SHARE:
            return self.score < SURE_SCORE or self.score - self.runner_up < SURE_MARGIN
        return self.score < SURE_PART or self.score - self.runner_up < SURE_PART_MARGIN


def thumbnail(face: Image) -> Array:
    """The blurred grey inner part of a canonical face, as :data:`THUMB_SIZE` float32."""
    grey = face if face.ndim == 2 else cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    inset_x, inset_y = round(FACE_SIZE[0] * INSET), round(FACE_SIZE[1] * INSET)
    inner = cv2.GaussianBlur(
        grey[inset_y:-inset_y, inset_x:-inset_x].astype(np.float32), (0, 0), 1.2
    )
    small: Array = cv2.resize(inner, THUMB_SIZE, interpolation=cv2.INTER_AREA)
    return small


class PartialMatcher:
    """Masked normalised correlation of a face part against every taught face, either
    way up, weighted towards where the taught faces differ.

    Each thumbnail pixel is weighted by how much the taught faces differ there (their
    spread, over :data:`WEIGHT_FLOOR`): plain card and marks every card shares (a frame,
    the same difficulty icons) tell nothing about which card a strip is, the print that
    differs does.
    """

    def __init__(self, faces: Mapping[str, Image]) -> None:
        self.ids = list(faces)
        upright = np.stack([thumbnail(faces[i]) for i in self.ids])
        spread = upright.std(axis=0)
        peak = float(spread.max())
        weights = WEIGHT_FLOOR + (1.0 - WEIGHT_FLOOR) * (spread / peak if peak > 0 else spread)
        # The thumbnails and their squares (cards x pixels), and the weights. A card turned
        # half a turn is compared by turning the part instead (a flattened thumbnail read
        # backwards), so both ways up are one product.
        self._thumbs = np.asarray(upright, np.float32).reshape(len(self.ids), -1)
        self._squares = self._thumbs * self._thumbs
        self._weights = np.asarray(weights, np.float32).reshape(-1)

    def decide(
        self, part: Array, mask: Array, first: tuple[int, bool], second: tuple[int, bool]
    ) -> int | None:
        """Which of two cards (index, turned) a flattened thumbnail ``part`` shows, judged
        only where their faces differ (by :data:`PAIR_DIFF` grey levels) over ``mask``: 0
        or 1 if one explains the part there :data:`PAIR_RATIO` times better than the
        other (each fitted to the part by gain and offset over all of ``mask``), else None.

        >>> plain = np.full((140, 100, 3), 240, np.uint8)
        >>> pi, e = plain.copy(), plain.copy(); pi[20:40, 20:80] = 20; e[20:40, 20:80] = 20
        >>> pi[90:110, 20:50] = 20; e[90:110, 60:80] = 20  # the one word that differs
        >>> matcher = PartialMatcher({"pi": pi, "e": e})
        >>> mask = np.ones(THUMB_SIZE[0] * THUMB_SIZE[1], np.float32)
        >>> part = thumbnail(e).reshape(-1)
        >>> matcher.decide(part, mask, (0, False), (1, False))
        1
        """
        faces = [self._thumbs[k][::-1] if up else self._thumbs[k] for k, up in (first, second)]
        shown = mask > 0
        differ = (np.abs(faces[0] - faces[1]) > PAIR_DIFF) & shown
        if differ.sum() < PAIR_LEAST * part.size:
            return None
        residuals = []
        for face in faces:
            design = np.stack([face[shown], np.ones(int(shown.sum()), np.float32)], axis=1)
            (gain, offset), *_ = np.linalg.lstsq(design, part[shown].astype(np.float32), rcond=None)
            residuals.append(float(np.abs(part[differ] - (gain * face[differ] + offset)).mean()))
        if residuals[0] * PAIR_RATIO < residuals[1]:
            return 0
        if residuals[1] * PAIR_RATIO < residuals[0]:
            return 1
        return None

    def scores(self, part: Array, mask: Array) -> Array:
        """Correlation of ``part`` (a thumbnail) over ``mask`` (0/1) with each taught card:
        row 0 the card upright, row 1 the card turned half a turn.

        >>> faces = {"a": np.tile(np.arange(100, dtype=np.uint8), (140, 1)),
        ...          "b": np.tile(np.arange(140, dtype=np.uint8)[:, None], (1, 100))}
        >>> matcher = PartialMatcher({k: cv2.merge([v] * 3) for k, v in faces.items()})
        >>> half = np.zeros(THUMB_SIZE[::-1], np.float32); half[:, :20] = 1
        >>> matcher.scores(thumbnail(faces["a"]), half)[:, 0].round(2).tolist()
        [1.0, -1.0]
        """
        many: Array = self.scores_many(part.reshape(1, -1), mask.reshape(1, -1))[0]
        return many

    def scores_many(self, parts: Array, masks: Array) -> Array:
        """:meth:`scores` of many parts at once: ``parts`` and ``masks`` one flattened
        thumbnail a row; the result is parts x 2 orientations x cards.

        Compared :data:`BATCH` rows at a time: a product that small stays on one core
        (a BLAS library spreads larger ones over threads that mostly wait).
        """
        if len(parts) > BATCH:
            chunks = [
                self.scores_many(parts[start : start + BATCH], masks[start : start + BATCH])
                for start in range(0, len(parts), BATCH)
            ]
            joined: Array = np.concatenate(chunks)
            return joined
        count = len(parts)
        values = np.asarray(parts, np.float32)
        shown = np.asarray(masks, np.float32)
        values = np.concatenate([values, values[:, ::-1]])
        weights = np.concatenate([shown, shown[:, ::-1]]) * self._weights
        total = np.maximum(weights.sum(axis=1), 1e-6)
        centred = values - ((values * weights).sum(axis=1) / total)[:, None]
        floor = total * MIN_SPREAD**2
        spread = np.sqrt(np.maximum((centred * centred * weights).sum(axis=1), floor))
        means = (weights @ self._thumbs.T) / total[:, None]
        taught_spread = np.sqrt(
            np.maximum(weights @ self._squares.T - total[:, None] * means**2, floor[:, None])
        )
        both = ((centred * weights) @ self._thumbs.T) / (taught_spread * spread[:, None])
        result: Array = np.stack([both[:count], both[count:]], axis=1)
        return result


@dataclass(frozen=True)
class CardWhite:
    """A frame's "card white" (0/255, pinholes of noise closed) and the same with gaps up
    to :data:`BRIDGE_PIXELS` bridged, so each group of overlapping cards is one region."""

    white: Array
    bridged: Array

    @classmethod
    def of(cls, frame_bgr: Image) -> CardWhite:
        """The masks of ``frame_bgr``."""
        white = cv2.morphologyEx(
            card_white_mask(frame_bgr), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)
        )
        bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (BRIDGE_PIXELS, BRIDGE_PIXELS))
        return cls(white, cv2.morphologyEx(white, cv2.MORPH_CLOSE, bridge))

    def lies_alone(self, quad: Quad) -> bool:
        """Whether the card ``quad`` is a group of its own: the bridged region at its centre
        is not much larger than the card (:data:`ALONE_GROWTH`), so its outline is its own
        and not cut out of overlapping cards by a shadow line or a border."""
        centre = np.round(quad_centre(quad)).astype(int)
        height, width = self.bridged.shape[:2]
        if not (0 <= centre[0] < width and 0 <= centre[1] < height):
            return False
        if not self.bridged[centre[1], centre[0]]:
            return True
        flooded = self.bridged.copy()
        mask = np.zeros((height + 2, width + 2), np.uint8)
        area, *_ = cv2.floodFill(flooded, mask, (int(centre[0]), int(centre[1])), 128)
        card_area = cv2.contourArea(np.array(quad, np.float32))
        return bool(area <= ALONE_GROWTH * card_area)


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
    """Card outlines that fit ``corner``: each edge as the short side, at each width."""
    quads = []
    point = np.array(corner.point)
    first, second = (np.array(d) for d in corner.directions)
    for width in (size * step for size in widths for step in WIDTH_STEPS):
        short, long = width, width * CARD_ASPECT
        for along_first, along_second in ((short, long), (long, short)):
            a, b = point + first * along_first, point + second * along_second
            quads.append(_clockwise(point, a, a + b - point, b))
    return quads


def neighbours(quad: Quad) -> list[tuple[Quad, Array]]:
    """Where the card under a card read at ``quad`` may lie: the same card moved along
    either of its sides, each way, by :data:`NEIGHBOUR_STEPS` of that side, and scaled
    by :data:`NEIGHBOUR_SCALES` about the middle of its far side (a row, a column); each
    with that middle as its anchor."""
    corners = np.array(quad, np.float64)
    centre = corners.mean(axis=0)
    moved = []
    for first in (0, 1):
        edge = corners[first + 1] - corners[first]
        length = float(np.linalg.norm(edge))
        unit = edge / max(length, 1e-9)
        for sign in (1.0, -1.0):
            for step in NEIGHBOUR_STEPS:
                shift = sign * step * length * unit
                anchor = centre + shift + sign * 0.5 * length * unit
                for across, down in NEIGHBOUR_SCALES:
                    short = corners[1] - corners[0]
                    short /= max(float(np.linalg.norm(short)), 1e-9)
                    offsets = corners + shift - anchor
                    along = offsets @ short
                    placed = anchor + (
                        np.outer(along * across, short)
                        + (offsets - np.outer(along, short)) * down
                    )
                    moved.append((_as_quad(placed), anchor))
    return moved


def _clockwise(p: Array, a: Array, c: Array, b: Array) -> Quad:
    """The parallelogram p, a, c, b (c opposite p) as :func:`~vision.outline.order_quad`
    orders a quad: clockwise on the image, the first edge a short side.

    >>> _clockwise(*np.array([(0, 0), (0, 14), (10, 14), (10, 0)], float))
    ((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))
    """
    turn = (a[0] - p[0]) * (b[1] - p[1]) - (a[1] - p[1]) * (b[0] - p[0])
    ring = [p, a, c, b] if turn > 0 else [p, b, c, a]
    if np.linalg.norm(ring[1] - ring[0]) > np.linalg.norm(ring[2] - ring[1]):
        ring = ring[1:] + ring[:1]
    return _as_quad(np.array(ring))


def _thumb_warp(quad: Quad) -> Array:
    """The homography from the frame to the thumbnail of the face inside ``quad``."""
    width, height = FACE_SIZE
    inset_x, inset_y = round(width * INSET), round(height * INSET)
    scale_x = THUMB_SIZE[0] / (width - 2 * inset_x)
    scale_y = THUMB_SIZE[1] / (height - 2 * inset_y)
    inner = np.array(
        [[scale_x, 0.0, -inset_x * scale_x], [0.0, scale_y, -inset_y * scale_y], [0.0, 0.0, 1.0]]
    )
    face = cv2.getPerspectiveTransform(np.array(quad, np.float32), FACE_CORNERS)
    warp: Array = inner @ face
    return warp


def _blurred_grey(frame_bgr: Image, region: Array, sigma: float) -> Array:
    """The frame in grey, blurred by ``sigma`` pixels over ``region``'s bounding box only
    (so a face sampled from it at thumbnail size is smoothed as a taught one is)."""
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    x, y, width, height = cv2.boundingRect(region)
    pad = int(3 * sigma) + 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(grey.shape[1], x + width + pad), min(grey.shape[0], y + height + pad)
    box = grey[y0:y1, x0:x1]
    # The paper's own level (print dilated away, smoothed) divided out: light falling
    # unevenly or a glare patch does not change what the face looks like.
    size = 2 * round(sigma * FLAT_REACH) + 1
    paper = cv2.GaussianBlur(
        cv2.dilate(box, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))),
        (0, 0),
        sigma * FLAT_REACH,
    )
    flat = cv2.divide(box, np.maximum(paper, 1), scale=PAPER_LEVEL)
    grey[y0:y1, x0:x1] = cv2.GaussianBlur(flat, (0, 0), sigma)
    return np.asarray(grey)


class PartialReader:
    """Reads the taught cards of ``faces`` (canonical faces by id) from their visible parts."""

    def __init__(self, faces: Mapping[str, Image]) -> None:
        self.matcher = PartialMatcher(faces)

    def read(
        self,
        frame_bgr: Image,
        claimed: Sequence[Quad] = (),
        exclude: Sequence[str] = (),
        masks: CardWhite | None = None,
    ) -> list[PartialRead]:
        """Cards in the overlapped regions of the frame.

        ``claimed`` are outlines already accounted for (cards read whole): what they
        cover is not read again; ``exclude`` card ids already read elsewhere; ``masks``
        the frame's :class:`CardWhite` if already made.
        """
        height, width = frame_bgr.shape[:2]
        masks = CardWhite.of(frame_bgr) if masks is None else masks
        white = masks.white
        groups, _ = cv2.findContours(masks.bridged, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        taken = np.zeros((height, width), np.uint8)
        for quad in claimed:
            _claim(taken, quad, value=255)
        frame_area = width * height
        region = np.zeros((height, width), np.uint8)
        outer = []
        for group in groups:
            if MIN_AREA_FRACTION * frame_area <= cv2.contourArea(group) <= (
                MAX_GROUP_FRACTION * frame_area
            ):
                cv2.drawContours(region, [group], -1, 255, -1)
                outer.append(group)
        parts, _ = cv2.findContours(
            cv2.bitwise_and(white, cv2.bitwise_and(region, cv2.bitwise_not(taken))),
            cv2.RETR_EXTERNAL,
            cv2.CHAIN_APPROX_NONE,
        )
        pieces = []
        for part in parts:
            if cv2.contourArea(part) >= MIN_PART_FRACTION * frame_area:
                piece = np.zeros((height, width), np.uint8)
                cv2.drawContours(piece, [part], -1, 255, -1)
                pieces.append((piece, region_corners(part)))
        # The groups' own outlines run along the outer edges of the cards: clean corners
        # where ink or a shadow notches the white parts.
        pieces += [(region, region_corners(group)) for group in outer]
        return self._read_region(frame_bgr, pieces, region, taken, claimed, set(exclude))

    def verify(self, frame_bgr: Image, quad: Quad) -> _Scored | None:
        """How the matcher reads the card inside ``quad``, all of its face taken to show."""
        shown = np.zeros(frame_bgr.shape[:2], np.uint8)
        cv2.fillConvexPoly(shown, np.round(np.array(quad)).astype(np.int32), 255)
        grey = _blurred_grey(frame_bgr, shown, THUMB_BLUR * side(quad, 0) / FACE_SIZE[0])
        return self._score(grey, [(quad, (shown,))], set())[0]

    def _read_region(
        self,
        frame_bgr: Image,
        pieces: Sequence[tuple[Array, list[Corner]]],
        region: Array,
        taken: Array,
        claimed: Sequence[Quad],
        used: set[str],
    ) -> list[PartialRead]:
        known = [min(side(quad, 0), side(quad, 2)) for quad in claimed]
        widths = card_widths([corner for _, corners in pieces for corner in corners], known)
        if not widths:
            return []
        free = cv2.bitwise_and(region, cv2.bitwise_not(taken))
        grey = _blurred_grey(frame_bgr, region, THUMB_BLUR * widths[0] / FACE_SIZE[0])
        # A hypothesis may reach over the coloured border round a group (a celebrity
        # card's gold is not card white): it is tested against the group grown by a bridge.
        bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (BRIDGE_PIXELS, BRIDGE_PIXELS))
        reach = cv2.resize(
            cv2.dilate(region, bridge), None, fx=INSIDE_SCALE, fy=INSIDE_SCALE,
            interpolation=cv2.INTER_AREA,
        )
        candidates: list[_Candidate] = []
        seen: set[tuple[int, int, int, int]] = set()
        owns = []
        for piece, corners in pieces:
            # A group's own outline sees the whole unclaimed group: no mask of its own.
            own = None if piece is region else piece & free
            if own is not None:
                owns.append(own)
            for corner in corners:
                for quad in hypotheses(corner, widths):
                    key = _pose_key(quad)
                    if key not in seen:
                        seen.add(key)
                        candidates.append(_Candidate(quad, np.array(corner.point), own))

        def possible(fresh: list[_Candidate], around: Sequence[Quad]) -> list[_Candidate]:
            """``fresh`` and the :func:`neighbours` of each of ``around`` not seen before,
            less those reaching out of the group."""
            for quad in around:
                for moved, anchor in neighbours(quad):
                    key = _pose_key(moved)
                    if key not in seen:
                        seen.add(key)
                        fresh.append(_Candidate(moved, anchor, None))
            shares = _inside_shares([c.quad for c in fresh], reach, INSIDE_SCALE)
            return [c for c, share in zip(fresh, shares, strict=True) if share >= MIN_INSIDE]

        candidates = possible(candidates, claimed)
        reads: list[PartialRead] = []
        refinements = 0
        while candidates:
            stale = [
                c for c in candidates if c.scored is None or c.scored.card_id in used
            ]
            for candidate, scored in zip(
                stale,
                self._score(grey, [(c.quad, c.visible(free)) for c in stale], used),
                strict=True,
            ):
                candidate.scored = scored
            # One too hidden to score (or like no card left) stays so: the visible part
            # only shrinks as cards are read.
            candidates = [c for c in candidates if c.scored is not None]
            ranked = sorted(
                (
                    c
                    for c in candidates
                    if c.scored is not None and not c.tried and c.scored.score >= REFINE_FLOOR
                ),
                key=lambda c: _rank(c.scored) if c.scored is not None else (False, -1.0),
                reverse=True,
            )
            cached = [c.refined for c in candidates if c.refined is not None]
            best = max(
                (refined for refined in cached if _accepted(refined[1])),
                key=lambda refined: refined[1].score,
                default=None,
            )
            batch = 0
            for candidate in ranked:
                if refinements >= MAX_REFINEMENTS or (best is not None and batch == REFINED):
                    break
                refinements, batch = refinements + 1, batch + 1
                candidate.tried = True
                candidate.refined = self._refine(grey, free, candidate, used)
                refined = candidate.refined
                if _accepted(refined[1]) and (best is None or refined[1].score > best[1].score):
                    best = refined
            if best is None:
                break
            quad, scored = best
            oriented: Quad = (quad[2], quad[3], quad[0], quad[1]) if scored.turned else quad
            reads.append(
                PartialRead(
                    scored.card_id, oriented, scored.score, scored.runner_up, scored.visible
                )
            )
            used.add(scored.card_id)
            _claim(free, quad, value=0)
            for own in owns:
                _claim(own, quad, value=0)
            for candidate in candidates:
                if _overlap(candidate.quad, quad) or (
                    candidate.refined is not None and candidate.refined[1].card_id in used
                ):
                    candidate.scored, candidate.tried, candidate.refined = None, False, None
            candidates = [c for c in candidates if not _same_card(c.quad, quad)]
            candidates += possible([], [quad])
        return reads

    def _score(
        self, grey: Array, jobs: Sequence[tuple[Quad, Sequence[Array]]], used: set[str]
    ) -> list[_Scored | None]:
        """For each (quad, visible masks) of ``jobs``, the best untaken card for the face
        inside the quad of the blurred ``grey`` frame, over each of its masks (0/255: the
        unclaimed group; the unclaimed white part the hypothesis came from), all compared
        in one batch."""
        parts, masks, owners, shares, which = [], [], [], [], []
        for number, (quad, visible) in enumerate(jobs):
            warp = _thumb_warp(quad)
            part = cv2.warpPerspective(
                grey, warp, THUMB_SIZE, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
            for mask_number, shown in enumerate(visible):
                seen = cv2.warpPerspective(shown, warp, THUMB_SIZE, flags=cv2.INTER_LINEAR)
                weights = cv2.erode((seen >= 250).astype(np.float32), ERODE)
                share = float(weights.mean())
                if share >= MIN_VISIBLE:
                    parts.append(part.reshape(-1))
                    masks.append(weights.reshape(-1))
                    owners.append(number)
                    shares.append(share)
                    which.append(mask_number)
        best: list[_Scored | None] = [None] * len(jobs)
        if not parts:
            return best
        scores = self.matcher.scores_many(np.stack(parts), np.stack(masks))
        card_scores = scores.max(axis=1)
        untaken = card_scores.copy()
        taken = [k for k, card_id in enumerate(self.matcher.ids) if card_id in used]
        untaken[:, taken] = -np.inf
        chosen = untaken.argmax(axis=1)
        entries = np.arange(len(chosen))
        top = untaken[entries, chosen]
        others = card_scores.copy()
        others[entries, chosen] = -np.inf
        runners = others.max(axis=1) if others.shape[1] > 1 else np.full(len(chosen), -1.0)
        turned = scores[entries, 1, chosen] > scores[entries, 0, chosen]
        for entry, (number, share, mask_number) in enumerate(
            zip(owners, shares, which, strict=True)
        ):
            if not np.isfinite(top[entry]):
                continue
            found = _Scored(
                self.matcher.ids[int(chosen[entry])],
                float(top[entry]),
                float(runners[entry]),
                share,
                bool(turned[entry]),
                mask_number,
            )
            if share < WHOLE_SHARE and found.score >= ACCEPT_PART and not _accepted(found):
                found = self._decided(found, scores[entry], parts[entry], masks[entry], used)
            current = best[number]
            if current is None or _rank(found) > _rank(current):
                best[number] = found
        return best

    def _decided(
        self, found: _Scored, scores: Array, part: Array, mask: Array, used: set[str]
    ) -> _Scored:
        """``found`` (too close to the next best card to be read) judged against that card
        where the two faces differ (:meth:`PartialMatcher.decide`): the one it shows,
        marked decided, or ``found`` as it was."""
        card_scores = scores.max(axis=0)
        first = self.matcher.ids.index(found.card_id)
        rivals = card_scores.copy()
        rivals[first] = -np.inf
        second = int(rivals.argmax())
        pair = [(k, bool(scores[1, k] > scores[0, k])) for k in (first, second)]
        winner = self.matcher.decide(part, mask, pair[0], pair[1])
        if winner is None or (winner == 1 and self.matcher.ids[second] in used):
            return found
        index, turned = pair[winner]
        other = float(card_scores[pair[1 - winner][0]])
        return _Scored(
            self.matcher.ids[index], float(card_scores[index]), other, found.visible, turned,
            found.mask, decided=True,
        )

    def _refine(
        self, grey: Array, free: Array, candidate: _Candidate, used: set[str]
    ) -> tuple[Quad, _Scored]:
        """``candidate`` turned, scaled (about its anchor corner) and shifted: each round
        scores every small move at once and takes the best if it scores better; the
        moves halve when none does."""
        assert candidate.scored is not None
        quad, scored = candidate.quad, candidate.scored
        anchor = candidate.anchor
        reach = 1.0
        for done in range(REFINE_ROUNDS):
            if done == REFINE_PATIENCE and scored.score < REFINE_HOPE:
                break
            trials = []
            for turn, scale, dx, dy in REFINE_MOVES:
                angle = math.radians(turn * reach)
                rotation = np.array(
                    [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
                )
                factor = 1.0 + (scale - 1.0) * reach
                shift = np.array([dx, dy]) * reach * side(quad, 0) / 100.0
                moved = (np.array(quad) - anchor) @ rotation.T * factor + anchor + shift
                trials.append((_as_quad(moved), anchor + shift))
            shown = candidate.visible(free)[scored.mask]
            results = self._score(grey, [(trial, (shown,)) for trial, _ in trials], used)
            ranked = [(_rank(r), k) for k, r in enumerate(results) if r is not None]
            top = max(ranked, default=None)
            if top is not None and top[0] > _rank(scored):
                (quad, anchor), found = trials[top[1]], results[top[1]]
                assert found is not None
                scored = found
            else:
                reach /= 2.0
                if reach < 0.25:
                    break
        return quad, scored


@dataclass(frozen=True)
class _Scored:
    card_id: str
    score: float
    runner_up: float
    visible: float
    turned: bool
    mask: int
    decided: bool = False


@dataclass
class _Candidate:
    quad: Quad
    anchor: Array
    own: Array | None
    scored: _Scored | None = None
    tried: bool = False
    refined: tuple[Quad, _Scored] | None = None

    def visible(self, free: Array) -> tuple[Array, ...]:
        """The masks it is scored over: the unclaimed group, and the unclaimed white
        part it came from (if not the group itself)."""
        return (free,) if self.own is None else (free, self.own)


def _as_quad(points: Array) -> Quad:
    """Four (x, y) rows as a quad, in their order."""
    (a, b), (c, d), (e, f), (g, h) = (tuple(float(v) for v in row) for row in points)
    return ((a, b), (c, d), (e, f), (g, h))


def _rank(scored: _Scored) -> tuple[bool, float]:
    """How one scoring of a hypothesis compares with another: reported ones first."""
    return (_accepted(scored), scored.score)


def _accepted(scored: _Scored) -> bool:
    """Whether a scored hypothesis is reported at all."""
    if scored.visible >= WHOLE_SHARE:
        # A part more like a card read elsewhere is not read as another card.
        return scored.score >= ACCEPT_SCORE and scored.score > scored.runner_up
    return scored.score >= ACCEPT_PART and (
        scored.decided or scored.score - scored.runner_up >= ACCEPT_PART_MARGIN
    )


def _overlap(first: Quad, second: Quad) -> bool:
    """Whether the bounding boxes of two outlines meet."""
    (ax, ay), (bx, by) = zip(*first, strict=True), zip(*second, strict=True)
    return min(ax) <= max(bx) and min(bx) <= max(ax) and min(ay) <= max(by) and min(by) <= max(ay)


def _same_card(first: Quad, second: Quad) -> bool:
    """Whether two outlines are one card (centres within a fifth of its width)."""
    return math.dist(quad_centre(first), quad_centre(second)) < 0.2 * side(first, 0)


def _pose_key(quad: Quad) -> tuple[int, int, int, int]:
    """A coarse key of an outline's centre (4 px), direction of its short side (4
    degrees, either way round) and width (5 %): hypotheses with one key are one."""
    (x0, y0), (x1, y1) = quad[0], quad[1]
    cx, cy = quad_centre(quad)
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 180.0
    return (
        round(cx / 4),
        round(cy / 4),
        round(angle / 4) % 45,
        round(math.log(side(quad, 0)) / 0.05),
    )


def _claim(mask: Array, quad: Quad, value: int = 1) -> None:
    """Mark ``quad``, grown by :data:`CLAIM_GROWTH` about its centre, in ``mask``."""
    corners = np.array(quad)
    middle = corners.mean(axis=0)
    grown = middle + (corners - middle) * CLAIM_GROWTH
    cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), value)


def _inside_shares(quads: Sequence[Quad], region: Array, scale: float) -> Array:
    """How much of each of ``quads`` lies on ``region`` (a 0/255 mask, ``scale`` times
    the frame's size; off the frame is outside), from a grid of points inside each.

    >>> region = np.zeros((10, 10), np.uint8); region[:, :5] = 255
    >>> _inside_shares([((0, 0), (10, 0), (10, 10), (0, 10))], region, 1.0).tolist()
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


def observation(read: PartialRead) -> CardObservation:
    """A partial read as the observation the table loop takes."""
    return CardObservation(
        card=read.card_id,
        center=quad_centre(read.quad),
        index=face_point(read.quad, INDEX_FRACTION),
        confidence=max(0.0, min(1.0, read.score)),
        corners=read.quad,
        unsure=read.unsure,
    )


class OverlapRecognizer:
    """Taught cards whole (as :class:`~vision.profile.ProfileRecognizer` reads them, unchanged)
    and then, in what is left, from the parts that show.

    >>> from vision.profile import DeckProfile
    >>> face = np.full((140, 100, 3), 240, np.uint8); face[40:90, 30:70] = 20
    >>> recognizer = OverlapRecognizer(DeckProfile("demo", {"a": face}))
    >>> recognizer.recognize(np.zeros((360, 640, 3), np.uint8))
    []
    """

    def __init__(self, profile: DeckProfile, *, threshold: float = DEFAULT_THRESHOLD) -> None:
        self.whole = ProfileRecognizer(profile, threshold=threshold)
        self.partial = PartialReader(profile.faces)

    def _stands(
        self, frame_bgr: Image, masks: CardWhite, card: CardObservation, quad: Quad
    ) -> bool:
        """Whether a whole read stands: from :data:`LONE_SCORE` for a card lying alone,
        else only if the partial matcher, over the whole outline, reads the same card."""
        if masks.lies_alone(quad):
            return card.confidence >= LONE_SCORE
        check = self.partial.verify(frame_bgr, quad)
        return check is not None and check.card_id == card.card and _accepted(check)

    def recognize(self, frame_bgr: Image) -> list[CardObservation]:
        """Every taught card in the frame, whole ones first; one read per card id."""
        masks = CardWhite.of(frame_bgr)
        # An outline among other cards may be a covered card's white cut out by the card
        # over it (or two cards making a quadrilateral): its whole read stands only if it
        # scores well, else the partial reader reads it; no outline is claimed unread.
        whole = [
            (card, _as_quad(np.array(card.corners)))
            for card in self.whole.recognize(frame_bgr)
            if card.corners is not None
        ]
        kept = [(card, quad) for card, quad in whole if self._stands(frame_bgr, masks, card, quad)]
        reads = self.partial.read(
            frame_bgr,
            claimed=[quad for _, quad in kept],
            exclude=[card.card for card, _ in kept],
            masks=masks,
        )
        return [card for card, _ in kept] + [observation(read) for read in reads]
