"""The learned half of the dice reader: how likely a candidate face is a die read right.

A candidate face is described by a few measurements (:func:`face_features`: its value, pip
polarity, how round and how clearly ringed its pips are, how alike in size, how many pips
its group lost to fit a die layout, pip size against the body). A logistic regression on
them, fitted by :func:`fit` (Newton steps with a small ridge, deterministic), gives the
probability that the face is a six-sided die with that value. ``sure`` is the lowest
probability at which reads on the training photos were at most 1 % wrong.

The shipped model, ``vision/data/dice_model.npz``, is made by ``python -m
vision.dice_training``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.dice_faces import FACE_SIDE_IN_PIPS, MAX_PIPS, Face

Vector = npt.NDArray[np.float64]
MODEL_FILE = Path(__file__).resolve().parent / "data" / "dice_model.npz"
FEATURE_NAMES = (
    *(f"value {value}" for value in range(1, MAX_PIPS + 1)),
    "dark pips",
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
    """Logistic regression on standardised features, and the threshold for a sure read."""

    weights: Vector
    bias: float
    mean: Vector
    scale: Vector
    sure: float

    def probabilities(self, features: npt.NDArray[Any]) -> Vector:
        """The probability of a right read for each row of ``features``."""
        z = ((features - self.mean) / self.scale) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))

    def save(self, path: Path) -> None:
        """Write the model as a small ``.npz`` file."""
        np.savez(
            path,
            weights=self.weights,
            bias=np.array([self.bias]),
            mean=self.mean,
            scale=self.scale,
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
                data["weights"],
                float(data["bias"][0]),
                data["mean"],
                data["scale"],
                float(data["sure"][0]),
            )


@cache
def shipped_model() -> DiceModel:
    """The model shipped with the package (loaded once)."""
    return DiceModel.load(MODEL_FILE)


def fit(
    features: npt.NDArray[Any], right: npt.NDArray[Any], sure: float = 0.5, ridge: float = 1.0
) -> DiceModel:
    """Fit the regression to ``features`` (one row per candidate) and ``right`` (0 or 1).

    >>> model = fit(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1]))
    >>> [round(p, 2) for p in model.probabilities(np.array([[0.0], [3.0]]))]
    [0.18, 0.82]
    """
    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = np.hstack([(features - mean) / scale, np.ones((len(features), 1))])
    y = right.astype(np.float64)
    w = np.zeros(x.shape[1])
    penalty = ridge * np.eye(x.shape[1])
    penalty[-1, -1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30.0, 30.0)))
        gradient = x.T @ (p - y) + penalty @ w
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return DiceModel(w[:-1], float(w[-1]), mean, scale, sure)
