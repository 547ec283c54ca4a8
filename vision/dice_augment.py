"""Altered copies of labelled dice photos, so the reader learns dice it has no photos of.

The real dice of one source become other dice: the dice (the body mask round each labelled
box) are recoloured, black pips on white turned into light pips on a dark or coloured body
(lightness inverted, then the body tinted) or the body tinted and the pips kept; or the whole
photo's hues are turned. Then the photo is scaled down (dice to about 20 px), its contrast
and gamma changed, blurred, given noise and saved as JPEG (chroma halved, as a phone's photo).
Labels move with the photo. Seeded: the same generator gives the same copy.

>>> import numpy as np
>>> from pathlib import Path
>>> from vision.dice_labels import LabelledDie, LabelledPhoto
>>> image = np.full((240, 320, 3), 180, np.uint8)
>>> image[100:140, 140:180] = 235
>>> photo = LabelledPhoto("photos", Path("x.jpg"), 320, 240, (LabelledDie(1, 160, 120, 20, 20),))
>>> copy, moved = augmented(photo, image, np.random.default_rng(0))
>>> copy.shape[:2] == (moved.height, moved.width), moved.source
(True, 'augmented')
>>> round(moved.dice[0].x / moved.width, 2)
0.5
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice import DiceSettings, body_mask
from vision.dice_labels import LabelledDie, LabelledPhoto

Image = npt.NDArray[Any]
SOURCE = "augmented"
"""The source name of altered copies (not a photo source: no sure threshold is set on them)."""
MIN_WIDTH = 360
BOX_GROWTH = 1.7
"""A labelled box (the top face) grown by this much holds the die's sides too."""
MASK_CONTRAST = 18.0
"""The body contrast for finding the labelled dice (the reader's is 22: here a box bounds it)."""


def augmented(
    photo: LabelledPhoto, image: Image, rng: np.random.Generator
) -> tuple[Image, LabelledPhoto]:
    """A recoloured, rescaled, degraded copy of ``image`` and its labels."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    boxed = all(die.half_width > 0 for die in photo.dice)
    if boxed and photo.dice and rng.random() < 0.75:
        lab = _recoloured_dice(lab, _dice_mask(image, photo), rng)
    else:
        lab = _hues_turned(lab, rng.uniform(0.0, 2.0 * math.pi))
    picture = cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)
    smallest = MIN_WIDTH / image.shape[1]
    scale = float(rng.uniform(min(0.5, smallest), 1.0)) if smallest < 1.0 else 1.0
    picture = cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    picture = _degraded(picture, rng)
    height, width = picture.shape[:2]
    return picture, _scaled(photo, width / image.shape[1], (width, height))


def _dice_mask(image: Image, photo: LabelledPhoto) -> Image:
    """Where the labelled dice are (0..1, soft edged): the reader's body mask (a little more
    sensitive) inside each grown box, with the holes (pips) filled."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    unlike = body_mask(lab, DiceSettings(body_contrast=MASK_CONTRAST))
    boxes = np.zeros(unlike.shape, np.uint8)
    for die in photo.dice:
        half_w, half_h = BOX_GROWTH * die.half_width, BOX_GROWTH * die.half_height
        cv2.rectangle(
            boxes,
            (int(die.x - half_w), int(die.y - half_h)),
            (int(die.x + half_w), int(die.y + half_h)),
            255,
            -1,
        )
    outlines, _ = cv2.findContours(
        cv2.bitwise_and(unlike, boxes), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    filled = np.zeros_like(boxes)
    cv2.drawContours(filled, outlines, -1, 255, -1)
    soft: Image = cv2.GaussianBlur(filled.astype(np.float32) / 255.0, (5, 5), 0)
    return soft


def _recoloured_dice(lab: Image, mask: Image, rng: np.random.Generator) -> Image:
    """The dice under ``mask`` given another body colour: light pips on a dark or coloured
    body (lightness inverted) or the pips kept on a tinted body."""
    lightness = lab[:, :, 0]
    invert = rng.random() < 0.7
    dark, light = sorted(rng.uniform(15.0, 255.0, 2))
    light = max(light, dark + 80.0)
    level = 255.0 - lightness if invert else lightness
    low, high = np.percentile(level[mask > 0.5], [5, 95]) if (mask > 0.5).any() else (0, 255)
    spread = max(float(high - low), 1.0)
    share = np.clip((level - low) / spread, 0.0, 1.0)
    body_share = 1.0 - share if invert else share  # 1 on the body, 0 on the pips
    new_lightness = dark + share * (min(light, 255.0) - dark)
    if not invert:
        new_lightness = np.maximum(new_lightness, lightness * 0.9)
    chroma = rng.uniform(0.0, 70.0) if rng.random() < 0.85 else 0.0
    angle = rng.uniform(0.0, 2.0 * math.pi)
    tint_a, tint_b = chroma * math.cos(angle), chroma * math.sin(angle)
    result = lab.copy()
    result[:, :, 0] = mask * new_lightness + (1.0 - mask) * lightness
    result[:, :, 1] = lab[:, :, 1] + mask * body_share * tint_a
    result[:, :, 2] = lab[:, :, 2] + mask * body_share * tint_b
    return result


def _hues_turned(lab: Image, angle: float) -> Image:
    """Every colour turned by ``angle`` round the grey axis (Lab *a*, *b*)."""
    a, b = lab[:, :, 1] - 128.0, lab[:, :, 2] - 128.0
    result = lab.copy()
    result[:, :, 1] = 128.0 + a * math.cos(angle) - b * math.sin(angle)
    result[:, :, 2] = 128.0 + a * math.sin(angle) + b * math.cos(angle)
    return result


def _degraded(picture: Image, rng: np.random.Generator) -> Image:
    """Contrast and gamma changed, perhaps blurred, noise, then a JPEG round trip."""
    gamma = rng.uniform(0.7, 1.4)
    contrast = rng.uniform(0.75, 1.15)
    level: Image = (picture.astype(np.float32) / 255.0) ** gamma * 255.0
    level = 128.0 + contrast * (level - 128.0)
    if rng.random() < 0.4:
        level = cv2.GaussianBlur(level, (0, 0), rng.uniform(0.5, 1.3))
    level += rng.normal(0.0, rng.uniform(0.0, 5.0), level.shape).astype(np.float32)
    eight = np.clip(level, 0, 255).astype(np.uint8)
    quality = int(rng.integers(45, 92))
    _, encoded = cv2.imencode(".jpg", eight, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    if decoded is None:
        raise ValueError("dice augment: a JPEG round trip failed")
    result: Image = decoded
    return result


def _scaled(photo: LabelledPhoto, scale: float, size: tuple[int, int]) -> LabelledPhoto:
    """The labels of ``photo`` for a copy ``scale`` times its size."""

    def moved(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        return tuple((x * scale, y * scale) for x, y in points)

    dice = tuple(
        LabelledDie(d.value, d.x * scale, d.y * scale, d.half_width * scale, d.half_height * scale)
        for d in photo.dice
    )
    return replace(
        photo,
        source=SOURCE,
        path=Path(f"{photo.path}#{SOURCE}"),
        width=size[0],
        height=size[1],
        dice=dice,
        neutral=moved(photo.neutral),
        polyhedral=moved(photo.polyhedral),
    )
