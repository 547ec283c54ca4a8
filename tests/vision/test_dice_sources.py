"""Dice on the coloured and assorted photo sources, on altered copies of real photos
(colour cast, shadow band, glare, blur), on synthetic scenes the model was not trained on,
and the shipped model and its training."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.image_files import image_at
from vision.dice import DiceSettings, Image, find_dice
from vision.dice_labels import LabelledPhoto, Score, load_source, score
from vision.dice_model import INPUT_NAMES, MODEL_FILE, shipped_model
from vision.dice_scenes import render_scene
from vision.dice_training import SEED, see, synthetic, train

# Guards a little below what the benchmark measures on these subsets (see docs).
MIN_RIGHT = {"photos-coloured": 0.82, "photos-assorted": 0.72}  # measured 85.1 and 75.4 %
MAX_SURE_WRONG = 0.03
MAX_ON_POLYHEDRAL = 0.03  # measured 2 of 176 (5 in round 13); and none of them sure
MIN_SYNTHETIC_RIGHT = 0.75  # measured 37 of 44 (38 in round 13, 35 before it)


def read_source(photos: list[LabelledPhoto]) -> tuple[Score, Score]:
    """All reads and the sure reads only, summed over ``photos``."""
    every, sure = Score(), Score()
    for photo in photos:
        dice = find_dice(image_at(photo.path))
        every.add(score(photo, dice))
        sure.add(score(photo, [d for d in dice if not d.unsure]))
    return every, sure


@pytest.fixture(scope="module")
def coloured(shared_data: Path) -> list[LabelledPhoto]:
    return load_source(shared_data / "dice", "photos-coloured")[::5]


@pytest.fixture(scope="module")
def assorted(shared_data: Path) -> list[LabelledPhoto]:
    return load_source(shared_data / "dice", "photos-assorted")[::3]


def test_coloured_dice_with_light_pips_are_read(coloured: list[LabelledPhoto]) -> None:
    every, sure = read_source(coloured)
    assert every.labelled >= 250
    assert every.right_share >= MIN_RIGHT["photos-coloured"]
    assert sure.wrong_share <= MAX_SURE_WRONG


def test_assorted_dice_are_read_and_polyhedral_dice_are_not(
    assorted: list[LabelledPhoto],
) -> None:
    every, sure = read_source(assorted)
    assert every.labelled >= 150 and every.polyhedral >= 150
    assert every.right_share >= MIN_RIGHT["photos-assorted"]
    assert every.on_polyhedral / every.polyhedral <= MAX_ON_POLYHEDRAL
    assert sure.on_polyhedral == 0
    assert sure.wrong_share <= MAX_SURE_WRONG


def colour_cast(image: Image) -> Image:
    """Warm light: blue down, red up."""
    warm: Image = np.clip(image.astype(np.float32) * (0.75, 1.0, 1.25), 0, 255).astype(np.uint8)
    return warm


def shadow_band(image: Image) -> Image:
    """A diagonal band at 60 % light across the middle third."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    band = np.abs((xs - width / 2) + (ys - height / 2)) < width / 6
    return (image * np.where(band, 0.6, 1.0)[:, :, None]).astype(np.uint8)


def glare(image: Image) -> Image:
    """A bright lamp reflection off centre."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    spot: Image = np.exp(
        -(((xs - 0.3 * width) ** 2 + (ys - 0.3 * height) ** 2) / (0.2 * width) ** 2))
    return np.clip(image + 120.0 * spot[:, :, None], 0, 255).astype(np.uint8)


def blur(image: Image) -> Image:
    """Slight defocus."""
    return cv2.GaussianBlur(image, (5, 5), 1.2)


@pytest.mark.parametrize(
    ("alter", "allowed_loss"),
    # measured, dice right of 98: 77 plain; blur 64 (a known weakness of the learned reader)
    [(colour_cast, 0.1), (shadow_band, 0.25), (glare, 0.1), (blur, 0.15)],
)
def test_altered_photos_read_nearly_as_well(
    shared_data: Path, alter: Callable[[Image], Image], allowed_loss: float
) -> None:
    photos = [
        *load_source(shared_data / "dice", "photos")[::31],
        *load_source(shared_data / "dice", "photos-coloured")[::20],
    ]
    plain, altered = Score(), Score()
    for photo in photos:
        image = image_at(photo.path)
        plain.add(score(photo, find_dice(image)))
        altered.add(score(photo, find_dice(alter(image))))
    assert plain.labelled >= 80
    assert altered.right >= plain.right - allowed_loss * plain.labelled
    assert altered.false_reports <= plain.false_reports + 0.05 * plain.labelled


def test_the_shipped_model_is_small_and_loads() -> None:
    assert MODEL_FILE.stat().st_size < 2_000_000
    model = shipped_model()
    assert model.mean.shape == (len(INPUT_NAMES),)
    assert 0.5 <= model.sure <= 1.0


def test_synthetic_scenes_the_model_never_saw_are_read() -> None:
    """Scenes drawn from another seed than the training scenes."""
    right = labelled = 0
    for index in range(8):
        scene = render_scene(np.random.default_rng([SEED + 1, index]))
        read = find_dice(scene.image)
        labelled += len(scene.dice)
        right += sum(
            any(die.holds(*seen.center) and seen.value == die.value for seen in read)
            for die in scene.dice
        )
    assert labelled >= 30
    assert right >= MIN_SYNTHETIC_RIGHT * labelled


def test_training_is_repeatable_and_its_model_reads(shared_data: Path) -> None:
    """A tiny training run (a few synthetic scenes and every 15th white-dice photo) twice."""
    settings = DiceSettings()
    photos = load_source(shared_data / "dice", "photos")[::15]
    seen = synthetic(4, settings) + see(photos, settings)
    first, second = train(seen, settings, epochs=10), train(seen, settings, epochs=10)
    assert np.array_equal(first.hidden_weights, second.hidden_weights)
    assert first.sure == second.sure
    result = Score()
    for photo in photos:
        result.add(score(photo, find_dice(image_at(photo.path), model=first)))
    assert result.right_share >= 0.8
