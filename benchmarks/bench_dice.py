"""Dice reading on the three labelled photo sources: per source, and speed.

For each source: labelled dice read with the right value, read with a wrong value, missed,
false reports (of which on polyhedral dice, with the share of polyhedral dice reported as a
six-sided die). Matching is described in :mod:`vision.dice_labels`. Speed is CPU time on one
core for 640x480 and 1280x720 frames.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2

from vision.dice import Image, find_dice
from vision.dice_labels import SOURCES, LabelledPhoto, Score, load_source, score
from vision.observations import DieObservation

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dice"
GOAL_RIGHT = 0.98
GOAL_MS_720P = 25.0

Reader = Callable[[Image], list[DieObservation]]


def score_source(photos: Sequence[LabelledPhoto], read: Reader) -> Score:
    """The summed counts of ``read`` over ``photos``."""
    total = Score()
    for photo in photos:
        image = cv2.imread(str(photo.path))
        if image is None:
            raise FileNotFoundError(f"{photo.path}: cannot read the photo")
        total.add(score(photo, read(image)))
    return total


def row(name: str, result: Score) -> str:
    """One line of the per-source table."""
    polyhedral = (
        f"; on polyhedral dice {result.on_polyhedral}/{result.polyhedral}"
        f" = {result.on_polyhedral / result.polyhedral:.1%}"
        if result.polyhedral
        else ""
    )
    return (
        f"dice: {name:16} right {result.right}/{result.labelled} = {result.right_share:.1%}"
        f" (goal >= {GOAL_RIGHT:.0%}); wrong value {result.wrong_value}; missed {result.missed};"
        f" false reports {result.false_reports}{polyhedral}"
    )


def frame_times(image: Image, read: Reader, repeats: int = 15) -> list[float]:
    """CPU milliseconds per read of ``image`` (CPU time: fair on a shared, busy machine)."""
    times = []
    for _ in range(repeats):
        started = time.process_time()
        read(image)
        times.append((time.process_time() - started) * 1000.0)
    return times


def main() -> None:
    """Print the per-source table and the frame times."""
    if not DATA.is_dir():
        print(f"dice: photos not found at {DATA}; skipped")
        return
    cv2.setNumThreads(1)
    for source in SOURCES:
        print(row(source, score_source(load_source(DATA, source), find_dice)))
    sample = cv2.imread(str(DATA / "photos" / "six_44.jpg"))
    if sample is None:
        raise FileNotFoundError(f"{DATA / 'photos' / 'six_44.jpg'}: cannot read the photo")
    for width, height in ((640, 480), (1280, 720)):
        frame = cv2.resize(sample, (width, height), interpolation=cv2.INTER_CUBIC)
        times = frame_times(frame, find_dice)
        print(
            f"dice: {width}x{height} frame, one core, CPU time: median"
            f" {statistics.median(times):.1f} ms, worst {max(times):.1f} ms"
            + (f" (goal well under {GOAL_MS_720P:.0f} ms)" if width == 1280 else "")
        )


if __name__ == "__main__":
    main()
