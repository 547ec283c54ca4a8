"""Train the dice reader's CNN (:mod:`vision.dice_cnn`) with PyTorch: the optional ``train``
extra (``pip install -e .[train]``). Nothing at run time imports this module.

The network: the 20x20 patch through 3x3 convolutions of ``CHANNELS`` channels (ReLU, 2x2
max pooling after each), joined with the standardised measurements, ``HIDDEN`` ReLU units
and a softmax over "not a die" and 1..6; Adam on the cross-entropy. Every batch is turned a
random quarter and mirrored half the time, a third of it blurred (3x3 box, then standardised
again), and half of it turned by any angle and scaled by up to 15 %. One thread, seeded: the
same rows give the same weights.
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice_cnn import DiceCnn
from vision.dice_model import FEATURE_NAMES, PATCH

Array = npt.NDArray[np.float32]
CHANNELS = (8, 16, 32)
HIDDEN = 64
EPOCHS = 20
BATCH = 256
SEED = 5
LEARNING_RATE = 0.002
WEIGHT_DECAY = 1e-5
SCALE_JITTER = 0.15
REFERENCE_ROWS = 16
"""Rows stored with the network, with the logits torch gave them (:meth:`DiceCnn.save`)."""
COLOUR_PIPS = FEATURE_NAMES.index("colour pips")


def torch_available() -> bool:
    """Whether PyTorch can be imported (the ``train`` extra is installed)."""
    return importlib.util.find_spec("torch") is not None


def _network(features: int, channels_each: tuple[int, ...]) -> Any:
    import torch
    from torch import nn

    class Net(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            layers: list[nn.Module] = []
            previous = 1
            for channels in channels_each:
                layers += [nn.Conv2d(previous, channels, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
                previous = channels
            self.conv = nn.Sequential(*layers)
            side = PATCH
            for _ in channels_each:
                side //= 2
            self.hidden = nn.Linear(previous * side * side + features, HIDDEN)
            self.out = nn.Linear(HIDDEN, 7)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            patch = x[:, : PATCH * PATCH].reshape(-1, 1, PATCH, PATCH)
            seen = self.conv(patch).flatten(1)
            joined = torch.cat([seen, x[:, PATCH * PATCH :]], dim=1)
            return self.out(torch.relu(self.hidden(joined)))

    return Net()


@dataclass(frozen=True)
class PatchVariety:
    """How often each degradation of :func:`_degraded` meets a patch (shares of a batch)."""

    defocus: float = 0.0
    """Gaussian blur of spread 0.5-1.2 patch pixels."""
    contrast: float = 0.0
    """Contrast lowered to 25-100 % (a patch's spread is floored when it is standardised, so a
    faint face stays faint), then noise."""
    noise: float = 0.0
    """Noise of 0-0.3 of the patch's spread."""
    tone: float = 0.0
    """A lightness curve (gamma 0.6-1.6)."""
    jpeg: float = 0.0
    """JPEG at quality 40-90 (the patch as 8-bit grey at a random contrast)."""
    chroma: float = 0.0
    """Of the patches from a colour channel, halved resolution (JPEG's 4:2:0 colour)."""


VARIETY = PatchVariety()


def _augmented(batch: Any, colour: Any, generator: Any, variety: PatchVariety = VARIETY) -> Any:
    """``batch`` with its patches turned a random quarter, mirrored half the time, a third of
    them blurred (3x3 box, restandardised), and half of them then turned by any angle and
    scaled by up to :data:`SCALE_JITTER` (edges repeated); then degraded as ``variety`` says
    (``colour``: the rows whose patch is of a colour channel)."""
    import torch
    from torch.nn.functional import affine_grid, avg_pool2d, grid_sample

    patches = batch[:, : PATCH * PATCH].reshape(-1, 1, PATCH, PATCH)
    count = len(patches)
    turns = int(torch.randint(0, 4, (1,), generator=generator))
    patches = torch.rot90(patches, turns, dims=(2, 3))
    if float(torch.rand(1, generator=generator)) < 0.5:
        patches = patches.flip(3)
    blur = torch.rand(count, generator=generator) < 1 / 3
    if bool(blur.any()):
        soft = avg_pool2d(patches[blur], 3, 1, 1, count_include_pad=False)
        spread = soft.std(dim=(2, 3), keepdim=True).clamp(min=0.1)
        patches[blur] = (soft - soft.mean(dim=(2, 3), keepdim=True)) / spread
    angle = (torch.rand(count, generator=generator) * 2 - 1) * math.pi
    size = 1 + (torch.rand(count, generator=generator) * 2 - 1) * SCALE_JITTER
    cos, sin, zero = torch.cos(angle) * size, torch.sin(angle) * size, torch.zeros(count)
    theta = torch.stack([torch.stack([cos, -sin, zero], 1), torch.stack([sin, cos, zero], 1)], 1)
    grid = affine_grid(theta, list(patches.shape), align_corners=False)
    moved = grid_sample(patches, grid, padding_mode="border", align_corners=False)
    keep = torch.rand(count, generator=generator) < 0.5
    patches = torch.where(keep[:, None, None, None], patches, moved)
    if variety != PatchVariety():
        patches = _degraded(patches, colour, generator, variety)
    return torch.cat([patches.flatten(1), batch[:, PATCH * PATCH :]], dim=1)


