"""Dice reading on the three labelled photo sources, per source and leaving sources out.

For each source: labelled dice read with the right value, read with a wrong value, missed,
false reports (of which on polyhedral dice, with the share of polyhedral dice reported as a
six-sided die), and the sure reads: how many, how many wrong, how many dice were reported
unsure. Matching is described in :mod:`vision.dice_labels`.

Three tables: **all sources** scores each source with the shipped model (synthetic scenes and
all three sources: partly a fit); **synthetic only** with a model trained on synthetic scenes
alone (every source unseen; the sure threshold set on synthetic scenes); **leave one source
out** with a model trained on the synthetic scenes and the other two sources, its sure
threshold set on those two: how the reader does on dice it has never seen. Speed is CPU time
on one core for 640x480 and 1280x720 frames. About five minutes (the synthetic scenes are
drawn and read again).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2

from vision.dice import DiceSettings, Image, find_dice
from vision.dice_labels import SOURCES, Score, load_source, match, score
from vision.dice_model import DiceModel, shipped_model
from vision.dice_training import SCENES, Seen, read, see, synthetic, train
from vision.observations import DieObservation

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dice"
GOAL_RIGHT = 0.98
GOAL_MS_720P = 25.0

Reader = Callable[[Image], list[DieObservation]]


@dataclass
class Sure:
    """Counts of the sure reads (confidence at or above the model's threshold)."""

    reads: int = 0
    wrong: int = 0
    unsure: int = 0

    def text(self) -> str:
        share = self.wrong / self.reads if self.reads else 0.0
        return (
            f"sure reads {self.reads}, wrong {self.wrong} = {share:.1%} (goal <= 1 %);"
            f" unsure {self.unsure}"
        )


def score_seen(
    seen: Sequence[Seen], model: DiceModel, settings: DiceSettings
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


def frame_times(image: Image, read: Reader, repeats: int = 15) -> list[float]:
    """CPU milliseconds per read of ``image`` (CPU time: fair on a shared, busy machine)."""
    times = []
    for _ in range(repeats):
        started = time.process_time()
        read(image)
        times.append((time.process_time() - started) * 1000.0)
    return times


def main() -> None:
    """Print the two tables and the frame times."""
    if not DATA.is_dir():
        print(f"dice: photos not found at {DATA}; skipped")
        return
    cv2.setNumThreads(1)
    settings = DiceSettings()
    seen = {source: see(load_source(DATA, source), settings) for source in SOURCES}
    scenes = synthetic(SCENES, settings)
    synthetic_only = train(scenes, settings)
    tables: list[tuple[str, Callable[[str], DiceModel]]] = [
        ("all sources (the shipped model)", lambda source: shipped_model()),
        ("synthetic only (every source unseen)", lambda source: synthetic_only),
        (
            "leave one source out (trained on the synthetic scenes and the other two)",
            lambda source: train(
                scenes + [one for other in SOURCES if other != source for one in seen[other]],
                settings,
            ),
        ),
    ]
    for title, model_for in tables:
        print(f"dice: {title}")
        for source in SOURCES:
            model = model_for(source)
            total, sure = score_seen(seen[source], model, settings)
            print(row(source, total) + f"; sure at {model.sure:.3f}")
            print(f"dice: {'':16} {sure.text()}")
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
