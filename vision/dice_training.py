"""Train the dice reader and the die detector: ``python -m vision.dice_training [DATA]
[--scenes N] [--reader-only] [--candidates NAME]`` (needs PyTorch, the optional ``train``
extra, for the CNN; ``NAME`` one of :data:`vision.dice.CANDIDATE_SETTINGS`, default
``joined``, the shipped candidate settings).

The training rows are the candidate faces (:func:`vision.dice.candidates`) found in
synthetic scenes (:mod:`vision.dice_scenes`, seeded) and, optionally, in labelled photos and
in altered copies of them (:mod:`vision.dice_augment`: dice recoloured, scaled down, degraded).
A candidate on a labelled die's top face is labelled with that die's value (whatever its own
pip count); one on no countable die is "not a die" (0); one on an uncertain die or a neutral
object is left out. The sure threshold is the highest of the sources' thresholds: on each
photo source at most 1 % of the sure reads wrong, on the synthetic scenes at most 0.25 %
(:data:`SYNTHETIC_WRONG_SHARE`; stricter, because the reader fits the photos it trains on).
Deterministic; a few minutes on one core.

``DATA`` defaults to ``../shared/data/dice``; the shipped reader (synthetic scenes, all three
photo sources and one altered copy of each photo), a patch network and a CNN read together
(:class:`vision.dice_cnn.PairedReader`), is written to ``vision/data/dice_model.npz`` and
``vision/data/dice_cnn.npz`` (the pair's sure threshold in the latter). The die detector
(:mod:`vision.dice_detector`) is trained on synthetic scenes alone (of
:data:`vision.dice_scenes.DETECTOR_VARIETY`: tiny dice, piles, torchlight too) and written
to ``vision/data/dice_detector.onnx``; about six more minutes (``--reader-only`` leaves it
as it is).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice import (
    CANDIDATE_SETTINGS,
    SHIPPED_CANDIDATES,
    Candidate,
    DiceSettings,
    candidates,
    choose,
    model_inputs,
)
from vision.dice_augment import SOURCE as AUGMENTED
from vision.dice_augment import augmented
from vision.dice_cnn import CNN_FILE, PairedReader
from vision.dice_cnn_training import fit_cnn
from vision.dice_detector import DETECTOR_FILE, DetectorNet, fit_detector, planes, targets
from vision.dice_labels import SOURCES, LabelledDie, LabelledPhoto, load_source, match
from vision.dice_model import MODEL_FILE, PATCH, DiceModel, Reader, fit
from vision.dice_net import Array
from vision.dice_scenes import DETECTOR_VARIETY, READER_VARIETY, Variety, render_scene
from vision.observations import DieObservation
from vision.training.torch_extra import torch_available

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dice"
SCENES = 1000
SEED = 11
DETECTOR_EPOCHS = 20
WRONG_SHARE = 0.01
"""At most this share of a photo source's sure reads may be wrong."""
SYNTHETIC_WRONG_SHARE = 0.0025
"""The same for the synthetic scenes, stricter: the reader fits the photos it trains on
closely, so their thresholds are low for photos it has not seen (round 8)."""


@dataclass(frozen=True)
class Seen:
    """One labelled picture and the candidate faces found in it."""

    photo: LabelledPhoto
    found: list[Candidate]


def see(
    photos: Iterable[LabelledPhoto], settings: DiceSettings, model: Reader | None = None
) -> list[Seen]:
    """The candidates in every photo (with ``settings.second_look``, those
    :func:`vision.dice.find_dice` finds with ``model``; without one, the training's rows)."""
    seen = []
    for photo in photos:
        image = cv2.imread(str(photo.path))
        if image is None:
            raise FileNotFoundError(f"{photo.path}: cannot read the photo")
        seen.append(Seen(photo, candidates(image, settings, model)))
    return seen


def altered(
    seen: Iterable[Seen], settings: DiceSettings, copies: int = 1, seed: int = SEED
) -> list[Seen]:
    """``copies`` altered copies (:mod:`vision.dice_augment`) of every labelled photo of
    ``seen`` and their candidates; copy ``k`` of photo ``i`` from seed ``[seed, i, k]``."""
    result = []
    for index, one in enumerate(seen):
        image = cv2.imread(str(one.photo.path))
        if image is None:
            raise FileNotFoundError(f"{one.photo.path}: cannot read the photo")
        for copy in range(copies):
            picture, photo = augmented(one.photo, image, np.random.default_rng([seed, index, copy]))
            result.append(Seen(photo, candidates(picture, settings)))
    return result


