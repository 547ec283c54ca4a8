"""Whole-card outlines: quadrilaterals of cards whose four edges are visible.

A card face is the brightest, least coloured thing on an ordinary table, so the
frame is split into "card white" and the rest (Otsu on the per-pixel minimum of
B, G and R, which is low for wood, cork, cloth and coloured ink alike). Each
white region whose contour simplifies to four corners with a card's proportions
is an outline. Overlapping cards merge into one region and are not reported
here; the corner index reader (:mod:`vision.cards`) handles those.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from vision.light import brightest_channel, darkest_channel

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]

#: Card long side over short side (poker 88/63 = 1.40, bridge 88/56 = 1.57).
CARD_ASPECT = 1.4
#: Accepted aspect range: a camera looking down at an angle foreshortens cards until they
#: look square (a webcam at the table edge), and narrow bridge cards seen straight are 1.6.
ASPECT_RANGE = (1.0, 1.85)
#: The longest aspect the card reader accepts: a card lying across the view of a tilted
#: camera looks longer than it is (a poker card foreshortened to 0.6 is 2.33; the felt
#: webcam's sideways cards are 1.86-2.07). A cascade of overlapping cards looks the same,
#: so such an outline is a card only while the reads inside it agree
#: (:func:`vision.one_per_card.cards_of`).
OBLIQUE_ASPECT = 2.3
#: Smallest card area as a fraction of the frame.
MIN_AREA_FRACTION = 0.002
#: A card-white region up to this share of the frame that is not card-shaped gets a second
#: look at a level of its own (:func:`brighter_outlines`): with a camera that sees the
#: whole table a small card touching a patch of glare on the wood merges with it at the
#: frame's level.
SECOND_LOOK_SHARE = 0.02
#: ... kept only where what it parts from is this much more coloured (max less min channel,
#: mean) than the card: glare on wood is the table's colour made bright, while a card's own
#: shade (a shadow across it) is as grey as the card.
SECOND_LOOK_COLOUR = 10.0
#: Pixels around such a region that its second look takes in.
SECOND_LOOK_MARGIN = 4
#: A card-white region larger than this share of the frame is no card but the table: a
#: white or pale table, on which cards are looked for by their edges too.
TABLE_SHARE = 0.6
#: Canny thresholds for card edges on a pale table (blurred darkest channel), and the gap
#: (pixels) in an edge that is closed before the regions it encloses are taken.
EDGE_LEVELS = (8, 24)
EDGE_GAP = 3
#: The edge search looks only this many pixels beyond the card white not yet outlined (an
#: outline it adds is at least ``EDGE_WHITE`` card white, and the card white of a card
#: already outlined holds no other: on felt most of the frame's edges are the cloth's) ...
EDGE_REACH = 24
#: ... an outlined card's white taken as this many times its quad, about its centre (the
#: quad lies a few pixels inside the rounded corners).
OUTLINED_GROWTH = 1.15
#: An edge-found outline must be card white (the white mask) for at least this share: a
#: card on a pale table is, dark cloth framed by edges is not.
EDGE_WHITE = 0.5
#: A hole in a table-sized card-white region larger than this share of the frame is a cloth
#: lying on a white table (the felt webcam's cloth is 0.40-0.73 of the frame; the holes in
#: the pale synthetic tables are under 0.01): the edge search then looks inside the cloth
#: only (its convex hull, which takes in glare that joins the cloth to the table round it),
#: not on the textured white table, whose edge map is thousands of specks.
CLOTH_SHARE = 0.2
#: White narrower than this (pixels) inside a cloth's hull is left out of the edge search:
#: the table's rim where the cloth's edge bows inwards (a card is wider).
CLOTH_SLIVER = 15
#: Pixels round each part of the edge search that its crop takes in (Canny's and the gap
#: closing's reach: the darkest channel is black beyond the part).
EDGE_MARGIN = 4


def card_white_mask(frame_bgr: np.ndarray, darkest: np.ndarray | None = None) -> np.ndarray:
    """A 0/255 mask of pixels bright and colourless enough to be card face (``darkest``: the
    frame's darkest channel if already at hand)."""
    darkest = darkest_channel(frame_bgr) if darkest is None else darkest
    return white_of(cv2.GaussianBlur(darkest, (5, 5), 0))


def white_of(blurred: np.ndarray) -> np.ndarray:
    """The 0/255 card-white mask of the darkest channel ``blurred`` 5 x 5 (Gaussian): Otsu's
    level, never under 110."""
    level, mask = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if level < 110.0:
        _, mask = cv2.threshold(blurred, 110.0, 255, cv2.THRESH_BINARY)
    return np.asarray(mask)


def order_quad(points: np.ndarray) -> Quad:
    """Four corners clockwise (in image coordinates), starting so the first edge is a short side.

    >>> order_quad(np.array([[0, 0], [0, 14], [10, 14], [10, 0]]))
    ((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))
    """
    # Sums and lengths of four points in plain Python (numpy's per-call cost was most of
    # the work); the angles by numpy's arctan2, so exact ties fall as they always did.
    corners = points.reshape(4, 2).astype(np.float64)
    xs, ys = corners.T.tolist()
    centre_x = (((xs[0] + xs[1]) + xs[2]) + xs[3]) / 4
    centre_y = (((ys[0] + ys[1]) + ys[2]) + ys[3]) / 4
    angles = np.arctan2(corners[:, 1] - centre_y, corners[:, 0] - centre_x)
    pts = [(xs[n], ys[n]) for n in np.argsort(angles).tolist()]
    if edge_length(pts[0], pts[1]) > edge_length(pts[1], pts[2]):
        pts = pts[1:] + pts[:1]
    p0, p1, p2, p3 = pts
    return (p0, p1, p2, p3)


def edge_length(start: Point, end: Point) -> float:
    """The distance from ``start`` to ``end`` (as ``np.linalg.norm`` of their difference).

    >>> edge_length((1.0, 2.0), (4.0, 6.0))
    5.0
    """
    dx, dy = end[0] - start[0], end[1] - start[1]
    return math.sqrt(dx * dx + dy * dy)


def side(quad: Quad, first: int) -> float:
    """Length of the edge from corner ``first`` to the next one."""
    (x0, y0), (x1, y1) = quad[first], quad[(first + 1) % 4]
    return float(np.hypot(x1 - x0, y1 - y0))


def touches_border(quad: Quad, width: int, height: int, margin: float = 3.0) -> bool:
    """Whether a corner lies on the frame edge (the card may run off the frame)."""
    return any(
        x < margin or y < margin or x > width - 1 - margin or y > height - 1 - margin
        for x, y in quad
    )


def closed_white_mask(frame_bgr: np.ndarray, darkest: np.ndarray | None = None) -> np.ndarray:
    """The frame's card white (:func:`card_white_mask`) with gaps up to 5 px closed: print
    and rounded corners do not cut a card's white apart."""
    return closed_gaps(card_white_mask(frame_bgr, darkest))


def closed_gaps(mask: np.ndarray) -> np.ndarray:
    """The 0/255 ``mask`` with gaps up to 5 px closed."""
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))


