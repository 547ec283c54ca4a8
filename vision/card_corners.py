"""The card-corner stage of the card reader: each whole card's corners warped upright,
read there.

The index corners (top left and bottom right) of a card whose edges show
(:mod:`vision.outline`) are warped by the card's one homography to boxes of a card of
``CARD_SIZE``, so its corner indices are of one size and upright, whatever the camera's
distance and tilt (a sideways card seen foreshortened is straightened too); the rest of
the card is never warped. The corners of all the frame's cards, side by side in one strip,
pass the candidate finder once (only pairs standing upright in one corner box,
:func:`upright_in_corner`) and the glyph model once; the cards read there with common
(not jumbo) indices are read again at all four corners, in a second strip. A card whose
corners name one card, at least once ``SETTLED`` confidently, is *settled*: the frame's own
candidate search and the closer look leave it out (``left_out`` of
:func:`vision.index_reader.index_candidates`). A blurred frame, which leaves many cards
not settled, has those read again with ink of a wider window and a lower contrast
(``SOFT_INK``). Cards not settled, and everything that is no whole card (overlapping fans,
as in the deals), are read as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from vision.closer_look import JUMBO_READ, SHARP_GLYPH
from vision.glyph_reads import IndexRead, read_glyphs
from vision.glyphs import GlyphModel
from vision.index_reader import (
    CARD_PER_GLYPH,
    ENLARGED_INK_BLOCK,
    GLYPH_PIXELS,
    IndexCandidate,
    candidates_at_scale,
)
from vision.light import INK_CONTRAST
from vision.outline import ASPECT_RANGE, Quad, aspect, side

#: The warped card (width, height), about a poker card's 63 x 88 mm: its common corner
#: index (1/11.5 of the card's height) is then 24 px, a jumbo index (the felt webcam deck's,
#: 1.86 times) 45 px. (At 140 x 196 the blurred felt photos read better, but the far
#: synthetic cards worse: 55-80 cm 99.3 -> 98.6 % with a 9s read wrong, the whole table at
#: 1080p 96.9 -> 95.3 %.)
CARD_SIZE = (200, 280)
#: A corner's index lies within this share of the warped card's width and height from the
#: corner (the felt webcam deck's jumbo index reaches 0.36 of the height).
CORNER_BOX = (0.3, 0.4)
#: A corner's box, (width, height) in warped pixels.
BOX_SIZE = (int(CORNER_BOX[0] * CARD_SIZE[0]), int(CORNER_BOX[1] * CARD_SIZE[1]))
#: Longest ink blob (warped pixels) a corner's glyph may be: a jumbo index's "10" and more.
LONGEST_GLYPH = int(0.23 * CARD_SIZE[1])
#: Pixels of paper colour between two corner boxes in the strip (pairs across two boxes
#: are dropped, :func:`upright_in_corner`).
GUTTER = 8
#: A corner index stands along the warped card's long side: its suit lies under its rank
#: within this slope (across over along; 0.7 is 35 degrees, room for an outline's error).
UPRIGHT_SLANT = 0.7
#: The paper colour is measured on every ``PAPER_STEP``-th pixel each way.
PAPER_STEP = 6
#: A frame with fewer whole cards than this is read as before: the stage's fixed cost
#: (about 3 ms: the candidate finder and the glyph model once) is more than what it saves
#: the frame's own search on a card or two (a deal's cascade outline settled nothing).
FEW_CARDS = 3
#: A card read at least this confidently at a corner, and not named otherwise there, is settled.
SETTLED = 0.9
#: An outline of a smaller aspect (long sides over short sides) than this shows no short
#: side: a card foreshortened until it looks square (surface4's 9c: 1.04, its warp stood it
#: on its long side, unread, and its corners cost the closer look 17 of its 26 ms).
SQUARE_ASPECT = 1.2
#: Ink in the strip: the window (pixels) its mean is taken over and the contrast under it.
Ink = tuple[int, int]
SHARP_INK: Ink = (ENLARGED_INK_BLOCK, INK_CONTRAST)
#: A frame whose first reads leave at least ``SOFT_CARDS`` of its cards unsettled (a
#: blurred frame: at sigma 1.5 px the felt deck's thin strokes break into pieces at the
#: sharp contrast, and a 45 px jumbo glyph pulls the mean of a 37 px window down) has those
#: cards read again with a wider window and a lower contrast (``SOFT_INK``); a sharp frame
#: leaves 0-1 unsettled and pays nothing.
SOFT_INK: Ink = (81, 12)
SOFT_CARDS = 3
#: Blob numbers of the strip's candidates are made unique (negative, below those of the
#: closer look's areas) from this offset, ``2 ** CARD_BITS`` numbers per card.
CORNER_BLOBS = 1 << 40
CARD_BITS = 24


@dataclass(frozen=True)
class CornerReads:
    """What the card-corner stage gives: the index ``reads`` at the corners of whole cards
    (in frame pixels; of the settled cards, and of the others that are
    :func:`large_enough`) and the ``settled`` cards' outlines."""

    reads: list[IndexRead]
    settled: list[Quad]


