"""The local light's cheaper steps give what their plain numpy definitions give, on real
photos: a felt webcam photo and a fanned deal, and enlarged corner areas of the felt photo
(what the closer look passes through the candidate finder)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.imageio import read_image
from vision.index_reader import enlarged_area
from vision.light import (
    INK_CONTRAST,
    INK_FLOOR,
    INK_LIGHT,
    SHADE_KERNEL,
    SHADE_STEP,
    LitFrame,
    brightest_channel,
    darkest_channel,
    ink_levels,
)

PHOTOS = (
    Path("cards") / "photos-webcam-felt" / "surface4.jpg",
    Path("cards") / "photos-deals" / "deal1-md-sq.jpg",
)


@pytest.fixture(scope="module")
def images(shared_data: Path) -> list[np.ndarray]:
    """The photos balanced, and 3x enlarged 48-96 px areas of the felt one, some sharpened."""
    lits = [LitFrame.of(read_image(shared_data / photo)) for photo in PHOTOS]
    felt = lits[0]
    areas = [
        enlarged_area(felt.bgr[y : y + 48 * k, x : x + 48 * k], lit)
        for k, (x, y) in ((1, (600, 300)), (2, (200, 400)), (1, (900, 150)))
        for lit in (None, felt.white_level)
    ]
    return [lit.bgr for lit in lits] + areas


def plain_ink_levels(light: np.ndarray, grey: np.ndarray) -> np.ndarray | None:
    """:func:`ink_levels` as first written: a mask test and the table made each time."""
    counts = cv2.calcHist([light], [0], grey.view(np.uint8), [256], [0, 256]).ravel()
    total = float(counts.sum())
    if not total:
        return None
    full_light = float(np.searchsorted(np.cumsum(counts), 0.99 * total))
    shade = max(INK_LIGHT * full_light, 1.0)
    if not (grey & (light < shade)).any():
        return None
    table = np.clip(INK_CONTRAST * np.arange(256) / shade, INK_FLOOR, INK_CONTRAST)
    table[255] = INK_CONTRAST
    return np.asarray(cv2.LUT(np.where(grey, light, np.uint8(255)), table.astype(np.uint8)))


def test_brightest_channel_is_the_maximum_of_b_g_r(images: list[np.ndarray]) -> None:
    for image in images:
        assert np.array_equal(brightest_channel(image), image.max(axis=2))


def test_ink_levels_are_those_of_the_plain_definition(images: list[np.ndarray]) -> None:
    shaded = 0
    for image in images:
        darkest = darkest_channel(image)
        size = (darkest.shape[1] // SHADE_STEP, darkest.shape[0] // SHADE_STEP)
        light = cv2.morphologyEx(
            cv2.resize(darkest, size, interpolation=cv2.INTER_AREA), cv2.MORPH_CLOSE, SHADE_KERNEL
        )
        # Grey card white at several brightness cuts: none, some and all of it in the shade.
        for cut in (0, 120, 160, 200, 256):
            grey = light >= cut
            levels, plain = ink_levels(light, grey), plain_ink_levels(light, grey)
            assert (levels is None) == (plain is None)
            if levels is not None and plain is not None:
                assert np.array_equal(levels, plain)
                shaded += 1
    assert shaded >= 5