def _degraded(patches: Any, colour: Any, generator: Any, variety: PatchVariety) -> Any:
    """``patches`` (count, 1, side, side) degraded as ``variety`` says, each part meeting its
    share of them."""
    import torch
    from torch.nn.functional import avg_pool2d, conv2d, interpolate

    count = len(patches)

    def chosen(share: float) -> Any:
        return torch.rand(count, generator=generator) < share

    def uniform(low: float, high: float) -> Any:
        return low + (high - low) * torch.rand(count, 1, 1, 1, generator=generator)

    patches = patches.clone()
    if variety.chroma:
        pick = chosen(variety.chroma) & colour
        if bool(pick.any()):
            half = avg_pool2d(patches[pick], 2)
            patches[pick] = interpolate(half, size=PATCH, mode="bilinear", align_corners=False)
    if variety.defocus:
        pick = chosen(variety.defocus)
        sigma = uniform(0.5, 1.2)
        steps = torch.arange(-2, 3, dtype=torch.float32)
        weights = torch.exp(-(steps[None, :] ** 2) / (2 * sigma.reshape(-1, 1) ** 2))
        weights = weights / weights.sum(dim=1, keepdim=True)
        for index in torch.nonzero(pick).flatten().tolist():
            row = weights[index]
            kernel = (row[:, None] * row[None, :]).reshape(1, 1, 5, 5)
            one = patches[index : index + 1]
            soft = conv2d(torch.nn.functional.pad(one, (2, 2, 2, 2), mode="replicate"), kernel)
            patches[index : index + 1] = soft
    if variety.tone:
        pick = chosen(variety.tone)
        gamma = uniform(0.6, 1.6)
        low = patches.amin(dim=(2, 3), keepdim=True)
        high = patches.amax(dim=(2, 3), keepdim=True)
        span = (high - low).clamp(min=1e-3)
        curved = ((patches - low) / span) ** gamma * span + low
        curved = curved - curved.mean(dim=(2, 3), keepdim=True)
        curved = curved / curved.std(dim=(2, 3), keepdim=True).clamp(min=0.1) * patches.std(
            dim=(2, 3), keepdim=True
        )
        patches = torch.where(pick[:, None, None, None], curved, patches)
    if variety.jpeg:
        pick = chosen(variety.jpeg)
        qualities = torch.randint(40, 91, (count,), generator=generator)
        contrasts = uniform(8.0, 40.0).flatten()
        for index in torch.nonzero(pick).flatten().tolist():
            contrast = float(contrasts[index])
            grey = np.clip(patches[index, 0].numpy() * contrast + 128.0, 0, 255).astype(np.uint8)
            quality = int(qualities[index])
            _, encoded = cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, quality])
            decoded = cv2.imdecode(encoded, cv2.IMREAD_GRAYSCALE)
            if decoded is not None:
                back = (decoded.astype(np.float32) - 128.0) / contrast
                patches[index, 0] = torch.from_numpy(back)
    if variety.contrast:
        pick = chosen(variety.contrast)
        patches = torch.where(pick[:, None, None, None], patches * uniform(0.25, 1.0), patches)
    if variety.noise:
        pick = chosen(variety.noise)
        noise = torch.randn(patches.shape, generator=generator) * uniform(0.0, 0.3)
        patches = torch.where(pick[:, None, None, None], patches + noise, patches)
    return patches


def _standardised(inputs: Array, mean: Array, scale: Array) -> Array:
    out: Array = inputs.astype(np.float32).copy()
    out[:, PATCH * PATCH :] = (out[:, PATCH * PATCH :] - mean) / scale
    return out


def fit_cnn(
    inputs: npt.NDArray[Any],
    labels: npt.NDArray[np.int_],
    *,
    epochs: int = EPOCHS,
    channels: tuple[int, ...] = CHANNELS,
    variety: PatchVariety = VARIETY,
) -> tuple[DiceCnn, Array, Array]:
    """The CNN fitted to ``inputs`` and ``labels`` (sure left at 0.5), and
    :data:`REFERENCE_ROWS` rows of ``inputs`` spread over it with the logits torch gives
    them (for :meth:`DiceCnn.save`)."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    generator = torch.Generator().manual_seed(SEED)
    features = inputs[:, PATCH * PATCH :].astype(np.float32)
    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    scale[scale < 1e-6] = 1.0
    net = _network(features.shape[1], channels)
    x = torch.from_numpy(_standardised(inputs, mean, scale))
    y = torch.from_numpy(labels.astype(np.int64))
    colour = torch.from_numpy(inputs[:, PATCH * PATCH + COLOUR_PIPS] > 0.5)
    optimiser = torch.optim.Adam(net.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    for _ in range(epochs):
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), BATCH):
            index = order[start : start + BATCH]
            seen = net(_augmented(x[index], colour[index], generator, variety))
            loss = torch.nn.functional.cross_entropy(seen, y[index])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    picked = np.linspace(0, len(inputs) - 1, REFERENCE_ROWS).astype(int)
    with torch.no_grad():
        logits: Array = net(x[picked]).numpy()
    convolutions = [layer for layer in net.conv if isinstance(layer, torch.nn.Conv2d)]
    model = DiceCnn(
        tuple(layer.weight.detach().numpy().copy() for layer in convolutions),
        tuple(layer.bias.detach().numpy().copy() for layer in convolutions),
        mean,
        scale,
        net.hidden.weight.detach().numpy().T.copy(),
        net.hidden.bias.detach().numpy().copy(),
        net.out.weight.detach().numpy().T.copy(),
        net.out.bias.detach().numpy().copy(),
        0.5,
    )
    return model, inputs[picked].astype(np.float32), logits
