"""Mountainside Math Medley solver speed on full boards: 9 grid cards and 4 face-up corners.

Random boards from a seeded generator in three groups: no joker, one joker and two jokers
(anywhere among the 13 cards), each with a dice target. Wall time by
``time.perf_counter``, the fastest of several runs per board (the machine may be shared:
the fastest run is the one least disturbed by other processes); median and worst board:

* ``solve``: list every valid combination (one per set of cards; goal <= 20 ms on every
  board, target <= 10 ms);
* ``has_combination``: the loss check, run after every event;
* ``hints``: the first three combinations written out (what the screen shows) and
  ``hints(state)`` for the whole list, as the UI asks for them;
* ``solve + every expression``: also writing each combination's expression, which the
  solver does only when asked;
* more corner spots (the ``corners`` option up to 8): 9 grid cards, 8 face-up corners.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from itertools import islice

from companion.games.medley.rules import FULL_DECK, target
from companion.games.medley.solver import (
    Board,
    Combination,
    has_combination,
    iter_combinations,
    solve,
)

PER_GROUP = 20
REPEAT = 5
GOAL_MS = 20.0
TARGET_MS = 10.0
SEED = 2026


def boards(count: int, jokers: int, corners: int = 4, seed: int = SEED) -> list[tuple[Board, int]]:
    """``count`` random full boards of 9 grid cards and ``corners`` face-up corners, with
    ``jokers`` jokers placed at random, and their dice targets."""
    rng = random.Random(seed * 10 + jokers)
    plain = [card for card in FULL_DECK if card != "JK"]
    made = []
    for _ in range(count):
        cards = rng.sample(plain, 9 + corners)
        for spot in rng.sample(range(len(cards)), jokers):
            cards[spot] = "JK"
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        made.append((Board(grid=tuple(cards[:9]), corners=tuple(cards[9:])), target(dice)))
    return made


def hints(board: Board, goal: int) -> list[Combination]:
    """The first three combinations, as the screen would show them."""
    return list(islice(iter_combinations(board, goal), 3))


def _hint_texts(board: Board, goal: int) -> list[str]:
    """The first hints for ``board``, written short as the screen shows them."""
    return [combination.short for combination in hints(board, goal)]


def _expressions(board: Board, goal: int) -> list[str]:
    """Every combination for ``board`` written out as an expression."""
    return [combination.expression for combination in solve(board, goal)]


def _time(job: Callable[..., object], *args: object, repeat: int = REPEAT) -> float:
    """Milliseconds of the fastest of ``repeat`` runs of ``job(*args)``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        job(*args)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _line(name: str, ms: list[float], goal: float | None = None) -> str:
    median, worst = statistics.median(ms), max(ms)
    verdict = ""
    if goal is not None:
        verdict = f" (goal <= {goal:g} ms on every board: {'ok' if worst <= goal else 'MISSED'})"
    return f"medley: {name}: median {median:.1f} ms, worst {worst:.1f} ms{verdict}"


def main() -> None:
    """Print the figures."""
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"medley: load average before the run {load} (2 cores; figures are per board)")
    every: list[float] = []
    for jokers in (0, 1, 2):
        group = boards(PER_GROUP, jokers)
        label = f"9 grid + 4 corners, {jokers} joker{'s' if jokers != 1 else ''}"
        solve_ms = [_time(solve, b, t) for b, t in group]
        every += solve_ms
        print(_line(f"solve, {label}, {len(group)} boards", solve_ms, GOAL_MS))
        has_ms = [_time(has_combination, b, t) for b, t in group]
        print(_line(f"has_combination, {label}", has_ms))
        hint_ms = [_time(_hint_texts, b, t) for b, t in group]
        print(_line(f"first 3 hints written, {label}", hint_ms))
        counts = [len(solve(b, t)) for b, t in group]
        print(f"medley: combinations (sets of cards) per board, {label}: "
              f"median {statistics.median(counts):.0f}, most {max(counts)}")
    within = sum(ms <= TARGET_MS for ms in every)
    print(f"medley: solve within {TARGET_MS:g} ms on {within} of {len(every)} boards")
    written = [_time(_expressions, b, t, repeat=1)
               for b, t in boards(5, 1)]
    print(_line("solve + every expression, 9 grid + 4 corners, 1 joker, 5 boards", written))
    wide = boards(5, 1, corners=8)
    print(_line("solve, 9 grid + 8 corners, 1 joker, 5 boards",
                [_time(solve, b, t, repeat=2) for b, t in wide], 100))
    print(_line("has_combination, 9 grid + 8 corners, 1 joker",
                [_time(has_combination, b, t, repeat=2) for b, t in wide], 100))
