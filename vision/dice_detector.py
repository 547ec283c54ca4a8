"""Where the dice are: a small fully convolutional network that marks die centres.

CenterNet-style: the frame (at the reader's working size, Lab) is halved and turned into two
planes that do not depend on the table's colour or the light (:func:`planes`: lightness and
colour distance from the table round each pixel, the table being a heavy median of a small
copy). Four 3x3 convolutions with ReLU (the first two followed by 2x2 max pooling, the last
two dilated, so a unit sees about 84 working pixels: a large die whole) and a 1x1 head give,
for every cell of ``STRIDE`` working pixels, the logit that a die's top face is centred there
and the log of its side. :meth:`DetectorNet.detect` takes the peaks. Trained in numpy on
synthetic scenes alone (:mod:`vision.dice_scenes`), with the focal loss of CenterNet on
the heat map and an L1 loss on the size at the centres; seeded.

Run time is OpenCV's dnn module on the ONNX file :meth:`DetectorNet.onnx` writes
(:mod:`vision.dice_onnx`), ``vision/data/dice_detector.onnx``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice_net import Array, columns, pool, uncolumns, unpool
from vision.dice_onnx import INPUT, OUTPUT, Node, conv, max_pool, model_bytes, relu
from vision.training.adam import Adam

DETECTOR_FILE = Path(__file__).resolve().parent / "data" / "dice_detector.onnx"
LAYERS = ((8, 1, True), (16, 1, True), (16, 2, False), (16, 2, False))
"""Each convolution: output channels, dilation, whether 2x2 pooling follows."""
PLANES = 2
STRIDE = 8
"""Working pixels per output cell (the input is halved, then pooled twice)."""
BACKGROUND_SIZE = (80, 60)
BACKGROUND_KERNEL = 15
LIGHTNESS_SCALE = 32.0
CHROMA_SCALE = 24.0
LEARNING_RATE = 0.003
WEIGHT_DECAY = 1e-4
FOCAL_POWER = 2.0
NEGATIVE_POWER = 4.0
SIZE_WEIGHT = 0.5


def planes(lab: npt.NDArray[Any]) -> Array:
    """The network's input for a Lab frame (uint8, working size): half size, two planes,
    lightness and colour each as the difference from the local table (scaled to about 1).

    >>> planes(np.full((96, 128, 3), 128, np.uint8)).shape
    (48, 64, 2)
    """
    height, width = lab.shape[:2]
    half = cv2.resize(lab, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    small = cv2.resize(lab, BACKGROUND_SIZE, interpolation=cv2.INTER_AREA)
    table = cv2.resize(cv2.medianBlur(small, BACKGROUND_KERNEL), (width // 2, height // 2))
    difference = half.astype(np.float32) - table.astype(np.float32)
    lightness = difference[:, :, 0] / LIGHTNESS_SCALE
    chroma = cv2.magnitude(difference[:, :, 1], difference[:, :, 2]) / CHROMA_SCALE
    return np.stack([lightness, chroma], axis=2)


@dataclass(frozen=True)
class Detection:
    """A die found by the detector: centre and side in working pixels, and how likely."""

    center: tuple[float, float]
    side: float
    score: float


@dataclass(frozen=True)
class DetectorNet:
    """The weights (numpy, for training): a kernel (9 x inputs, outputs) and bias per
    convolution, then the head (channels x 2: centre logit and log side in cells)."""

    params: tuple[Array, ...]

    @classmethod
    def initial(cls, rng: np.random.Generator) -> DetectorNet:
        """Random starting weights (He initialisation; the centre logit starts low)."""
        params: list[Array] = []
        inputs = PLANES
        for outputs, _, _ in LAYERS:
            scale = math.sqrt(2.0 / (9 * inputs))
            params += [rng.normal(0.0, scale, (9 * inputs, outputs)), np.zeros(outputs)]
            inputs = outputs
        params += [rng.normal(0.0, 0.01, (inputs, 2)), np.array([-4.0, 1.5])]
        return cls(tuple(p.astype(np.float32) for p in params))

    def outputs(self, x: Array) -> Array:
        """The head's two outputs for a batch of :func:`planes` (N x H x W x PLANES)."""
        out, _ = _forward(list(self.params), x)
        return out

    def onnx(self) -> bytes:
        """The network as an ONNX model (input N x PLANES x H x W, output N x 2 x H/4 x W/4)."""
        nodes: list[Node] = []
        source = INPUT
        for index, (outputs, dilation, pooled) in enumerate(LAYERS):
            kernel, bias = self.params[2 * index], self.params[2 * index + 1]
            weights = kernel.reshape(-1, 3, 3, outputs).transpose(3, 0, 1, 2)
            nodes += [
                conv(source, f"conv{index}", weights, bias, dilation),
                relu(f"conv{index}", f"relu{index}"),
            ]
            source = f"relu{index}"
            if pooled:
                nodes.append(max_pool(source, f"pool{index}"))
                source = f"pool{index}"
        head, bias = self.params[-2], self.params[-1]
        nodes.append(conv(source, OUTPUT, head.T.reshape(2, -1, 1, 1), bias))
        return model_bytes(nodes, PLANES)


