"""The closer-look stage of the card reader: small glyphs read again, enlarged.

With a camera far from the table index glyphs are small (under ``SMALL_GLYPH`` pixels) and
their thin strokes lose their shape at the frame's own size. After the frame's own
candidates were read, the areas (2.5 glyph sizes each way) around

- small candidates with card white near them (:func:`on_card_white`), unless much smaller
  than the indices read near them (a fragment of a picture next to indices,
  :func:`dwarfed`), and
- the corners of whole cards small enough to have small glyphs, unless an index was read
  there already (:func:`unread_corners`),

are enlarged ``ENLARGE`` times; the candidates found there are read by the glyph model, and
where the frame's own read and the enlarged read name one index the surer stays
(:func:`surer_of_two`). The areas around the corners of whole cards with glyphs under
``SHARP_GLYPH`` pixels are then read once more, sharpened where their card white is in full
light (:func:`~vision.index_reader.enlarged_area`), and the surer read stays again: a far
camera's thin strokes blur to a faint grey the ink threshold breaks. Only those areas, not
the frame, pass the candidate finder and the glyph model again; a frame without small
glyphs skips the stage.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

import cv2
import numpy as np

from vision.glyph_reads import IndexRead, read_glyphs
from vision.glyphs import GlyphModel
from vision.index_reader import (
    CARD_PER_GLYPH,
    ENLARGE,
    ENLARGED_SIZES,
    SMALL_GLYPH,
    Candidates,
    IndexCandidate,
    Region,
    Spot,
    enlarged_candidates,
    small_glyph_areas,
    spots_of,
)
from vision.light import LitFrame
from vision.outline import Quad, inside_quad

#: A small candidate less than this fraction of the size of an index read within a card
#: height of it is a fragment (cards that close lie at the same distance from the camera):
#: it gets no enlarged second look.
DWARFED = 0.7
#: A read this close (card heights) to a whole card's corner means the corner was read.
CORNER_READ = 0.25
#: An index centre lies this far along the way from a card's corner to its centre.
INDEX_ALONG_DIAGONAL = 0.22
#: A card's corner index may be up to this many times the glyph size its card height
#: implies (``CARD_PER_GLYPH``): jumbo indices (the felt webcam deck's rank is 1/6.2 of the
#: card's long side, 1.86 times).
JUMBO_INDEX = 2.0
#: The areas around the corners of whole cards whose glyphs are under this many pixels are
#: read a second time, sharpened (the whole table at 1080p: 8.1-8.4 px; the felt webcam's
#: jumbo-index cards imply 9.4-10.4 px, and with 10 px the blurred felt copies read more wrong).
SHARP_GLYPH = 9.0
#: A card whose corner was read with a rank at least this many times the glyph size its
#: card height implies shows jumbo indices (reads at the felt webcam deck's corners: median
#: 1.84 times, 95 % over 1.68; the whole table at 1080p: 0.80-1.22 times): its unread corners
#: are blank or hold an index that large, so they are not sharpened (sharpened blank corners
#: gave reads that made the true ones unsure).
JUMBO_READ = 1.5
#: A small candidate gets a closer look only where card white at the frame's own white
#: level lies within this many glyph sizes of it (:func:`on_card_white`).
PAPER_REACH = 1.5
#: Two reads closer than this many glyph sizes are one index read twice.
SAME_PLACE = 0.8


def closer_look(
    lit: LitFrame,
    candidates: Candidates,
    reads: Sequence[IndexRead],
    outlines: Sequence[Quad],
    model: GlyphModel,
    min_confidence: float,
    cloths: Sequence[np.ndarray] = (),
) -> list[IndexRead]:
    """The frame's ``reads`` (of its own ``candidates``) with the small glyphs read again
    from their areas enlarged (and small cards' corners sharpened), where the closer look is
    wanted (see the module). Given ``cloths`` (hulls of cloths on a white table), small
    candidates off them get no closer look: the white table round a cloth is card white,
    and its specks (surface4: 3 areas, half the stage) are no far card's glyphs."""
    small = [c for c in candidates.small if on_card_white(lit, c) and on_cloth(c, cloths)]
    small = [c for c, tiny in zip(small, dwarfed(small, reads), strict=True) if not tiny]
    cards = small_cards(outlines)
    corners = unread_corners([spot for _, spots in cards for spot in spots], reads)
    spots = spots_of(small) + corners
    if not spots:
        return list(reads)
    areas = small_glyph_areas(spots, lit.bgr.shape[:2])
    own_small = [c for c in candidates.readable if c.glyph_size < SMALL_GLYPH]
    holders = areas_holding([c.center for c in own_small], areas)
    replaced = {id(c) for c, area in zip(own_small, holders.tolist(), strict=True) if area >= 0}
    longest = longest_glyphs(areas, corners)
    fresh = enlarged_candidates(lit.bgr, areas, candidates.white_level, longest=longest)
    closer = surer_of_two(reads, read_glyphs(model, fresh, min_confidence), replaced)
    sharp = sorted(sharpened_areas(areas, corners, cards, closer))
    if not sharp:
        return closer
    fresh = enlarged_candidates(
        lit.bgr,
        [areas[n] for n in sharp],
        candidates.white_level,
        longest=[longest[n] for n in sharp],
        sharpened=True,
        first=len(areas) + 1,
    )
    return surer_of_two(closer, read_glyphs(model, fresh, min_confidence), set())


def on_cloth(candidate: IndexCandidate, cloths: Sequence[np.ndarray]) -> bool:
    """Whether ``candidate`` lies on one of ``cloths`` (contours), or there are none."""
    return not cloths or any(
        cv2.pointPolygonTest(cloth, candidate.center, False) >= 0 for cloth in cloths
    )


def on_card_white(lit: LitFrame, candidate: IndexCandidate) -> bool:
    """Whether card white at the frame's own level (its darkest channel at least the
    frame's white level) lies within ``PAPER_REACH`` glyph sizes of ``candidate``: ink on
    grey carpet beside the felt webcam's table, which the local white level of the shade
    takes for shaded card white, is no small index worth a closer look (there its
    brightest is 0.71-0.82 of the white level, a far card's small candidates 1.3-2.0)."""
    x, y = candidate.center
    reach = PAPER_REACH * candidate.glyph_size
    height, width = lit.darkest.shape
    box = lit.darkest[
        max(0, int(y - reach)) : min(height, int(y + reach) + 1),
        max(0, int(x - reach)) : min(width, int(x + reach) + 1),
    ]
    return bool(box.size) and float(box.max()) >= lit.white_level


def longest_glyphs(areas: Sequence[Region], corners: Sequence[Spot]) -> list[int]:
    """Per area, the longest blob (enlarged pixels) the closer look looks for: the small
    glyphs' ``ENLARGED_SIZES``, or ``JUMBO_INDEX`` times the glyph size a card corner in the
    area implies, whichever is longer (the corner's index was not read at the frame's size,
    so glyphs of any size may be there)."""
    longest = [ENLARGED_SIZES[1]] * len(areas)
    holders = areas_holding([centre for centre, _ in corners], areas).tolist()
    for (_, glyph), area in zip(corners, holders, strict=True):
        if area >= 0:
            longest[area] = max(longest[area], int(JUMBO_INDEX * glyph * ENLARGE))
    return longest


def areas_holding(points: Sequence[tuple[float, float]], areas: Sequence[Region]) -> np.ndarray:
    """For each point, the number of the first box (x, y, width, height) of ``areas`` that
    holds it, as :func:`~vision.index_reader.area_of` gives, and -1 where none does.

    >>> areas_holding([(5.0, 5.0), (15.0, 5.0), (50.0, 50.0)], [(0, 0, 20, 10), (10, 0, 10, 10)])
    array([ 0,  0, -1])
    """
    boxes = np.array(areas, np.float64).reshape(-1, 4)
    xs, ys = np.array(points, np.float64).reshape(-1, 2).T
    inside = (
        (boxes[:, 0] <= xs[:, None])
        & (xs[:, None] < boxes[:, 0] + boxes[:, 2])
        & (boxes[:, 1] <= ys[:, None])
        & (ys[:, None] < boxes[:, 1] + boxes[:, 3])
    )
    return np.where(inside.any(axis=1), inside.argmax(axis=1), -1)


def sharpened_areas(
    areas: Sequence[Region],
    corners: Sequence[Spot],
    cards: Sequence[tuple[Quad, list[Spot]]],
    reads: Sequence[IndexRead],
) -> set[int]:
    """The numbers (from 0) of the areas to sharpen: those holding one of the unread
    ``corners`` of a whole card whose glyphs are under ``SHARP_GLYPH`` pixels, and also one
    of a card of ``cards`` (outline and corner spots, :func:`small_cards`) that shows no
    jumbo index in the plain closer look's ``reads`` (:func:`shows_jumbo_index`)."""
    holder = dict(
        zip(corners, areas_holding([centre for centre, _ in corners], areas).tolist(), strict=True)
    )
    table = read_table(reads)
    open_areas = {
        holder[spot]
        for quad, spots in cards
        if not shows_jumbo_index(quad, spots, table)
        for spot in spots
        if spot in holder
    }
    sharp = {area for (_, glyph), area in holder.items() if glyph < SHARP_GLYPH}
    return (sharp & open_areas) - {-1}


def shows_jumbo_index(quad: Quad, spots: Sequence[Spot], reads: ReadTable) -> bool:
    """Whether one of the ``reads`` lies inside the card ``quad`` near one of its corner
    ``spots`` (within ``CORNER_READ`` card heights) with glyphs ``JUMBO_READ`` times the size
    its card implies or larger."""
    glyph = spots[0][1]
    reach = CORNER_READ * CARD_PER_GLYPH * glyph
    large = np.flatnonzero(reads.sizes >= JUMBO_READ * glyph).tolist()
    centres = [tuple(reads.centres[n].tolist()) for n in large]
    return any(
        any(math.dist(centre, spot) < reach for spot, _ in spots) and inside_quad(centre, quad)
        for centre in centres
    )


def small_cards(outlines: Sequence[Quad]) -> list[tuple[Quad, list[Spot]]]:
    """The whole cards (``outlines``) too small for their glyphs to show well, each with the
    spots near its four corners (either way up) where its indices may be, with the glyph
    size the card implies."""
    corners = np.array(outlines, np.float64).reshape(-1, 4, 2)
    edges = corners - np.roll(corners, 1, axis=1)
    glyphs = (
        np.sqrt(edges[:, :, 0] * edges[:, :, 0] + edges[:, :, 1] * edges[:, :, 1]).max(axis=1)
        / CARD_PER_GLYPH
    )
    centres = corners.mean(axis=1, keepdims=True)
    spots = (corners + INDEX_ALONG_DIAGONAL * (centres - corners)).tolist()
    return [
        (quad, [((x, y), glyph) for x, y in card_spots])
        for quad, glyph, card_spots in zip(outlines, glyphs.tolist(), spots, strict=True)
        if glyph < SMALL_GLYPH
    ]


def surer_of_two(
    first: Sequence[IndexRead], closer: Sequence[IndexRead], replaced: AbstractSet[int]
) -> list[IndexRead]:
    """Reads from the frame's own size (``first``; ``replaced``: ids of the candidates the
    closer look stands in for) and from the enlarged closer look (``closer``). Where both
    read an index at one place the more confident stays, the frame's own read on a tie:
    enlarging adds no detail, and a wide spade whose thin stem parts from it when enlarged
    reads as a club. A replaced read that no closer read matches is dropped."""
    if not first or not closer:
        return [r for r in first if id(r.candidate) not in replaced] + list(closer)
    own, enlarged = read_table(first), read_table(closer)
    gaps = np.hypot(
        own.centres[:, None, 0] - enlarged.centres[None, :, 0],
        own.centres[:, None, 1] - enlarged.centres[None, :, 1],
    )
    # Row: a read of the frame's own size; column: a closer read at its place.
    rivals = gaps <= SAME_PLACE * own.sizes[:, None]
    beaten = (rivals & (own.confidences[:, None] >= enlarged.confidences[None, :])).any(axis=0)
    surer = (rivals & (enlarged.confidences[None, :] > own.confidences[:, None])).any(axis=1)
    stands_in = np.array([id(read.candidate) in replaced for read in first], bool)
    dropped = surer | (stands_in & ~rivals.any(axis=1))
    return [r for r, gone in zip(first, dropped.tolist(), strict=True) if not gone] + [
        r for r, gone in zip(closer, beaten.tolist(), strict=True) if not gone
    ]


@dataclass(frozen=True)
class ReadTable:
    """Index reads as arrays: candidate centres (n x 2), glyph sizes and confidences."""

    centres: np.ndarray
    sizes: np.ndarray
    confidences: np.ndarray


def read_table(reads: Sequence[IndexRead]) -> ReadTable:
    """The :class:`ReadTable` of ``reads``."""
    return ReadTable(
        np.array([r.candidate.center for r in reads], np.float64).reshape(-1, 2),
        np.array([r.candidate.glyph_size for r in reads], np.float64),
        np.array([r.reading.confidence for r in reads], np.float64),
    )


def unread_corners(spots: Sequence[Spot], reads: Sequence[IndexRead]) -> list[Spot]:
    """The corner ``spots`` of whole cards with no index read near them yet (within
    ``CORNER_READ`` card heights): a corner read at the frame's own size needs no closer look
    (the enlarged picture of a well-read index is no better, and costs time)."""
    if not spots:
        return []
    centres = np.array([r.candidate.center for r in reads]).reshape(-1, 2)
    places = np.array([centre for centre, _ in spots], np.float64)
    reach = CORNER_READ * CARD_PER_GLYPH * np.array([glyph for _, glyph in spots], np.float64)
    gaps = np.hypot(
        centres[None, :, 0] - places[:, None, 0], centres[None, :, 1] - places[:, None, 1]
    )
    unread = np.flatnonzero(~(gaps < reach[:, None]).any(axis=1)).tolist()
    return [spots[n] for n in unread]


def dwarfed(candidates: Sequence[IndexCandidate], reads: Sequence[IndexRead]) -> list[bool]:
    """For each candidate, whether it is much smaller (``DWARFED``) than the indices read
    within a card height of it (their median size, so one misread does not decide): then it
    is a fragment, as cards that close lie at the same distance from the camera."""
    sizes, typical = sizes_near(candidates, reads)
    return (sizes < DWARFED * typical).tolist()  # type: ignore[no-any-return]


def oversized(reads: Sequence[IndexRead]) -> list[bool]:
    """For each read, whether it is much larger (over 1 / ``DWARFED``) than the indices
    read within a card height of it, itself among them (their median size): a fragment of
    a picture (a queen's robe read as a 41 px "9" next to 23 px indices)."""
    sizes, typical = sizes_near([r.candidate for r in reads], reads)
    return (sizes * DWARFED > typical).tolist()  # type: ignore[no-any-return]


def sizes_near(
    candidates: Sequence[IndexCandidate], reads: Sequence[IndexRead]
) -> tuple[np.ndarray, np.ndarray]:
    """The glyph sizes of ``candidates`` and the median size of the ``reads`` within a card
    height of each (by the read's size; NaN where no read is near)."""
    sizes = np.array([c.glyph_size for c in candidates], np.float64)
    if not candidates or not reads:
        return sizes, np.full(len(candidates), np.nan)
    centres = np.array([c.center for c in candidates])
    read_centres = np.array([r.candidate.center for r in reads])
    read_sizes = np.array([r.candidate.glyph_size for r in reads])
    distances = np.linalg.norm(centres[:, None, :] - read_centres[None, :, :], axis=2)
    near = distances < CARD_PER_GLYPH * read_sizes[None, :]
    return sizes, row_medians(read_sizes, near)


def row_medians(values: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """For each row of the bool ``chosen``, the median of the ``values`` it marks (NaN where
    it marks none): what ``np.nanmedian`` of the values with NaN elsewhere gives, without its
    masked arrays (a third of a millisecond per call on a deal frame).

    >>> row_medians(np.array([4.0, 1.0, 3.0, 2.0]),
    ...             np.array([[1, 1, 1, 1], [1, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]], bool))
    array([2.5, 3.5, 1. , nan])
    """
    counts = chosen.sum(axis=1)
    ordered = np.sort(np.where(chosen, values[None, :], np.inf), axis=1)
    rows = np.arange(len(chosen))
    low = ordered[rows, np.maximum(counts - 1, 0) // 2]
    high = ordered[rows, counts // 2]
    return np.where(counts > 0, (low + high) / 2, np.nan)
