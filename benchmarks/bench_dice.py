"""Dice reading on the three labelled photo sources, per source and leaving sources out.

First, per source and by die size, the share of labelled dice that the proposals reach at
all (within matching reach): the reader's candidates, and the die detector's peaks
(:mod:`vision.dice_detector`, not yet part of the reader) at three floors, with the count of
proposals on no die.
Then for each source: labelled dice read with the right value, read with a wrong value, missed,
false reports (of which on polyhedral dice, with the share of polyhedral dice reported as a
six-sided die), and the sure reads: how many, how many wrong, how many dice were reported
unsure. Matching is described in :mod:`vision.dice_labels`.

Three tables: **all sources** scores each source with the shipped reader (synthetic scenes and
all three sources: partly a fit); **synthetic only** with a reader trained on synthetic scenes
alone (every source unseen; the sure threshold set on synthetic scenes); **leave one source
out** with a reader trained on the synthetic scenes, the other two sources and altered copies
of them (:mod:`vision.dice_augment`), its sure threshold set on those two: how the reader does
on dice it has never seen; beside it, the reader's two networks alone (the patch network and
the CNN, each with its own sure threshold set the same way), and the reader's sure reads
with its threshold set allowing each of :data:`SYNTHETIC_SHARES` wrong on the synthetic
scenes (:func:`vision.dice_training.threshold_of`). Training the reader needs
PyTorch (the ``train`` extra); without it only the all-sources table (the shipped files) is
printed. The detector is
trained on synthetic scenes alone, so it is unseen on every source. Speed is
CPU time on one core and one OpenBLAS thread (as in the app) for 640x480 and 1280x720
frames. About six minutes (the synthetic scenes
are drawn and read again, four models trained); ``python -m benchmarks.bench_dice --quick``
reads every third photo and 300 scenes (for a working loop; publish the full figures).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.blas_threads import one_blas_thread
from vision.dice import WORKING_WIDTH, DiceSettings, Image, find_dice
from vision.dice_cnn import PairedReader, shipped_reader
from vision.dice_detector import Detector, peaks
from vision.dice_labels import SOURCES, Score, load_source, match, score
from vision.dice_model import Reader, shipped_model
from vision.dice_training import (
    SCENES,
    Seen,
    altered,
    read,
    see,
    source_reads,
    sure_threshold,
    synthetic,
    threshold_of,
    train_reader,
)
from vision.training.torch_extra import torch_available

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dice"
GOAL_RIGHT = 0.98
GOAL_MS_720P = 25.0
QUICK_SCENES = 300
PI_SLOWER = 3.0
"""A Pi 4 core against this machine's (estimated, not measured)."""
DETECTOR_FLOORS = (0.1, 0.2, 0.3)
SYNTHETIC_SHARES = (0.01, 0.005, 0.0025, 0.001)
"""Shares of wrong sure reads allowed on the synthetic scenes, compared left out."""



@dataclass
class Sure:
    """Counts of the sure reads (confidence at or above the model's threshold)."""

    reads: int = 0
    wrong: int = 0
    unsure: int = 0

    def text(self) -> str:
        share = self.wrong / self.reads if self.reads else 0.0
        sure_share = self.reads / max(self.reads + self.unsure, 1)
        return (
            f"sure reads {self.reads} = {sure_share:.0%} of reports, wrong {self.wrong} ="
            f" {share:.1%} (goal <= 1 %); unsure {self.unsure}"
        )


def score_seen(
    seen: Sequence[Seen], model: Reader, settings: DiceSettings
) -> tuple[Score, Sure]:
    """The counts of ``model`` over already-found candidates."""
    total, sure = Score(), Sure()
    for one in seen:
        reports = read(one, model, settings)
        total.add(score(one.photo, reports))
        matched = match(one.photo, reports)
        for index, report in enumerate(reports):
            if index in matched.neutral:
                continue
            if report.unsure:
                sure.unsure += 1
            else:
                sure.reads += 1
                sure.wrong += index not in matched.right
    return total, sure


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


