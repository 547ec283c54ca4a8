"""The synthetic dice scenes' varieties: what each look draws, and that the scenes repeat."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.dice_scenes import READER_VARIETY, Image, SceneDie, Variety, render_scene

EVERY_LOOK = Variety(
    vivid_share=1.0,
    painted_share=1.0,
    engraved_share=1.0,
    translucent_share=1.0,
    marbled_share=1.0,
    glint_share=1.0,
)


def top_saturation(image: Image, die: SceneDie) -> float:
    """The median HSV saturation on a die's top face (its middle half; 0 if it has none)."""
    centre = np.array(die.center)
    inner = (centre + 0.5 * (die.top - centre)).round().astype(np.int32)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [inner], 255)
    saturation = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[:, :, 1]
    return float(np.median(saturation[mask > 0])) if mask.any() else 0.0


def test_scenes_with_every_look_repeat_and_hold_dice() -> None:
    first, second = (render_scene(np.random.default_rng([3, 1]), variety=EVERY_LOOK) for _ in "ab")
    assert (first.image == second.image).all()
    assert first.dice and all(1 <= die.value <= 6 for die in first.dice)


def test_vivid_bodies_are_more_saturated_than_plain_ones() -> None:
    vivid: list[float] = []
    plain: list[float] = []
    for index in range(6):
        for variety, found in ((Variety(vivid_share=1.0), vivid), (Variety(), plain)):
            scene = render_scene(np.random.default_rng([5, index]), variety=variety)
            found += [top_saturation(scene.image, die) for die in scene.dice]
    assert len(vivid) >= 10 and len(plain) >= 10
    assert np.median(vivid) > np.median(plain) + 40


def test_the_largest_side_bounds_the_dice() -> None:
    small = replace(READER_VARIETY, min_side=16.0, max_side=30.0)
    for index in range(4):
        scene = render_scene(np.random.default_rng([7, index]), variety=small)
        assert all(die.side <= 30.0 * 1.15 + 1e-6 for die in scene.dice)
