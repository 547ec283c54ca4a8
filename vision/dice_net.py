"""Convolution layers in numpy, for training the dice detector (:mod:`vision.dice_detector`)
with nothing but numpy: im2col for 3x3 "same" convolutions (any dilation) and its adjoint,
2x2 max pooling and its gradient (Adam steps: :class:`vision.training.adam.Adam`).

>>> x = np.ones((1, 4, 4, 1), np.float32)
>>> pooled, mask = pool(columns(x).sum(axis=1).reshape(1, 4, 4, 1))
>>> pooled[0, :, :, 0].tolist()  # the corners of each 2x2 block see fewer pixels
[[9.0, 9.0], [9.0, 9.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]
"""float32 arrays (typed loosely: numpy widens and narrows them freely)."""


def columns(x: Array, dilation: int = 1) -> Array:
    """im2col for a 3x3 "same" convolution with ``dilation``: (N, H, W, C) to (N*H*W, C*9).

    >>> x = np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1)
    >>> columns(x)[4].tolist()  # the middle pixel sees the whole image
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    """
    count, height, width, channels = x.shape
    d = dilation
    padded = np.pad(x, ((0, 0), (d, d), (d, d), (0, 0)))
    shifted = [
        padded[:, i * d : i * d + height, j * d : j * d + width, :]
        for i in range(3)
        for j in range(3)
    ]
    stacked: Array = np.stack(shifted, axis=-1).reshape(count * height * width, channels * 9)
    return stacked


def uncolumns(gradient: Array, shape: tuple[int, ...], dilation: int = 1) -> Array:
    """The adjoint of :func:`columns`: column gradients back onto the input."""
    count, height, width, channels = shape
    d = dilation
    windows = gradient.reshape(count, height, width, channels, 9)
    padded = np.zeros((count, height + 2 * d, width + 2 * d, channels), np.float32)
    for i in range(3):
        for j in range(3):
            padded[:, i * d : i * d + height, j * d : j * d + width, :] += windows[..., 3 * i + j]
    inner: Array = padded[:, d : d + height, d : d + width, :]
    return inner


def pool(x: Array) -> tuple[Array, Array]:
    """2x2 max pooling, and the mask of the maxima (for the backward pass)."""
    count, height, width, channels = x.shape
    blocks = x.reshape(count, height // 2, 2, width // 2, 2, channels)
    pooled: Array = blocks.max(axis=(2, 4))
    mask: Array = (blocks == pooled[:, :, None, :, None, :]).astype(np.float32)
    return pooled, mask


def unpool(gradient: Array, mask: Array) -> Array:
    """The gradient of :func:`pool`, back onto its input."""
    count, height, width, channels = gradient.shape
    spread: Array = mask * gradient[:, :, None, :, None, :]
    return spread.reshape(count, 2 * height, 2 * width, channels)
