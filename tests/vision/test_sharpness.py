"""The reader's cheap blur estimate and the sharpening of blurred frames, on real photos."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from benchmarks.card_sources import augmented, deal_shots, felt_shots
from vision.camera_check import edge_blur
from vision.light import darkest_channel
from vision.pipeline import lit_frame
from vision.sharpness import BLURRED, sampled_edge_blur, unblurred


def test_the_sampled_estimate_follows_the_camera_checks(shared_data: Path) -> None:
    # Every 32nd row and column against every pixel: within 0.25 px on the felt photos and
    # the deals, plain and blurred.
    shots = felt_shots(shared_data / "cards")[::5] + deal_shots(shared_data / "cards")
    for shot in shots + augmented(shots, "blur"):
        sampled = sampled_edge_blur(darkest_channel(shot.image))
        assert abs(sampled - edge_blur(shot.image)) < 0.25


def test_blurred_photos_are_sharpened_and_sharp_ones_left_alone(shared_data: Path) -> None:
    shots = felt_shots(shared_data / "cards") + deal_shots(shared_data / "cards")
    for shot in shots + augmented(shots, "shadow-band") + augmented(shots, "glare"):
        assert unblurred(shot.image, darkest_channel(shot.image)) is None
    for shot in augmented(shots, "blur"):
        darkest = darkest_channel(shot.image)
        assert sampled_edge_blur(darkest) > BLURRED
        sharp = unblurred(shot.image, darkest)
        assert sharp is not None and sharp.shape == shot.image.shape
        assert sampled_edge_blur(darkest_channel(sharp)) < sampled_edge_blur(darkest)
        assert np.array_equal(lit_frame(shot.image, (1.0, 1.0, 1.0)).bgr, sharp)


def test_a_large_frame_is_judged_at_the_reference_size() -> None:
    # A blur of 2 px on a 2560 px frame is 1 px at 1280: left alone.
    frame = np.full((1440, 2560, 3), 60, np.uint8)
    frame[400:1000, 800:1200] = 230
    soft = cv2.GaussianBlur(frame, (0, 0), 2.0)
    assert sampled_edge_blur(darkest_channel(soft)) > BLURRED
    assert unblurred(soft, darkest_channel(soft)) is None
    assert unblurred(soft[:720, :1280], darkest_channel(soft[:720, :1280])) is not None