def frame_times(
    image: Image, readers: dict[str, Reader], repeats: int = 15
) -> dict[str, list[float]]:
    """CPU milliseconds per :func:`find_dice` of ``image`` with each reader, the readers
    taking turns (CPU time, and turns: fair on a shared, busy machine)."""
    times: dict[str, list[float]] = {name: [] for name in readers}
    for _ in range(repeats):
        for name, model in readers.items():
            started = time.process_time()
            find_dice(image, model=model)
            times[name].append((time.process_time() - started) * 1000.0)
    return times


def reach(
    seen: Sequence[Seen], points: Callable[[Seen], list[tuple[float, float]]]
) -> tuple[dict[str, tuple[int, int]], int]:
    """Per die size band (the labelled box's longer side; "centre only" for the assorted
    photos), how many labelled dice have one of ``points`` (frame pixels) within matching
    reach, and how many there are; and how many points are on no labelled or neutral die."""
    bands: dict[str, tuple[int, int]] = {}
    others = 0
    for one in seen:
        found = points(one)
        photo = one.photo
        for die in photo.dice:
            side = 2 * max(die.half_width, die.half_height)
            low = int(side // 20) * 20
            band = f"{low}-{low + 19} px" if side else "centre only"
            hit = any(photo.matches(die, *point) for point in found)
            reached, total = bands.get(band, (0, 0))
            bands[band] = (reached + hit, total + 1)
        others += sum(
            not any(photo.matches(die, *point) for die in photo.dice)
            and not photo.near(photo.neutral, *point)
            for point in found
        )
    return dict(sorted(bands.items())), others


def reach_row(source: str, what: str, bands: dict[str, tuple[int, int]], others: int) -> str:
    reached = sum(r for r, _ in bands.values())
    total = sum(t for _, t in bands.values())
    parts = ", ".join(f"{band} {r}/{t}" for band, (r, t) in bands.items())
    return (
        f"dice: {source:16} {what}: reach {reached}/{total} = {reached / total:.1%}"
        f" ({parts}); {others} elsewhere"
    )


@cache
def heat_map(path: Path) -> tuple[np.ndarray, np.ndarray, float]:
    """The shipped detector's heat map and die sides for the photo at ``path``, and the
    scale it was read at (each photo once, whatever the floors asked of it)."""
    image = cv2.imread(str(path))
    if image is None:
        raise FileNotFoundError(f"{path}: cannot read the photo")
    scale = min(1.0, WORKING_WIDTH / image.shape[1]) if image.shape[1] > 800 else 1.0
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    probability, side = Detector.shipped().heat(cv2.cvtColor(small, cv2.COLOR_BGR2LAB))
    return probability, side, scale


def detected(floor: float) -> Callable[[Seen], list[tuple[float, float]]]:
    """The centres (frame pixels) the shipped detector finds in a photo at ``floor``."""

    def points(one: Seen) -> list[tuple[float, float]]:
        probability, side, scale = heat_map(one.photo.path)
        found = peaks(probability, side, floor)
        return [(d.center[0] / scale, d.center[1] / scale) for d in found]

    return points


def print_table(
    title: str,
    seen: dict[str, list[Seen]],
    model: Reader,
    settings: DiceSettings,
) -> None:
    """One table: every source scored with ``model``."""
    print(f"dice: {title}")
    for source in SOURCES:
        print_score(source, as_read(seen[source], settings, model), model, settings)


def as_read(seen: Sequence[Seen], settings: DiceSettings, model: Reader) -> Sequence[Seen]:
    """``seen`` as ``model`` finds it: with ``second_look`` the colour-axis candidates depend
    on the reader's first look, so the photos are seen again with it (the training's rows
    are every seed's)."""
    return see([one.photo for one in seen], settings, model) if settings.second_look else seen


def print_score(
    source: str, seen: Sequence[Seen], model: Reader, settings: DiceSettings, name: str = ""
) -> None:
    """The two lines of one source scored with ``model`` (called ``name``, if given)."""
    total, sure = score_seen(seen, model, settings)
    print(row(source, total) + f"; {name + ', ' if name else ''}sure at {model.sure:.3f}")
    print(f"dice: {'':16} {sure.text()}")


def print_calibration(
    source: str,
    seen: Sequence[Seen],
    pair: PairedReader,
    reads: dict[str, tuple[list[float], list[int]]],
    settings: DiceSettings,
) -> None:
    """The sure reads of ``pair`` on the left-out ``seen`` for each share of wrong reads
    allowed on the synthetic scenes when its sure threshold is set (:func:`threshold_of`)."""
    for share in SYNTHETIC_SHARES:
        threshold = threshold_of(reads, share)
        sure = score_seen(seen, pair.with_sure(threshold), settings)[1]
        print(f"dice: {source:16} synthetic share {share:.2%}: sure at {threshold:.3f};")
        print(f"dice: {'':16} {sure.text()}")


def main(argv: Sequence[str] | None = None) -> None:
    """Print the proposal reach, the three tables and the frame times."""
    quick = "--quick" in (argv or ())
    if not DATA.is_dir():
        print(f"dice: photos not found at {DATA}; skipped")
        return
    cv2.setNumThreads(1)
    settings = DiceSettings()
    step = 3 if quick else 1
    seen = {source: see(load_source(DATA, source)[::step], settings) for source in SOURCES}
    proposals: list[tuple[str, Callable[[Seen], list[tuple[float, float]]]]] = [
        ("the reader's candidates", lambda one: [c.center for c in one.found]),
        *((f"the detector at {floor}", detected(floor)) for floor in DETECTOR_FLOORS),
    ]
    for source in SOURCES:
        for what, points in proposals:
            print(reach_row(source, what, *reach(seen[source], points)))
    print_table("all sources (the shipped reader: partly a fit)", seen, shipped_reader(), settings)
    if not torch_available():
        print("dice: PyTorch not installed: synthetic-only and left-out tables skipped")
    else:
        scenes = synthetic(QUICK_SCENES if quick else SCENES, settings)
        copies = {source: altered(seen[source], settings) for source in SOURCES}
        synthetic_only = train_reader(scenes, settings)[0]
        print_table("synthetic only (every source unseen)", seen, synthetic_only, settings)
        print("dice: leave one source out (trained on the synthetic scenes, the other two and")
        print("dice: their altered copies); the reader, then its patch network and CNN alone")
        for source in SOURCES:
            rest = scenes + [
                one for other in SOURCES if other != source for one in seen[other] + copies[other]
            ]
            pair = train_reader(rest, settings)[0]
            cnn = pair.cnn.with_sure(sure_threshold(rest, pair.cnn, settings))
            left_out = as_read(seen[source], settings, pair)
            for name, model in (("reader", pair), ("patch network", pair.patch), ("cnn", cnn)):
                print_score(source, left_out, model, settings, name)
            reads = source_reads(rest, pair, settings)
            print_calibration(source, left_out, pair, reads, settings)
    one_blas_thread()  # as in the app (its card reader sets it); two threads count twice
    sample = cv2.imread(str(DATA / "photos" / "six_44.jpg"))
    if sample is None:
        raise FileNotFoundError(f"{DATA / 'photos' / 'six_44.jpg'}: cannot read the photo")
    readers: dict[str, Reader] = {"the reader": shipped_reader(), "patch network": shipped_model()}
    for width, height in ((640, 480), (1280, 720)):
        frame = cv2.resize(sample, (width, height), interpolation=cv2.INTER_CUBIC)
        for name, times in frame_times(frame, readers).items():
            median = statistics.median(times)
            print(
                f"dice: {width}x{height} frame, {name}, one core, CPU time: median {median:.1f} ms,"
                f" worst {max(times):.1f} ms; a Pi 4 about {PI_SLOWER * median:.0f} ms (estimated)"
                + (f" (goal <= {GOAL_MS_720P:.0f} ms here)" if width == 1280 else "")
            )
    print(f"dice: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main(sys.argv[1:])
