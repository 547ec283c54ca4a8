"""The card-corner stage of the card reader: each whole card warped upright once, its
corners read there.

A card whose four edges show (:mod:`vision.outline`) is warped to ``CARD_SIZE`` by one
perspective warp, so its corner indices are always of one size and at one place, whatever
the camera's distance and tilt. The warped card's middle (pips and pictures) is painted
over with its own paper colour, and the corners pass the candidate finder and the glyph
model, the warped cards of a frame side by side in one picture. A card whose corners give
a read of at least ``SETTLED`` confidence, and no other name, is *settled*: the frame's own
candidate search and the closer look leave it out (:func:`vision.index_reader.index_candidates`'s
``left_out``); cards that are not (overlapping fans, as in the deals, give no outline)
are read as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.glyph_reads import IndexRead, read_glyphs
from vision.glyphs import GlyphModel
from vision.closer_look import SHARP_GLYPH
from vision.index_reader import (
    CARD_PER_GLYPH,
    ENLARGED_INK_BLOCK,
    GLYPH_PIXELS,
    IndexCandidate,
    candidates_at_scale,
)
from vision.outline import ASPECT_RANGE, Quad, aspect, side

#: The warped card (width, height), about a poker card's 63 x 88 mm: its common corner
#: index (1/11.5 of the card's height) is then 17 px, a jumbo index (the felt webcam deck's,
#: 1.86 times) 32 px.
CARD_SIZE = (140, 196)
#: A corner's index lies within this share of the warped card's width and height from the
#: corner (the felt webcam deck's jumbo index reaches 0.36 of the height).
CORNER_BOX = (0.3, 0.4)
#: Longest ink blob (warped pixels) a corner's glyph may be: a jumbo index's "10" and more.
LONGEST_GLYPH = int(0.23 * CARD_SIZE[1])
#: Pixels of paper colour between two warped cards side by side (more than a rank and its
#: suit are ever apart, so no pair spans two cards).
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


@dataclass(frozen=True)
class CornerReads:
    """What the card-corner stage gives: the index ``reads`` at the corners of whole cards
    (in frame pixels) and the ``settled`` cards' outlines."""

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
    (none with fewer than ``FEW_CARDS``)."""
    if len(outlines) < FEW_CARDS:
        return CornerReads([], [])
    box_w, box_h = corner_box()
    pitch = 2 * box_w + 2 * GUTTER
    strip = np.empty((2 * box_h + GUTTER, pitch * len(outlines), 3), np.uint8)
    to_cards = []
    for number, quad in enumerate(outlines):
        to_card = cv2.getPerspectiveTransform(np.array(quad, np.float32), CARD_CORNERS)
        corner_cell(frame_bgr, to_card, strip[:, number * pitch : (number + 1) * pitch])
        to_cards.append(to_card)
    found = candidates_at_scale(
        strip,
        None,
        white_level,
        (GLYPH_PIXELS[0], LONGEST_GLYPH),
        ENLARGED_INK_BLOCK,
        keep=lambda ranks, suits: upright_in_corner(ranks, suits, pitch),
    )
    placed = in_frame(found, to_cards, pitch)
    reads = read_glyphs(model, placed, min_confidence)
    settled = settled_cards(outlines, reads)
    numbers = {n for n, quad in enumerate(outlines) if quad in settled or large_enough(quad)}
    return CornerReads([r for r in reads if card_number(r) in numbers], settled)


def large_enough(quad: Quad) -> bool:
    """Whether the card ``quad`` implies glyphs of at least ``SHARP_GLYPH`` pixels (its
    longest side over ``CARD_PER_GLYPH``): a smaller card's strokes are under a pixel wide,
    and the closer look reads its corners sharpened instead."""
    return max(side(quad, n) for n in range(4)) >= SHARP_GLYPH * CARD_PER_GLYPH


#: The warped card's corners (clockwise from the top left; a quad's first edge is a short side).
CARD_CORNERS = np.array(
    [(0, 0), (CARD_SIZE[0], 0), (CARD_SIZE[0], CARD_SIZE[1]), (0, CARD_SIZE[1])], np.float32
)


def box_shifts() -> list[np.ndarray]:
    """The translations that move each corner box of the warped card (in ``BOX_PLACES``
    order) to the origin."""
    box_w, box_h = int(CORNER_BOX[0] * CARD_SIZE[0]), int(CORNER_BOX[1] * CARD_SIZE[1])
    return [
        np.array(
            [[1, 0, -column * (CARD_SIZE[0] - box_w)], [0, 1, -row * (CARD_SIZE[1] - box_h)],
             [0, 0, 1]],
            np.float64,
        )
        for row, column in BOX_PLACES
    ]


#: The corner boxes (row, column): top left, top right, bottom left, bottom right.
BOX_PLACES = ((0, 0), (0, 1), (1, 0), (1, 1))
BOX_SHIFTS = box_shifts()


def corner_box() -> tuple[int, int]:
    """The width and height (warped pixels) of a corner's box."""
    return int(CORNER_BOX[0] * CARD_SIZE[0]), int(CORNER_BOX[1] * CARD_SIZE[1])