def find_card_outlines(
    frame_bgr: np.ndarray, darkest: np.ndarray | None = None, longest: float = ASPECT_RANGE[1]
) -> list[Quad]:
    """The outlines of :func:`outlines_and_cloths`."""
    return outlines_and_cloths(frame_bgr, darkest, longest)[0]


def outlines_and_cloths(
    frame_bgr: np.ndarray, darkest: np.ndarray | None = None, longest: float = ASPECT_RANGE[1]
) -> tuple[list[Quad], list[np.ndarray]]:
    """Outlines of the cards in ``frame_bgr`` that lie apart from other white things
    (``darkest``: the frame's darkest channel if already at hand), of long side over short
    side from 1 to ``longest``.

    Each quad is four (x, y) corners clockwise in image coordinates; the edge from
    the first to the second corner is a short side, so
    ``cv2.getPerspectiveTransform`` onto ``[(0, 0), (w, 0), (w, h), (0, h)]``
    with ``h > w`` gives the card upright or upside down (which of the two is
    for the caller to settle, e.g. from the index).

    On a white or pale table (a "card white" region larger than ``TABLE_SHARE`` of the
    frame: the table itself) the cards are also looked for by their edges
    (:func:`edge_outlines`). Also given: the four-sided hulls of the cloths lying on such a
    table (:class:`Shapes`), where the cards are.
    """
    darkest = darkest_channel(frame_bgr) if darkest is None else darkest
    # The blurred darkest channel is both the white mask's and the edge search's.
    blurred = cv2.GaussianBlur(darkest, (5, 5), 0)
    mask = closed_gaps(white_of(blurred))
    shapes = shapes_in(mask, longest)
    outlines = shapes.outlines + brighter_outlines(
        frame_bgr, darkest, mask, shapes.misshapen, longest
    )
    if shapes.table:
        within = unoutlined_white(mask, outlines, shapes.cloths)
        outlines += [
            quad
            for quad in edge_outlines_in_parts(blurred, within, longest)
            if white_share(mask, quad) >= EDGE_WHITE
            and not centred_in_any(quad, outlines)
        ]
    return outlines, shapes.cloths


