"""Colour and light: the first stage of the card reader, before anything decides what is white.

A camera whose white balance is off (an untuned Pi camera casts blue, a warm lamp orange)
makes card white coloured, and then black and red print no longer look like black and red.
:func:`balance` estimates the light's colour from the brightest pixels of the frame, which
on a card table are card faces (or a white table), and scales the channels so those are
grey again: the white patch ("max-RGB") idea, taken on a high percentile rather than the
single brightest pixel so glare and noise do not decide it.

>>> bluish = np.zeros((64, 64, 3), np.uint8)
>>> bluish[8:56, 8:40] = (250, 200, 140)           # a card face under a blue cast
>>> gains = white_gains(bluish)
>>> [round(g, 2) for g in gains]
[1.0, 1.25, 1.79]
>>> balance(bluish)[20, 20].tolist()
[250, 250, 250]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property

import cv2
import numpy as np

#: Share of the (sampled) pixels, the brightest, that the light's colour is measured on.
BRIGHT_SHARE = 0.01
#: Of those, the ones at least this fraction as bright as the brightest are the white.
NEAR_BRIGHTEST = 0.9
#: Gains are kept within this range (a frame without any white thing must not be ruined).
GAIN_RANGE = (0.5, 2.5)
#: Gains this close to 1 are left alone (no work for a camera that is balanced already).
GAIN_TOLERANCE = 0.2
#: Pixels sampled every this many pixels each way.
SAMPLE_STEP = 6


def white_gains(frame_bgr: np.ndarray) -> tuple[float, float, float]:
    """The (B, G, R) gains that make the brightest pixels of ``frame_bgr`` grey.

    Of the brightest ``BRIGHT_SHARE`` of the sampled pixels by their darkest channel
    (which ranks white, even under a cast, above bright coloured table; white clipped
    in all three channels counts as grey), those within ``NEAR_BRIGHTEST`` of the brightest
    (so a thin white card border beats a pale card back) are averaged per channel; the
    gains raise the lower channels to the highest one.
    """
    sample = frame_bgr[::SAMPLE_STEP, ::SAMPLE_STEP].reshape(-1, 3).astype(np.float32)
    brightness = np.minimum(np.minimum(sample[:, 0], sample[:, 1]), sample[:, 2])
    count = max(1, int(BRIGHT_SHARE * len(sample)))
    top = np.argpartition(-brightness, count - 1)[:count]
    level = NEAR_BRIGHTEST * float(np.percentile(brightness[top], 90))
    brightest = sample[top[brightness[top] >= level]]
    colour = brightest.mean(axis=0)
    if colour.min() <= 1.0:
        return (1.0, 1.0, 1.0)
    gains = np.clip(colour.max() / colour, *GAIN_RANGE)
    blue, green, red = (float(g) for g in gains)
    return (blue, green, red)


def apply_gains(frame_bgr: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """``frame_bgr`` with each channel multiplied by its gain (saturating); the frame itself
    when every gain is within ``GAIN_TOLERANCE`` of 1."""
    if all(abs(gain - 1.0) <= GAIN_TOLERANCE for gain in gains):
        return frame_bgr
    levels = np.arange(256, dtype=np.float32)
    table = np.stack([np.clip(levels * gain, 0, 255) for gain in gains], axis=1)
    lut = table.astype(np.uint8).reshape(256, 1, 3)
    return np.asarray(cv2.LUT(np.ascontiguousarray(frame_bgr), lut))


def balance(frame_bgr: np.ndarray) -> np.ndarray:
    """``frame_bgr`` white-balanced on its brightest pixels (see :func:`white_gains`)."""
    return apply_gains(frame_bgr, white_gains(frame_bgr))


#: Erosion by this row kernel, anchored on its first cell, takes the minimum of a value and
#: the two after it: at every third value of a BGR row, one pixel's three channels.
PIXEL_CHANNELS = np.ones((1, 3), np.uint8)


def darkest_channel(frame_bgr: np.ndarray) -> np.ndarray:
    """The per-pixel minimum of B, G and R: low for black and for red print.

    The frame's rows are taken as rows of single values, eroded by ``PIXEL_CHANNELS`` and
    the first channel of each pixel kept (faster than splitting the channels).

    >>> darkest_channel(np.array([[[9, 4, 7], [1, 8, 3]]], np.uint8)).tolist()
    [[4, 1]]
    """
    return _across_channels(cv2.erode, frame_bgr)


def card_white_level(darkest: np.ndarray, step: int = 4) -> float:
    """The grey level above which a pixel of the darkest-channel image counts as card white.

    It is measured (Otsu, never under 100) on every ``step``-th pixel each way.
    """
    small = np.ascontiguousarray(darkest[::step, ::step])
    level, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return max(float(level), 100.0)


@dataclass(frozen=True)
class LitFrame:
    """A frame through the colour-and-light stage: white-balanced (``gains`` applied), with
    the per-frame conversions the later stages share, each made once when first asked for.

    >>> lit = LitFrame.of(np.full((8, 8, 3), (200, 180, 160), np.uint8))
    >>> lit.bgr[0, 0].tolist(), lit.darkest[0, 0].item(), lit.white_level
    ([200, 200, 200], 200, 100.0)
    """

    bgr: np.ndarray
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)

    @classmethod
    def of(
        cls, frame_bgr: np.ndarray, gains: tuple[float, float, float] | None = None
    ) -> LitFrame:
        """``frame_bgr`` balanced with ``gains`` (measured on it by default: white_gains)."""
        gains = white_gains(frame_bgr) if gains is None else gains
        return cls(apply_gains(frame_bgr, gains), gains)

    @cached_property
    def darkest(self) -> np.ndarray:
        """The per-pixel darkest channel (:func:`darkest_channel`)."""
        return darkest_channel(self.bgr)

    @cached_property
    def white_level(self) -> float:
        """The frame's card white level (:func:`card_white_level`)."""
        return card_white_level(self.darkest)

    @cached_property
    def local(self) -> LocalLight:
        """The whole frame's local white and ink levels (:func:`local_light`), made once
        for the outline stage's shaded cards and the candidate search."""
        return local_light(self.bgr, self.darkest, self.white_level)