def card_corners(
    frame_bgr: np.ndarray,
    outlines: Sequence[Quad],
    white_level: float,
    model: GlyphModel,
    min_confidence: float,
) -> CornerReads:
    """The corner reads of the whole cards ``outlines`` of ``frame_bgr`` (see the module)
    (none with fewer than ``FEW_CARDS``). Each card's index corners are read first
    (``INDEX_BOXES``); a card read there but with no jumbo index (:func:`shows_jumbo_index`)
    is read again at all four corners (``ALL_BOXES``), as before (a card with no read at its
    index corners is left to the frame's search and the closer look: a second strip for
    heart3's unread Qh cost about 4 ms and changed no benchmark figure). A card whose
    outline is about square (``SQUARE_ASPECT``) and that is not settled is read once more
    turned a quarter (its corners taken from the next one on): a card foreshortened that
    much shows no short side, and the warp may have stood it on its long side. When at least
    ``SOFT_CARDS`` cards are still not settled (a blurred frame), those are read again with
    ``SOFT_INK``; the reads made so replace a card's own where they settle it or where it had
    none."""
    if len(outlines) < FEW_CARDS:
        return CornerReads([], [])

    def read(quads: Sequence[Quad], boxes: Boxes, first: int, ink: Ink) -> list[list[IndexRead]]:
        return cell_reads(frame_bgr, quads, white_level, model, min_confidence, boxes, first, ink)

    cards = index_corner_reads(read, outlines, 0, SHARP_INK)
    square = [
        n
        for n, quad in enumerate(outlines)
        if aspect(quad) < SQUARE_ASPECT and not is_settled(quad, cards[n])
    ]
    turned = [turned_quad(outlines[n]) for n in square]
    again = read(turned, ALL_BOXES, 2 * len(outlines), SHARP_INK)
    for number, reads in zip(square, again, strict=True):
        if is_settled(outlines[number], reads):
            cards[number] = reads
    settled = [is_settled(quad, reads) for quad, reads in zip(outlines, cards, strict=True)]
    unsettled = [n for n, done in enumerate(settled) if not done]
    if len(unsettled) >= SOFT_CARDS:
        soft = index_corner_reads(
            read, [outlines[n] for n in unsettled], 3 * len(outlines), SOFT_INK
        )
        for number, reads in zip(unsettled, soft, strict=True):
            if is_settled(outlines[number], reads):
                cards[number], settled[number] = reads, True
            elif not cards[number]:
                cards[number] = reads
    kept = [
        read
        for number, quad in enumerate(outlines)
        if settled[number] or large_enough(quad)
        for read in cards[number]
    ]
    return CornerReads(kept, [quad for quad, done in zip(outlines, settled, strict=True) if done])


#: Reads the corner boxes of cards (:func:`cell_reads` of one frame): the cards' outlines,
#: the boxes, the number of the first card and the ink.
CellReader = Callable[[Sequence[Quad], "Boxes", int, Ink], list[list[IndexRead]]]


def index_corner_reads(
    read: CellReader, outlines: Sequence[Quad], first: int, ink: Ink
) -> list[list[IndexRead]]:
    """Per card of ``outlines``, the reads (``read``) at its index corners (``INDEX_BOXES``),
    or at all four corners (``ALL_BOXES``) for a card read there without a jumbo index
    (cards numbered from ``first`` on, two numbers each)."""
    cards = read(outlines, INDEX_BOXES, first, ink)
    unsure = [
        n for n, quad in enumerate(outlines) if cards[n] and not shows_jumbo_index(quad, cards[n])
    ]
    four = read([outlines[n] for n in unsure], ALL_BOXES, first + len(outlines), ink)
    for number, reads in zip(unsure, four, strict=True):
        cards[number] = reads
    return cards


