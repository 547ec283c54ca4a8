"""The dice detector: the shipped one on rendered scenes it was not trained on, its ONNX file
against the numpy network it was written from, and a tiny training run twice."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.dice_detector import DETECTOR_FILE, STRIDE, Detector, DetectorNet, planes
from vision.dice_scenes import DETECTOR_VARIETY, render_scene
from vision.dice_training import SEED, train_detector

MIN_SCENE_REACH = 0.85  # of the dice in unseen scenes, a detection within half a side
MAX_ELSEWHERE = 0.6  # detections on no die, per die: measured 21 for 45 (clutter looks alike)


def test_the_shipped_detector_finds_the_dice_of_unseen_scenes() -> None:
    found = labelled = false = 0
    for index in range(6):
        scene = render_scene(np.random.default_rng([SEED + 1, index]), variety=DETECTOR_VARIETY)
        lab = cv2.cvtColor(scene.image, cv2.COLOR_BGR2LAB)
        detections = Detector.shipped().detect(lab, 0.3)
        labelled += len(scene.dice)
        for die in scene.dice:
            found += any(
                math.dist(d.center, die.center) < max(die.side / 2, STRIDE) for d in detections
            )
        false += sum(not any(die.holds(*d.center) for die in scene.dice) for d in detections)
    assert labelled >= 30
    assert found >= MIN_SCENE_REACH * labelled
    assert false <= MAX_ELSEWHERE * labelled


def test_the_onnx_file_computes_what_the_numpy_network_does() -> None:
    network = DetectorNet.initial(np.random.default_rng(5))
    lab = np.random.default_rng(6).integers(0, 255, (96, 128, 3)).astype(np.uint8)
    probability, _ = Detector(network.onnx()).heat(lab)
    logits = network.outputs(planes(lab)[None])[0, :, :, 0]
    assert np.allclose(probability, 1.0 / (1.0 + np.exp(-logits)), atol=1e-5)


def test_the_shipped_detector_is_small() -> None:
    assert DETECTOR_FILE.stat().st_size < 200_000


def test_detector_training_is_repeatable() -> None:
    """Seeded: the same weights again, to float32 rounding (a multithreaded matrix product
    may add in another order: measured differences up to 3e-8)."""
    first, second = train_detector(3, epochs=2), train_detector(3, epochs=2)
    pairs = zip(first.params, second.params, strict=True)
    assert all(np.allclose(a, b, rtol=0.0, atol=1e-6) for a, b in pairs)
    untrained = DetectorNet.initial(np.random.default_rng(SEED))
    assert not np.array_equal(first.params[0], untrained.params[0])
