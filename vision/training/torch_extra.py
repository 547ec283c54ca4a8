"""What the training of the project's small CNNs (the dice CNN, the convolutional glyph
model) shares: whether the optional ``train`` extra (PyTorch) is installed, and the torch
network that :func:`vision.convnet.cnn_logits` reads without torch. Nothing at run time
imports this module."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Any


def torch_available() -> bool:
    """Whether PyTorch can be imported (the ``train`` extra is installed)."""
    return importlib.util.find_spec("torch") is not None


def torch_network(
    image: tuple[int, int], extras: int, channels: Sequence[int], hidden: int, outputs: int
) -> Any:
    """The torch module of a small CNN (standardised inputs in, logits out): each row's first
    ``image`` (rows, columns) inputs a picture through 3x3 convolutions of ``channels``
    (ReLU, 2x2 max pooling after each), joined with its other ``extras`` inputs, ``hidden``
    ReLU units, ``outputs`` logits."""
    import torch
    from torch import nn

    class Net(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            layers: list[nn.Module] = []
            previous, rows, columns = 1, *image
            for count in channels:
                layers += [nn.Conv2d(previous, count, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
                previous, rows, columns = count, rows // 2, columns // 2
            self.conv = nn.Sequential(*layers)
            self.hidden = nn.Linear(previous * rows * columns + extras, hidden)
            self.out = nn.Linear(hidden, outputs)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            cells = image[0] * image[1]
            seen = self.conv(x[:, :cells].reshape(-1, 1, *image)).flatten(1)
            return self.out(torch.relu(self.hidden(torch.cat([seen, x[:, cells:]], dim=1))))

    return Net()
