"""Fit the glyph model's convolutional networks (:class:`vision.glyphs.ConvNetwork`) with
PyTorch: the optional ``train`` extra; nothing at run time imports this module.

A rank network reads the reader's rank patch as an image (3x3 convolutions of ``RANK_CHANNELS``
channels, ReLU and 2x2 max pooling after each), joined with the other rank features (aspect,
layout, holes), then ``RANK_HIDDEN`` ReLU units and a softmax over the ranks and reject; a
suit network the same on the suit patch and its aspect. Inputs are standardised as the dense
networks' are (:func:`vision.training.glyph_net.standardisation`), with the same Gaussian
input noise; Adam with a cosine learning rate. One thread, seeded: the same rows give the same
weights. The weights are rounded to float16 (as the model file keeps them) before the
reference logits are taken, so numpy reads what torch computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

import numpy as np

from vision.glyphs import ConvNetwork
from vision.index_reader import RANK_PATCH, SUIT_PATCH
from vision.training.glyph_net import (
    BATCH,
    INPUT_NOISE,
    LEARNING_RATE,
    WEIGHT_DECAY,
    Fit,
    standardisation,
)
from vision.training.torch_extra import torch_network

RANK_CHANNELS = (8, 16)
SUIT_CHANNELS = (8, 16)
RANK_HIDDEN = 64
SUIT_HIDDEN = 48
EPOCHS = 30
#: Rows stored with each network, with the logits torch gave them.
REFERENCE_ROWS = 16


def fit_conv_network(
    features: np.ndarray,
    labels: np.ndarray,
    *,
    image: tuple[int, int],
    channels: Sequence[int],
    hidden: int,
    weights: np.ndarray | None = None,
    epochs: int = EPOCHS,
    seed: int = 0,
) -> ConvNetwork:
    """A network that names ``labels`` from ``features`` (the first ``image`` (rows,
    columns) of each row a patch), seeded."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    names, codes = np.unique(labels, return_inverse=True)
    mean, scale = standardisation(features, weights)
    x = torch.from_numpy(((features - mean) / scale).astype(np.float32))
    y = torch.from_numpy(codes.astype(np.int64))
    net = torch_network(image, features.shape[1] - image[0] * image[1], channels, hidden,
                        len(names))
    optimiser = torch.optim.Adam(net.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    steps = epochs * math.ceil(len(x) / BATCH)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, steps)
    for _ in range(epochs):
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), BATCH):
            index = order[start : start + BATCH]
            noisy = x[index] + INPUT_NOISE * torch.randn(len(index), x.shape[1],
                                                         generator=generator)
            loss = torch.nn.functional.cross_entropy(net(noisy), y[index])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
    with torch.no_grad():
        for parameter in net.parameters():
            parameter.copy_(parameter.half().float())
        picked = np.linspace(0, len(x) - 1, REFERENCE_ROWS).astype(int)
        logits = net(x[picked]).numpy()
    convolutions = [layer for layer in net.conv if isinstance(layer, torch.nn.Conv2d)]
    return ConvNetwork(
        mean,
        scale,
        tuple(
            (layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy())
            for layer in (net.hidden, net.out)
        ),
        names,
        image,
        tuple(layer.weight.detach().numpy().copy() for layer in convolutions),
        tuple(layer.bias.detach().numpy().copy() for layer in convolutions),
        features[picked].astype(np.float32),
        logits,
    )


#: The rank and the suit network's fits of the convolutional glyph model.
CNN_FITS: tuple[Fit, Fit] = (
    partial(fit_conv_network, image=(RANK_PATCH[1], RANK_PATCH[0]), channels=RANK_CHANNELS,
            hidden=RANK_HIDDEN),
    partial(fit_conv_network, image=(SUIT_PATCH[1], SUIT_PATCH[0]), channels=SUIT_CHANNELS,
            hidden=SUIT_HIDDEN),
)
