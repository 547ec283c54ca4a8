"""Experiment: a small CNN in place of the dice patch network, trained with PyTorch.

``python -m benchmarks.dice_cnn [--quick]`` (needs the optional ``train`` extra:
``pip install -e .[train]``) finds the reader's candidates (:func:`vision.dice.candidates`)
in the synthetic scenes, the three photo sources and one altered copy of each photo, as
:mod:`benchmarks.bench_dice` does, and for each source left out trains both the shipped
patch network (:func:`vision.dice_training.train`) and this CNN on the same rows, and prints
both scores. Nothing is written: the CNN is not shipped (see the Dice section of
docs/vision-camera-dice-layout.md, "Tried and not kept").

The CNN reads the candidate's 20x20 patch (pips dark, standardised) with three 3x3
convolutions (8, 16, 32 channels, ReLU, 2x2 max pooling after each), joins the candidate's
measurements and ends in 64 ReLU units and a softmax over "not a die" and 1..6. Every batch
is turned a random quarter and mirrored half the time, and a third of it blurred. One
thread, seeded: repeatable.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from benchmarks.bench_dice import DATA, QUICK_SCENES, row, score_seen
from vision.dice import DiceSettings
from vision.dice_labels import SOURCES, load_source
from vision.dice_model import PATCH
from vision.dice_training import (
    SCENES,
    Seen,
    altered,
    real_photos,
    see,
    stacked_rows,
    sure_threshold,
    synthetic,
    train,
)

Array = npt.NDArray[np.float32]
CHANNELS = (8, 16, 32)
HIDDEN = 64
EPOCHS = 20
BATCH = 256
SEED = 5


@dataclass(frozen=True)
class CnnModel:
    """A trained CNN (as a torch module, run on numpy rows) and its sure threshold."""

    net: Any
    mean: Array
    scale: Array
    sure: float

    def probabilities(self, inputs: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        """The probability of each class for each row (patch pixels, then measurements)."""
        import torch

        rows_in = torch.from_numpy(self._standardised(inputs))
        with torch.no_grad():
            result: npt.NDArray[np.float64] = (
                torch.softmax(self.net(rows_in), dim=1).double().numpy()
            )
        return result

    def with_sure(self, sure: float) -> CnnModel:
        """The same network with another sure threshold."""
        return CnnModel(self.net, self.mean, self.scale, sure)

    def _standardised(self, inputs: npt.NDArray[Any]) -> Array:
        out: Array = inputs.astype(np.float32).copy()
        out[:, PATCH * PATCH :] = (out[:, PATCH * PATCH :] - self.mean) / self.scale
        return out


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
            side = PATCH // 2 ** len(channels_each)
            self.head = nn.Sequential(
                nn.Linear(previous * side * side + features, HIDDEN),
                nn.ReLU(),
                nn.Linear(HIDDEN, 7),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            patch = x[:, : PATCH * PATCH].reshape(-1, 1, PATCH, PATCH)
            seen = self.conv(patch).flatten(1)
            return self.head(torch.cat([seen, x[:, PATCH * PATCH :]], dim=1))

    return Net()


def _augmented(batch: Any, generator: Any) -> Any:
    """``batch`` with its patches turned a random quarter, mirrored half the time, and a
    third of them blurred (3x3 box), restandardised."""
    import torch

    patches = batch[:, : PATCH * PATCH].reshape(-1, 1, PATCH, PATCH)
    turns = int(torch.randint(0, 4, (1,), generator=generator))
    patches = torch.rot90(patches, turns, dims=(2, 3))
    if float(torch.rand(1, generator=generator)) < 0.5:
        patches = patches.flip(3)
    blur = torch.rand(len(patches), generator=generator) < 1 / 3
    if bool(blur.any()):
        soft = torch.nn.functional.avg_pool2d(patches[blur], 3, 1, 1, count_include_pad=False)
        soft = (soft - soft.mean(dim=(2, 3), keepdim=True)) / soft.std(
            dim=(2, 3), keepdim=True
        ).clamp(min=0.1)
        patches[blur] = soft
    return torch.cat([patches.flatten(1), batch[:, PATCH * PATCH :]], dim=1)


def fit_cnn(
    inputs: Array,
    labels: npt.NDArray[np.int_],
    *,
    epochs: int = EPOCHS,
    channels: tuple[int, ...] = CHANNELS,
) -> CnnModel:
    """The CNN fitted to ``inputs`` and ``labels`` (Adam, cross-entropy), seeded; sure 0.5."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    generator = torch.Generator().manual_seed(SEED)
    features = inputs[:, PATCH * PATCH :]
    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    scale[scale < 1e-6] = 1.0
    model = CnnModel(_network(features.shape[1], channels), mean, scale, 0.5)
    x = torch.from_numpy(model._standardised(inputs))
    y = torch.from_numpy(labels.astype(np.int64))
    optimiser = torch.optim.Adam(model.net.parameters(), lr=0.002, weight_decay=1e-5)
    for _ in range(epochs):
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), BATCH):
            index = order[start : start + BATCH]
            loss = torch.nn.functional.cross_entropy(
                model.net(_augmented(x[index], generator)), y[index]
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    return model


def train_cnn(
    seen: Sequence[Seen],
    settings: DiceSettings,
    *,
    epochs: int = EPOCHS,
    channels: tuple[int, ...] = CHANNELS,
) -> CnnModel:
    """:func:`vision.dice_training.train` with the CNN: fitted to every candidate of
    ``seen``, sure threshold set on its photos."""
    model = fit_cnn(*stacked_rows(seen), epochs=epochs, channels=channels)
    return model.with_sure(sure_threshold(real_photos(seen), model, settings))  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    """Leave each source out; score the patch network and the CNN on it."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.dice_cnn")
    parser.add_argument("--quick", action="store_true", help="every third photo, 300 scenes")
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--channels", default=",".join(map(str, CHANNELS)), help="e.g. 8,16,32")
    args = parser.parse_args(argv)
    quick = args.quick
    channels = tuple(int(part) for part in args.channels.split(","))
    cv2.setNumThreads(1)
    settings = DiceSettings()
    step = 3 if quick else 1
    seen = {source: see(load_source(DATA, source)[::step], settings) for source in SOURCES}
    scenes = synthetic(QUICK_SCENES if quick else SCENES, settings)
    copies = {source: altered(seen[source], settings) for source in SOURCES}
    for source in SOURCES:
        rest = scenes + [
            one for other in SOURCES if other != source for one in seen[other] + copies[other]
        ]
        trainers = (
            ("patch network", lambda rest=rest: train(rest, settings)),
            (
                "cnn",
                lambda rest=rest: train_cnn(rest, settings, epochs=args.epochs, channels=channels),
            ),
        )
        for name, trainer in trainers:
            started = time.process_time()
            model = trainer()
            spent = time.process_time() - started
            total, sure = score_seen(seen[source], model, settings)  # type: ignore[arg-type]
            print(f"{name:14} left out: {row(source, total)}; sure at {model.sure:.3f}")
            print(f"{'':14} {sure.text()}; trained in {spent:.0f} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
