"""Find corner indices (a rank glyph with its suit pip below) anywhere in a frame.

The reader works on ink, not on card outlines, so a card of which only a corner
shows is read as well as a whole one:

1. ink is what is clearly darker than its surroundings in the per-pixel minimum
   of B, G and R (black and red print alike); each connected blob of ink that is
   ringed by card white is a glyph candidate, so table texture drops out;
2. a rank (one blob, or two side by side for "10") and a smaller suit blob close
   to it form a candidate index; the direction from the rank to the suit is the
   card's "down", which fixes any rotation including upside down;
3. both glyphs are rotated upright, cropped tight and scaled to small fixed
   patches: those are the features the glyph model (:mod:`vision.glyphs`) reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from vision.light import white_threshold

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
#: Ink must be this much darker (0-255) than the local mean.
INK_CONTRAST = 18
#: Side (odd) of the square the local mean is taken over; pips up to about this size stay solid.
INK_BLOCK = 25
#: Blur (in patch pixels) applied to rank and to suit patches (suit pips are small and
#: their details matter), and weight of the aspect ratio feature.
RANK_BLUR = 2.0
SUIT_BLUR = 1.2
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
#: Glyphs smaller than this (pixels) are read again from an area enlarged ``ENLARGE`` times.
SMALL_GLYPH = 14
ENLARGE = 3
#: Blob sizes looked for in an enlarged area: the small glyphs only (the rest were read).
ENLARGED_SIZES = (GLYPH_PIXELS[0], int(1.3 * SMALL_GLYPH * ENLARGE))
#: Ink window in an enlarged area, wider so enlarged pips (up to about 30 px) stay solid
#: (with the frame's 25 px window a 3x enlarged pip broke into pieces).
ENLARGED_INK_BLOCK = 37
#: The enlarged area reaches this many glyph sizes each way from a small candidate.
CLOSER_LOOK_REACH = 2.5
#: Fraction of the ring around a glyph that must be card white.
WHITE_RING = 0.55


@dataclass(frozen=True)
class IndexCandidate:
    """A possible corner index: where it is, which way is up, and its glyph features."""

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
    ``sizes[i]`` (both in frame pixels). ``origin`` is the region's top-left corner.
    """

    def __init__(
        self,
        region_bgr: np.ndarray,
        origin: tuple[int, int],
        labels: np.ndarray,
        ids: np.ndarray,
        boxes: np.ndarray,
        centers: np.ndarray,
        sizes: np.ndarray,
    ) -> None:
        self.region_bgr = region_bgr
        self.origin = origin
        self.labels = labels
        self.ids = ids
        self.boxes = boxes
        self.centers = centers
        self.sizes = sizes
        self._points: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._holes: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def points(self, blob: int) -> tuple[np.ndarray, np.ndarray]:
        """Region pixel coordinates (xs, ys) of blob ``blob``'s pixels."""
        if blob not in self._points:
            x, y, w, h = self.boxes[blob]
            ys, xs = np.nonzero(self.labels[y : y + h, x : x + w] == self.ids[blob])
            self._points[blob] = (xs + x, ys + y)
        return self._points[blob]

    def glyph_points(self, members: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Pixel coordinates (xs, ys) of the glyph made of blobs ``members``."""
        if len(members) == 1:
            return self.points(members[0])
        parts = [self.points(member) for member in members]
        return np.concatenate([xs for xs, _ in parts]), np.concatenate([ys for _, ys in parts])

    def holes(self, blob: int) -> int:
        """How many holes (enclosed gaps of at least ``HOLE_SHARE`` of its box) the blob has."""
        if blob not in self._holes:
            x, y, w, h = self.boxes[blob]
            gaps = (self.labels[y : y + h, x : x + w] != self.ids[blob]).astype(np.uint8)
            gaps = cv2.copyMakeBorder(gaps, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
            _, parts = cv2.connectedComponents(gaps, connectivity=4)
            areas = np.bincount(parts.ravel())[1:]
            self._holes[blob] = int(np.count_nonzero(areas >= HOLE_SHARE * w * h)) - 1
        return self._holes[blob]

    def redness(self, blobs: Sequence[int]) -> np.ndarray:
        """How much redder than grey each blob's ink is (about 0 for black, 60+ for red)."""
        point_sets = [self.points(blob) for blob in blobs]
        counts = np.array([len(xs) for xs, _ in point_sets])
        xs = np.concatenate([xs for xs, _ in point_sets])
        ys = np.concatenate([ys for _, ys in point_sets])
        pixels = self.region_bgr[ys, xs].astype(np.int32)
        redness = pixels[:, 2] - np.maximum(pixels[:, 0], pixels[:, 1])
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        return np.asarray(np.add.reduceat(redness, starts) / counts, dtype=np.float64)


def card_white_level(darkest: np.ndarray, step: int = 4) -> float:
    """The grey level above which a pixel of the darkest-channel image counts as card white.

    It is measured on every ``step``-th pixel each way.
    """
    small = darkest[::step, ::step]
    level, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return max(float(level), 100.0)


def find_ink_blobs(
    frame_bgr: np.ndarray,
    region: tuple[int, int, int, int] | None = None,
    white_level: float | None = None,
    sizes: tuple[int, int] = GLYPH_PIXELS,
    block: int = INK_BLOCK,
) -> InkBlobs:
    """Glyph-sized ink blobs ringed by card white.

    ``region`` (x, y, width, height) restricts the search to part of the frame;
    ``white_level`` (see :func:`card_white_level`) is then best taken from the
    whole frame. Blobs ``sizes`` (shortest, longest) pixels long are kept; ink is
    what is darker than the mean of the ``block`` pixels square around it.
    """
    ox, oy = 0, 0
    if region is not None:
        ox, oy, rw, rh = region
        frame_bgr = frame_bgr[oy : oy + rh, ox : ox + rw]
    darkest = darkest_channel(frame_bgr)
    level = card_white_level(darkest) if white_level is None else white_level
    white = cv2.compare(darkest, white_threshold(frame_bgr, darkest, level), cv2.CMP_GT) // 255
    ink = cv2.adaptiveThreshold(
        darkest, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, INK_CONTRAST
    )
    near_white = cv2.boxFilter(white, cv2.CV_8U, (15, 15), normalize=False) > 60
    ink = cv2.bitwise_and(ink, near_white.astype(np.uint8))
    _, labels, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x, y, w, h, area = (stats[:, i] for i in range(5))
    longest = np.maximum(w, h)
    plausible = (area >= min(12, 2 * sizes[0])) & (longest >= sizes[0]) & (longest <= sizes[1])
    plausible[0] = False
    ids = np.nonzero(plausible)[0]
    integral = cv2.integral(white)
    height, width = darkest.shape
    xi, yi, wi, hi = x[ids], y[ids], w[ids], h[ids]
    margin = np.maximum(2, (longest[ids] * 0.15).astype(np.int64))
    x0 = np.clip(xi - margin, 0, width)
    y0 = np.clip(yi - margin, 0, height)
    x1 = np.clip(xi + wi + margin, 0, width)
    y1 = np.clip(yi + hi + margin, 0, height)
    white_count = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    ring = (x1 - x0) * (y1 - y0) - area[ids]
    ringed = white_count >= WHITE_RING * np.maximum(ring, 1)
    # A blob touching the picture's edge may be a glyph cut in half (a "J" from the top of
    # a card running off the frame): not a glyph to read.
    whole = (xi > 0) & (yi > 0) & (xi + wi < width) & (yi + hi < height)
    ids = ids[ringed & whole]
    boxes = stats[ids, :4].astype(np.int64)
    centers = centroids[ids] + (ox, oy)
    return InkBlobs(
        frame_bgr, (ox, oy), labels, ids, boxes, centers, longest[ids].astype(np.float64)
    )


def rank_groups(
    centres: np.ndarray, sizes: np.ndarray
) -> tuple[list[tuple[int, ...]], np.ndarray, np.ndarray]:
    """Possible rank glyphs: single blobs and side-by-side pairs of equal height ("10").

    Takes the blobs' centres and sizes; returns the groups (indices into those),
    their centres and their sizes.
    """
    distance = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    larger = np.maximum(sizes[:, None], sizes[None, :])
    ratio = larger / np.minimum(sizes[:, None], sizes[None, :])
    close = (distance < 0.95 * larger) & (ratio < 1.3)
    first, second = np.nonzero(np.triu(close, 1))
    groups: list[tuple[int, ...]] = [(i,) for i in range(len(sizes))]
    groups.extend(zip(first.tolist(), second.tolist(), strict=True))
    group_centres = np.vstack([centres, (centres[first] + centres[second]) / 2])
    group_sizes = np.concatenate([sizes, larger[first, second]])
    return groups, group_centres, group_sizes


def find_index_candidates(
    frame_bgr: np.ndarray,
    region: tuple[int, int, int, int] | None = None,
    white_level: float | None = None,
) -> list[IndexCandidate]:
    """Every rank-over-suit pairing of ink blobs, with upright glyph features.

    ``region`` and ``white_level`` are as for :func:`find_ink_blobs`. Where glyphs
    are small (under ``SMALL_GLYPH`` pixels: a camera far from the table), the
    areas around them are enlarged ``ENLARGE`` times and read again, so thin
    strokes keep their shape; only those areas cost the extra work. Small ranks
    are paired with suits down to ``TINY_SUIT`` pixels here, too small to read
    but enough to call for the enlarged read.
    """
    if white_level is None:
        white_level = region_white_level(frame_bgr, region)
    candidates = first_look(frame_bgr, region, white_level)
    small = [c for c in candidates if c.glyph_size < SMALL_GLYPH]
    readable = [c for c in candidates if c.suit_size >= GLYPH_PIXELS[0]]
    if not small:
        return readable
    kept, fresh = closer_look(frame_bgr, readable, spots_of(small), white_level)
    return [c for c, keep in zip(readable, kept, strict=True) if keep] + fresh


def region_white_level(frame_bgr: np.ndarray, region: tuple[int, int, int, int] | None) -> float:
    """:func:`card_white_level` of ``region`` (x, y, width, height) or the whole frame."""
    x, y, width, height = region or (0, 0, frame_bgr.shape[1], frame_bgr.shape[0])
    sample = np.ascontiguousarray(frame_bgr[y : y + height : 4, x : x + width : 4])
    return card_white_level(darkest_channel(sample), step=1)


def first_look(
    frame_bgr: np.ndarray, region: tuple[int, int, int, int] | None, white_level: float
) -> list[IndexCandidate]:
    """Candidates at the frame's own size, small ranks paired with suits down to ``TINY_SUIT``
    pixels (those are only worth a :func:`closer_look`, too small to read)."""
    return candidates_at_scale(frame_bgr, region, white_level, (TINY_SUIT, GLYPH_PIXELS[1]))


#: Where small glyphs may be: (centre (x, y), glyph size) in frame pixels.
Spot = tuple[tuple[float, float], float]


def spots_of(candidates: Sequence[IndexCandidate]) -> list[Spot]:
    """The spots (centre, glyph size) of candidate indices."""
    return [(c.center, c.glyph_size) for c in candidates]


def closer_look(
    frame_bgr: np.ndarray,
    candidates: Sequence[IndexCandidate],
    spots: Sequence[Spot],
    white_level: float,
) -> tuple[list[bool], list[IndexCandidate]]:
    """Read the areas around ``spots`` of small glyphs enlarged ``ENLARGE`` times.

    Returns which of ``candidates`` to keep (those not replaced by the closer
    look) and the candidates found in the enlarged areas, in frame pixels.
    """
    areas = small_glyph_areas(spots, frame_bgr.shape[:2])
    kept = [c.glyph_size >= SMALL_GLYPH or not within(c.center, areas) for c in candidates]
    fresh: list[IndexCandidate] = []
    for number, (x, y, width, height) in enumerate(areas, start=1):
        crop = frame_bgr[y : y + height, x : x + width]
        enlarged = cv2.resize(crop, None, fx=ENLARGE, fy=ENLARGE, interpolation=cv2.INTER_CUBIC)
        found = candidates_at_scale(enlarged, None, white_level, ENLARGED_SIZES, ENLARGED_INK_BLOCK)
        for candidate in found:
            fresh.append(shrunk(candidate, (x, y), number))
    return kept, fresh


def darkest_channel(frame_bgr: np.ndarray) -> np.ndarray:
    """The per-pixel minimum of B, G and R: low for black and for red print."""
    blue, green, red = cv2.split(frame_bgr)
    return np.asarray(cv2.min(cv2.min(blue, green), red))


def small_glyph_areas(
    spots: Sequence[Spot], frame_shape: tuple[int, ...]
) -> list[tuple[int, int, int, int]]:
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


def within(point: tuple[float, float], areas: Sequence[tuple[int, int, int, int]]) -> bool:
    """Whether ``point`` lies in one of the boxes (x, y, width, height)."""
    return any(x <= point[0] < x + w and y <= point[1] < y + h for x, y, w, h in areas)


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
    region: tuple[int, int, int, int] | None,
    white_level: float,
    sizes: tuple[int, int] = GLYPH_PIXELS,
    block: int = INK_BLOCK,
) -> list[IndexCandidate]:
    """:func:`find_index_candidates` without the second look at small glyphs.

    Ink blobs ``sizes`` (shortest, longest) pixels long are considered (ink as
    :func:`find_ink_blobs` finds it with ``block``); ranks under
    ``GLYPH_PIXELS[0]`` are not, and suits under it only next to ranks under
    ``SMALL_GLYPH`` pixels (see ``TINY_SUIT``).
    """
    blobs = find_ink_blobs(frame_bgr, region, white_level, sizes, block)
    if len(blobs) < 2:
        return []
    rank_sized = np.nonzero(blobs.sizes >= GLYPH_PIXELS[0])[0]
    groups, group_centres, group_sizes = rank_groups(
        blobs.centers[rank_sized], blobs.sizes[rank_sized]
    )
    groups = [tuple(int(rank_sized[m]) for m in group) for group in groups]
    offsets = blobs.centers[None, :, :] - group_centres[:, None, :]
    distance = np.linalg.norm(offsets, axis=2)
    ratio = group_sizes[:, None] / blobs.sizes[None, :]
    paired = (
        (ratio > 1.0)
        & (ratio < 2.8)
        & (distance > PAIR_DISTANCE[0] * group_sizes[:, None])
        & (distance < PAIR_DISTANCE[1] * group_sizes[:, None])
        & ((blobs.sizes[None, :] >= GLYPH_PIXELS[0]) | (group_sizes[:, None] < SMALL_GLYPH))
    )
    rows, columns = (axis.tolist() for axis in np.nonzero(paired))
    pairs = [(g, s) for g, s in zip(rows, columns, strict=True) if s not in groups[g]]
    if not pairs:
        return []
    rank_index = np.array([g for g, _ in pairs])
    suit_index = np.array([s for _, s in pairs])
    downs = offsets[rank_index, suit_index] / distance[rank_index, suit_index][:, None]
    rank_glyphs = [groups[g] for g in rank_index]
    ranks, rank_heights = upright_glyphs(blobs, rank_glyphs, downs, RANK_PATCH, RANK_BLUR)
    suit_glyphs = [(int(s),) for s in suit_index]
    suits, suit_heights = upright_glyphs(blobs, suit_glyphs, downs, SUIT_PATCH, SUIT_BLUR)
    layout = GEOMETRY_WEIGHT * np.column_stack(
        (
            distance[rank_index, suit_index] / rank_heights,
            suit_heights / rank_heights,
        )
    )
    holes = HOLE_WEIGHT * np.array(
        [min(2, sum(blobs.holes(m) for m in glyph)) for glyph in rank_glyphs], np.float32
    )
    ranks = np.hstack([ranks, layout.astype(np.float32), holes[:, None]])
    redness = blobs.redness(suit_index.tolist()).tolist()
    ups = (-downs).tolist()
    centres, sizes, ids = blobs.centers.tolist(), blobs.sizes.tolist(), blobs.ids.tolist()
    group_list, group_size_list = group_centres.tolist(), group_sizes.tolist()
    candidates: list[IndexCandidate] = []
    for n, (g, s) in enumerate(pairs):
        rank_x, rank_y = group_list[g]
        suit_x, suit_y = centres[s]
        candidates.append(
            IndexCandidate(
                rank_center=(rank_x, rank_y),
                suit_center=(suit_x, suit_y),
                up=(ups[n][0], ups[n][1]),
                glyph_size=group_size_list[g],
                suit_size=sizes[s],
                rank_features=ranks[n],
                suit_features=suits[n],
                redness=redness[n],
                rank_blobs=tuple(ids[m] for m in groups[g]),
                suit_blob=ids[s],
            )
        )
    return candidates


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
    blobs: InkBlobs,
    members_list: Sequence[tuple[int, ...]],
    downs: np.ndarray,
    patch: tuple[int, int],
    blur: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Each glyph (made of blobs ``members_list[i]``) turned so ``downs[i]`` points down.

    Returns the glyph features and the upright glyph heights in pixels. The
    glyphs are handled in two batches: those smaller than the patch are splatted
    2 x 2 points per pixel, larger ones one point per pixel (see :func:`splat_glyphs`).
    """
    sizes = blobs.sizes.tolist()
    small = np.array([max(sizes[m] for m in members) < patch[1] for members in members_list])
    features = np.empty((len(members_list), patch[0] * patch[1] + 1), np.float32)
    heights = np.empty(len(members_list))
    for chosen, subpixels in ((small, SUBPIXELS), (~small, np.zeros((1, 2)))):
        if chosen.any():
            point_sets = [blobs.glyph_points(members_list[int(i)]) for i in np.nonzero(chosen)[0]]
            features[chosen], heights[chosen] = splat_glyphs(
                point_sets, downs[chosen], patch, subpixels, blur
            )
    return features, heights


def splat_glyphs(
    point_sets: list[tuple[np.ndarray, np.ndarray]],
    downs: np.ndarray,
    patch: tuple[int, int],
    subpixels: np.ndarray,
    blur: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Glyph features and upright heights from pixel centres, in one batch.

    Each glyph's pixels (each as the ``subpixels`` offsets) are rotated as
    points so ``downs[i]`` points down, cropped tight, splatted into a ``patch``
    (width, height) grid, blurred by ``blur`` and normalised to zero mean and unit length,
    which makes the match tolerant of stroke weight and ink contrast. Each row is
    the flat patch followed by ``ASPECT_WEIGHT`` times the glyph's width over height.
    """
    columns, rows = patch
    counts = np.array([len(xs) for xs, _ in point_sets]) * len(subpixels)
    owner = np.repeat(np.arange(len(point_sets)), counts)
    xs = (np.concatenate([xs for xs, _ in point_sets])[:, None] + subpixels[:, 0]).ravel()
    ys = (np.concatenate([ys for _, ys in point_sets])[:, None] + subpixels[:, 1]).ravel()
    down_x, down_y = downs[owner, 0], downs[owner, 1]
    u = xs * down_y - ys * down_x
    v = xs * down_x + ys * down_y
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    half_step = 0.5 / np.sqrt(len(subpixels))
    u_min = np.minimum.reduceat(u, starts) - half_step
    v_min = np.minimum.reduceat(v, starts) - half_step
    width = np.maximum.reduceat(u, starts) + half_step - u_min
    height = np.maximum.reduceat(v, starts) + half_step - v_min
    column = ((u - u_min[owner]) * (columns / width)[owner]).astype(np.int64)
    row = ((v - v_min[owner]) * (rows / height)[owner]).astype(np.int64)
    np.minimum(column, columns - 1, out=column)
    np.minimum(row, rows - 1, out=row)
    cells = rows * columns
    grid = np.bincount(owner * cells + row * columns + column, minlength=len(point_sets) * cells)
    grids = grid.reshape(len(point_sets), rows, columns).astype(np.float32)
    grids = gaussian_matrix(rows, blur) @ grids @ gaussian_matrix(columns, blur).T
    flat = grids.reshape(len(point_sets), cells)
    flat -= flat.mean(axis=1, keepdims=True)
    flat /= np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6
    aspect = ASPECT_WEIGHT * np.minimum(width / height, 3.0)
    return np.hstack([flat, aspect[:, None].astype(np.float32)]), height
