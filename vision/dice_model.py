"""The learned half of the dice reader: what a candidate face shows.

A candidate face is seen twice: as a small picture (:func:`face_patch`: ``PATCH`` x ``PATCH``
pixels of the channel its pips were found in, about ``PATCH_SPAN`` pip diameters across,
centred on the face, flipped so that pips are dark, and standardised, so the body colour and
the light do not matter), and as a few measurements (:func:`face_features`: pip count,
polarity, how round and how clearly ringed the pips are, how alike in size, pips dropped to
fit a die layout, pip size against the body). A small neural network on both (one hidden
layer of ReLU units, softmax over "not a six-sided die" and 1..6, fitted by :func:`fit`,
seeded) gives the probability of each. ``sure`` is the lowest probability at which reads
were at most 1 % wrong where it was set.

The shipped model, ``vision/data/dice_model.npz``, is made by ``python -m
vision.dice_training`` (synthetic dice scenes, :mod:`vision.dice_scenes`, and the labelled
photos).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice_faces import FACE_SIDE_IN_PIPS, MAX_PIPS, Face
from vision.training.adam import Adam

Vector = npt.NDArray[np.float64]
LEARNING_RATE = 0.002
WEIGHT_DECAY = 1e-4
PATCH = 20
PATCH_SPAN = 7.0
CLASSES = MAX_PIPS + 1
"""Class 0 is "not a six-sided die read here"; class k is a face of k pips."""
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
    "body proposal",
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
        0.0,
    )


def body_features(zoom: float, faces_on_body: int) -> tuple[float, ...]:
    """The measurements of a die body proposed as a whole (no pips measured), as
    :data:`FEATURE_NAMES`: every pip measurement zero, "body proposal" one."""
    pip_measurements = len(FEATURE_NAMES) - 3
    return (
        *(0.0,) * pip_measurements,
        math.log(zoom),
        float(min(faces_on_body, 6)) / 6.0,
        1.0,
    )


def face_patch(plane: npt.NDArray[Any], face: Face) -> Vector:
    """The picture of ``face`` in ``plane`` (the channel its pips were found in): ``PATCH`` x
    ``PATCH`` pixels over ``PATCH_SPAN`` pip diameters, pips dark, zero mean and unit spread,
    flattened.

    >>> from vision.dice_faces import Pip
    >>> plane = np.full((80, 80), 200, np.uint8)
    >>> _ = cv2.circle(plane, (40, 40), 5, 20, -1)
    >>> pip = Pip(40.0, 40.0, 78.5, 1.0, 1.0, 200.0, 180.0, 1.0)
    >>> patch = face_patch(plane, Face((pip,), 1, 0, 1))
    >>> patch.shape, bool(patch[PATCH * PATCH // 2 + PATCH // 2] < -1.0)
    ((400,), True)
    """
    return patch_at(plane, face.center, face.pip_diameter, face.polarity)


def patch_at(
    plane: npt.NDArray[Any], center: tuple[float, float], pip_diameter: float, polarity: int
) -> Vector:
    """The patch of :func:`face_patch` for a face of ``pip_diameter`` at ``center`` whose pips
    are darker (``polarity`` 1) or lighter (-1) than the face."""
    span = max(PATCH_SPAN * pip_diameter, float(PATCH))
    flipped = plane if polarity == 1 else cv2.bitwise_not(plane)
    window = cv2.getRectSubPix(flipped, (math.ceil(span), math.ceil(span)), center)
    small = cv2.resize(window, (PATCH, PATCH), interpolation=cv2.INTER_AREA).astype(np.float64)
    small -= small.mean()
    small /= max(float(small.std()), 8.0)
    flat: Vector = small.ravel()
    return flat


class Reader(Protocol):
    """What reads candidates: the probability of each class for each input row, and the
    lowest probability of a sure read."""

    @property
    def sure(self) -> float: ...

    def probabilities(self, inputs: npt.NDArray[Any]) -> Vector: ...


@dataclass(frozen=True)
class DiceModel:
    """A small neural network (one hidden ReLU layer, softmax over :data:`CLASSES`) on
    standardised inputs (patch pixels, then features), and the threshold for a sure read."""

    mean: Vector
    scale: Vector
    hidden_weights: Vector
    hidden_bias: Vector
    out_weights: Vector
    out_bias: Vector
    sure: float

    def probabilities(self, inputs: npt.NDArray[Any]) -> Vector:
        """The probability of each class for each row of ``inputs``."""
        hidden = np.maximum(
            ((inputs - self.mean) / self.scale) @ self.hidden_weights + self.hidden_bias, 0.0
        )
        return softmax(hidden @ self.out_weights + self.out_bias)

    def with_sure(self, sure: float) -> DiceModel:
        """The same network with another sure threshold."""
        return replace(self, sure=sure)

    def save(self, path: Path) -> None:
        """Write the model as a small compressed ``.npz`` file (weights as float32)."""
        np.savez_compressed(
            path,
            mean=self.mean.astype(np.float32),
            scale=self.scale.astype(np.float32),
            hidden_weights=self.hidden_weights.astype(np.float32),
            hidden_bias=self.hidden_bias.astype(np.float32),
            out_weights=self.out_weights.astype(np.float32),
            out_bias=self.out_bias.astype(np.float32),
            sure=np.array([self.sure]),
            names=np.array(INPUT_NAMES),
        )

    @classmethod
    def load(cls, path: Path) -> DiceModel:
        """Read a model written by :meth:`save`; refuses one made for other inputs."""
        with np.load(path) as data:
            require_inputs(data, path)
            mean, scale, hidden_weights, hidden_bias, out_weights, out_bias = (
                data[key].astype(np.float64)
                for key in (
                    "mean",
                    "scale",
                    "hidden_weights",
                    "hidden_bias",
                    "out_weights",
                    "out_bias",
                )
            )
            return cls(
                mean,
                scale,
                hidden_weights,
                hidden_bias,
                out_weights,
                out_bias,
                float(data["sure"][0]),
            )


INPUT_NAMES = (*(f"patch {i}" for i in range(PATCH * PATCH)), *FEATURE_NAMES)


def require_inputs(data: Any, path: Path) -> None:
    """Refuse a network file (``data``, its loaded ``.npz``) made for other inputs than
    :data:`INPUT_NAMES`."""
    if tuple(str(name) for name in data["names"]) != INPUT_NAMES:
        raise ValueError(f"{path}: made for other inputs; rebuild it")


def softmax(z: Vector) -> Vector:
    """Each row of logits ``z`` as probabilities."""
    shifted = np.exp(z - z.max(axis=1, keepdims=True))
    result: Vector = shifted / shifted.sum(axis=1, keepdims=True)
    return result


@cache
def shipped_model() -> DiceModel:
    """The model shipped with the package (loaded once)."""
    return DiceModel.load(MODEL_FILE)


def fit(
    inputs: npt.NDArray[Any],
    labels: npt.NDArray[Any],
    *,
    hidden: int = 64,
    epochs: int = 12,
    batch: int = 256,
    seed: int = 0,
) -> DiceModel:
    """Fit the network to ``inputs`` (one row per candidate) and ``labels`` (class 0..6) by
    mini-batch Adam on the cross-entropy with a little weight decay; seeded, so repeatable.
    ``sure`` is left at 0.5 (the trainer sets it).

    >>> rows = np.array([[0.0], [1.0], [2.0], [3.0]] * 20)
    >>> model = fit(rows, np.array([0, 0, 3, 3] * 20), hidden=4, epochs=60, batch=8)
    >>> [int(k) for k in model.probabilities(rows[:4]).argmax(axis=1)]
    [0, 0, 3, 3]
    """
    mean = inputs.mean(axis=0)
    scale = inputs.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = (inputs - mean) / scale
    target = np.eye(CLASSES)[labels.astype(int)]
    rng = np.random.default_rng(seed)
    params = [
        rng.normal(0.0, math.sqrt(2.0 / x.shape[1]), (x.shape[1], hidden)),
        np.zeros(hidden),
        rng.normal(0.0, 1.0 / math.sqrt(hidden), (hidden, CLASSES)),
        np.zeros(CLASSES),
    ]
    adam = Adam(params, LEARNING_RATE)
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            rows = order[start : start + batch]
            adam.update(_gradients(params, x[rows], target[rows]))
    return DiceModel(mean, scale, params[0], params[1], params[2], params[3], 0.5)


def _gradients(params: list[Vector], x: Vector, target: Vector) -> list[Vector]:
    """The gradients of the mean cross-entropy (plus weight decay) for one batch."""
    layer = np.maximum(x @ params[0] + params[1], 0.0)
    error = (softmax(layer @ params[2] + params[3]) - target) / len(x)
    back = (error @ params[2].T) * (layer > 0.0)
    return [
        x.T @ back + WEIGHT_DECAY * params[0],
        back.sum(axis=0),
        layer.T @ error + WEIGHT_DECAY * params[2],
        error.sum(axis=0),
    ]
