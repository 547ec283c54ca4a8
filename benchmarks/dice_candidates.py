"""How good the dice reader's candidates are, per photo source, without training a reader:
``python -m benchmarks.dice_candidates [--step N] [--candidates NAME]`` (every ``N``-th photo,
default 3; the candidate settings of :data:`vision.dice.CANDIDATE_SETTINGS` called ``NAME``,
default ``joined``, the shipped ones).

For each source: the **right-count share** (labelled dice with a face candidate within
matching reach whose pip count is the labelled value: what the reader can read from its
pips), the **reach** (labelled dice with any candidate within reach, body proposals too),
the candidates per photo (the reader's cost grows with them) and how many lie within reach
of a polyhedral die (the reader must read them as "not a die"). With a second look (the
shipped settings since round 14) the colour-axis candidates are those of every face that may
seed one (as the training sees them; :func:`vision.dice.find_dice` searches fewer). A change
to how bodies, pips or faces are found can be judged by these in a minute; the reads need
the reader trained again (``python -m vision.dice_training --reader-only``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import cv2

from benchmarks.bench_dice import DATA
from vision.dice import CANDIDATE_SETTINGS, SHIPPED_CANDIDATES, DiceSettings
from vision.dice_labels import SOURCES, load_source
from vision.dice_training import Seen, see


@dataclass
class CandidateCounts:
    """Over the labelled dice of one source: how many, how many have a candidate within
    reach, how many a face candidate of the right pip count; photos and candidates seen, and
    the candidates within reach of a polyhedral die."""

    dice: int = 0
    reached: int = 0
    right_count: int = 0
    photos: int = 0
    candidates: int = 0
    on_polyhedral: int = 0

    def add(self, one: Seen) -> None:
        """Count the labelled dice and candidates of one photo."""
        photo = one.photo
        self.photos += 1
        self.candidates += len(one.found)
        self.on_polyhedral += sum(photo.near(photo.polyhedral, *c.center) for c in one.found)
        for die in photo.dice:
            near = [c for c in one.found if photo.matches(die, *c.center)]
            self.dice += 1
            self.reached += bool(near)
            self.right_count += any(c.pip_count == die.value for c in near)

    def text(self, source: str) -> str:
        """One line of the counts for ``source``."""
        dice = max(self.dice, 1)
        return (
            f"dice candidates: {source:16} right count {self.right_count}/{self.dice} ="
            f" {self.right_count / dice:.1%}; reach {self.reached / dice:.1%};"
            f" {self.candidates / max(self.photos, 1):.1f} candidates per photo"
            + (f", {self.on_polyhedral} on polyhedral dice" if self.on_polyhedral else "")
        )


def counts(step: int, settings: DiceSettings) -> dict[str, CandidateCounts]:
    """The candidate counts of every ``step``-th photo of each source."""
    result = {}
    for source in SOURCES:
        total = CandidateCounts()
        for one in see(load_source(DATA, source)[::step], settings):
            total.add(one)
        result[source] = total
    return result


def parsed(
    argv: Sequence[str] | None, tool: str, default_step: int
) -> tuple[int, DiceSettings] | None:
    """The photo step (``--step N``) and the candidate settings (``--candidates NAME``) of a
    dice benchmark called ``tool``; None, with the reason printed, when it cannot run."""
    args = list(argv or ())
    step = int(args[args.index("--step") + 1]) if "--step" in args else default_step
    name = args[args.index("--candidates") + 1] if "--candidates" in args else SHIPPED_CANDIDATES
    if name not in CANDIDATE_SETTINGS:
        print(f"{tool}: no candidate settings {name!r}; one of {list(CANDIDATE_SETTINGS)}")
        return None
    if not DATA.is_dir():
        print(f"{tool}: photos not found at {DATA}; skipped")
        return None
    cv2.setNumThreads(1)
    return step, CANDIDATE_SETTINGS[name]


def main(argv: Sequence[str] | None = None) -> None:
    """Print the candidate counts per source and the CPU time taken."""
    run = parsed(argv, "dice candidates", 3)
    if run is None:
        return
    step, settings = run
    started = time.process_time()
    for source, total in counts(step, settings).items():
        print(total.text(source))
    print(f"dice candidates: every {step}. photo, {time.process_time() - started:.0f} s CPU")


if __name__ == "__main__":
    main(sys.argv[1:])