def turned_quad(quad: Quad) -> Quad:
    """``quad`` with its corners taken from the second one on (warped, the card turned a
    quarter).

    >>> turned_quad(((0.0, 0.0), (1.0, 0.0), (1.0, 2.0), (0.0, 2.0)))
    ((1.0, 0.0), (1.0, 2.0), (0.0, 2.0), (0.0, 0.0))
    """
    first, second, third, fourth = quad
    return (second, third, fourth, first)


def cell_reads(
    frame_bgr: np.ndarray,
    outlines: Sequence[Quad],
    white_level: float,
    model: GlyphModel,
    min_confidence: float,
    boxes: Boxes,
    first: int = 0,
    ink: Ink = SHARP_INK,
) -> list[list[IndexRead]]:
    """Per card of ``outlines``, the reads of its corner ``boxes`` warped into one strip
    (blob numbers made unique from card number ``first`` on; ``ink``: the window and the
    contrast ink is found with)."""
    if not outlines:
        return []
    pitch = boxes.pitch
    strip = np.empty((2 * BOX_SIZE[1] + GUTTER, pitch * len(outlines), 3), np.uint8)
    to_cards = []
    for number, quad in enumerate(outlines):
        to_card = cv2.getPerspectiveTransform(np.array(quad, np.float32), CARD_CORNERS)
        corner_cell(frame_bgr, to_card, strip[:, number * pitch : (number + 1) * pitch], boxes)
        to_cards.append(to_card)
    paper_gutters(strip.reshape(strip.shape[0], len(outlines), pitch, 3), boxes)
    found = candidates_at_scale(
        strip,
        None,
        white_level,
        (GLYPH_PIXELS[0], LONGEST_GLYPH),
        ink[0],
        keep=lambda ranks, suits: upright_in_corner(ranks, suits, boxes),
        contrast=ink[1],
    )
    placed, owners = in_frame(found, to_cards, boxes, first)
    owner = {id(candidate): number for candidate, number in zip(placed, owners, strict=True)}
    reads = read_glyphs(model, placed, min_confidence)
    return [[r for r in reads if owner[id(r.candidate)] == n] for n in range(len(outlines))]


def large_enough(quad: Quad) -> bool:
    """Whether the card ``quad`` implies glyphs of at least ``SHARP_GLYPH`` pixels (its
    longest side over ``CARD_PER_GLYPH``). The corner reads of a card not settled are
    passed on only then: a smaller card's strokes are under a pixel wide, and its corners
    misread by a little (the whole table at 1080p: a 2c read 2s at 0.76) are better read
    by the sharpened closer look."""
    return implied_glyph(quad) >= SHARP_GLYPH


def implied_glyph(quad: Quad) -> float:
    """The glyph size (pixels) the card ``quad`` implies: its longest side over
    ``CARD_PER_GLYPH``."""
    return max(side(quad, n) for n in range(4)) / CARD_PER_GLYPH


#: The warped card's corners (clockwise from the top left; a quad's first edge is a short side).
CARD_CORNERS = np.array(
    [(0, 0), (CARD_SIZE[0], 0), (CARD_SIZE[0], CARD_SIZE[1]), (0, CARD_SIZE[1])], np.float32
)