class Detector:
    """The detector at run time: the ONNX model run by OpenCV's dnn module.

    >>> detector = Detector(DetectorNet.initial(np.random.default_rng(0)).onnx())
    >>> detector.detect(np.full((120, 160, 3), 128, np.uint8), floor=0.99)
    []
    """

    def __init__(self, model: bytes) -> None:
        self.net = cv2.dnn.readNetFromONNX(np.frombuffer(model, np.uint8))

    @classmethod
    def load(cls, path: Path) -> Detector:
        """The detector in an ONNX file written from :meth:`DetectorNet.onnx`."""
        return cls(path.read_bytes())

    @classmethod
    @cache
    def shipped(cls) -> Detector:
        """The detector shipped with the package (loaded once)."""
        return cls.load(DETECTOR_FILE)

    def heat(self, lab: npt.NDArray[Any]) -> tuple[Array, Array]:
        """The centre probability and the side (working pixels) of every cell of a Lab frame
        at working size."""
        x = planes(lab)
        cell = STRIDE // 2
        grow = (-x.shape[0] % cell, -x.shape[1] % cell)  # whole cells
        x = np.pad(x, ((0, grow[0]), (0, grow[1]), (0, 0)))
        self.net.setInput(np.ascontiguousarray(x.transpose(2, 0, 1)[None]))
        out = self.net.forward()
        probability: Array = 1.0 / (1.0 + np.exp(-out[0, 0]))
        side: Array = STRIDE * np.exp(out[0, 1])
        return probability, side

    def detect(self, lab: npt.NDArray[Any], floor: float) -> list[Detection]:
        """The peaks of the heat map at least ``floor`` likely, centres refined to the
        weighted mean of the 3x3 cells round each peak."""
        probability, side = self.heat(lab)
        return peaks(probability, side, floor)


def peaks(probability: Array, side: Array, floor: float) -> list[Detection]:
    """The local maxima (3x3) of ``probability`` at least ``floor``, as detections.

    >>> heat = np.zeros((5, 5), np.float32)
    >>> heat[2, 1:3] = 0.9, 0.9
    >>> [(d.center, d.side) for d in peaks(heat, np.full((5, 5), 20.0), 0.5)]
    [((16.0, 20.0), 20.0)]
    """
    local_max = probability >= cv2.dilate(probability, np.ones((3, 3), np.uint8))
    found: list[Detection] = []
    padded = np.pad(probability, 1)
    for row, col in zip(*np.nonzero(local_max & (probability >= floor)), strict=True):
        if any(
            math.dist(d.center, (STRIDE * (col + 0.5), STRIDE * (row + 0.5))) < STRIDE * 1.5
            for d in found
        ):
            continue  # a plateau: one peak
        window = padded[row : row + 3, col : col + 3]
        weights = window / window.sum()
        dy = float((weights.sum(axis=1) * np.arange(-1, 2)).sum())
        dx = float((weights.sum(axis=0) * np.arange(-1, 2)).sum())
        center = (STRIDE * (int(col) + 0.5 + dx), STRIDE * (int(row) + 0.5 + dy))
        found.append(Detection(center, float(side[row, col]), float(probability[row, col])))
    return found


@dataclass
class _Trace:
    columns: list[Array]
    shapes: list[tuple[int, ...]]
    activations: list[Array]
    masks: list[Array | None]
    last: Array


def _forward(params: list[Array], x: Array) -> tuple[Array, _Trace]:
    trace = _Trace([], [], [], [], x)
    for index, (outputs, dilation, pooled) in enumerate(LAYERS):
        cols = columns(x, dilation)
        trace.columns.append(cols)
        trace.shapes.append(x.shape)
        out = np.maximum(cols @ params[2 * index] + params[2 * index + 1], 0.0)
        out = out.reshape(*x.shape[:3], outputs)
        trace.activations.append(out)
        mask = None
        if pooled:
            out, mask = pool(out)
        trace.masks.append(mask)
        x = out
    trace.last = x
    head, bias = params[-2], params[-1]
    result: Array = x @ head + bias
    return result, trace


