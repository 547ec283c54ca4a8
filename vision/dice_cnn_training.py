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

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.dice_cnn import DiceCnn
from vision.dice_model import CLASSES, PATCH
from vision.training.torch_extra import torch_network

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


def _augmented(batch: Any, generator: Any) -> Any:
    """``batch`` with its patches turned a random quarter, mirrored half the time, a third of
    them blurred (3x3 box, restandardised), and half of them then turned by any angle and
    scaled by up to :data:`SCALE_JITTER` (edges repeated)."""
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
    return torch.cat([patches.flatten(1), batch[:, PATCH * PATCH :]], dim=1)


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
    net = torch_network((PATCH, PATCH), features.shape[1], channels, HIDDEN, CLASSES)
    x = torch.from_numpy(_standardised(inputs, mean, scale))
    y = torch.from_numpy(labels.astype(np.int64))
    optimiser = torch.optim.Adam(net.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    for _ in range(epochs):
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), BATCH):
            index = order[start : start + BATCH]
            loss = torch.nn.functional.cross_entropy(net(_augmented(x[index], generator)), y[index])
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
