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

from dataclasses import dataclass

import cv2
import numpy as np

#: Rank glyph patch (width, height) and suit glyph patch size, in pixels.
RANK_PATCH = (14, 20)
SUIT_PATCH = (14, 14)
#: Glyph height range in frame pixels that the reader looks for.
GLYPH_PIXELS = (6, 90)
#: Ink must be this much darker (0-255) than the local mean.
INK_CONTRAST = 18
#: Blur (in patch pixels) applied to glyph patches, and weight of the aspect ratio feature.
GLYPH_BLUR = 1.2
ASPECT_WEIGHT = 0.3
#: Fraction of the ring around a glyph that must be card white.
WHITE_RING = 0.7


@dataclass(frozen=True)
class IndexCandidate:
    """A possible corner index: where it is, which way is up, and its glyph features."""

    rank_center: tuple[float, float]
    suit_center: tuple[float, float]
    up: tuple[float, float]
    glyph_size: float
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


@dataclass(frozen=True)
class InkBlobs:
    """Connected ink blobs of a frame that are ringed by card white."""

    labels: np.ndarray
    ids: np.ndarray
    boxes: np.ndarray
    centers: np.ndarray
    sizes: np.ndarray
    redness: np.ndarray


def card_white_level(darkest: np.ndarray) -> float:
    """The grey level above which a pixel of the darkest-channel image counts as card white."""
    small = darkest[::4, ::4]
    level, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return max(float(level), 100.0)


def find_ink_blobs(
    frame_bgr: np.ndarray, region: tuple[int, int, int, int] | None = None
) -> InkBlobs:
    """Glyph-sized ink blobs ringed by card white, in frame coordinates.

    ``region`` (x, y, width, height) restricts the search to part of the frame.
    """
    ox, oy = 0, 0
    if region is not None:
        ox, oy, rw, rh = region
        frame_bgr = frame_bgr[oy : oy + rh, ox : ox + rw]
    blue, green, red = cv2.split(frame_bgr)
    darkest = cv2.min(cv2.min(blue, green), red)
    white = (darkest > card_white_level(darkest)).astype(np.uint8)
    ink = cv2.adaptiveThreshold(
        darkest, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 25, INK_CONTRAST
    )
    _, labels, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x, y, w, h, area = (stats[:, i] for i in range(5))
    longest = np.maximum(w, h)
    plausible = (area >= 12) & (longest >= GLYPH_PIXELS[0]) & (longest <= GLYPH_PIXELS[1])
    plausible[0] = False
    ids = np.nonzero(plausible)[0]
    integral = cv2.integral(white)
    height, width = darkest.shape
    xi, yi, wi, hi = x[ids], y[ids], w[ids], h[ids]
    margin = np.maximum(2, (longest[ids] * 0.25).astype(np.int64))
    x0 = np.clip(xi - margin, 0, width)
    y0 = np.clip(yi - margin, 0, height)
    x1 = np.clip(xi + wi + margin, 0, width)
    y1 = np.clip(yi + hi + margin, 0, height)
    white_count = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    ring = (x1 - x0) * (y1 - y0) - area[ids]
    ringed = white_count >= WHITE_RING * np.maximum(ring, 1)
    ids = ids[ringed]
    boxes = stats[ids, :4].astype(np.int64)
    redness = blob_redness(frame_bgr, labels, ids, boxes)
    boxes[:, 0] += ox
    boxes[:, 1] += oy
    centers = centroids[ids] + (ox, oy)
    if region is not None:
        full = np.zeros((oy + labels.shape[0], ox + labels.shape[1]), np.int32)
        full[oy:, ox:] = labels
        labels = full
    return InkBlobs(labels, ids, boxes, centers, longest[ids].astype(np.float64), redness)


def blob_redness(
    frame_bgr: np.ndarray, labels: np.ndarray, ids: np.ndarray, boxes: np.ndarray
) -> np.ndarray:
    """Per blob, how much redder than grey its ink is (about 0 for black, 60+ for red)."""
    values = np.zeros(len(ids))
    for n, (label, (x, y, w, h)) in enumerate(zip(ids, boxes, strict=True)):
        inside = labels[y : y + h, x : x + w] == label
        pixels = frame_bgr[y : y + h, x : x + w][inside].astype(np.int32)
        values[n] = float(np.mean(pixels[:, 2] - np.maximum(pixels[:, 0], pixels[:, 1])))
    return values


def rank_groups(blobs: InkBlobs) -> list[tuple[int, ...]]:
    """Indices (into ``blobs``) of single blobs and of side-by-side pairs of equal height."""
    groups: list[tuple[int, ...]] = [(i,) for i in range(len(blobs.ids))]
    if len(blobs.ids) < 2:
        return groups
    centres, sizes = blobs.centers, blobs.sizes
    distance = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    larger = np.maximum(sizes[:, None], sizes[None, :])
    ratio = larger / np.minimum(sizes[:, None], sizes[None, :])
    close = (distance < 0.95 * larger) & (ratio < 1.3)
    first, second = np.nonzero(np.triu(close, 1))
    groups.extend(zip(first.tolist(), second.tolist(), strict=True))
    return groups


