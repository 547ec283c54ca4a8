"""The dice reader's convolutional network, run in numpy (no torch at run time).

It reads a candidate as :mod:`vision.dice_model` does (the ``PATCH`` x ``PATCH`` patch, pips
dark and standardised, then the measurements of :data:`vision.dice_model.FEATURE_NAMES`):
the patch through 3x3 "same" convolutions, each with ReLU and 2x2 max pooling (odd sides
rounded down), flattened channel by channel, joined with the standardised measurements,
then one hidden layer of ReLU units and a softmax over "not a six-sided die" and 1..6.
The convolutions and pooling are :mod:`vision.convnet`'s.

:func:`find_dice <vision.dice.find_dice>` reads with :class:`PairedReader`: this network and
the patch network together (the geometric mean of their probabilities), which reports fewer
polyhedral dice than the CNN alone.

The shipped file, ``vision/data/dice_cnn.npz``, is written by ``python -m
vision.dice_training`` (trained with PyTorch, :mod:`vision.dice_cnn_training`); it also
holds a few input rows and the logits the training network gave them, so a test can check
that this numpy network computes what was trained.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.convnet import cnn_logits
from vision.dice_model import (
    INPUT_NAMES,
    PATCH,
    DiceModel,
    require_inputs,
    shipped_model,
    softmax,
)

Array = npt.NDArray[np.float32]
CNN_FILE = Path(__file__).resolve().parent / "data" / "dice_cnn.npz"


@dataclass(frozen=True)
class DiceCnn:
    """Convolution weights (out, in, 3, 3) and biases, the measurements' mean and scale,
    the dense layers (weights as (in, out)) and a sure threshold (in the shipped file, the
    :class:`PairedReader`'s)."""

    kernels: tuple[Array, ...]
    kernel_biases: tuple[Array, ...]
    mean: Array
    scale: Array
    hidden_weights: Array
    hidden_bias: Array
    out_weights: Array
    out_bias: Array
    sure: float

    def logits(self, inputs: npt.NDArray[Any]) -> Array:
        """The network's logits for each row of ``inputs`` (patch pixels, then measurements)."""
        patches = inputs[:, : PATCH * PATCH].astype(np.float32).reshape(-1, PATCH, PATCH, 1)
        measured = (inputs[:, PATCH * PATCH :].astype(np.float32) - self.mean) / self.scale
        layers = ((self.hidden_weights, self.hidden_bias), (self.out_weights, self.out_bias))
        out: Array = cnn_logits(patches, measured, self.kernels, self.kernel_biases, layers)
        return out

    def probabilities(self, inputs: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        """The probability of each class for each row of ``inputs``."""
        return softmax(self.logits(inputs).astype(np.float64))

    def with_sure(self, sure: float) -> DiceCnn:
        """The same network with another sure threshold."""
        return replace(self, sure=sure)

    def save(self, path: Path, reference: npt.NDArray[Any], logits: npt.NDArray[Any]) -> None:
        """Write the network, with ``reference`` input rows and the ``logits`` the training
        network gave them, as a compressed ``.npz`` file (float32)."""
        arrays: dict[str, Any] = {f"kernel_{i}": kernel for i, kernel in enumerate(self.kernels)}
        arrays |= {f"kernel_bias_{i}": bias for i, bias in enumerate(self.kernel_biases)}
        arrays |= {key: getattr(self, key) for key in _DENSE}
        arrays = {key: value.astype(np.float32) for key, value in arrays.items()}
        np.savez_compressed(
            path,
            sure=np.array([self.sure]),
            names=np.array(INPUT_NAMES),
            reference=reference.astype(np.float32),
            reference_logits=logits.astype(np.float32),
            **arrays,
        )

    @classmethod
    def load(cls, path: Path) -> DiceCnn:
        """Read a network written by :meth:`save`; refuses one made for other inputs."""
        with np.load(path) as data:
            require_inputs(data, path)
            layers = sum(1 for key in data.files if key.startswith("kernel_bias_"))
            dense = {key: data[key] for key in _DENSE}
            return cls(
                kernels=tuple(data[f"kernel_{i}"] for i in range(layers)),
                kernel_biases=tuple(data[f"kernel_bias_{i}"] for i in range(layers)),
                sure=float(data["sure"][0]),
                **dense,
            )


_DENSE = ("mean", "scale", "hidden_weights", "hidden_bias", "out_weights", "out_bias")


def reference_rows(path: Path) -> tuple[Array, Array]:
    """The reference input rows stored in a network file and the logits they were given."""
    with np.load(path) as data:
        return data["reference"], data["reference_logits"]


@cache
def shipped_cnn() -> DiceCnn:
    """The network shipped with the package (loaded once)."""
    return DiceCnn.load(CNN_FILE)


@dataclass(frozen=True)
class PairedReader:
    """The CNN and the patch network (:class:`vision.dice_model.DiceModel`) read together:
    each class's probability is the normalised geometric mean of the two networks' (so a
    die is read only where both see one), with the pair's own sure threshold."""

    cnn: DiceCnn
    patch: DiceModel
    sure: float

    def probabilities(self, inputs: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        """The probability of each class for each row of ``inputs``."""
        both = np.sqrt(self.cnn.probabilities(inputs) * self.patch.probabilities(inputs))
        result: npt.NDArray[np.float64] = both / both.sum(axis=1, keepdims=True)
        return result

    def with_sure(self, sure: float) -> PairedReader:
        """The same pair with another sure threshold."""
        return replace(self, sure=sure)


@cache
def shipped_reader() -> PairedReader:
    """The reader shipped with the package: the shipped CNN and patch network, with the
    pair's sure threshold (stored in the CNN's file)."""
    return PairedReader(shipped_cnn(), shipped_model(), shipped_cnn().sure)
