"""The shipped glyph model (a small network learned from many drawn designs and the CC0
faces): it reads designs it was not trained on, it is deterministic to build, it saves and
loads, and the drawn designs are what they say."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import numpy as np
import pytest

from vision.glyphs import BINARY, REJECT, ConvNetwork, GlyphModel, GlyphModelError, NetModel
from vision.index_reader import RANK_FEATURES, RANK_PATCH, SUIT_PATCH
from vision.training.designs import FontError, draw_face, font_path, random_design, suit_mask
from vision.training.glyphs import DESIGN_BATCHES, ExampleSet, drawn_designs, examples_of, main


@pytest.fixture(scope="module")
def held_out() -> ExampleSet:
    """Two designs drawn with a seed the shipped model was not built from, once each card."""
    assert all(seed != 99 for _, _, seed in DESIGN_BATCHES)
    return examples_of(drawn_designs(2, seed=99), variants=1, seed=99)


def test_shipped_model_reads_drawn_designs_it_was_not_trained_on(held_out: ExampleSet) -> None:
    model = GlyphModel.load()
    assert isinstance(model, NetModel)
    labels = np.array(held_out.rank_labels)
    index = labels != REJECT
    ranks, suits = np.stack(held_out.rank_features), np.stack(held_out.suit_features)
    grey_ranks, grey_suits = np.stack(held_out.rank_grey), np.stack(held_out.suit_grey)
    names, shares = model.rank_shares(ranks, grey_ranks)
    read = names[shares.argmax(axis=1)]
    assert index.sum() >= 80
    assert (read[index] == labels[index]).mean() >= 0.9
    assert (read[~index] == REJECT).mean() >= 0.9
    suit_names, suit_shares = model.suit_shares(suits[index], grey_suits[index])
    truth = np.array(held_out.suit_labels)[index]
    # From the shape alone, down to 3 px pips (the reader adds the ink's colour).
    assert (suit_names[suit_shares.argmax(axis=1)] == truth).mean() >= 0.85


def test_a_network_model_is_deterministic_to_build_and_saves(tmp_path: Path) -> None:
    def tiny() -> NetModel:
        return examples_of(islice(drawn_designs(1, seed=5), 20), variants=1, seed=5).net_model(
            epochs=2, members=2
        )

    first, second = tiny(), tiny()
    first.save(tmp_path / "a.npz")
    second.save(tmp_path / "b.npz")
    with np.load(tmp_path / "a.npz") as a, np.load(tmp_path / "b.npz") as b:
        assert sorted(a.files) == sorted(b.files)
        assert all(np.array_equal(a[name], b[name]) for name in a.files)
    loaded = GlyphModel.load(tmp_path / "a.npz")
    assert isinstance(loaded, NetModel)
    # Two members for each patch kind, binary and grey.
    assert len(loaded.rank_nets) == len(loaded.suit_nets) == 4
    assert loaded.patches == ("binary", "binary", "grey", "grey")
    features = np.zeros((1, len(first.rank_nets[0].mean)), np.float32)
    assert np.allclose(loaded.rank_shares(features, features)[1],
                       first.rank_shares(features, features)[1], atol=0.01)


def test_examples_are_kept_and_fitted_again_with_another_seed(tmp_path: Path) -> None:
    examples = examples_of(islice(drawn_designs(1, seed=5), 12), variants=1, seed=5)
    kept = tmp_path / "examples.npz"
    examples.save(kept)
    again = ExampleSet.load(kept)
    assert again.rank_labels == examples.rank_labels
    assert again.suit_labels == examples.suit_labels
    assert np.array_equal(np.stack(again.rank_features), np.stack(examples.rank_features))
    assert main(["--examples", str(kept), "--seed", "3", "--out", str(tmp_path / "m.npz")]) == 0
    assert isinstance(GlyphModel.load(tmp_path / "m.npz"), NetModel)


def test_a_file_that_holds_no_examples_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "examples.npz"
    garbage.write_bytes(b"not numpy")
    with pytest.raises(SystemExit) as stop:
        main(["--examples", str(garbage), "--out", str(tmp_path / "m.npz")])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "not a file of glyph examples" in error
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.parametrize("suit", ["c", "d", "h", "s"])
def test_drawn_suit_symbols_have_their_shape(suit: str) -> None:
    rng = np.random.default_rng(3)
    for _ in range(5):
        shape = random_design(rng).suits
        mask = suit_mask(shape, suit) > 0.5
        height, width = mask.shape
        assert 0.4 < width / height < 1.6
        top, bottom = mask[: height // 5].mean(), mask[-height // 5 :].mean()
        # Hearts are wide at the top, spades and clubs at the bottom (their stem's foot is
        # narrower than the lobes), diamonds narrow at both ends.
        if suit == "h":
            assert top > bottom
        elif suit == "d":
            assert max(top, bottom) < 0.45


def test_a_drawn_face_has_both_corner_indices() -> None:
    rng = np.random.default_rng(8)
    face = draw_face(random_design(rng), "7h", rng)
    ink = face[:, :, :3].min(axis=2) < 150
    height, width = ink.shape
    top_left = ink[: height // 4, : width // 4].sum()
    bottom_right = ink[::-1, ::-1][: height // 4, : width // 4].sum()
    assert top_left > 50
    assert abs(top_left - bottom_right) < 0.1 * top_left
    assert face[0, 0, 3] == 0 and face[height // 2, width // 2, 3] == 255


def test_a_missing_packaged_font_is_a_one_line_error() -> None:
    with pytest.raises(FontError, match=r"Nope\.ttf of matplotlib not found"):
        font_path("matplotlib", "Nope.ttf")
    assert font_path("kivy", "Roboto-Regular.ttf").is_file()


def random_conv_network(rng: np.random.Generator, image: tuple[int, int], extras: int,
                        outputs: int) -> ConvNetwork:
    """A small convolutional network of random weights (two convolutions, one hidden layer)."""
    rows, columns = image
    flat = 8 * (rows // 4) * (columns // 4) + extras
    def weights(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.5, shape).astype(np.float16).astype(np.float32)
    return ConvNetwork(
        rng.normal(0, 0.1, rows * columns + extras).astype(np.float32),
        np.full(rows * columns + extras, 0.5, np.float32),
        ((weights(flat, 16), weights(16)), (weights(16, outputs), weights(outputs))),
        np.array([str(n) for n in range(outputs)]),
        image,
        (weights(4, 1, 3, 3), weights(8, 4, 3, 3)),
        (weights(4), weights(8)),
        np.zeros((1, rows * columns + extras), np.float32),
        np.zeros((1, outputs), np.float32),
    )


def directly_convolved(image: np.ndarray, kernel: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A 3x3 "same" convolution (C, H, W) -> (out, H, W) written out as loops, ReLU and 2x2 max
    pooling after it: what torch's Conv2d(padding=1), ReLU and MaxPool2d(2) compute."""
    height, width = image.shape[1:]
    padded = np.pad(image, ((0, 0), (1, 1), (1, 1)))
    out = np.empty((len(kernel), height, width))
    for o in range(len(kernel)):
        for y in range(height):
            for x in range(width):
                out[o, y, x] = bias[o] + (padded[:, y : y + 3, x : x + 3] * kernel[o]).sum()
    out = np.maximum(out, 0.0)[:, : height // 2 * 2, : width // 2 * 2]
    return np.asarray(out.reshape(len(kernel), height // 2, 2, width // 2, 2).max(axis=(2, 4)))


def test_a_convolutional_glyph_network_computes_convolutions_and_pooling() -> None:
    rng = np.random.default_rng(1)
    net = random_conv_network(rng, (RANK_PATCH[1], RANK_PATCH[0]), 4, 14)
    features = rng.normal(size=(3, RANK_FEATURES)).astype(np.float32)
    expected = []
    for row in (features - net.mean) / net.scale:
        picture = row[: RANK_PATCH[0] * RANK_PATCH[1]].reshape(1, RANK_PATCH[1], RANK_PATCH[0])
        for kernel, bias in zip(net.kernels, net.kernel_biases, strict=True):
            picture = directly_convolved(picture, kernel, bias)
        hidden = np.maximum(np.concatenate([picture.ravel(), row[-4:]]) @ net.layers[0][0]
                            + net.layers[0][1], 0.0)
        expected.append(hidden @ net.layers[1][0] + net.layers[1][1])
    assert np.allclose(net.logits(features), expected, atol=1e-3)


def test_a_convolutional_model_saves_and_loads(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    rank = random_conv_network(rng, (RANK_PATCH[1], RANK_PATCH[0]), 4, 14)
    suit = random_conv_network(rng, (SUIT_PATCH[1], SUIT_PATCH[0]), 1, 4)
    NetModel((rank,), (suit,), (BINARY,)).save(tmp_path / "cnn.npz")
    loaded = GlyphModel.load(tmp_path / "cnn.npz")
    assert isinstance(loaded, NetModel)
    assert isinstance(loaded.rank_nets[0], ConvNetwork)
    features = rng.normal(size=(5, RANK_FEATURES)).astype(np.float32)
    assert np.allclose(loaded.rank_nets[0].logits(features), rank.logits(features), atol=1e-5)


def test_a_model_for_other_patches_is_refused_in_one_line(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    # The rank features' length, cut as a 10 x 28 image instead of the reader's 20 x 14.
    rank = random_conv_network(rng, (10, 28), 4, 14)
    suit = random_conv_network(rng, (SUIT_PATCH[1], SUIT_PATCH[0]), 1, 4)
    NetModel((rank,), (suit,), (BINARY,)).save(tmp_path / "other.npz")
    with pytest.raises(GlyphModelError, match=r"patch \(10, 28\), expected \(20, 14\)") as error:
        GlyphModel.load(tmp_path / "other.npz")
    assert "\n" not in str(error.value)
