"""Train the dice model on labelled photos: ``python -m vision.dice_training [DATA]``.

Every candidate face found in a photo (:func:`vision.dice.candidates`) is a training row:
right (1) when it lies on a labelled die and shows its value, wrong (0) when it shows another
value or lies on no countable die; rows on an uncertain die or a neutral object are left
out. Deterministic (no random numbers); about a minute on one core for all three sources.

``DATA`` defaults to ``../shared/data/dice``; the model is written to
``vision/data/dice_model.npz``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice import Candidate, DiceSettings, candidates, choose
from vision.dice_labels import SOURCES, LabelledPhoto, load_source, match
from vision.dice_model import MODEL_FILE, DiceModel, fit
from vision.observations import DieObservation

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dice"


@dataclass(frozen=True)
class Seen:
    """One photo and the candidate faces found in it."""

    photo: LabelledPhoto
    found: list[Candidate]


def see(photos: Iterable[LabelledPhoto], settings: DiceSettings) -> list[Seen]:
    """The candidates in every photo."""
    seen = []
    for photo in photos:
        image = cv2.imread(str(photo.path))
        if image is None:
            raise FileNotFoundError(f"{photo.path}: cannot read the photo")
        seen.append(Seen(photo, candidates(image, settings)))
    return seen


def rows(seen: Seen) -> tuple[list[tuple[float, ...]], list[int]]:
    """The training rows of one photo: features, and whether each candidate reads right."""
    reports = [DieObservation(c.value, c.center, 1.0) for c in seen.found]
    features: list[tuple[float, ...]] = []
    right: list[int] = []
    for index, candidate in enumerate(seen.found):
        verdict = _verdict(seen.photo, reports, index)
        if verdict is not None:
            features.append(candidate.features)
            right.append(verdict)
    return features, right


def _verdict(photo: LabelledPhoto, reports: Sequence[DieObservation], index: int) -> int | None:
    """1 on a labelled die with its value, 0 on another value or on no die, None if neutral."""
    report = reports[index]
    on = [die for die in photo.dice if photo.matches(die, *report.center)]
    if any(die.value == report.value for die in on):
        return 1
    if not on and photo.near(photo.neutral, *report.center):
        return None
    return 0


def train(seen: Sequence[Seen], settings: DiceSettings) -> DiceModel:
    """Fit the model to every candidate of ``seen``, then set its sure threshold on the
    dice it then reports in them (at most 1 % of sure reads wrong)."""
    features: list[tuple[float, ...]] = []
    right: list[int] = []
    for one in seen:
        more_features, more_right = rows(one)
        features += more_features
        right += more_right
    model = fit(np.array(features), np.array(right))
    likelihoods: list[float] = []
    verdicts: list[int] = []
    for one in seen:
        if not one.found:
            continue
        reports = read(one, model, settings, sure=0.0)
        matched = match(one.photo, reports)
        for index, report in enumerate(reports):
            if index in matched.neutral:
                continue
            likelihoods.append(report.confidence)
            verdicts.append(1 if index in matched.right else 0)
    return model.with_sure(_threshold(likelihoods, verdicts))


def _threshold(likelihoods: list[float], verdicts: list[int], wrong_share: float = 0.01) -> float:
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
    seen: Seen, model: DiceModel, settings: DiceSettings, sure: float | None = None
) -> list[DieObservation]:
    """What :func:`vision.dice.find_dice` reports for already-found candidates."""
    if not seen.found:
        return []
    likelihoods = model.probabilities(np.array([c.features for c in seen.found]))
    return choose(seen.found, likelihoods, settings, model.sure if sure is None else sure)


def main(argv: Sequence[str] | None = None) -> int:
    """Train on every source and write the shipped model."""
    args = list(sys.argv[1:] if argv is None else argv)
    data = Path(args[0]) if args else DEFAULT_DATA
    if not data.is_dir():
        print(f"dice training: no photos at {data}", file=sys.stderr)
        return 2
    settings = DiceSettings()
    seen = [s for source in SOURCES for s in see(load_source(data, source), settings)]
    model = train(seen, settings)
    model.save(MODEL_FILE)
    print(f"dice training: {len(seen)} photos; sure at {model.sure:.3f}")
    print(f"dice training: wrote {MODEL_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
