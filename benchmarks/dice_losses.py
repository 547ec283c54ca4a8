"""Where the dice reader loses the dice it misses or misreads, by stage: ``python -m
benchmarks.dice_losses [--step N] [--candidates NAME]`` (every ``N``-th photo, default 1; the
candidate settings of :data:`vision.dice.CANDIDATE_SETTINGS` called ``NAME``, default the
shipped ones; read with the shipped reader).

Each labelled die not read right (missed, or reported with a wrong value) is put in the
first stage that explains it:

- **no candidate**: no candidate within matching reach;
- **no right count**: candidates reach it, but no face candidate has its pip count; split
  by whether one of them still reads its value (the reader reads the picture, not the count)
  or none does;
- **right count**: a face candidate with its pip count is there (the one reading the value
  likeliest): read "not a die", read another value, read right but below the reporting
  floor, or read right above it but a neighbour's read won the suppression.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from benchmarks.bench_dice import DATA
from benchmarks.dice_candidates import parsed
from vision.dice import DiceSettings, model_inputs
from vision.dice_cnn import shipped_reader
from vision.dice_labels import SOURCES, LabelledDie, load_source, match
from vision.dice_model import Reader
from vision.dice_training import Seen, read, see

STAGES = (
    "no candidate",
    "no right count, none reads the value",
    "no right count, one reads the value",
    "right count, read not a die",
    "right count, read another value",
    "right count, read right below the floor",
    "right count, read right, a neighbour won",
)


def stage(
    one: Seen, die: LabelledDie, probabilities: npt.NDArray[np.float64], floor: float
) -> str:
    """The first stage of :data:`STAGES` that explains why ``die`` is not read right."""
    near = [i for i, c in enumerate(one.found) if one.photo.matches(die, *c.center)]
    if not near:
        return STAGES[0]
    counted = [i for i in near if one.found[i].pip_count == die.value]
    if not counted:
        reads = any(int(probabilities[i].argmax()) == die.value for i in near)
        return STAGES[2] if reads else STAGES[1]
    best = max(counted, key=lambda i: float(probabilities[i, die.value]))
    read_as = int(probabilities[best, 1:].argmax()) + 1
    if int(probabilities[best].argmax()) == 0:
        return STAGES[3]
    if read_as != die.value:
        return STAGES[4]
    return STAGES[5] if probabilities[best, die.value] < floor else STAGES[6]


def losses(seen: Sequence[Seen], model: Reader, settings: DiceSettings) -> dict[str, Counter[str]]:
    """Per outcome ("missed", "wrong value"), how many dice each stage loses."""
    result: dict[str, Counter[str]] = {"missed": Counter(), "wrong value": Counter()}
    for one in seen:
        reports = read(one, model, settings)
        matched = match(one.photo, reports)
        right = {id(matched.label_of[i]) for i in matched.right}
        wrong = {id(matched.label_of[i]) for i in matched.wrong_value}
        probabilities = model.probabilities(model_inputs(one.found)) if one.found else None
        for die in one.photo.dice:
            if id(die) in right:
                continue
            outcome = "wrong value" if id(die) in wrong else "missed"
            if probabilities is None:
                result[outcome][STAGES[0]] += 1
            else:
                result[outcome][stage(one, die, probabilities, settings.report_floor)] += 1
    return result


def main(argv: Sequence[str] | None = None) -> None:
    """Print the losses by stage per source."""
    run = parsed(argv, "dice losses", 1)
    if run is None:
        return
    step, settings = run
    model = shipped_reader()
    for source in SOURCES:
        seen = see(load_source(DATA, source)[::step], settings, model)
        for outcome, counts in losses(seen, model, settings).items():
            parts = "; ".join(f"{stage_name} {counts[stage_name]}" for stage_name in STAGES)
            print(f"dice losses: {source:16} {outcome:11} {sum(counts.values()):4}: {parts}")


if __name__ == "__main__":
    main(sys.argv[1:])
