"""Find corner indices (a rank glyph with its suit pip below) anywhere in a frame: the
index-candidate stage of the card reader (:mod:`vision.pipeline`, :func:`index_candidates`).

The reader works on ink, not on card outlines, so a card of which only a corner
shows is read as well as a whole one:

1. ink is what is clearly darker than its surroundings in the per-pixel minimum
   of B, G and R (black and red print alike); each connected blob of ink that is
   ringed by card white is a glyph candidate, so table texture drops out;
2. a rank (one blob, or two side by side for "10") and a smaller suit blob close
   to it form a candidate index; the direction from the rank to the suit is the
   card's "down", which fixes any rotation including upside down;
3. both glyphs are rotated upright, cropped tight and scaled to small fixed
   patches, twice: splatted from the glyph's binary mask, and sampled from the grey
   levels of the darkest channel (which keep the anti-aliasing of a 7 px glyph's thin
   strokes); those are the features the glyph model (:mod:`vision.glyphs`) reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from vision.light import (
    INK_CONTRAST,
    LitFrame,
    LocalLight,
    card_white_level,
    darkest_channel,
    local_light,
)
from vision.outline import Quad, grown_quads

#: Rank glyph patch (width, height) and suit glyph patch size, in pixels.
RANK_PATCH = (14, 20)
SUIT_PATCH = (14, 14)
#: Feature lengths: rank patch, aspect, two layout values and holes; suit patch and aspect.
RANK_FEATURES = RANK_PATCH[0] * RANK_PATCH[1] + 4
SUIT_FEATURES = SUIT_PATCH[0] * SUIT_PATCH[1] + 1
#: Where in the rank features the index layout (distance and suit size) lies.
RANK_LAYOUT = slice(RANK_PATCH[0] * RANK_PATCH[1] + 1, RANK_PATCH[0] * RANK_PATCH[1] + 3)
#: Glyph height range in frame pixels that the reader looks for.
GLYPH_PIXELS = (6, 90)
#: Smallest suit pip (pixels) looked for next to a small rank: with a camera far from the
#: table a pip is only 3-5 px, too small to read but enough to call for a closer look.
TINY_SUIT = 3
#: Side (odd) of the square the local mean is taken over; pips up to about this size stay solid.
INK_BLOCK = 25
#: Blur (in patch pixels) applied to rank and to suit patches (suit pips are small and
#: their details matter), and weight of the aspect ratio feature.
RANK_BLUR = 2.0
SUIT_BLUR = 1.2
#: The same for the grey-level patches (sampled, so already smooth).
GREY_RANK_BLUR = 1.0
GREY_SUIT_BLUR = 0.6
ASPECT_WEIGHT = 0.3
#: Weight of the index layout (rank-to-suit distance and suit size, over rank height)
#: appended to the rank features: an index has a typical layout, pips paired by chance not.
GEOMETRY_WEIGHT = 1.0
#: Weight of the rank glyph's number of holes (0 to 2: a 5 has none, a 6 one, an 8 two),
#: which the blurred patch alone blurs away when a 5's bowl nearly closes.
HOLE_WEIGHT = 0.4
#: Smallest hole, as a share of the glyph's bounding box, that counts.
HOLE_SHARE = 0.02
#: Distance from rank centre to suit centre, in rank glyph sizes.
PAIR_DISTANCE = (0.7, 1.4)
#: ... where the rank's size is the longest side of its box; a rank turned on the slant
#: (a thin 7 at 45 degrees) reaches further along the way to its suit than its box is
#: wide, so when reading a frame a suit up to this many box sizes away pairs when it lies
#: within ``PAIR_DISTANCE`` of the rank's own extent along that way.
PAIR_REACH = 1.9
#: Glyphs smaller than this (pixels) are read again from an area enlarged ``ENLARGE`` times.
SMALL_GLYPH = 14
#: Card height over rank-glyph size (about 10 to 14 on common decks).
CARD_PER_GLYPH = 11.5
ENLARGE = 3
#: Blob sizes looked for in an enlarged area: the small glyphs only (the rest were read).
ENLARGED_SIZES = (GLYPH_PIXELS[0], int(1.3 * SMALL_GLYPH * ENLARGE))
#: Ink window in an enlarged area, wider so enlarged pips (up to about 30 px) stay solid
#: (with the frame's 25 px window a 3x enlarged pip broke into pieces).
ENLARGED_INK_BLOCK = 37
#: The enlarged area reaches this many glyph sizes each way from a small candidate.
CLOSER_LOOK_REACH = 2.5
#: A sharpened enlarged area gets this many times its detail finer than one frame pixel
#: added (an unsharp mask of sigma ``ENLARGE`` enlarged pixels).
SHARPEN = 2.0
#: Card white is in full light where its darkest channel closed over this many frame
#: pixels (print filled in) is at the frame's white level.
LIGHT_WINDOW = 13
#: Fraction of the ring around a glyph that must be card white.
WHITE_RING = 0.55
#: A card left out of the search is taken as its outline grown this many times about its
#: centre (the outline lies a few pixels inside its rounded corners).
LEFT_OUT_GROWTH = 1.1


@dataclass(eq=False, slots=True)
class IndexCandidate:
    """A possible corner index: where it is, which way is up, and its glyph features.

    ``rank_features`` and ``suit_features`` hold the binary patches (splatted from the
    glyph masks), ``rank_grey`` and ``suit_grey`` the same features with the grey-level
    patches instead (``None`` for a candidate made without them). Not changed once made
    (a moved copy is :func:`dataclasses.replace`'s); not frozen, as a frozen dataclass
    takes about 3 us longer to make (95-240 are made per frame); compared by identity (the
    stages key candidates by ``id``).
    """

    rank_center: tuple[float, float]
    suit_center: tuple[float, float]
    up: tuple[float, float]
    glyph_size: float
    suit_size: float
    rank_features: np.ndarray
    suit_features: np.ndarray
    redness: float
    rank_blobs: tuple[int, ...]
    suit_blob: int
    rank_grey: np.ndarray | None = None
    suit_grey: np.ndarray | None = None

    @property
    def center(self) -> tuple[float, float]:
        """The centre of the index (between the rank and the suit)."""
        return (
            (self.rank_center[0] + self.suit_center[0]) / 2,
            (self.rank_center[1] + self.suit_center[1]) / 2,
        )


class InkBlobs:
    """Connected ink blobs of a frame (or of a region of it) that are ringed by card white.

    Blob ``i`` has label ``ids[i]`` in ``labels``, bounding box ``boxes[i]``
    (x, y, w, h in region pixels), centre ``centers[i]`` and longest side
    ``sizes[i]`` (both in frame pixels). ``origin`` is the region's top-left corner;
    ``darkest`` the region's darkest channel; ``white`` its local white threshold
    (:func:`~vision.light.local_light`) and ``level`` the white level it was made with.
    """

    def __init__(
        self,
        region_bgr: np.ndarray,
        darkest: np.ndarray,
        origin: tuple[int, int],
        labels: np.ndarray,
        ids: np.ndarray,
        boxes: np.ndarray,
        centers: np.ndarray,
        sizes: np.ndarray,
        white: np.ndarray | None = None,
        level: float = 255.0,
    ) -> None:
        self.white = white
        self.level = level
        self.region_bgr = region_bgr
        self.darkest = darkest
        self.origin = origin
        self.labels = labels
        self.ids = ids
        self.boxes = boxes
        self.centers = centers
        self.sizes = sizes

    def __len__(self) -> int:
        return len(self.ids)

    def shades(self, chosen: np.ndarray) -> np.ndarray:
        """For blobs ``chosen``, how much lower than the white level the local white
        threshold is at their centres: 1 in full light, about 1.7 in a shadow at half the
        light (ink's redness falls with the light by about as much)."""
        if self.white is None:
            return np.ones(len(chosen))
        height, width = self.white.shape
        x, y = (self.centers[chosen] - self.origin).T
        local = self.white[
            np.clip(np.round(y).astype(np.int64), 0, height - 1),
            np.clip(np.round(x).astype(np.int64), 0, width - 1),
        ]
        return np.asarray(np.maximum(1.0, self.level / np.maximum(local, 1).astype(np.float64)))


#: Tiles up to these widths (blob box plus border) are stacked in columns of their own, so
#: a wide blob does not widen the tiles of the many narrow ones.
TILE_WIDTHS = (16, 32, 64)


class BlobPixels:
    """The pixels of chosen blobs of :class:`InkBlobs`, blob after blob in flat arrays:
    region coordinates ``xs`` and ``ys``, each blob's run ``starts`` and ``counts``,
    ``row``, the run of each blob (-1 where not chosen), and ``holes``, how many holes
    (enclosed gaps of at least ``HOLE_SHARE`` of its box) each run's blob has; ``darkest``
    is the region's darkest channel.
    """

    def __init__(self, blobs: InkBlobs, chosen: np.ndarray) -> None:
        width_class = np.searchsorted(TILE_WIDTHS, blobs.boxes[chosen, 2] + 2)
        chosen = chosen[np.argsort(width_class, kind="stable")]
        columns = [
            tile_column(blobs, part)
            for part in np.split(chosen, np.cumsum(np.bincount(width_class))[:-1])
            if len(part)
        ]
        self.xs, self.ys, self.counts, self.holes = (
            np.concatenate([column[n] for column in columns]) for n in range(4)
        )
        self.starts = np.cumsum(self.counts) - self.counts
        self.row = np.full(len(blobs), -1, np.int64)
        self.row[chosen] = np.arange(len(chosen))
        self.region_bgr = blobs.region_bgr
        self.darkest = blobs.darkest

    def runs(self, blobs: np.ndarray) -> np.ndarray:
        """Indices into ``xs`` and ``ys`` of the pixels of ``blobs``, one run after another."""
        rows = self.row[blobs]
        counts = self.counts[rows]
        shift = self.starts[rows] - (np.cumsum(counts) - counts)
        return np.repeat(shift, counts) + np.arange(int(counts.sum()))

    def redness(self, blobs: np.ndarray) -> np.ndarray:
        """How much redder than grey each blob's ink is (about 0 for black, 60+ for red)."""
        unique, inverse = np.unique(blobs, return_inverse=True)
        points = self.runs(unique)
        flat = self.ys[points] * self.region_bgr.shape[1] + self.xs[points]
        pixels = np.take(self.region_bgr.reshape(-1, 3), flat, axis=0).astype(np.int32)
        redness = pixels[:, 2] - np.maximum(pixels[:, 0], pixels[:, 1])
        counts = self.counts[self.row[unique]]
        per_blob = np.add.reduceat(redness, np.cumsum(counts) - counts) / counts
        return np.asarray(per_blob[inverse], dtype=np.float64)


Region = tuple[int, int, int, int]


def find_ink_blobs(
    frame_bgr: np.ndarray,
    region: Region | None = None,
    white_level: float | None = None,
    sizes: tuple[int, int] = GLYPH_PIXELS,
    block: int = INK_BLOCK,
    darkest: np.ndarray | None = None,
    learning: bool = False,
    left_out: Sequence[Quad] = (),
    contrast: int = INK_CONTRAST,
    light: LocalLight | None = None,
) -> InkBlobs:
    """Glyph-sized ink blobs ringed by card white.

    ``region`` (x, y, width, height) restricts the search to part of the frame;
    ``white_level`` (see :func:`~vision.light.card_white_level`) is then best taken from the
    whole frame. Blobs ``sizes`` (shortest, longest) pixels long are kept; ink is
    what is darker than the mean of the ``block`` pixels square around it. ``darkest``
    is the frame's darkest channel if already at hand (:class:`~vision.light.LitFrame`).
    Ink is what lies the local ink level (:func:`~vision.light.local_light`, measured as
    for ``learning`` drawings if asked) under that mean. The cards ``left_out`` (outlines
    in frame pixels, grown by ``LEFT_OUT_GROWTH``) count as no card white, so no ink is
    found on them. ``contrast``: the ink contrast asked for in full light (the local ink
    level scaled with it); ``light``: the frame's local light if already at hand (without
    ``region``).
    """
    ox, oy = 0, 0
    if region is not None:
        ox, oy, rw, rh = region
        frame_bgr = frame_bgr[oy : oy + rh, ox : ox + rw]
        if darkest is not None:
            darkest = darkest[oy : oy + rh, ox : ox + rw]
    if darkest is None:
        darkest = darkest_channel(frame_bgr)
    darkest = np.ascontiguousarray(darkest)
    level = card_white_level(darkest) if white_level is None else white_level
    if light is None:
        light = local_light(frame_bgr, darkest, level, learning)
    white = cv2.compare(darkest, light.white, cv2.CMP_GT)
    if left_out:
        cv2.fillPoly(white, grown_quads(left_out, LEFT_OUT_GROWTH, (ox, oy)), 0)
    # Ink: at least the local ink contrast below the mean of the block around it (what
    # cv2.adaptiveThreshold's mean method gives, without its per-pixel table lookup).
    mean = cv2.boxFilter(
        darkest, -1, (block, block), borderType=cv2.BORDER_REPLICATE | cv2.BORDER_ISOLATED
    )
    below = cv2.subtract(mean, darkest)
    if light.ink is None:
        _, ink = cv2.threshold(below, contrast - 1, 255, cv2.THRESH_BINARY)
    else:
        levels = light.ink
        if contrast != INK_CONTRAST:
            levels = cv2.convertScaleAbs(levels, alpha=contrast / INK_CONTRAST)
        ink = cv2.compare(below, levels, cv2.CMP_GE)
    # Ink near card white: more than 60 white pixels in the 15 x 15 square around it
    # (the normalised box mean of 0/255 is then at least round(61 * 255 / 225) = 69).
    _, near_white = cv2.threshold(cv2.boxFilter(white, cv2.CV_8U, (15, 15)), 68, 255, 0)
    ink = cv2.bitwise_and(ink, near_white)
    _, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        ink, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    x, y, w, h, area = (stats[:, i] for i in range(5))
    longest = np.maximum(w, h)
    plausible = (area >= min(12, 2 * sizes[0])) & (longest >= sizes[0]) & (longest <= sizes[1])
    plausible[0] = False
    ids = np.nonzero(plausible)[0]
    integral = cv2.integral(white, sdepth=cv2.CV_32S)
    height, width = darkest.shape
    xi, yi, wi, hi = x[ids], y[ids], w[ids], h[ids]
    margin = np.maximum(2, (longest[ids] * 0.15).astype(np.int64))
    x0 = np.clip(xi - margin, 0, width)
    y0 = np.clip(yi - margin, 0, height)
    x1 = np.clip(xi + wi + margin, 0, width)
    y1 = np.clip(yi + hi + margin, 0, height)
    corners = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    white_count = corners // 255
    ring = (x1 - x0) * (y1 - y0) - area[ids]
    ringed = white_count >= WHITE_RING * np.maximum(ring, 1)
    # A blob touching the picture's edge may be a glyph cut in half (a "J" from the top of
    # a card running off the frame): not a glyph to read.
    whole = (xi > 0) & (yi > 0) & (xi + wi < width) & (yi + hi < height)
    ids = ids[ringed & whole]
    boxes = stats[ids, :4].astype(np.int64)
    centers = centroids[ids] + (ox, oy)
    return InkBlobs(
        frame_bgr,
        darkest,
        (ox, oy),
        labels,
        ids,
        boxes,
        centers,
        longest[ids].astype(np.float64),
        light.white,
        level,
    )


def tile_column(
    blobs: InkBlobs, chosen: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pixels (xs, ys, blob after blob), pixel counts and hole counts of blobs ``chosen``.

    Their masks are stacked in one column of tiles (a blob's box with one pixel of border,
    a wall row between tiles), so one ``nonzero`` finds every pixel, and one labelling of
    the gaps (border included) of the tiles that have any hole measures every hole.
    """
    boxes = blobs.boxes[chosen]
    heights = boxes[:, 3] + 2
    tops = np.cumsum(heights + 1) - heights - 1
    width = int(boxes[:, 2].max()) + 2
    mask = np.zeros((int(tops[-1] + heights[-1]), width), bool)
    for blob, top, (x, y, w, h) in zip(chosen.tolist(), tops.tolist(), boxes.tolist(), strict=True):
        np.equal(
            blobs.labels[y : y + h, x : x + w],
            blobs.ids[blob],
            out=mask[top + 1 : top + h + 1, 1 : w + 1],
        )
    # The tile of each row (a wall row counted with the tile above it).
    row_tile = np.repeat(np.arange(len(chosen)), heights + 1)[: len(mask)]
    tile_rows, tile_columns = np.divmod(np.flatnonzero(mask), width)
    tile = row_tile[tile_rows]
    xs = tile_columns + (boxes[:, 0] - 1)[tile]
    ys = tile_rows + (boxes[:, 1] - 1 - tops)[tile]
    counts = np.bincount(tile, minlength=len(chosen))
    # A tile holds one 8-connected blob, so it has 1 - (its Euler number) holes; only tiles
    # with some hole have their gaps labelled, to leave out holes under ``HOLE_SHARE``.
    holes = 1 - euler_numbers(mask, row_tile, len(chosen))
    rows = np.flatnonzero((holes > 0)[row_tile])
    if len(rows):
        holed_tile = row_tile[rows]
        in_tile = rows - tops[holed_tile] < heights[holed_tile]
        row_widths = np.where(in_tile, boxes[holed_tile, 2] + 2, 0)
        gaps = (np.arange(width) < row_widths[:, None]) & ~mask[rows]
        _, _, stats, _ = cv2.connectedComponentsWithStats(gaps.view(np.uint8), connectivity=4)
        owner = holed_tile[stats[1:, cv2.CC_STAT_TOP]]
        large = stats[1:, cv2.CC_STAT_AREA] >= HOLE_SHARE * (boxes[:, 2] * boxes[:, 3])[owner]
        # Less one per tile: the gap around the blob.
        measured = np.bincount(owner[large], minlength=len(chosen)) - 1
        holes = np.where(holes > 0, measured, 0)
    return xs, ys, counts, holes


#: Each 2 x 2 pattern of a mask by its code (top left 1, top right 2, bottom left 4, bottom
#: right 8), and what it adds to four times the Euler number (8-connected), plus 2 so it is
#: a byte: +1 for one set cell, -1 for three, -2 for two on a diagonal (Gray's bit quads).
QUAD_CODE = np.array([[1, 2], [4, 8]], np.float32)
QUAD_EULER = np.full(256, 2, np.uint8)
QUAD_EULER[:16] = np.array([2, 3, 3, 2, 3, 2, 0, 1, 3, 0, 2, 1, 2, 1, 1, 2], np.uint8)


def euler_numbers(mask: np.ndarray, row_tile: np.ndarray, tiles: int) -> np.ndarray:
    """The Euler number (components less holes, 8-connected) of each of ``tiles`` tiles of
    the bool ``mask`` whose rows belong to tile ``row_tile`` (tiles apart by an empty row,
    an empty last row and column).

    >>> ring = np.zeros((5, 5), bool); ring[1:4, 1:4] = True; ring[2, 2] = False
    >>> bars = np.zeros((5, 5), bool); bars[1:4, 1] = True; bars[1:4, 3] = True
    >>> euler_numbers(np.vstack([ring, np.zeros((1, 5), bool), bars]),
    ...               np.repeat([0, 1], [6, 5]), 2).tolist()
    [0, 2]
    """
    codes = cv2.filter2D(mask.view(np.uint8), -1, QUAD_CODE, anchor=(0, 0),
                         borderType=cv2.BORDER_CONSTANT)
    sums = cv2.reduce(cv2.LUT(codes, QUAD_EULER), 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)
    fours = sums[:, 0].astype(np.int64) - 2 * mask.shape[1]
    return np.bincount(row_tile, weights=fours, minlength=tiles).astype(np.int64) // 4


def rank_groups(
    centres: np.ndarray, sizes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Possible rank glyphs: single blobs and side-by-side pairs of equal height ("10").

    Takes the blobs' centres and sizes; returns the groups' members (indices into those,
    one row per group, -1 in the second column of a single blob), centres and sizes.
    """
    # Two blobs of a "10" are within 0.95 of the larger one's size, at most 1.3 times the
    # smaller's: only blobs that near along x are compared.
    first, second = pairs_near(centres, 0.95 * 1.3 * sizes, centres)
    ahead = first < second
    first, second = first[ahead], second[ahead]
    offsets = centres[first] - centres[second]
    distance = np.sqrt(offsets[:, 0] * offsets[:, 0] + offsets[:, 1] * offsets[:, 1])
    larger = np.maximum(sizes[first], sizes[second])
    ratio = larger / np.minimum(sizes[first], sizes[second])
    close = (distance < 0.95 * larger) & (ratio < 1.3)
    first, second, larger = first[close], second[close], larger[close]
    singles = np.column_stack((np.arange(len(sizes)), np.full(len(sizes), -1)))
    groups = np.vstack([singles, np.column_stack((first, second))])
    group_centres = np.vstack([centres, (centres[first] + centres[second]) / 2])
    group_sizes = np.concatenate([sizes, larger])
    return groups, group_centres, group_sizes


def pairs_near(
    points: np.ndarray, reach: np.ndarray, others: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs (i, j), ordered by i then j, of the ``others[j]`` whose x lies within
    ``reach[i]`` of the x of ``points[i]``: every pair closer than that reach, and few
    more (points are (x, y) rows).

    >>> pairs_near(np.array([[0.0, 0], [10, 0]]), np.array([3.0, 3]),
    ...            np.array([[11.0, 50], [1, 0], [30, 0]]))
    (array([0, 1]), array([1, 0]))
    """
    order = np.argsort(others[:, 0], kind="stable")
    xs = others[order, 0]
    low = np.searchsorted(xs, points[:, 0] - reach, "left")
    counts = np.searchsorted(xs, points[:, 0] + reach, "right") - low
    rows = np.repeat(np.arange(len(points)), counts)
    starts = np.repeat(low - (np.cumsum(counts) - counts), counts)
    columns = order[np.arange(len(rows)) + starts]
    # Each (i, j) once: sorting one key i * n + j orders by i, then j.
    keys = np.sort(rows * len(others) + columns)
    return np.divmod(keys, len(others))


#: A test of rank-suit pairs (rank centres, suit centres: n x 2 each) giving n bools.
PairTest = Callable[[np.ndarray, np.ndarray], np.ndarray]

#: Where small glyphs may be: (centre (x, y), glyph size) in frame pixels.
Spot = tuple[tuple[float, float], float]


@dataclass(frozen=True)
class Candidates:
    """What the index-candidate stage hands on: every candidate at the frame's own size,
    small ranks paired with suits down to ``TINY_SUIT`` pixels (``all``; those only call for
    a closer look), and the white level they were found with."""

    all: list[IndexCandidate]
    white_level: float

    @property
    def readable(self) -> list[IndexCandidate]:
        """The candidates whose suit pip is large enough to read."""
        return [c for c in self.all if c.suit_size >= GLYPH_PIXELS[0]]

    @property
    def small(self) -> list[IndexCandidate]:
        """The candidates whose glyphs are small enough to need a closer look."""
        return [c for c in self.all if c.glyph_size < SMALL_GLYPH]


def index_candidates(
    lit: LitFrame,
    region: Region | None = None,
    white_level: float | None = None,
    learning: bool = False,
    left_out: Sequence[Quad] = (),
) -> Candidates:
    """The index-candidate stage: every rank-over-suit pairing of ink blobs in the frame (or
    in ``region`` of it) at its own size, with upright glyph features. ``white_level``
    defaults to the frame's (the region's, with ``region``); ``learning`` and ``left_out``
    (cards read already) as for :func:`candidates_at_scale`. The whole frame at its own
    white level is searched under the frame's local light (:attr:`LitFrame.local`, made once)."""
    if white_level is None:
        white_level = lit.white_level if region is None else region_white_level(lit, region)
    whole = region is None and not learning and white_level == lit.white_level
    found = candidates_at_scale(
        lit.bgr,
        region,
        white_level,
        (TINY_SUIT, GLYPH_PIXELS[1]),
        darkest=lit.darkest,
        learning=learning,
        left_out=left_out,
        light=lit.local if whole else None,
    )
    return Candidates(found, white_level)


def find_index_candidates(
    frame_bgr: np.ndarray,
    region: Region | None = None,
    white_level: float | None = None,
) -> list[IndexCandidate]:
    """The readable candidates of a frame as it is (no white balance), the small ones
    replaced by what their areas show enlarged ``ENLARGE`` times (every small candidate
    looked at closer): what the glyph models are built from (``learning`` rules, see
    :func:`candidates_at_scale`).

    ``region`` and ``white_level`` are as for :func:`find_ink_blobs`.
    """
    found = index_candidates(LitFrame(frame_bgr), region, white_level, learning=True)
    readable, small = found.readable, found.small
    if not small:
        return readable
    areas = small_glyph_areas(spots_of(small), frame_bgr.shape[:2])
    kept = [c for c in readable if c.glyph_size >= SMALL_GLYPH or area_of(c.center, areas) is None]
    return kept + enlarged_candidates(frame_bgr, areas, found.white_level, learning=True)


def region_white_level(lit: LitFrame, region: Region) -> float:
    """:func:`~vision.light.card_white_level` of ``region`` (x, y, width, height)."""
    x, y, width, height = region
    return card_white_level(lit.darkest[y : y + height, x : x + width])


def spots_of(candidates: Sequence[IndexCandidate]) -> list[Spot]:
    """The spots (centre, glyph size) of candidate indices."""
    return [(c.center, c.glyph_size) for c in candidates]


def enlarged_candidates(
    frame_bgr: np.ndarray,
    areas: Sequence[Region],
    white_level: float,
    learning: bool = False,
    longest: Sequence[int] = (),
    sharpened: bool = False,
    first: int = 1,
) -> list[IndexCandidate]:
    """The candidates in ``areas`` of the frame enlarged ``ENLARGE`` times, in frame pixels
    (``learning`` as for :func:`candidates_at_scale`). ``longest``: per area, the longest
    blob looked for (enlarged pixels; ``ENLARGED_SIZES`` where not given); ``sharpened``:
    the areas sharpened in full light (:func:`enlarged_area`); ``first``: the first area's
    number (blob numbers stay unique between two calls on one frame)."""
    fresh: list[IndexCandidate] = []
    for number, (x, y, width, height) in enumerate(areas, start=first):
        crop = frame_bgr[y : y + height, x : x + width]
        enlarged = enlarged_area(crop, white_level if sharpened else None)
        sizes = (ENLARGED_SIZES[0], longest[number - first]) if longest else ENLARGED_SIZES
        found = candidates_at_scale(
            enlarged, None, white_level, sizes, ENLARGED_INK_BLOCK, learning=learning
        )
        fresh.extend(shrunk(candidate, (x, y), number) for candidate in found)
    return fresh


def enlarged_area(crop: np.ndarray, lit_above: float | None = None) -> np.ndarray:
    """``crop`` enlarged ``ENLARGE`` times (cubic); given ``lit_above``, sharpened by
    ``SHARPEN`` where its local light (the darkest channel closed over ``LIGHT_WINDOW``
    frame pixels) is at least that: a far camera's thin index strokes blur to a faint grey
    that the ink threshold breaks into pieces (a Q found as a 6 px blob), while sharpened
    card white in a shadow read an 8d as an 8h."""
    enlarged = cv2.resize(crop, None, fx=ENLARGE, fy=ENLARGE, interpolation=cv2.INTER_CUBIC)
    if lit_above is None:
        return np.asarray(enlarged)
    soft = cv2.GaussianBlur(enlarged, (0, 0), ENLARGE)
    sharp = cv2.addWeighted(enlarged, 1 + SHARPEN, soft, -SHARPEN, 0)
    window = np.ones((LIGHT_WINDOW, LIGHT_WINDOW), np.uint8)
    light = cv2.morphologyEx(darkest_channel(crop), cv2.MORPH_CLOSE, window)
    size = (enlarged.shape[1], enlarged.shape[0])
    lit = cv2.resize(light, size, interpolation=cv2.INTER_NEAREST) >= lit_above
    return np.where(lit[:, :, None], sharp, enlarged)


def small_glyph_areas(spots: Sequence[Spot], frame_shape: tuple[int, ...]) -> list[Region]:
    """Boxes (x, y, width, height) around spots of small glyphs, overlapping ones merged."""
    height, width = frame_shape[:2]
    cell = 8
    mask = np.zeros((height // cell + 1, width // cell + 1), np.uint8)
    for centre, glyph_size in spots:
        reach = CLOSER_LOOK_REACH * glyph_size
        x0, y0 = (max(0, int((v - reach) // cell)) for v in centre)
        x1, y1 = (int((v + reach) // cell) + 1 for v in centre)
        mask[y0:y1, x0:x1] = 1
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return [
        (
            int(x * cell),
            int(y * cell),
            int(min(w * cell, width - x * cell)),
            int(min(h * cell, height - y * cell)),
        )
        for x, y, w, h, _ in stats[1:count]
    ]


def area_of(point: tuple[float, float], areas: Sequence[Region]) -> int | None:
    """The number of the first box (x, y, width, height) of ``areas`` that holds ``point``."""
    px, py = point
    return next(
        (n for n, (x, y, w, h) in enumerate(areas) if x <= px < x + w and y <= py < y + h), None
    )


def shrunk(candidate: IndexCandidate, origin: tuple[int, int], area: int) -> IndexCandidate:
    """A candidate found in an enlarged area, in frame pixels; blob numbers made unique per area."""

    def point(xy: tuple[float, float]) -> tuple[float, float]:
        return (origin[0] + xy[0] / ENLARGE, origin[1] + xy[1] / ENLARGE)

    return replace(
        candidate,
        rank_center=point(candidate.rank_center),
        suit_center=point(candidate.suit_center),
        glyph_size=candidate.glyph_size / ENLARGE,
        suit_size=candidate.suit_size / ENLARGE,
        rank_blobs=tuple(-(area << 24) - blob for blob in candidate.rank_blobs),
        suit_blob=-(area << 24) - candidate.suit_blob,
    )


def candidates_at_scale(
    frame_bgr: np.ndarray,
    region: Region | None,
    white_level: float,
    sizes: tuple[int, int] = GLYPH_PIXELS,
    block: int = INK_BLOCK,
    darkest: np.ndarray | None = None,
    learning: bool = False,
    left_out: Sequence[Quad] = (),
    keep: PairTest | None = None,
    contrast: int = INK_CONTRAST,
    light: LocalLight | None = None,
) -> list[IndexCandidate]:
    """The candidates of a frame at its own size, without the closer look at small glyphs.

    Ink blobs ``sizes`` (shortest, longest) pixels long are considered (ink as
    :func:`find_ink_blobs` finds it with ``block``); ranks under
    ``GLYPH_PIXELS[0]`` are not, and suits under it only next to ranks under
    ``SMALL_GLYPH`` pixels (see ``TINY_SUIT``). ``learning``: the candidates the glyph
    models learn from, cut by the rules the shipped model was built with (ink at the fixed
    contrast, suits within ``PAIR_DISTANCE`` of the rank's box); reading a frame, ink
    follows the light and a rank on the slant reaches up to ``PAIR_REACH``. ``left_out``:
    cards not to look at, ``contrast`` and ``light`` (see :func:`find_ink_blobs`).
    """
    blobs = find_ink_blobs(
        frame_bgr, region, white_level, sizes, block, darkest, learning, left_out, contrast, light
    )
    if len(blobs) < 2:
        return []
    rank_sized = np.nonzero(blobs.sizes >= GLYPH_PIXELS[0])[0]
    groups, group_centres, group_sizes = rank_groups(
        blobs.centers[rank_sized], blobs.sizes[rank_sized]
    )
    groups = np.where(groups >= 0, rank_sized[groups], -1)
    reach = PAIR_DISTANCE[1] if learning else PAIR_REACH
    rank_index, suit_index = pairs_near(group_centres, reach * group_sizes, blobs.centers)
    offsets = blobs.centers[suit_index] - group_centres[rank_index]
    distance = np.sqrt(offsets[:, 0] * offsets[:, 0] + offsets[:, 1] * offsets[:, 1])
    rank_size, suit_size = group_sizes[rank_index], blobs.sizes[suit_index]
    ratio = rank_size / suit_size
    near = distance < PAIR_DISTANCE[1] * rank_size
    # Further suits only for single-blob ranks whose box reaches that far along the way.
    first = groups[rank_index, 0]
    box_reach = np.abs(offsets[:, 0]) * blobs.boxes[first, 2] + np.abs(
        offsets[:, 1]
    ) * blobs.boxes[first, 3]
    slanted = (groups[rank_index, 1] < 0) & (
        distance * distance < PAIR_DISTANCE[1] * box_reach
    )
    paired = (
        (ratio > 1.0)
        & (ratio < 2.8)
        & (distance > PAIR_DISTANCE[0] * rank_size)
        & (near | (slanted & (distance < reach * rank_size)))
        & ((suit_size >= GLYPH_PIXELS[0]) | (rank_size < SMALL_GLYPH))
        & (groups[rank_index] != suit_index[:, None]).all(axis=1)
    )
    if keep is not None:
        paired &= keep(group_centres[rank_index], blobs.centers[suit_index])
    if not paired.any():
        return []
    rank_index, suit_index = rank_index[paired], suit_index[paired]
    distance, near = distance[paired], near[paired]
    downs = offsets[paired] / distance[:, None]
    pixels = BlobPixels(blobs, np.unique(np.concatenate([groups[rank_index].ravel(), suit_index])))
    if not near.all():
        far = np.flatnonzero(~near)
        extent = extents_along(pixels, groups[rank_index[far]], downs[far])
        near[far] = distance[far] < PAIR_DISTANCE[1] * extent
        rank_index, suit_index = rank_index[near], suit_index[near]
        distance, downs = distance[near], downs[near]
        if not len(distance):
            return []
    rank_glyphs = groups[rank_index]
    suit_glyphs = np.column_stack((suit_index, np.full(len(suit_index), -1)))
    ranks, ranks_grey, rank_heights = upright_glyphs(
        pixels, blobs.sizes, rank_glyphs, downs, RANK_PATCH, (RANK_BLUR, GREY_RANK_BLUR)
    )
    suits, suits_grey, suit_heights = upright_glyphs(
        pixels, blobs.sizes, suit_glyphs, downs, SUIT_PATCH, (SUIT_BLUR, GREY_SUIT_BLUR)
    )
    layout = GEOMETRY_WEIGHT * np.column_stack(
        (
            distance / rank_heights,
            suit_heights / rank_heights,
        )
    )
    holes = HOLE_WEIGHT * np.minimum(2, glyph_holes(pixels, rank_glyphs)).astype(np.float32)
    ranks = np.hstack([ranks, layout.astype(np.float32), holes[:, None]])
    ranks_grey = np.hstack([ranks_grey, layout.astype(np.float32), holes[:, None]])
    redness = (pixels.redness(suit_index) * blobs.shades(suit_index)).tolist()
    rank_x, rank_y = group_centres[rank_index].T.tolist()
    suit_x, suit_y = blobs.centers[suit_index].T.tolist()
    up_x, up_y = (-downs).T.tolist()
    members = np.where(groups >= 0, blobs.ids[groups], -1)[rank_index].tolist()
    # The fields in IndexCandidate's order, one candidate per position.
    return list(
        map(
            IndexCandidate,
            zip(rank_x, rank_y, strict=True),
            zip(suit_x, suit_y, strict=True),
            zip(up_x, up_y, strict=True),
            group_sizes[rank_index].tolist(),
            blobs.sizes[suit_index].tolist(),
            ranks,
            suits,
            redness,
            [(first,) if second < 0 else (first, second) for first, second in members],
            blobs.ids[suit_index].tolist(),
            ranks_grey,
            suits_grey,
        )
    )


def extents_along(pixels: BlobPixels, glyphs: np.ndarray, downs: np.ndarray) -> np.ndarray:
    """How far each glyph (a row of member blobs, -1 for none) reaches along ``downs[i]``,
    in pixels (its pixel centres' spread plus one)."""
    member = glyphs >= 0
    runs = (pixels.counts[pixels.row[glyphs]] * member).sum(axis=1)
    points = pixels.runs(glyphs[member])
    along = pixels.xs[points] * np.repeat(downs[:, 0], runs) + pixels.ys[points] * np.repeat(
        downs[:, 1], runs
    )
    starts = np.cumsum(runs) - runs
    return np.asarray(
        np.maximum.reduceat(along, starts) - np.minimum.reduceat(along, starts) + 1.0, np.float64
    )


def glyph_holes(pixels: BlobPixels, glyphs: np.ndarray) -> np.ndarray:
    """The number of holes of each glyph (rows of member blobs, -1 for none): the sum over
    the blobs it is made of."""
    holes = np.where(glyphs >= 0, pixels.holes[pixels.row[glyphs]], 0)
    return np.asarray(holes.sum(axis=1), np.int64)


@cache
def gaussian_matrix(size: int, sigma: float) -> np.ndarray:
    """The (size, size) matrix that blurs a vector of ``size`` values (zero beyond the ends);
    made once per size and blur, read-only."""
    positions = np.arange(size)
    kernel = np.exp(-0.5 * ((positions[:, None] - positions[None, :]) / sigma) ** 2)
    matrix = np.asarray(kernel / kernel.sum(axis=1, keepdims=True), dtype=np.float32)
    matrix.flags.writeable = False
    return matrix


#: Sub-pixel offsets: each glyph pixel is splatted as 2 x 2 points.
SUBPIXELS = np.array([(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)])


def upright_glyphs(
    pixels: BlobPixels,
    blob_sizes: np.ndarray,
    glyphs: np.ndarray,
    downs: np.ndarray,
    patch: tuple[int, int],
    blurs: tuple[float, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each glyph (a row of member blobs, -1 for none; their longest sides ``blob_sizes``)
    turned so ``downs[i]`` points down.

    Returns the glyph features with the binary patch (blurred by ``blurs[0]``), the same
    with the grey-level patch (:func:`grey_patches`, blurred by ``blurs[1]``), and the
    upright glyph heights in pixels. The binary patches are made in two batches: glyphs
    smaller than the patch are splatted 2 x 2 points per pixel, larger ones one point per
    pixel (see :func:`splat_glyphs`).
    """
    member = glyphs >= 0
    small = np.where(member, blob_sizes[glyphs], 0).max(axis=1) < patch[1]
    features = np.empty((len(glyphs), patch[0] * patch[1] + 1), np.float32)
    boxes = np.empty((len(glyphs), 4))
    for chosen, subpixels in ((small, SUBPIXELS), (~small, np.zeros((1, 2)))):
        if chosen.any():
            members = glyphs[chosen][member[chosen]]
            runs = pixels.counts[pixels.row[glyphs[chosen]]] * member[chosen]
            points = pixels.runs(members)
            features[chosen], boxes[chosen] = splat_glyphs(
                pixels.xs[points],
                pixels.ys[points],
                runs.sum(axis=1),
                downs[chosen],
                patch,
                subpixels,
                blurs[0],
            )
    grey = np.empty_like(features)
    grey[:, :-1] = grey_patches(pixels.darkest, downs, boxes, patch, blurs[1])
    grey[:, -1] = features[:, -1]
    return features, grey, boxes[:, 3]


#: The most map rows one ``cv2.remap`` call takes (OpenCV asks for fewer than 32767).
REMAP_ROWS = 32766


def grey_patches(
    darkest: np.ndarray,
    downs: np.ndarray,
    boxes: np.ndarray,
    patch: tuple[int, int],
    blur: float,
) -> np.ndarray:
    """The flat grey-level patches of upright glyph boxes: ``darkest`` sampled (bilinear)
    at the centres of a ``patch`` (width, height) grid over each box, ink as 255 less the
    grey, blurred by ``blur`` cells, zero mean and unit length.

    ``boxes`` rows are (u, v, width, height) in the upright frame of :func:`splat_glyphs`
    (u across, v along ``downs[i]``), in the pixel coordinates of ``darkest``.
    """
    columns, rows = patch
    glyphs = len(boxes)
    u = boxes[:, 0, None] + (np.arange(columns) + 0.5) / columns * boxes[:, 2, None]
    v = boxes[:, 1, None] + (np.arange(rows) + 0.5) / rows * boxes[:, 3, None]
    down_x, down_y = downs[:, 0, None, None], downs[:, 1, None, None]
    # Back from (u, v) = (x dy - y dx, x dx + y dy) to the frame's x and y.
    map_x = (u[:, None, :] * down_y + v[:, :, None] * down_x).astype(np.float32)
    map_y = (v[:, :, None] * down_y - u[:, None, :] * down_x).astype(np.float32)
    # cv2.remap takes maps under 32767 rows: so many glyphs at a time.
    step = REMAP_ROWS // rows
    sampled = np.concatenate([
        cv2.remap(
            darkest,
            map_x[start : start + step].reshape(-1, columns),
            map_y[start : start + step].reshape(-1, columns),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        for start in range(0, glyphs, step)
    ])
    ink = 255.0 - sampled.reshape(glyphs, rows, columns).astype(np.float32)
    return normalised(blurred(ink, blur))


def blurred(grids: np.ndarray, blur: float) -> np.ndarray:
    """Flat ``grids`` (glyphs, rows, columns) blurred by ``blur`` cells each way."""
    glyphs, rows, columns = grids.shape
    along = gaussian_matrix(rows, blur) @ grids
    # Blurred along the rows in one product for all glyphs (the same sums per value).
    return np.asarray(
        (along.reshape(glyphs * rows, columns) @ gaussian_matrix(columns, blur).T).reshape(
            glyphs, rows * columns
        )
    )


def normalised(flat: np.ndarray) -> np.ndarray:
    """Rows of ``flat`` (changed in place) at zero mean and unit length."""
    flat -= flat.sum(axis=1, keepdims=True) / flat.shape[1]
    flat /= np.sqrt(np.add.reduce(flat * flat, axis=1, keepdims=True)) + 1e-6
    return flat


def splat_glyphs(
    xs: np.ndarray,
    ys: np.ndarray,
    counts: np.ndarray,
    downs: np.ndarray,
    patch: tuple[int, int],
    subpixels: np.ndarray,
    blur: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Glyph features and upright boxes from pixel centres, in one batch.

    Glyph ``i``'s pixels are the next ``counts[i]`` of ``xs`` and ``ys``. Each glyph's
    pixels (each as the ``subpixels`` offsets) are rotated as
    points so ``downs[i]`` points down, cropped tight, splatted into a ``patch``
    (width, height) grid, blurred by ``blur`` and normalised to zero mean and unit length,
    which makes the match tolerant of stroke weight and ink contrast. Each row is
    the flat patch followed by ``ASPECT_WEIGHT`` times the glyph's width over height.
    The boxes are (u, v, width, height) rows: the tight box's corner across (u) and along
    (v) ``downs[i]`` and its size, in pixels.
    """
    columns, rows = patch
    glyphs = len(counts)
    # A row per sub-pixel offset, a column per pixel; per-glyph values spread over the columns.
    xs = np.add.outer(subpixels[:, 0], xs)
    ys = np.add.outer(subpixels[:, 1], ys)
    down_x, down_y = np.repeat(downs[:, 0], counts), np.repeat(downs[:, 1], counts)
    u = xs * down_y
    u -= ys * down_x
    v = xs * down_x
    v += ys * down_y
    starts = np.cumsum(counts) - counts
    half_step = 0.5 / np.sqrt(len(subpixels))
    u_min = np.minimum.reduceat(u, starts, axis=1).min(axis=0) - half_step
    v_min = np.minimum.reduceat(v, starts, axis=1).min(axis=0) - half_step
    width = np.maximum.reduceat(u, starts, axis=1).max(axis=0) + half_step - u_min
    height = np.maximum.reduceat(v, starts, axis=1).max(axis=0) + half_step - v_min
    u -= np.repeat(u_min, counts)
    u *= np.repeat(columns / width, counts)
    v -= np.repeat(v_min, counts)
    v *= np.repeat(rows / height, counts)
    column = u.astype(np.int64)
    row = v.astype(np.int64)
    np.minimum(column, columns - 1, out=column)
    np.minimum(row, rows - 1, out=row)
    cells = rows * columns
    cell = row * columns
    cell += column
    cell += np.repeat(np.arange(0, glyphs * cells, cells), counts)
    grid = np.bincount(cell.ravel(), minlength=glyphs * cells)
    flat = normalised(blurred(grid.reshape(glyphs, rows, columns).astype(np.float32), blur))
    features = np.empty((glyphs, cells + 1), np.float32)
    features[:, :cells] = flat
    features[:, cells] = ASPECT_WEIGHT * np.minimum(width / height, 3.0)
    return features, np.column_stack((u_min, v_min, width, height))
