"""Altered copies of the labelled dice photos (training data): real photos in, dice that still
lie under their moved labels out."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.image_files import image_at
from vision.dice import Image, find_dice
from vision.dice_augment import SOURCE, augmented
from vision.dice_labels import LabelledDie, LabelledPhoto, Score, load_source, score


@pytest.fixture(scope="module")
def white_dice(shared_data: Path) -> list[LabelledPhoto]:
    return load_source(shared_data / "dice", "photos")[::40]


def image_of(photo: LabelledPhoto) -> Image:
    return image_at(photo.path)


def middle_lightness(image: Image, die: LabelledDie) -> float:
    """The median lightness of the middle of a labelled die's box."""
    half = max(2, int(die.half_width / 2))
    x, y = int(die.x), int(die.y)
    lightness = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[y - half : y + half, x - half : x + half, 0]
    return float(np.median(lightness))


def test_copies_keep_their_labels_on_the_dice(white_dice: list[LabelledPhoto]) -> None:
    total = Score()
    for index, photo in enumerate(white_dice):
        image = image_of(photo)
        copy, moved = augmented(photo, image, np.random.default_rng([3, index]))
        assert moved.source == SOURCE and len(moved.dice) == len(photo.dice)
        assert copy.shape[:2] == (moved.height, moved.width)
        total.add(score(moved, find_dice(copy)))
    assert total.labelled >= 15
    assert total.right_share >= 0.6


def test_inverted_dice_get_light_pips_on_a_darker_body(white_dice: list[LabelledPhoto]) -> None:
    photo = white_dice[0]
    image = image_of(photo)
    before = middle_lightness(image, photo.dice[0])
    darker = 0
    for seed in range(8):
        copy, moved = augmented(photo, image, np.random.default_rng(seed))
        darker += middle_lightness(copy, moved.dice[0]) < before - 40
    assert darker >= 2


def test_copies_are_repeatable(white_dice: list[LabelledPhoto]) -> None:
    photo = white_dice[1]
    image = image_of(photo)
    first, _ = augmented(photo, image, np.random.default_rng(5))
    second, _ = augmented(photo, image, np.random.default_rng(5))
    assert np.array_equal(first, second)