def white_share(mask: np.ndarray, quad: Quad) -> float:
    """The share of the pixels inside ``quad`` that the 0/255 ``mask`` marks.

    >>> mask = np.zeros((20, 20), np.uint8)
    >>> mask[:, :10] = 255
    >>> white_share(mask, ((0.0, 0.0), (19.0, 0.0), (19.0, 19.0), (0.0, 19.0)))
    0.5
    """
    corners = np.round(np.array(quad)).astype(np.int32)
    x, y, width, height = cv2.boundingRect(corners)
    area = mask[y : y + height, x : x + width]
    chosen = np.zeros(area.shape, np.uint8)
    cv2.fillConvexPoly(chosen, corners - (x, y), 255)
    covered = int(np.count_nonzero(chosen))
    return int(np.count_nonzero(cv2.bitwise_and(area, chosen))) / max(1, covered)


def grown_quads(
    quads: Sequence[Quad], factor: float, origin: tuple[int, int] = (0, 0)
) -> list[np.ndarray]:
    """``quads`` grown ``factor`` times about their centres (a quad lies a few pixels inside
    a card's rounded corners), as integer polygons relative to ``origin``."""
    corners = np.array(quads, np.float64).reshape(-1, 4, 2)
    centres = corners.mean(axis=1, keepdims=True)
    grown = centres + factor * (corners - centres) - np.array(origin, np.float64)
    return list(np.round(grown).astype(np.int32))


def unoutlined_white(
    mask: np.ndarray, outlines: Sequence[Quad], cloths: Sequence[np.ndarray] = ()
) -> np.ndarray:
    """The 0/255 card-white ``mask`` less the cards of ``outlines`` (each quad grown by
    ``OUTLINED_GROWTH``), grown by ``EDGE_REACH`` pixels: where the edge search looks. Given
    ``cloths`` (convex hulls of cloths on a white table, :func:`shapes_in`), only inside them,
    the white there narrower than ``CLOTH_SLIVER`` left out."""
    rest = mask.copy()
    for polygon in grown_quads(outlines, OUTLINED_GROWTH):
        cv2.fillConvexPoly(rest, polygon, 0)
    reach = np.ones((2 * EDGE_REACH + 1, 2 * EDGE_REACH + 1), np.uint8)
    if not cloths:
        return np.asarray(cv2.dilate(rest, reach))
    inside = np.zeros_like(mask)
    cv2.fillPoly(inside, list(cloths), 255)
    sliver = np.ones((CLOTH_SLIVER, CLOTH_SLIVER), np.uint8)
    rest = cv2.morphologyEx(cv2.bitwise_and(rest, inside), cv2.MORPH_OPEN, sliver)
    if not cv2.countNonZero(rest):
        return np.asarray(rest)
    return np.asarray(cv2.bitwise_and(cv2.dilate(rest, reach), inside))