def loss_gradient(out: Array, heat: Array, size: Array) -> tuple[float, Array]:
    """The focal loss on the centre logits against the target ``heat`` (1 at a die's centre
    cell, a Gaussian bump round it) and the L1 loss on the log side at the centres (``size``),
    both per centre; and their gradient with respect to ``out``."""
    logit, log_side = out[..., 0], out[..., 1]
    p = np.clip(1.0 / (1.0 + np.exp(-logit)), 1e-6, 1.0 - 1e-6)
    centres = heat >= 1.0
    count = max(int(centres.sum()), 1)
    a, b = FOCAL_POWER, NEGATIVE_POWER
    positive = -((1 - p) ** a) * np.log(p)
    negative = -((1 - heat) ** b) * p**a * np.log(1 - p)
    d_positive = a * p * (1 - p) ** a * np.log(p) - (1 - p) ** (a + 1)
    d_negative = -((1 - heat) ** b) * (a * p**a * (1 - p) * np.log(1 - p) - p ** (a + 1))
    size_error = np.where(centres, log_side - size, 0.0)
    loss = float(
        np.where(centres, positive, negative).sum() + SIZE_WEIGHT * np.abs(size_error).sum()
    )
    gradient = np.zeros_like(out)
    gradient[..., 0] = np.where(centres, d_positive, d_negative) / count
    gradient[..., 1] = SIZE_WEIGHT * np.sign(size_error) / count
    return loss / count, gradient


def _gradients(
    params: list[Array], x: Array, heat: Array, size: Array
) -> tuple[float, list[Array]]:
    out, trace = _forward(params, x)
    loss, upstream = loss_gradient(out, heat, size)
    channels = trace.last.shape[3]
    flat_last = trace.last.reshape(-1, channels)
    flat_up = upstream.reshape(-1, 2)
    grads = [flat_last.T @ flat_up + WEIGHT_DECAY * params[-2], flat_up.sum(axis=0)]
    back = (flat_up @ params[-2].T).reshape(trace.last.shape)
    for index in reversed(range(len(LAYERS))):
        mask = trace.masks[index]
        if mask is not None:
            back = unpool(back, mask)
        activation = trace.activations[index]
        local = (back * (activation > 0.0)).reshape(-1, activation.shape[3])
        kernel = params[2 * index]
        grads = [trace.columns[index].T @ local + WEIGHT_DECAY * kernel, local.sum(axis=0), *grads]
        if index:
            back = uncolumns(local @ kernel.T, trace.shapes[index], LAYERS[index][1])
    return loss, grads


def targets(shape: tuple[int, int], dice: list[tuple[float, float, float]]) -> tuple[Array, Array]:
    """The heat map and log-side targets of a frame of ``shape`` (working height, width) with
    ``dice`` (centre x, centre y, side; working pixels).

    >>> heat, size = targets((64, 64), [(28.0, 12.0, 24.0)])
    >>> heat.shape, float(heat[1, 3]), round(float(size[1, 3]), 2)
    ((8, 8), 1.0, 1.1)
    """
    rows, cols = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((rows, cols), np.float32)
    size = np.zeros((rows, cols), np.float32)
    ys, xs = np.mgrid[0:rows, 0:cols].astype(np.float32)
    for x, y, side in dice:
        u, v = x / STRIDE - 0.5, y / STRIDE - 0.5
        sigma = max(0.5, side / STRIDE / 6.0)
        bump = np.exp(-((xs - u) ** 2 + (ys - v) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, bump.astype(np.float32))
        col, row = round(u), round(v)
        if 0 <= row < rows and 0 <= col < cols:
            heat[row, col] = 1.0
            size[row, col] = math.log(side / STRIDE)
    return heat, size


def fit_detector(
    inputs: list[Array],
    heats: list[Array],
    sizes: list[Array],
    *,
    epochs: int = 20,
    batch: int = 8,
    window: tuple[int, int] = (96, 128),
    seed: int = 0,
) -> DetectorNet:
    """Fit the detector to frames' :func:`planes` and :func:`targets`: each step a batch of
    random ``window`` (rows, columns of the half-size planes) cut-outs, turned half the
    time by a mirror image; seeded."""
    rng = np.random.default_rng(seed)
    params = list(DetectorNet.initial(rng).params)
    adam = Adam(params, LEARNING_RATE)
    cell = STRIDE // 2  # half-size input pixels per output cell
    rows, cols = window[0] // cell, window[1] // cell
    for _ in range(epochs):
        order = rng.permutation(len(inputs))
        for start in range(0, len(order), batch):
            xs, hs, ss = [], [], []
            for index in order[start : start + batch]:
                plane, heat, size = inputs[index], heats[index], sizes[index]
                top = int(rng.integers(0, heat.shape[0] - rows + 1))
                left = int(rng.integers(0, heat.shape[1] - cols + 1))
                x = plane[top * cell : (top + rows) * cell, left * cell : (left + cols) * cell]
                h, s = (
                    heat[top : top + rows, left : left + cols],
                    size[top : top + rows, left : left + cols],
                )
                if rng.random() < 0.5:
                    x, h, s = x[:, ::-1], h[:, ::-1], s[:, ::-1]
                xs.append(x)
                hs.append(h)
                ss.append(s)
            _, gradients = _gradients(params, np.ascontiguousarray(xs), np.array(hs), np.array(ss))
            adam.update(gradients)
    return DetectorNet(tuple(params))
