"""Procedural table surfaces for synthetic scenes: wood, cloth and cork, light or dark, or pale.

Everything is generated from a numpy random generator (no image files), at half
resolution and scaled up, so a 1280x720 surface takes a few milliseconds.

>>> import numpy as np
>>> surface = table_texture("cork", "dark", (64, 48), np.random.default_rng(1))
>>> surface.shape, surface.dtype
((48, 64, 3), dtype('uint8'))
>>> bool((table_texture("wood", "light", (64, 48), np.random.default_rng(1)) == \
table_texture("wood", "light", (64, 48), np.random.default_rng(1))).all())
True
"""

from __future__ import annotations

from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]
"""A numpy array as OpenCV returns it (its dtype is not tracked by the stubs)."""

Kind = Literal["wood", "cloth", "cork"]
Tone = Literal["light", "dark", "pale"]
KINDS: tuple[Kind, ...] = ("wood", "cloth", "cork")
#: The tones scenes draw at random; ``"pale"`` (a white tablecloth, pale wood: as bright as
#: card white in some channel) only when asked for.
TONES: tuple[Tone, ...] = ("light", "dark")

# Base and grain colours (BGR) of each surface; light surfaces stay well below card white.
_PALETTE: dict[tuple[str, str], tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    ("wood", "light"): ((105, 160, 200), (70, 115, 160)),
    ("wood", "dark"): ((35, 55, 85), (20, 32, 52)),
    ("cloth", "light"): ((150, 170, 180), (125, 145, 155)),
    ("cloth", "dark"): ((45, 100, 30), (30, 75, 20)),
    ("cork", "light"): ((110, 160, 195), (60, 100, 140)),
    ("cork", "dark"): ((50, 75, 100), (25, 40, 60)),
    ("wood", "pale"): ((200, 224, 240), (170, 200, 222)),
    ("cloth", "pale"): ((238, 240, 242), (222, 226, 230)),
    ("cork", "pale"): ((190, 215, 235), (160, 190, 215)),
}


def value_noise(shape: tuple[int, int], cells: int, rng: np.random.Generator) -> Array:
    """Smooth noise in 0..1 of ``shape`` (rows, cols), with about ``cells`` blobs across."""
    rows, cols = shape
    across = max(2, cells)
    down = max(2, round(across * rows / max(cols, 1)))
    coarse = rng.random((down, across), dtype=np.float32)
    return cv2.resize(coarse, (cols, rows), interpolation=cv2.INTER_CUBIC)


def _wood(shape: tuple[int, int], rng: np.random.Generator) -> Array:
    rows, cols = shape
    across = np.linspace(0.0, 2.0 * np.pi, rows, dtype=np.float32)[:, None]
    rings = float(rng.uniform(14.0, 26.0))
    phase = value_noise(shape, 6, rng)
    phase *= 6.0 * np.pi
    phase += across * rings
    grain = np.sin(phase)
    grain += 1.0
    grain *= 0.5
    fibres = cv2.resize(rng.random((rows, max(2, cols // 16)), dtype=np.float32), (cols, rows))
    result: Array = cv2.addWeighted(grain * grain * grain, 0.8, fibres, 0.2, 0.0)
    return result


def _cloth(shape: tuple[int, int], rng: np.random.Generator) -> Array:
    rows, cols = shape
    weave = (np.arange(cols, dtype=np.float32)[None, :] % 2) * 0.17 + (
        np.arange(rows, dtype=np.float32)[:, None] % 2
    ) * 0.17
    result: Array = cv2.addWeighted(
        rng.random(shape, dtype=np.float32), 0.25, value_noise(shape, 5, rng), 0.4, 0.0
    )
    result += weave
    return result


def _cork(shape: tuple[int, int], rng: np.random.Generator) -> Array:
    speckle = rng.random(shape, dtype=np.float32)
    blurred = cv2.GaussianBlur(speckle, (5, 5), 1.2)
    grains: Array = cv2.normalize(blurred, np.empty_like(blurred), 0.0, 0.8, cv2.NORM_MINMAX)
    grains += value_noise(shape, 8, rng) * 0.4
    grains[speckle > 0.985] -= 0.6
    result: Array = np.clip(grains, 0.0, 1.0, out=grains)
    return result


_PATTERNS = {"wood": _wood, "cloth": _cloth, "cork": _cork}


def table_texture(kind: Kind, tone: Tone, size: tuple[int, int], rng: np.random.Generator) -> Array:
    """A ``size`` (width, height) BGR table surface of ``kind`` and ``tone``."""
    if (kind, tone) not in _PALETTE:
        raise ValueError(
            f"unknown table surface {kind!r}/{tone!r}: kinds {KINDS}, tones {(*TONES, 'pale')}"
        )
    width, height = size
    half = (max(2, height // 2), max(2, width // 2))
    pattern = _PATTERNS[kind](half, rng)
    base, grain = _PALETTE[(kind, tone)]
    channels = [
        cv2.convertScaleAbs(pattern, alpha=float(dark - light), beta=float(light))
        for light, dark in zip(base, grain, strict=True)
    ]
    return cv2.resize(cv2.merge(channels), (width, height), interpolation=cv2.INTER_LINEAR)
