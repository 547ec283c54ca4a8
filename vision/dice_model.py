"""The learned half of the dice reader: how likely a candidate face is a die read right.

A candidate face is described by a few measurements (:func:`face_features`: its value, pip
polarity, how round and how clearly ringed its pips are, how alike in size, how many pips
its group lost to fit a die layout, pip size against the body). A small neural network
on them (one hidden layer of 24 tanh units, fitted by :func:`fit`, seeded), gives the
probability that the face is a six-sided die with that value. ``sure`` is the lowest
probability at which reads on the training photos were at most 1 % wrong.

The shipped model, ``vision/data/dice_model.npz``, is made by ``python -m
vision.dice_training``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.dice_faces import FACE_SIDE_IN_PIPS, MAX_PIPS, Face

Vector = npt.NDArray[np.float64]
LEARNING_RATE = 0.01
WEIGHT_DECAY = 1e-3
MODEL_FILE = Path(__file__).resolve().parent / "data" / "dice_model.npz"
FEATURE_NAMES = (
    *(f"value {value}" for value in range(1, MAX_PIPS + 1)),
    "dark pips",
    "colour pips",
    "least roundness",
    "mean roundness",
    "least ring share",
    "mean wide ring share",
    "least contrast",
    "mean contrast",
    "pip size spread",
    "pips dropped",
    "pip size for the body",
    "zoom",
    "faces on the body",
)


def face_features(
    face: Face, body_side: float, zoom: float, faces_on_body: int
) -> tuple[float, ...]:
    """The measurements of one candidate face (sizes in crop pixels), as :data:`FEATURE_NAMES`."""
    pips = face.pips
    diameters = [p.diameter for p in pips]
    mean_diameter = sum(diameters) / len(diameters)
    spread = float(np.std(diameters)) / mean_diameter
    return (
        *(1.0 if face.value == value else 0.0 for value in range(1, MAX_PIPS + 1)),
        1.0 if face.polarity == 1 else 0.0,
        1.0 if face.channel else 0.0,
        min(p.roundness for p in pips),
        sum(p.roundness for p in pips) / len(pips),
        min(p.ring_share for p in pips),
        sum(p.wide_ring_share for p in pips) / len(pips),
        min(p.contrast for p in pips) / 100.0,
        sum(p.contrast for p in pips) / len(pips) / 100.0,
        spread,
        float(face.group_size - face.value),
        min(3.0, FACE_SIDE_IN_PIPS * mean_diameter / max(body_side, 1.0)),
        math.log(zoom),
        float(min(faces_on_body, 6)) / 6.0,
    )


@dataclass(frozen=True)
class DiceModel:
    """A small neural network (one hidden tanh layer) on standardised features, and the
    threshold for a sure read."""

    mean: Vector
    scale: Vector
    hidden_weights: Vector
    hidden_bias: Vector
    out_weights: Vector
    out_bias: float
    sure: float

    def probabilities(self, features: npt.NDArray[Any]) -> Vector:
        """The probability of a right read for each row of ``features``."""
        hidden = np.tanh(
            ((features - self.mean) / self.scale) @ self.hidden_weights + self.hidden_bias
        )
        return _sigmoid(hidden @ self.out_weights + self.out_bias)

    def with_sure(self, sure: float) -> DiceModel:
        """The same network with another sure threshold."""
        return replace(self, sure=sure)

    def save(self, path: Path) -> None:
        """Write the model as a small ``.npz`` file."""
        np.savez(
            path,
            mean=self.mean,
            scale=self.scale,
            hidden_weights=self.hidden_weights,
            hidden_bias=self.hidden_bias,
            out_weights=self.out_weights,
            out_bias=np.array([self.out_bias]),
            sure=np.array([self.sure]),
            names=np.array(FEATURE_NAMES),
        )

    @classmethod
    def load(cls, path: Path) -> DiceModel:
        """Read a model written by :meth:`save`; refuses one made for other features."""
        with np.load(path) as data:
            if tuple(str(name) for name in data["names"]) != FEATURE_NAMES:
                raise ValueError(f"{path}: made for other features; rebuild it")
            return cls(
                data["mean"],
                data["scale"],
                data["hidden_weights"],
                data["hidden_bias"],
                data["out_weights"],
                float(data["out_bias"][0]),
                float(data["sure"][0]),
            )


def _sigmoid(z: Vector) -> Vector:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


@cache
def shipped_model() -> DiceModel:
    """The model shipped with the package (loaded once)."""
    return DiceModel.load(MODEL_FILE)


def fit(
    features: npt.NDArray[Any],
    right: npt.NDArray[Any],
    *,
    hidden: int = 24,
    steps: int = 1500,
    seed: int = 0,
) -> DiceModel:
    """Fit the network to ``features`` (one row per candidate) and ``right`` (0 or 1) by
    full-batch Adam on the log loss with a little weight decay; seeded, so repeatable.
    ``sure`` is left at 0.5 (the trainer sets it).

    >>> rows = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> model = fit(rows, np.array([0, 0, 1, 1]), hidden=2, steps=300)
    >>> [bool(p > 0.5) for p in model.probabilities(rows)]
    [False, False, True, True]
    """
    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = (features - mean) / scale
    y = right.astype(np.float64)
    rng = np.random.default_rng(seed)
    params = [
        rng.normal(0.0, 1.0 / math.sqrt(x.shape[1]), (x.shape[1], hidden)),
        np.zeros(hidden),
        rng.normal(0.0, 1.0 / math.sqrt(hidden), hidden),
        np.zeros(1),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    for step in range(1, steps + 1):
        layer = np.tanh(x @ params[0] + params[1])
        error = (_sigmoid(layer @ params[2] + params[3][0]) - y) / len(y)
        back = np.outer(error, params[2]) * (1.0 - layer**2)
        gradients = [
            x.T @ back + WEIGHT_DECAY * params[0],
            back.sum(axis=0),
            layer.T @ error + WEIGHT_DECAY * params[2],
            np.array([error.sum()]),
        ]
        for i, gradient in enumerate(gradients):
            first[i] = 0.9 * first[i] + 0.1 * gradient
            second[i] = 0.999 * second[i] + 0.001 * gradient**2
            corrected = first[i] / (1.0 - 0.9**step)
            params[i] -= (
                LEARNING_RATE * corrected / (np.sqrt(second[i] / (1.0 - 0.999**step)) + 1e-8)
            )
    return DiceModel(mean, scale, params[0], params[1], params[2], float(params[3][0]), 0.5)