#: Card white in a shadow: at least this share of the local white (the darkest channel
#: closed, dilated then eroded, over ``SHADE_WINDOW`` pixels: print smaller than that is
#: filled in, a shadow's edge stays where it is) ...
LOCAL_WHITE = 0.75
SHADE_WINDOW = 37
#: ... and never below this share of the frame's own white level, so dark cloth stays table.
SHADE_FLOOR = 0.4
#: Only where that local white is grey (its darkest channel over its brightest at least
#: this share of the same ratio at the frame's whitest spot): shadowed white is, cork,
#: wood and felt are not.
NEUTRAL = 0.8
#: The local level is measured at 1/``SHADE_STEP`` size, closed over this square there.
SHADE_STEP = 4
SHADE_KERNEL = np.ones((max(3, SHADE_WINDOW // SHADE_STEP) | 1,) * 2, np.uint8)


#: Ink is what lies at least ``INK_CONTRAST`` grey levels under its block mean in full
#: light; where the local light (the darkest channel closed, as for the white level) on
#: grey card white is under ``INK_LIGHT`` of the frame's full light (the 99th percentile of
#: that local light over grey card white), the contrast asked for falls with it, never under
#: ``INK_FLOOR``: print's contrast halves in a shadow at half the light. Evenly lit card
#: white (every drawing the glyph model learns from) keeps the fixed 18 levels.
INK_CONTRAST = 18
INK_LIGHT = 0.8
INK_FLOOR = 8


@dataclass(frozen=True)
class LocalLight:
    """Per-pixel levels (``uint8``, frame size) that follow the light across the frame:
    ``white``, the darkest-channel level above which a pixel is card white, and ``ink``,
    how far under the mean around it a pixel must be to be ink (``None`` where that is
    ``INK_CONTRAST`` everywhere: no card white in the frame is in the shade)."""

    white: np.ndarray
    ink: np.ndarray | None


def local_light(
    frame_bgr: np.ndarray, darkest: np.ndarray, level: float, learning: bool = False
) -> LocalLight:
    """The local white and ink levels of a frame.

    ``darkest`` is the frame's per-pixel darkest channel, ``level`` the frame's white
    level (Otsu). Where a shadow darkens the table the white threshold drops to
    ``LOCAL_WHITE`` of the local grey white (not below ``SHADE_FLOOR`` of ``level``), so a
    card in a hard shadow is still card white while coloured table stays table; the ink
    contrast drops with the light (see ``INK_LIGHT``). How grey the local white is comes
    from the strongest channel of the frame sampled down to 1/4 (bilinear, closed over the
    window it is smooth enough). ``learning`` (the evenly lit drawings the glyph models learn from)
    measures as the shipped model was built: ink at ``INK_CONTRAST`` everywhere, the
    strongest channel of the frame averaged down (seven times as long).

    >>> frame = np.full((40, 80, 3), (30, 90, 40), np.uint8)   # green cloth
    >>> frame[10:30, 5:25] = 220                                 # a card in the light
    >>> frame[10:30, 50:70] = 100                                # a card in a shadow
    >>> darkest = frame.min(axis=2)
    >>> light = local_light(frame, darkest, 120.0)
    >>> bool(darkest[20, 15] > light.white[20, 15]), bool(darkest[20, 60] > light.white[20, 60])
    (True, True)
    >>> bool(darkest[5, 40] > light.white[5, 40])                # the cloth between them
    False
    >>> ink = light.ink
    >>> None if ink is None else (ink[20, 15].item(), ink[20, 60].item())  # in each light
    (18, 10)
    """
    height, width = darkest.shape
    size = (max(1, width // SHADE_STEP), max(1, height // SHADE_STEP))
    small = cv2.resize(darkest, size, interpolation=cv2.INTER_AREA)
    closed = cv2.morphologyEx(small, cv2.MORPH_CLOSE, SHADE_KERNEL)
    brightest = closed.astype(np.float32)
    sampling = cv2.INTER_AREA if learning else cv2.INTER_LINEAR
    strongest = brightest_channel(cv2.resize(frame_bgr, size, interpolation=sampling))
    strongest = cv2.morphologyEx(strongest, cv2.MORPH_CLOSE, SHADE_KERNEL)
    ratio = brightest / np.maximum(strongest, 1).astype(np.float32)
    # Grey as the frame's own white is grey: a slight tint left by the white balance
    # (within ``GAIN_TOLERANCE``) tints the shadowed white the same way.
    whitest = ratio.flat[int(np.argmax(closed))]
    grey = ratio >= NEUTRAL * whitest
    # Clipped to SHADE_FLOOR * level .. level (np.clip's result, without its overhead).
    shaded = np.maximum(brightest * LOCAL_WHITE, SHADE_FLOOR * level)
    local = np.where(grey, np.minimum(shaded, level, out=shaded), level).astype(np.uint8)
    full = (width, height)
    white = np.asarray(cv2.resize(local, full, interpolation=cv2.INTER_LINEAR))
    ink = None if learning else ink_levels(closed, grey)
    if ink is None:
        return LocalLight(white, None)
    return LocalLight(white, np.asarray(cv2.resize(ink, full, interpolation=cv2.INTER_LINEAR)))


def brightest_channel(frame_bgr: np.ndarray) -> np.ndarray:
    """The per-pixel maximum of B, G and R (as :func:`darkest_channel`, dilating).

    >>> brightest_channel(np.array([[[9, 4, 7], [1, 8, 3]]], np.uint8)).tolist()
    [[9, 8]]
    """
    return _across_channels(cv2.dilate, frame_bgr)


def _across_channels(
    morphology: Callable[..., np.ndarray], frame_bgr: np.ndarray
) -> np.ndarray:
    """``morphology`` (erode: minimum, dilate: maximum) over each pixel's three channels."""
    height, width = frame_bgr.shape[:2]
    rows = np.ascontiguousarray(frame_bgr).reshape(height, 3 * width)
    spread = morphology(rows, PIXEL_CHANNELS, anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    return np.asarray(cv2.extractChannel(spread.reshape(height, width, 3), 0))


def ink_levels(light: np.ndarray, grey: np.ndarray) -> np.ndarray | None:
    """The ink contrast (``uint8``) asked for under the local ``light`` (``uint8``) where it
    is ``grey`` card white; ``None`` where that is ``INK_CONTRAST`` everywhere.

    >>> light = np.array([[200, 200, 100, 60]], np.uint8)
    >>> ink_levels(light, np.array([[True, True, True, False]])).tolist()
    [[18, 18, 11, 18]]
    >>> ink_levels(light, np.array([[True, True, False, False]])) is None
    True
    """
    counts = cv2.calcHist([light], [0], grey.view(np.uint8), [256], [0, 256]).ravel()
    total = float(counts.sum())
    if not total:
        return None
    full_light = int(np.searchsorted(np.cumsum(counts), 0.99 * total))
    shade = max(INK_LIGHT * full_light, 1.0)
    # Some grey pixel's light (a whole number) under the shade level.
    if not counts[: math.ceil(shade)].any():
        return None
    lights = np.where(grey, light, np.uint8(255))
    return np.asarray(cv2.LUT(lights, ink_table(full_light)))


@cache
def ink_table(full_light: int) -> np.ndarray:
    """The ink contrast (``uint8``) for each light value 0-254 under a frame's ``full_light``
    (:func:`ink_levels`), and ``INK_CONTRAST`` for 255; made once per level, read-only."""
    shade = max(INK_LIGHT * full_light, 1.0)
    table = np.clip(INK_CONTRAST * np.arange(256) / shade, INK_FLOOR, INK_CONTRAST)
    table[255] = INK_CONTRAST
    levels = table.astype(np.uint8)
    levels.flags.writeable = False
    return levels