@dataclass(frozen=True)
class Boxes:
    """The corner boxes of the warped card that a card's cell in the strip holds: their
    ``places`` (row, column of the card, row after row), two rows of ``len(places) // 2``
    boxes, ``GUTTER`` pixels apart."""

    places: tuple[tuple[int, int], ...]

    @property
    def columns(self) -> int:
        """Boxes side by side in a cell."""
        return len(self.places) // 2

    @property
    def pitch(self) -> int:
        """A cell's width, its gutters included (pixels)."""
        return self.columns * (BOX_SIZE[0] + GUTTER)

    @cached_property
    def shifts(self) -> list[np.ndarray]:
        """The translations that move each box of the warped card to the origin."""
        box_w, box_h = BOX_SIZE
        return [
            np.array(
                [[1, 0, -column * (CARD_SIZE[0] - box_w)], [0, 1, -row * (CARD_SIZE[1] - box_h)],
                 [0, 0, 1]],
                np.float64,
            )
            for row, column in self.places
        ]

    @cached_property
    def bottom(self) -> np.ndarray:
        """Which boxes lie at the bottom of the card (their index upside down)."""
        return np.array([row for row, _ in self.places], bool)

    @cached_property
    def samples(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows and columns of a cell that its paper colour is measured on: every
        ``PAPER_STEP``-th of its boxes each way."""
        box_w, box_h = BOX_SIZE
        rows = [np.arange(0, box_h, PAPER_STEP) + n * (box_h + GUTTER) for n in range(2)]
        columns = [
            np.arange(0, box_w, PAPER_STEP) + n * (box_w + GUTTER) for n in range(self.columns)
        ]
        return np.concatenate(rows), np.concatenate(columns)


#: A card's index corners, top left and bottom right, one over the other: its indices stand
#: there whichever way up it lies (a quad's corners run clockwise from an end of a short
#: side, so its first corner is the card's top left or bottom right); decks with indices at
#: all four corners repeat them at the other two.
INDEX_BOXES = Boxes(((0, 0), (1, 1)))
#: All four corners, two over two.
ALL_BOXES = Boxes(((0, 0), (0, 1), (1, 0), (1, 1)))


def corner_cell(
    frame_bgr: np.ndarray, to_card: np.ndarray, cell: np.ndarray, boxes: Boxes
) -> None:
    """Fill the corner ``boxes`` of ``cell`` (a view of the strip) with those corners of a card
    (``to_card``: the homography from the frame to the warped card), warped one by one (the
    rest of the card is never warped; the gutters are :func:`paper_gutters`'s)."""
    box_w, box_h = BOX_SIZE
    for number, shift in enumerate(boxes.shifts):
        row, column = divmod(number, boxes.columns)
        top, left = row * (box_h + GUTTER), column * (box_w + GUTTER)
        cv2.warpPerspective(
            frame_bgr,
            shift @ to_card,
            (box_w, box_h),
            dst=cell[top : top + box_h, left : left + box_w],
            borderMode=cv2.BORDER_REPLICATE,
        )


def paper_gutters(cells: np.ndarray, boxes: Boxes) -> None:
    """Paint the gutters of every cell (``cells``: the strip as rows x cells x pitch x 3, its
    corner ``boxes`` warped) in its card's paper colour: the colour of the pixel at the 75th
    percentile by the darkest channel among every ``PAPER_STEP``-th pixel of its boxes each
    way. (The gutters, not painted yet, are left out: the strip is not cleared, so what they
    hold is whatever the memory held before.)"""
    box_w, box_h = BOX_SIZE
    rows, columns = boxes.samples
    sample = cells[rows][:, :, columns].transpose(1, 0, 2, 3)
    sample = sample.reshape(cells.shape[1], -1, 3)
    darkest = sample.min(axis=2)
    rank = 3 * darkest.shape[1] // 4
    chosen = np.argpartition(darkest, rank, axis=1)[:, rank]
    paper = sample[np.arange(len(sample)), chosen][None, :, None, :]
    cells[box_h : box_h + GUTTER] = paper
    for column in range(boxes.columns):
        start = column * (box_w + GUTTER) + box_w
        cells[:, :, start : start + GUTTER] = paper


def in_frame(
    found: Sequence[IndexCandidate],
    to_cards: Sequence[np.ndarray],
    boxes: Boxes,
    first: int = 0,
) -> tuple[list[IndexCandidate], list[int]]:
    """The candidates found in the strip of cells of corner ``boxes``, in frame
    pixels (``to_cards``: each card's homography from the frame to the warped card), and
    the number of the card each lies on. Their glyph features stay those of the warped
    card, their sizes scale with the card, their blob numbers are made unique (cards
    numbered from ``first`` on)."""
    if not found:
        return [], []
    ranks = np.array([c.rank_center for c in found], np.float64)
    suits = np.array([c.suit_center for c in found], np.float64)
    ups = np.array([c.up for c in found], np.float64)
    cells, _, card_ranks = card_places(ranks, boxes)
    _, _, card_suits = card_places(suits, boxes)
    placed: list[IndexCandidate] = []
    owners: list[int] = []
    for number in np.unique(cells).tolist():
        chosen = np.flatnonzero(cells == number)
        rank = card_ranks[chosen]
        steps = [card_suits[chosen], rank + 10.0 * ups[chosen], rank + ACROSS, rank + DOWN]
        points = np.concatenate([rank, *steps])
        to_frame = np.linalg.inv(to_cards[number])
        mapped = cv2.perspectiveTransform(points[None], to_frame)[0].reshape(5, -1, 2)
        up = mapped[2] - mapped[0]
        up /= np.maximum(np.hypot(up[:, 0], up[:, 1]), 1e-9)[:, None]
        across, down = mapped[3] - mapped[0], mapped[4] - mapped[0]
        scales = np.sqrt(np.abs(across[:, 0] * down[:, 1] - across[:, 1] * down[:, 0]))
        tag = CORNER_BLOBS + ((first + number) << CARD_BITS)
        for row, n in enumerate(chosen.tolist()):
            candidate, scale = found[n], float(scales[row])
            placed.append(
                replace(
                    candidate,
                    rank_center=(float(mapped[0, row, 0]), float(mapped[0, row, 1])),
                    suit_center=(float(mapped[1, row, 0]), float(mapped[1, row, 1])),
                    up=(float(up[row, 0]), float(up[row, 1])),
                    glyph_size=candidate.glyph_size * scale,
                    suit_size=candidate.suit_size * scale,
                    rank_blobs=tuple(-tag - blob for blob in candidate.rank_blobs),
                    suit_blob=-tag - candidate.suit_blob,
                )
            )
            owners.append(number)
    return placed, owners


#: One warped pixel across and down (the homography's local scale is measured over them).
ACROSS = np.array([1.0, 0.0])
DOWN = np.array([0.0, 1.0])


def upright_in_corner(ranks: np.ndarray, suits: np.ndarray, boxes: Boxes) -> np.ndarray:
    """Which rank-suit pairs (centres in the strip of cells of corner ``boxes``) lie in one
    corner box with the suit under the rank as the card stands (over it in the bottom
    corners, the card upside down), within ``UPRIGHT_SLANT`` of the card's long side."""
    cells, corners, _ = card_places(ranks, boxes)
    suit_cells, suit_corners, _ = card_places(suits, boxes)
    down = np.where(boxes.bottom[corners], -1.0, 1.0) * (suits[:, 1] - ranks[:, 1])
    across = np.abs(suits[:, 0] - ranks[:, 0])
    return np.asarray(
        (cells == suit_cells)
        & (corners == suit_corners)
        & (corners >= 0)
        & (down > 0)
        & (across < UPRIGHT_SLANT * down)
    )


def card_places(points: np.ndarray, boxes: Boxes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For points (n x 2) of the strip of cells of corner ``boxes``: the cell (card) number,
    the corner box (its number in ``boxes.places``, -1 in a gutter) and the point in the
    warped card's pixels."""
    box_w, box_h = BOX_SIZE
    cells = (points[:, 0] // boxes.pitch).astype(np.int64)
    x = points[:, 0] - cells * boxes.pitch
    y = points[:, 1]
    column = np.minimum(x // (box_w + GUTTER), boxes.columns - 1).astype(np.int64)
    row = np.where(y < box_h + GUTTER, 0, 1)
    x_in, y_in = x - column * (box_w + GUTTER), y - row * (box_h + GUTTER)
    number = row * boxes.columns + column
    corners = np.where((x_in < box_w) & (y_in < box_h), number, -1)
    card_row, card_column = np.array(boxes.places, np.float64)[number].T
    card_x = x_in + card_column * (CARD_SIZE[0] - box_w)
    card_y = y_in + card_row * (CARD_SIZE[1] - box_h)
    return cells, corners, np.column_stack((card_x, card_y))


def is_settled(quad: Quad, reads: Sequence[IndexRead]) -> bool:
    """Whether the corner ``reads`` of the card ``quad`` name one card, read at two of its
    corners or at one ``SETTLED`` confidently; an outline longer than a card seen straight
    (aspect over ``ASPECT_RANGE``: a card lying across a tilted camera's view, or a cascade
    of overlapping cards, whose one corner read names one of them) only at two corners."""
    if len({r.card for r in reads}) != 1:
        return False
    if corners_apart(reads, quad):
        return True
    straight = aspect(quad) <= ASPECT_RANGE[1]
    return straight and max(r.reading.confidence for r in reads) >= SETTLED


def shows_jumbo_index(quad: Quad, reads: Sequence[IndexRead]) -> bool:
    """Whether one of ``reads`` (at the card ``quad``'s index corners) has a rank at least
    ``JUMBO_READ`` times the glyph size the card implies: a deck with jumbo indices has
    none at its other two corners (blank corners misread at times), and its large glyphs
    read surely. (Common indices need all four corners: the whole table at 1080p read both
    index corners of a 6c as 6s, and the other two outvote that.)"""
    implied = implied_glyph(quad)
    return any(r.candidate.glyph_size >= JUMBO_READ * implied for r in reads)


def corners_apart(reads: Sequence[IndexRead], quad: Quad) -> bool:
    """Whether two of ``reads`` lie at different corners of the card ``quad`` (over half
    its short side apart)."""
    centres = np.array([r.candidate.center for r in reads], np.float64)
    gaps = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    return bool((gaps > 0.5 * min(side(quad, 0), side(quad, 2))).any())