def detector_data(count: int, seed: int = SEED) -> tuple[list[Array], list[Array], list[Array]]:
    """The detector's inputs and targets for ``count`` synthetic scenes of the detector's
    variety (scene ``i`` drawn from seed ``[seed, i]``): planes, heat maps and sizes."""
    inputs, heats, sizes = [], [], []
    for index in range(count):
        scene = render_scene(np.random.default_rng([seed, index]), variety=DETECTOR_VARIETY)
        lab = cv2.cvtColor(scene.image, cv2.COLOR_BGR2LAB)
        dice = [
            (*die.center, math.sqrt(cv2.contourArea(die.top.astype(np.float32))))
            for die in scene.dice
        ]
        heat, size = targets(lab.shape[:2], dice)
        inputs.append(planes(lab))
        heats.append(heat)
        sizes.append(size)
    return inputs, heats, sizes


def train_detector(count: int, *, epochs: int = DETECTOR_EPOCHS, seed: int = SEED) -> DetectorNet:
    """The detector fitted to ``count`` synthetic scenes (no photos: it is unseen on every
    photo source)."""
    return fit_detector(*detector_data(count, seed), epochs=epochs, seed=seed)


def synthetic(
    count: int, settings: DiceSettings, seed: int = SEED, variety: Variety = READER_VARIETY
) -> list[Seen]:
    """``count`` synthetic scenes of ``variety`` (scene ``i`` drawn from seed ``[seed, i]``)
    and their candidates, labelled like photos (each die's top face as its box)."""
    seen = []
    for index in range(count):
        scene = render_scene(np.random.default_rng([seed, index]), variety=variety)
        height, width = scene.image.shape[:2]
        dice = []
        for die in scene.dice:
            low, high = die.top.min(axis=0), die.top.max(axis=0)
            x, y = die.center
            dice.append(LabelledDie(die.value, x, y, *((high - low) / 2.0)))
        photo = LabelledPhoto("synthetic", Path(f"synthetic-{index}"), width, height, tuple(dice))
        seen.append(Seen(photo, candidates(scene.image, settings)))
    return seen


def rows(seen: Seen) -> tuple[list[npt.NDArray[np.float64]], list[int]]:
    """The training rows of one picture: model inputs, and the class each should read."""
    inputs: list[npt.NDArray[np.float64]] = []
    labels: list[int] = []
    for candidate in seen.found:
        label = _label(seen.photo, candidate)
        if label is not None:
            inputs.append(candidate.inputs())
            labels.append(label)
    return inputs, labels


def _label(photo: LabelledPhoto, candidate: Candidate) -> int | None:
    """The labelled value under ``candidate``, 0 on no die, None on a neutral spot."""
    on = [die for die in photo.dice if photo.matches(die, *candidate.center)]
    if on:
        x, y = candidate.center
        return min(on, key=lambda die: (die.x - x) ** 2 + (die.y - y) ** 2).value
    if photo.near(photo.neutral, *candidate.center):
        return None
    return 0


def train(seen: Sequence[Seen], settings: DiceSettings, *, epochs: int = 6) -> DiceModel:
    """Fit the model to every candidate of ``seen``, then set its sure threshold on the dice
    it then reports there (:func:`sure_threshold`)."""
    model = fit(*turned(*stacked_rows(seen)), epochs=epochs)
    return model.with_sure(sure_threshold(seen, model, settings))