def corner_cell(frame_bgr: np.ndarray, to_card: np.ndarray, cell: np.ndarray) -> None:
    """Fill ``cell`` (a view of the strip) with the four corner boxes of a card
    (``to_card``: the homography from the frame to the warped card), two over two, warped
    one by one (the card's middle is never warped), with ``GUTTER`` pixels of the card's
    paper colour between them and on their right."""
    box_w, box_h = corner_box()
    for (row, column), shift in zip(BOX_PLACES, BOX_SHIFTS, strict=True):
        top, left = row * (box_h + GUTTER), column * (box_w + GUTTER)
        cv2.warpPerspective(
            frame_bgr,
            shift @ to_card,
            (box_w, box_h),
            dst=cell[top : top + box_h, left : left + box_w],
            borderMode=cv2.BORDER_REPLICATE,
        )
    paper = paper_colour(cell)
    cell[box_h : box_h + GUTTER] = paper
    cell[:, box_w : box_w + GUTTER] = paper
    cell[:, 2 * box_w + GUTTER :] = paper


def paper_colour(cell: np.ndarray) -> np.ndarray:
    """A card's paper colour: the colour of the pixel at the 75th percentile by the darkest
    channel among every ``PAPER_STEP``-th pixel of its ``cell``."""
    sample = cell[::PAPER_STEP, ::PAPER_STEP].reshape(-1, 3)
    darkest = sample.min(axis=1)
    chosen = np.argpartition(darkest, 3 * len(darkest) // 4)[3 * len(darkest) // 4]
    return np.asarray(sample[chosen])


def in_frame(
    found: Sequence[IndexCandidate], to_cards: Sequence[np.ndarray], pitch: int
) -> list[IndexCandidate]:
    """The candidates found in the strip of corner cells (``pitch`` pixels apart) whose
    rank and suit lie in one corner box, in frame pixels (``to_cards``: each card's
    homography from the frame to the warped card); their glyph features stay those of the
    warped card, their sizes scale with the card, their blob numbers are made unique."""
    if not found:
        return []
    box_w, box_h = corner_box()
    ranks = np.array([c.rank_center for c in found], np.float64)
    suits = np.array([c.suit_center for c in found], np.float64)
    ups = np.array([c.up for c in found], np.float64)
    cells, corners, card_ranks = card_places(ranks, pitch, (box_w, box_h))
    suit_cells, suit_corners, card_suits = card_places(suits, pitch, (box_w, box_h))
    one_box = (cells == suit_cells) & (corners == suit_corners)
    placed = []
    for number in np.unique(cells[one_box]).tolist():
        chosen = np.flatnonzero(one_box & (cells == number))
        rank, suit = card_ranks[chosen], card_suits[chosen]
        to_frame = np.linalg.inv(to_cards[number])
        points = np.concatenate([rank, suit, rank + 10.0 * ups[chosen], rank + (1.0, 0.0),
                                 rank + (0.0, 1.0)])
        mapped = cv2.perspectiveTransform(points[None], to_frame)[0].reshape(5, -1, 2)
        up = mapped[2] - mapped[0]
        up /= np.maximum(np.hypot(up[:, 0], up[:, 1]), 1e-9)[:, None]
        across, down = mapped[3] - mapped[0], mapped[4] - mapped[0]
        scale = np.sqrt(np.abs(across[:, 0] * down[:, 1] - across[:, 1] * down[:, 0]))
        for row, n in enumerate(chosen.tolist()):
            candidate = found[n]
            tag = (number + 1) << 26
            placed.append(
                replace(
                    candidate,
                    rank_center=(float(mapped[0, row, 0]), float(mapped[0, row, 1])),
                    suit_center=(float(mapped[1, row, 0]), float(mapped[1, row, 1])),
                    up=(float(up[row, 0]), float(up[row, 1])),
                    glyph_size=candidate.glyph_size * float(scale[row]),
                    suit_size=candidate.suit_size * float(scale[row]),
                    rank_blobs=tuple(-tag - blob for blob in candidate.rank_blobs),
                    suit_blob=-tag - candidate.suit_blob,
                )
            )
    return placed


def upright_in_corner(ranks: np.ndarray, suits: np.ndarray, pitch: int) -> np.ndarray:
    """Which rank-suit pairs (centres in the strip of corner cells) lie in one corner box
    with the suit under the rank as the card stands (over it in the bottom corners, the card
    upside down), within ``UPRIGHT_SLANT`` of the card's long side."""
    box = corner_box()
    cells, corners, _ = card_places(ranks, pitch, box)
    suit_cells, suit_corners, _ = card_places(suits, pitch, box)
    down = np.where(corners >= 2, -1.0, 1.0) * (suits[:, 1] - ranks[:, 1])
    across = np.abs(suits[:, 0] - ranks[:, 0])
    return np.asarray(
        (cells == suit_cells) & (corners == suit_corners) & (corners >= 0)
        & (down > 0) & (across < UPRIGHT_SLANT * down)
    )


def card_places(
    points: np.ndarray, pitch: int, box: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For points of the strip of corner cells: the cell (card) number, the corner box
    (0-3, -1 in a gutter) and the point in the warped card's pixels."""
    box_w, box_h = box
    cells = (points[:, 0] // pitch).astype(np.int64)
    x = points[:, 0] - cells * pitch
    y = points[:, 1]
    column = np.where(x < box_w, 0, np.where((x >= box_w + GUTTER) & (x < 2 * box_w + GUTTER), 1, -1))
    row = np.where(y < box_h, 0, np.where(y >= box_h + GUTTER, 1, -1))
    corners = np.where((column >= 0) & (row >= 0), 2 * row + column, -1)
    card_x = x - column * (box_w + GUTTER) + column * (CARD_SIZE[0] - box_w)
    card_y = y - row * (box_h + GUTTER) + row * (CARD_SIZE[1] - box_h)
    return cells, corners, np.column_stack((card_x, card_y))


def settled_cards(outlines: Sequence[Quad], reads: Sequence[IndexRead]) -> list[Quad]:
    """The ``outlines`` whose corner ``reads`` name one card, at least once ``SETTLED``;
    an outline longer than a card seen straight (aspect over ``ASPECT_RANGE``, a card lying
    across a tilted camera's view, or a cascade of overlapping cards) only where two of
    its corners name it."""
    settled = []
    for number, quad in enumerate(outlines):
        mine = [r for r in reads if card_number(r) == number]
        if len({r.card for r in mine}) != 1 or max(r.reading.confidence for r in mine) < SETTLED:
            continue
        if aspect(quad) <= ASPECT_RANGE[1] or corners_apart(mine, quad):
            settled.append(quad)
    return settled


def corners_apart(reads: Sequence[IndexRead], quad: Quad) -> bool:
    """Whether two of ``reads`` lie at different corners of the card ``quad`` (over half
    its short side apart)."""
    centres = np.array([r.candidate.center for r in reads], np.float64)
    gaps = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    return bool((gaps > 0.5 * min(side(quad, 0), side(quad, 2))).any())


def card_number(read: IndexRead) -> int:
    """The number of the warped card a corner read was found on."""
    return int((-read.candidate.suit_blob >> 26) - 1)