def edge_outlines_in_parts(
    blurred: np.ndarray, within: np.ndarray, longest: float = ASPECT_RANGE[1]
) -> list[Quad]:
    """:func:`edge_outlines` of each connected part of the 0/255 search mask ``within`` on
    its own (the part's outer boundary filled, so with any part inside its holes), in a crop
    round it (``EDGE_MARGIN``): the search costs what the parts' boxes hold, not the frame."""
    height, width = within.shape
    parts, _ = cv2.findContours(within, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found: list[Quad] = []
    for part in parts:
        x, y, w, h = cv2.boundingRect(part)
        x0, y0 = max(0, x - EDGE_MARGIN), max(0, y - EDGE_MARGIN)
        x1, y1 = min(width, x + w + EDGE_MARGIN), min(height, y + h + EDGE_MARGIN)
        own = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(own, [part], 0, 255, cv2.FILLED, offset=(-x0, -y0))
        own = cv2.bitwise_and(own, within[y0:y1, x0:x1])
        quads = edge_outlines(blurred[y0:y1, x0:x1], longest, own, height * width)
        found += [shifted(quad, x0, y0) for quad in quads]
    return found


def shifted(quad: Quad, dx: float, dy: float) -> Quad:
    """``quad`` moved by (``dx``, ``dy``).

    >>> shifted(((0.0, 0.0), (1.0, 0.0), (1.0, 2.0), (0.0, 2.0)), 10, 20)
    ((10.0, 20.0), (11.0, 20.0), (11.0, 22.0), (10.0, 22.0))
    """
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    return ((x0 + dx, y0 + dy), (x1 + dx, y1 + dy), (x2 + dx, y2 + dy), (x3 + dx, y3 + dy))


def edge_outlines(
    blurred: np.ndarray,
    longest: float = ASPECT_RANGE[1],
    within: np.ndarray | None = None,
    frame_area: int | None = None,
) -> list[Quad]:
    """Outlines of cards on a table as white as they are: the regions that the frame's edges
    (Canny on ``blurred``, the darkest channel blurred 5 x 5, ``EDGE_LEVELS``, closed by
    ``EDGE_GAP`` pixels) enclose, where they are card-shaped quadrilaterals; ``within``: a
    0/255 mask of where to look (the darkest channel is taken as black elsewhere);
    ``frame_area``: the whole frame's, when ``blurred`` is a crop of it."""
    frame_area = blurred.size if frame_area is None else frame_area
    if within is not None:
        blurred = cv2.bitwise_and(blurred, within)
    edges = cv2.Canny(blurred, *EDGE_LEVELS)
    edges = cv2.dilate(edges, np.ones((EDGE_GAP, EDGE_GAP), np.uint8))
    regions = cv2.bitwise_not(edges)
    if within is not None:
        regions = cv2.bitwise_and(regions, within)
    regions = without_specks(regions, MIN_AREA_FRACTION * frame_area)
    return shapes_in(regions, longest, frame_area).outlines


def without_specks(mask: np.ndarray, smallest: float) -> np.ndarray:
    """The 0/255 ``mask`` less its regions (8-connected) whose bounding box spans under
    ``smallest`` pixels. None of them can enclose that much, and every other region keeps
    its outer boundary to the pixel (a speck touches no other region, or it would be part
    of it): what :func:`quads_in` finds of at least ``smallest`` pixels stays the same. The
    edge map of felt has thousands of specks, which ``findContours`` would trace one by one.

    >>> mask = np.zeros((30, 30), np.uint8)
    >>> mask[2:4, 2:4] = mask[10:20, 5:25] = 255
    >>> cleaned = without_specks(mask, 20)
    >>> int(cleaned[3, 3]), int(cleaned[15, 15])
    (0, 255)
    """
    # Grana's labelling: the same regions as the default's, in half the time on felt.
    _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    spans = stats[:, cv2.CC_STAT_WIDTH] * stats[:, cv2.CC_STAT_HEIGHT]
    kept = np.where(spans >= smallest, 255, 0).astype(np.uint8)
    kept[0] = 0
    return np.asarray(np.take(kept, np.asarray(labels, np.int32)))


def quads_in(mask: np.ndarray, longest: float = ASPECT_RANGE[1]) -> tuple[list[Quad], bool]:
    """The card-shaped quadrilaterals (:func:`aspect` from 1 to ``longest``) among the
    regions of the 0/255 ``mask`` (outer boundaries of every region, also of islands inside
    another region's holes: cards on a cloth that lies on a white table), and whether a
    region covers more than ``TABLE_SHARE`` of the frame (the table itself)."""
    shapes = shapes_in(mask, longest)
    return shapes.outlines, shapes.table


Box = tuple[int, int, int, int]


class Shapes(NamedTuple):
    """The regions of a card-white mask (:func:`shapes_in`): the card-shaped ``outlines``;
    whether one region is a ``table`` (over ``TABLE_SHARE`` of the frame); the boxes (x, y,
    width, height) of the ``misshapen`` regions up to ``SECOND_LOOK_SHARE`` of the frame
    (off the mask's edge: a card the frame cuts has no whole outline); the convex hulls of
    the ``cloths`` in a table's holes (over ``CLOTH_SHARE`` of the frame)."""

    outlines: list[Quad]
    table: bool
    misshapen: list[Box]
    cloths: list[np.ndarray]


def shapes_in(
    mask: np.ndarray, longest: float = ASPECT_RANGE[1], frame_area: int | None = None
) -> Shapes:
    """The :class:`Shapes` of the 0/255 ``mask``'s regions, of aspect 1 to ``longest``.
    ``frame_area``: the whole frame's, when ``mask`` is a part of it (the mask's own by
    default)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    height, width = mask.shape
    frame_area = height * width if frame_area is None else frame_area
    outlines: list[Quad] = []
    misshapen: list[Box] = []
    tables: list[int] = []
    # Outer boundaries only: the holes (a card's print) have a parent.
    outer = [] if hierarchy is None else np.flatnonzero(hierarchy[0][:, 3] < 0).tolist()
    for number in outer:
        contour = contours[number]
        area = cv2.contourArea(contour)
        if area > TABLE_SHARE * frame_area:
            tables.append(number)
        if area < MIN_AREA_FRACTION * frame_area or area > TABLE_SHARE * frame_area:
            continue
        quad = card_shaped(contour, area, width, height, longest)
        if quad is not None:
            outlines.append(quad)
        elif area <= SECOND_LOOK_SHARE * frame_area:
            x, y, w, h = cv2.boundingRect(contour)
            if x > 0 and y > 0 and x + w < width and y + h < height:
                misshapen.append((x, y, w, h))
    cloths = [] if not tables else [
        cv2.approxPolyN(contours[number], 4, ensure_convex=True).reshape(-1, 1, 2)
        for number in np.flatnonzero(np.isin(hierarchy[0][:, 3], tables)).tolist()
        if cv2.contourArea(contours[number]) > CLOTH_SHARE * frame_area
    ]
    return Shapes(outlines, bool(tables), misshapen, cloths)


def card_shaped(
    contour: np.ndarray, area: float, width: int, height: int, longest: float
) -> Quad | None:
    """The quadrilateral of a region's ``contour`` (of ``area``, in a mask ``width`` x
    ``height``) if it is a whole card's: convex, four corners, off the mask's edge, of
    aspect 1 to ``longest``; else None."""
    hull = cv2.convexHull(contour)
    if area < 0.9 * cv2.contourArea(hull):
        return None
    corners = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
    if len(corners) != 4:
        return None
    quad = order_quad(corners)
    if touches_border(quad, width, height):
        return None
    if area < 0.9 * cv2.contourArea(np.array(quad, np.float32)):
        return None
    return quad if ASPECT_RANGE[0] <= aspect(quad) <= longest else None


def brighter_outlines(
    frame_bgr: np.ndarray,
    darkest: np.ndarray,
    white: np.ndarray,
    boxes: Sequence[Box],
    longest: float = ASPECT_RANGE[1],
) -> list[Quad]:
    """Card outlines in the ``boxes`` (x, y, width, height) of misshapen regions of the
    frame's card ``white`` (0/255), each split again at the Otsu level of its own pixels of
    the ``darkest`` channel (a card is whiter than the glare it merged with at the frame's
    level), where the part split off is more coloured in ``frame_bgr`` than the rest
    (``SECOND_LOOK_COLOUR``)."""
    frame_height, frame_width = darkest.shape
    found: list[Quad] = []
    for x, y, w, h in boxes:
        x0, y0 = max(0, x - SECOND_LOOK_MARGIN), max(0, y - SECOND_LOOK_MARGIN)
        x1 = min(frame_width, x + w + SECOND_LOOK_MARGIN)
        y1 = min(frame_height, y + h + SECOND_LOOK_MARGIN)
        blurred = cv2.GaussianBlur(darkest[y0:y1, x0:x1], (5, 5), 0)
        region = white[y0:y1, x0:x1] > 0
        level, _ = cv2.threshold(
            blurred[region].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
        )
        _, mask = cv2.threshold(blurred, level, 255, cv2.THRESH_BINARY)
        # Max less min channel (numpy's reductions over the 3 channels of a crop of the
        # frame took 1.5 ms a region).
        colour = cv2.subtract(brightest_channel(frame_bgr[y0:y1, x0:x1]), darkest[y0:y1, x0:x1])
        brighter = mask > 0
        parted = region & ~brighter
        if not parted.any() or not brighter.any():
            continue
        if colour[parted].mean() < colour[brighter].mean() + SECOND_LOOK_COLOUR:
            continue
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        quads = shapes_in(mask, longest, frame_width * frame_height).outlines
        found += [shifted(quad, x0, y0) for quad in quads]
    return found


def aspect(quad: Quad) -> float:
    """Long sides over short sides of a quad ordered by :func:`order_quad`.

    >>> aspect(((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0)))
    1.4
    """
    return (side(quad, 1) + side(quad, 3)) / max(side(quad, 0) + side(quad, 2), 1e-6)


def inside_quad(point: tuple[float, float], quad: Quad) -> bool:
    """Whether ``point`` lies inside the outline ``quad`` (or on it). A point over a pixel
    outside the quad's bounding box is not (most points asked about, at a twentieth of the
    cost of the polygon test; the pixel spares the test's rounding to float32).

    >>> quad = ((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))
    >>> [inside_quad(point, quad) for point in ((5.0, 5.0), (10.0, 3.0), (10.5, 3.0), (30.0, 3.0))]
    [True, True, False, False]
    """
    x, y = point
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    if (
        x < min(x0, x1, x2, x3) - 1
        or x > max(x0, x1, x2, x3) + 1
        or y < min(y0, y1, y2, y3) - 1
        or y > max(y0, y1, y2, y3) + 1
    ):
        return False
    return cv2.pointPolygonTest(np.array(quad, np.float32), point, False) >= 0


def quad_centre(quad: Quad) -> tuple[float, float]:
    """The mean of the four corners of ``quad``."""
    xs, ys = zip(*quad, strict=True)
    return (sum(xs) / 4.0, sum(ys) / 4.0)


def centred_in_any(quad: Quad, outlines: Sequence[Quad]) -> bool:
    """Whether the centre of ``quad`` lies in one of ``outlines`` (the same card found again)."""
    return any(inside_quad(quad_centre(quad), other) for other in outlines)


#: A hard shadow is looked for on every ``SHADE_CELL``-th pixel each way: white that only
#: the local light shows (under the frame's white level, over the local one), gaps of a
#: cell closed, in a part of a card's size (``SHADED_CARD`` times the frame's median
#: outline, or the smallest card, ``MIN_AREA_FRACTION``, without one), filling at least
#: ``SHADED_FILL`` of its box, which is at most ``SHADED_ASPECT`` long: a card in the shade.
#: (The felt photos' own shade, on the white table round the cloth, gives parts of the
#: table's shape: thin, long or larger; a shadow band over them, cards at 0.7-1.4, 0.8-1.0
#: of their boxes.)
SHADE_CELL = 8
SHADED_CARD = (0.6, 2.0)
SHADED_FILL = 0.75
SHADED_ASPECT = 2.0


def in_hard_shadow(
    darkest: np.ndarray, white: np.ndarray, level: float, outlines: Sequence[Quad]
) -> bool:
    """Whether a whole card seems to lie in a hard shadow (see ``SHADE_CELL``): the
    ``darkest`` channel over the local white level ``white`` (:func:`vision.light.local_light`)
    but not over the frame's ``level``, in a card-shaped part the size of ``outlines``."""
    height, width = darkest.shape
    size = (width // SHADE_CELL, height // SHADE_CELL)
    sampled = cv2.resize(darkest, size, interpolation=cv2.INTER_NEAREST)
    local = cv2.resize(white, size, interpolation=cv2.INTER_NEAREST)
    _, unlit = cv2.threshold(sampled, level, 255, cv2.THRESH_BINARY_INV)
    shaded = cv2.bitwise_and(cv2.compare(sampled, local, cv2.CMP_GT), unlit)
    closed = cv2.morphologyEx(shaded, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        closed, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    card = (
        float(np.median(quad_areas(outlines))) if outlines else MIN_AREA_FRACTION * height * width
    ) / SHADE_CELL**2
    _, _, box_w, box_h, area = stats[1:count].T.astype(np.float64)
    return bool(
        (
            (area >= SHADED_CARD[0] * card)
            & (area <= SHADED_CARD[1] * card)
            & (area >= SHADED_FILL * box_w * box_h)
            & (np.maximum(box_w, box_h) <= SHADED_ASPECT * np.minimum(box_w, box_h))
        ).any()
    )


def quad_areas(quads: Sequence[Quad]) -> np.ndarray:
    """The areas of ``quads`` (the shoelace formula, all at once).

    >>> quad_areas([((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))]).tolist()
    [140.0]
    """
    corners = np.array(quads, np.float64).reshape(-1, 4, 2)
    xs, ys = corners[:, :, 0], corners[:, :, 1]
    cross = xs * np.roll(ys, -1, axis=1) - np.roll(xs, -1, axis=1) * ys
    return np.asarray(np.abs(cross.sum(axis=1)) / 2)


def shaded_outlines(
    darkest: np.ndarray, white: np.ndarray, outlines: Sequence[Quad], longest: float
) -> list[Quad]:
    """Outlines of cards in a shadow: the card-shaped regions (aspect 1 to ``longest``)
    where the ``darkest`` channel, blurred 5 x 5, is over the local white level ``white``
    (:func:`vision.light.local_light`: it drops in the shade), that neither lie in one of
    ``outlines`` nor hold one. At the frame's one level a card in a hard shadow is no card
    white, and one that the shadow's edge crosses is cut in two."""
    blurred = cv2.GaussianBlur(darkest, (5, 5), 0)
    mask = closed_gaps(cv2.compare(blurred, white, cv2.CMP_GT))
    centres = [quad_centre(quad) for quad in outlines]
    return [
        quad
        for quad in shapes_in(mask, longest).outlines
        if not centred_in_any(quad, outlines)
        and not any(inside_quad(centre, quad) for centre in centres)
    ]
