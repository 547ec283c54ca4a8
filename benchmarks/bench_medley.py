"""Mountainside Math Medley solver speed on full boards: 9 grid cards and 4 face-up corners.

Random boards from a seeded generator, a third of them holding a joker, each with a dice
target. Wall time by ``time.perf_counter``, the fastest of three runs per board:

* ``solve``: list every valid combination (one per set of cards; the goal, <= 20 ms);
* ``has_combination``: stop at the first hit (the loss check);
* ``first 3 hints``: the first three combinations, written out (what the screen shows);
* ``solve + every expression``: also writing each combination's expression (the solver
  writes them only when asked for), on the first ten boards.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from itertools import islice

from companion.games.medley import FULL_DECK, target
from companion.games.medley_solver import (
    Board,
    Combination,
    has_combination,
    iter_combinations,
    solve,
)

BOARDS = 30
REPEAT = 3
GOAL_MS = 20.0
SEED = 2026


def boards(count: int = BOARDS) -> list[tuple[Board, int]]:
    """``count`` random full boards with targets; every third one has a joker."""
    rng = random.Random(SEED)
    plain = [card for card in FULL_DECK if card != "JK"]
    made = []
    for index in range(count):
        cards = rng.sample(plain, 13)
        if index % 3 == 0:
            cards[rng.randrange(13)] = "JK"
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        made.append((Board(grid=tuple(cards[:9]), corners=tuple(cards[9:])), target(dice)))
    return made


def hints(board: Board, goal: int) -> list[Combination]:
    """The first three combinations, as the screen would show them."""
    return list(islice(iter_combinations(board, goal), 3))


def _time(job: Callable[[], object], repeat: int = 1) -> float:
    """Milliseconds of the fastest of ``repeat`` runs (the machine is shared: the fastest
    run is the one least disturbed by other processes)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _line(name: str, ms: list[float], goal: float | None = None) -> str:
    median, worst = statistics.median(ms), max(ms)
    verdict = ""
    if goal is not None:
        verdict = f" (goal <= {goal:g} ms: {'ok' if median <= goal else 'MISSED'})"
    return (
        f"medley: {name}, 9 grid + 4 corners, {len(ms)} boards: "
        f"median {median:.1f} ms, worst {worst:.1f} ms{verdict}"
    )


def main() -> None:
    """Print the figures."""
    solve_ms, has_ms, hint_ms, counts = [], [], [], []
    for board, goal in boards():
        counts.append(len(solve(board, goal)))
        solve_ms.append(_time(lambda b=board, t=goal: solve(b, t), REPEAT))
        has_ms.append(_time(lambda b=board, t=goal: has_combination(b, t), REPEAT))
        hint_ms.append(_time(lambda b=board, t=goal: [c.short for c in hints(b, t)], REPEAT))
    print(_line("solve (every combination)", solve_ms, GOAL_MS))
    print(_line("has_combination (loss check)", has_ms))
    print(_line("first 3 hints", hint_ms))
    written = [_time(lambda b=b, t=t: [c.expression for c in solve(b, t)]) for b, t in boards(10)]
    print(_line("solve + every expression", written))
    median, most = statistics.median(counts), max(counts)
    print(f"medley: combinations (sets of cards) per board: median {median:.0f}, most {most}")
