"""A frame's blur, estimated cheaply, and blurred frames sharpened for the card reader.

A step blurred by a Gaussian of sigma s rises at most contrast / (s * sqrt(2 pi)) per pixel,
so the blur of a frame's sharpest edges is its contrast over the steepest gradient found
(:func:`step_sigma`; the camera check measures it on every pixel, ``vision.camera_check``).
The reader measures it on every ``BLUR_STEP``-th row and column of the darkest channel
only (:func:`sampled_edge_blur`), and sharpens a frame blurred more than ``BLURRED``
(:func:`unblurred`): at sigma 1.5 px the felt deck's thin strokes break into pieces under
the ink threshold and the gap between a deal's ranks and suits fills in.

>>> step = np.zeros((64, 64), np.uint8)
>>> step[:, 32:] = 200
>>> blurred = cv2.GaussianBlur(step, (0, 0), 2.0)
>>> round(sampled_edge_blur(step), 2), round(sampled_edge_blur(blurred), 1)
(0.8, 2.1)
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: Every ``BLUR_STEP``-th row and column is sampled (0.14 ms on a 1280 x 720 frame; every
#: 8th, 0.5 ms, tells the benchmark's sources apart no better).
BLUR_STEP = 32
#: The share of the sampled gradients under the steepest one counted (as the camera check).
STEEPEST = 0.999
#: A frame is sharpened when its edges are blurred more than this (Gaussian sigma, pixels,
#: of a frame of ``REFERENCE_SIDE``: a larger frame's blur is scaled down to it, as its
#: glyphs are larger). The benchmark's real photos measure 0.76-1.20 plain, under a cast, a
#: lamp, a shadow band or glare, and 1.59-2.18 blurred (sigma 1.2-1.8 px); the synthetic
#: scenes 0.57-1.73, three of them over it.
BLURRED = 1.5
REFERENCE_SIDE = 1280
#: The unsharp mask of a blurred frame: Gaussian sigma (pixels) and amount.
UNSHARP = (1.5, 1.0)


def step_sigma(contrast: float, steepest: float) -> float:
    """The Gaussian sigma (pixels) of a blurred step of ``contrast`` whose steepest
    gradient is ``steepest`` per pixel (infinite for a flat frame).

    >>> round(step_sigma(100.0, 100.0 / math.sqrt(2 * math.pi)), 6)
    1.0
    """
    if steepest <= 0:
        return math.inf
    return contrast / (math.sqrt(2 * math.pi) * steepest)


def sampled_edge_blur(darkest: np.ndarray) -> float:
    """The blur (Gaussian sigma, pixels) of the sharpest edges of a frame's ``darkest``
    channel, from central differences along every ``BLUR_STEP``-th row and column and the
    1st to 99th percentile contrast of those rows."""
    start = BLUR_STEP // 2
    rows = np.ascontiguousarray(darkest[start::BLUR_STEP])
    columns = np.ascontiguousarray(darkest[:, start::BLUR_STEP].T)
    counts = sum(
        cv2.calcHist([cv2.absdiff(lines[:, 2:], lines[:, :-2])], [0], None, [256], [0, 256])
        for lines in (rows, columns)
    )
    gradients = np.cumsum(np.ravel(counts))
    steepest = int(np.searchsorted(gradients, STEEPEST * gradients[-1])) / 2
    levels = np.cumsum(cv2.calcHist([rows], [0], None, [256], [0, 256]).ravel())
    low, high = np.searchsorted(levels, (0.01 * levels[-1], 0.99 * levels[-1]))
    return step_sigma(float(high - low), steepest)


def unblurred(frame_bgr: np.ndarray, darkest: np.ndarray) -> np.ndarray | None:
    """``frame_bgr`` sharpened by ``UNSHARP`` if its ``darkest`` channel is blurred more
    than ``BLURRED`` (:func:`sampled_edge_blur`, scaled to a frame of ``REFERENCE_SIDE``),
    else None."""
    scale = min(1.0, REFERENCE_SIDE / max(frame_bgr.shape[:2]))
    if sampled_edge_blur(darkest) * scale <= BLURRED:
        return None
    sigma, amount = UNSHARP
    soft = cv2.GaussianBlur(frame_bgr, (0, 0), sigma)
    return np.asarray(cv2.addWeighted(frame_bgr, 1 + amount, soft, -amount, 0))