def train_reader(
    seen: Sequence[Seen], settings: DiceSettings
) -> tuple[PairedReader, npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The patch network (:func:`train`) and the CNN (:func:`vision.dice_cnn_training.fit_cnn`,
    needs torch) fitted to every candidate of ``seen``, paired, the pair's sure threshold set
    as :func:`train` sets one; and a few rows with the logits torch gave them."""
    cnn, reference, logits = fit_cnn(*stacked_rows(seen))
    pair = PairedReader(cnn, train(seen, settings), 0.5)
    return pair.with_sure(sure_threshold(seen, pair, settings)), reference, logits


def stacked_rows(seen: Sequence[Seen]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int_]]:
    """Every training row of ``seen`` (:func:`rows`) and its label, as two arrays."""
    inputs: list[npt.NDArray[np.float64]] = []
    labels: list[int] = []
    for one in seen:
        more_inputs, more_labels = rows(one)
        inputs += more_inputs
        labels += more_labels
    return np.array(inputs, np.float32), np.array(labels)


def turned(
    inputs: npt.NDArray[np.float32], labels: npt.NDArray[np.int_]
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int_]]:
    """The rows four times: patches as they are, turned a quarter, mirrored, and both (a die
    face shows the same value every way round).

    >>> rows = np.arange(PATCH * PATCH + 2, dtype=np.float32)[None, :]
    >>> more, labels = turned(rows, np.array([3]))
    >>> more.shape, labels.tolist(), bool((more[1, -2:] == rows[0, -2:]).all())
    ((4, 402), [3, 3, 3, 3], True)
    """
    count = len(inputs)
    patches = inputs[:, : PATCH * PATCH].reshape(count, PATCH, PATCH)
    quarter = np.rot90(patches, axes=(1, 2))
    views = [patches, quarter, patches[:, :, ::-1], quarter[:, :, ::-1]]
    rest = inputs[:, PATCH * PATCH :]
    rows = np.concatenate([np.hstack([view.reshape(count, -1), rest]) for view in views])
    return rows, np.tile(labels, len(views))


def sure_threshold(seen: Sequence[Seen], model: Reader, settings: DiceSettings) -> float:
    """The sure threshold of ``model`` set on ``seen`` (:func:`threshold_of` its reads)."""
    return threshold_of(source_reads(seen, model, settings))


def source_reads(
    seen: Sequence[Seen], model: Reader, settings: DiceSettings
) -> dict[str, tuple[list[float], list[int]]]:
    """Per source of ``seen`` (not the altered copies), the confidence of every report of
    ``model`` and whether it was right (1) or not (0); reports on neutral objects left out."""
    by_source: dict[str, tuple[list[float], list[int]]] = {}
    for one in seen:
        if one.photo.source == AUGMENTED:
            continue
        likelihoods, verdicts = by_source.setdefault(one.photo.source, ([], []))
        reports = read(one, model, settings, sure=0.0)
        matched = match(one.photo, reports)
        for index, report in enumerate(reports):
            if index in matched.neutral:
                continue
            likelihoods.append(report.confidence)
            verdicts.append(1 if index in matched.right else 0)
    return by_source


def threshold_of(
    reads: dict[str, tuple[list[float], list[int]]],
    synthetic_share: float = SYNTHETIC_WRONG_SHARE,
) -> float:
    """The highest of the sources' thresholds (:func:`source_reads`): for each photo source
    the lowest confidence at and above which at most :data:`WRONG_SHARE` of its reads are
    wrong, for the synthetic scenes at most ``synthetic_share``.

    >>> reads = {"photos": ([0.9, 0.8, 0.7], [1, 1, 0])}
    >>> reads["synthetic"] = ([0.95, 0.9, 0.85], [1, 0, 1])
    >>> threshold_of(reads), threshold_of(reads, synthetic_share=0.5)
    (0.95, 0.85)
    """
    return max(
        _threshold(*pair, synthetic_share if source == "synthetic" else WRONG_SHARE)
        for source, pair in reads.items()
    )


def _threshold(likelihoods: list[float], verdicts: list[int], wrong_share: float) -> float:
    """The lowest likelihood at and above which at most ``wrong_share`` of reads are wrong.

    >>> _threshold([0.9, 0.8, 0.7, 0.6], [1, 1, 0, 1], 0.25)
    0.6
    >>> _threshold([0.9, 0.8, 0.7, 0.6], [1, 1, 0, 0], 0.25)
    0.8
    """
    order = np.argsort(-np.array(likelihoods), kind="stable")
    wrong = np.cumsum(1 - np.array(verdicts)[order])
    good: npt.NDArray[np.intp] = np.nonzero(wrong / np.arange(1, len(order) + 1) <= wrong_share)[0]
    return float(np.array(likelihoods)[order][good[-1]]) if len(good) else 1.0


def read(
    seen: Seen, model: Reader, settings: DiceSettings, sure: float | None = None
) -> list[DieObservation]:
    """What :func:`vision.dice.find_dice` reports for already-found candidates."""
    if not seen.found:
        return []
    probabilities = model.probabilities(model_inputs(seen.found))
    return choose(seen.found, probabilities, settings, model.sure if sure is None else sure)


def main(argv: Sequence[str] | None = None) -> int:
    """Train on synthetic scenes and every photo source, and write the shipped files."""
    parser = argparse.ArgumentParser(prog="python -m vision.dice_training")
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--scenes", type=int, default=SCENES, help="synthetic scenes")
    parser.add_argument(
        "--reader-only", action="store_true", help="train the reader, not the die detector"
    )
    parser.add_argument(
        "--candidates",
        choices=sorted(CANDIDATE_SETTINGS),
        default=SHIPPED_CANDIDATES,
        help="candidate settings by name",
    )
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"dice training: no photos at {args.data}", file=sys.stderr)
        return 2
    if not torch_available():
        print("dice training: the CNN needs PyTorch: pip install -e .[train]", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    settings = CANDIDATE_SETTINGS[args.candidates]
    seen = {source: see(load_source(args.data, source), settings) for source in SOURCES}
    photos = [one for source in SOURCES for one in seen[source]]
    copies = [one for source in SOURCES for one in altered(seen[source], settings)]
    scenes = synthetic(args.scenes, settings)
    pair, reference, logits = train_reader(scenes + photos + copies, settings)
    pair.patch.save(MODEL_FILE)
    pair.cnn.with_sure(pair.sure).save(CNN_FILE, reference, logits)
    print(f"dice training: {args.scenes} scenes, {len(photos)} photos; sure at {pair.sure:.3f}")
    print(f"dice training: wrote {MODEL_FILE} and {CNN_FILE}")
    if not args.reader_only:
        DETECTOR_FILE.write_bytes(train_detector(args.scenes).onnx())
        print(f"dice training: wrote {DETECTOR_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
