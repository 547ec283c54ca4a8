"""Grey-level glyph patches: sampled from the darkest channel of a real photo, they show the
glyph upright at any turn, and a model file says which patch kind each network reads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.image_files import image_at
from vision.glyphs import BINARY, GREY, GlyphModel, GlyphModelError, NetModel
from vision.index_reader import RANK_PATCH, IndexCandidate, find_index_candidates

CELLS = RANK_PATCH[0] * RANK_PATCH[1]


def seven_index(shared_data: Path, angle: float = 0.0) -> IndexCandidate:
    """The top-left index of the single photo of the 7 of spades (the 7 over its pip),
    the photo turned by ``angle`` degrees on a green cloth first."""
    photo = image_at(shared_data / "cards" / "photos-single" / "7s.jpg")
    if angle:
        cloth = cv2.copyMakeBorder(photo, 150, 150, 150, 150, cv2.BORDER_CONSTANT,
                                   value=(60, 90, 60))
        height, width = cloth.shape[:2]
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
        photo = cv2.warpAffine(cloth, turn, (width, height), borderValue=(60, 90, 60))
    upright = np.array([[0.0, -1.0]]) @ cv2.getRotationMatrix2D((0, 0), angle, 1.0)[:, :2].T
    return max(
        (c for c in find_index_candidates(photo) if c.glyph_size < 40),
        key=lambda c: float(np.dot(c.up, upright[0])),
    )


def test_a_grey_patch_is_bounded_zero_mean_unit_length_and_like_the_binary_one(
    shared_data: Path,
) -> None:
    seven = seven_index(shared_data)
    assert seven.rank_grey is not None and seven.suit_grey is not None
    grey = seven.rank_grey[:CELLS]
    assert abs(float(grey.mean())) < 1e-5
    assert float(np.linalg.norm(grey)) == pytest.approx(1.0, abs=1e-4)
    assert float(np.abs(grey).max()) < 0.25
    # The same features besides the patch: aspect, layout and holes.
    assert np.array_equal(seven.rank_grey[CELLS:], seven.rank_features[CELLS:])
    binary = seven.rank_features[:CELLS]
    assert float(grey @ binary) > 0.85
    # The 7's bar is the top rows: ink there, none at the bottom left.
    patch = grey.reshape(RANK_PATCH[1], RANK_PATCH[0])
    assert patch[:2].mean() > 0.05 and patch[-6:, :3].mean() < 0


@pytest.mark.parametrize("angle", [37.0, 90.0, 150.0])
def test_a_turned_glyph_gives_the_same_grey_patch(shared_data: Path, angle: float) -> None:
    upright, turned = seven_index(shared_data), seven_index(shared_data, angle)
    assert upright.rank_grey is not None and turned.rank_grey is not None
    assert float(upright.rank_grey[:CELLS] @ turned.rank_grey[:CELLS]) > 0.95


def test_the_shipped_model_reads_the_seven_from_both_patch_kinds(shared_data: Path) -> None:
    model = GlyphModel.load()
    assert isinstance(model, NetModel) and set(model.patches) == {BINARY, GREY}
    seven = seven_index(shared_data)
    (reading,) = model.read([seven])
    assert reading is not None and reading.card == "7s" and reading.confidence > 0.7
    with pytest.raises(GlyphModelError, match="grey-level patches"):
        model.read([replace(seven, rank_grey=None)])


def test_a_model_file_names_each_networks_patch_kind(tmp_path: Path) -> None:
    model = GlyphModel.load()
    assert isinstance(model, NetModel)
    model.save(tmp_path / "pair.npz")
    with np.load(tmp_path / "pair.npz") as data:
        arrays = dict(data)
    assert [str(arrays[f"patch{n}"]) for n in range(int(arrays["members"]))] == list(
        model.patches
    )
    again = GlyphModel.load(tmp_path / "pair.npz")
    assert isinstance(again, NetModel) and again.patches == model.patches
    # A file from before grey patches names no kind: its networks read binary patches.
    np.savez(tmp_path / "old.npz", **{k: v for k, v in arrays.items() if k != "patch1"}
             | {"members": np.array(1)})
    old = GlyphModel.load(tmp_path / "old.npz")
    assert isinstance(old, NetModel) and old.patches == (BINARY,) and not old.reads_grey


def test_a_model_reading_another_patch_kind_is_refused_in_one_line(tmp_path: Path) -> None:
    model = GlyphModel.load()
    assert isinstance(model, NetModel)
    model.save(tmp_path / "pair.npz")
    with np.load(tmp_path / "pair.npz") as data:
        arrays = dict(data) | {"patch0": np.array("colour")}
    np.savez(tmp_path / "colour.npz", **arrays)
    with pytest.raises(GlyphModelError, match=r"patch kind 'colour', expected one of") as error:
        GlyphModel.load(tmp_path / "colour.npz")
    assert "\n" not in str(error.value)
