"""The dice reader's CNN as shipped: numpy inference (no torch) against the logits torch gave
when it was trained, its file, and the reader that pairs it with the patch network."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from vision.dice_cnn import CNN_FILE, DiceCnn, reference_rows, shipped_cnn, shipped_reader
from vision.dice_model import CLASSES, DiceModel, shipped_model


def test_numpy_inference_computes_what_torch_trained() -> None:
    rows, logits = reference_rows(CNN_FILE)
    assert rows.shape[0] >= 8
    assert np.allclose(shipped_cnn().logits(rows), logits, atol=1e-4)


def test_the_shipped_cnn_is_small_and_carries_the_pairs_threshold() -> None:
    assert CNN_FILE.stat().st_size < 500_000
    assert shipped_reader().sure == shipped_cnn().sure
    assert 0.5 <= shipped_reader().sure <= 1.0


@pytest.mark.parametrize("load", [DiceCnn.load, DiceModel.load], ids=["cnn", "patch network"])
def test_a_network_file_for_other_inputs_is_refused(
    load: Callable[[Path], object], tmp_path: Path
) -> None:
    path = tmp_path / "other.npz"
    np.savez(path, names=np.array(["something else"]))
    with pytest.raises(ValueError, match="made for other inputs"):
        load(path)


def test_the_pair_sees_a_die_no_more_than_the_doubtful_network() -> None:
    rows, _ = reference_rows(CNN_FILE)
    pair = shipped_reader().probabilities(rows)
    cnn, patch = shipped_cnn().probabilities(rows), shipped_model().probabilities(rows)
    assert pair.shape == (len(rows), CLASSES)
    assert np.allclose(pair.sum(axis=1), 1.0)
    assert (pair[:, 0] >= np.minimum(cnn[:, 0], patch[:, 0]) - 1e-9).all()
    assert (pair.argmax(axis=1) > 0).any()  # the reference rows hold dice as well


def test_reading_dice_does_not_import_torch(shared_data: Path) -> None:
    photo = shared_data / "dice" / "photos" / "five_1.jpg"
    code = (
        "import sys, cv2; from vision.dice import find_dice;"
        f" assert find_dice(cv2.imread({str(photo)!r}));"
        " assert 'torch' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])