def find_index_candidates(
    frame_bgr: np.ndarray, region: tuple[int, int, int, int] | None = None
) -> list[IndexCandidate]:
    """Every rank-over-suit pairing of ink blobs, with upright glyph features."""
    blobs = find_ink_blobs(frame_bgr, region)
    if len(blobs.ids) < 2:
        return []
    groups = rank_groups(blobs)
    group_centres = np.array([blobs.centers[list(g)].mean(axis=0) for g in groups])
    group_sizes = np.array([blobs.sizes[list(g)].max() for g in groups])
    offsets = blobs.centers[None, :, :] - group_centres[:, None, :]
    distance = np.linalg.norm(offsets, axis=2)
    ratio = group_sizes[:, None] / blobs.sizes[None, :]
    paired = (
        (ratio > 1.0)
        & (ratio < 2.8)
        & (distance > 0.45 * group_sizes[:, None])
        & (distance < 1.5 * group_sizes[:, None])
    )
    candidates: list[IndexCandidate] = []
    for g, s in zip(*np.nonzero(paired), strict=True):
        members = groups[g]
        if s in members:
            continue
        rank_centre = group_centres[g]
        suit_centre = blobs.centers[s]
        down = (suit_centre - rank_centre) / distance[g, s]
        rank = upright_glyph(blobs, members, down, RANK_PATCH)
        suit = upright_glyph(blobs, (int(s),), down, SUIT_PATCH)
        if rank is None or suit is None:
            continue
        candidates.append(
            IndexCandidate(
                rank_center=(float(rank_centre[0]), float(rank_centre[1])),
                suit_center=(float(suit_centre[0]), float(suit_centre[1])),
                up=(float(-down[0]), float(-down[1])),
                glyph_size=float(group_sizes[g]),
                rank_features=rank,
                suit_features=suit,
                redness=float(blobs.redness[s]),
                rank_blobs=tuple(int(blobs.ids[m]) for m in members),
                suit_blob=int(blobs.ids[s]),
            )
        )
    return candidates


def upright_glyph(
    blobs: InkBlobs, members: tuple[int, ...], down: np.ndarray, patch: tuple[int, int]
) -> np.ndarray | None:
    """The glyph made of ``members`` turned so ``down`` points down, cropped tight, scaled.

    The glyph's pixels are rotated as points and splatted into a ``patch``
    (width, height) grid, then blurred and normalised to zero mean and unit
    length, which makes the match tolerant of stroke weight and ink contrast.
    Returns the flat patch followed by ``ASPECT_WEIGHT`` times the glyph's
    width-over-height, or ``None`` for a glyph of too few pixels.
    """
    boxes = blobs.boxes[list(members)]
    x0, y0 = boxes[:, 0].min(), boxes[:, 1].min()
    x1 = (boxes[:, 0] + boxes[:, 2]).max()
    y1 = (boxes[:, 1] + boxes[:, 3]).max()
    crop = blobs.labels[y0:y1, x0:x1]
    inside = crop == blobs.ids[members[0]]
    for member in members[1:]:
        inside |= crop == blobs.ids[member]
    ys, xs = np.nonzero(inside)
    if len(xs) < 6:
        return None
    # Rotate pixel centres so that "down" becomes +y: u = (x, y) . right, v = (x, y) . down.
    right_x, right_y = down[1], -down[0]
    points_x = xs + 0.5
    points_y = ys + 0.5
    u = points_x * right_x + points_y * right_y
    v = points_x * down[0] + points_y * down[1]
    u_min, v_min = u.min() - 0.5, v.min() - 0.5
    width, height = u.max() + 0.5 - u_min, v.max() + 0.5 - v_min
    columns, rows = patch
    scale_u, scale_v = columns / width, rows / height
    samples = int(np.ceil(max(scale_u, scale_v)))
    if samples > 1:
        steps = (np.arange(samples) + 0.5) / samples - 0.5
        step_x, step_y = (a.ravel() for a in np.meshgrid(steps, steps))
        u = (u[:, None] + step_x * right_x + step_y * right_y).ravel()
        v = (v[:, None] + step_x * down[0] + step_y * down[1]).ravel()
    column = np.clip(((u - u_min) * scale_u).astype(np.int64), 0, columns - 1)
    row = np.clip(((v - v_min) * scale_v).astype(np.int64), 0, rows - 1)
    grid = np.bincount(row * columns + column, minlength=rows * columns).astype(np.float32)
    grid = cv2.GaussianBlur(grid.reshape(rows, columns), (0, 0), GLYPH_BLUR).ravel()
    grid -= grid.mean()
    grid /= float(np.linalg.norm(grid)) + 1e-6
    aspect = min(width / height, 3.0)
    return np.append(grid, np.float32(ASPECT_WEIGHT * aspect)).astype(np.float32)
