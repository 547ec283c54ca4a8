"""The trick game and Medley at the table: how long one conductor step takes.

Plays each recorded game (``docs/observations/``) through the conductor on an in-memory
store and prints the median and worst step; then times judging lifted Medley cards
(every way to write exactly those cards), the slowest thing a translator does.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from companion.engine.clock import ManualClock
from companion.engine.conductor import Conductor
from companion.engine.events import Event
from companion.engine.observations import read_recording
from companion.engine.store import Store
from companion.games.medley.lifted import arrangements
from companion.games.medley.rules import RULES, MedleyState

RECORDINGS = Path(__file__).resolve().parents[1] / "docs" / "observations"
GRID = ["8h", "5c", "10d", "2s", "Qd", "Kh", "Jc", "9c", "3h"]
LIFTS = [
    ("4 cards", GRID, (), ("g0", "g2", "g4", "g8")),
    ("6 cards", GRID, (), ("g0", "g1", "g2", "g3", "g4", "g8")),
    ("4 cards, a joker", ["JK", *GRID[1:]], (), ("g0", "g1", "g2", "g5")),
    ("6 cards, two jokers", ["JK", *GRID[1:8], "JK"], (), ("g0", "g1", "g2", "g3", "g4", "g8")),
    ("5 cards and 2 corners", GRID, ("Ad", "4s"), ("g0", "g1", "g2", "g3", "g4", "c0", "c1")),
]


def steps(name: str) -> list[float]:
    """Seconds per conductor step over the recorded game ``name``."""
    path = RECORDINGS / f"{name}.jsonl"
    start, observations = read_recording(path.read_text(encoding="utf-8"), path=str(path))
    clock = ManualClock(start.t)
    conductor = Conductor.start(Store(":memory:"), clock, start)
    timings = []
    for observation in observations:
        clock.now = observation.t
        conductor.post(observation)
        began = time.perf_counter()
        conductor.step()
        timings.append(time.perf_counter() - began)
    return timings


def board(grid: list[str], corners: tuple[str, ...]) -> MedleyState:
    """A ready Medley board (target 54) with ``corners`` on the first spots."""
    state = RULES.start(Event("start", {"players": ["mia"]}))
    for cell, card in enumerate(grid):
        state = RULES.apply(state, Event("draw", {"card": card, "cell": cell}))
    state = RULES.apply(state, Event("roll", {"dice": [4, 5]}))
    for spot, card in enumerate(corners):
        state = RULES.apply(state, Event("draw", {"card": card, "corner": spot}))
    return state


def main() -> None:
    for name in ("trick", "medley"):
        timings = steps(name)
        print(f"{name}: {len(timings)} steps, median {statistics.median(timings) * 1000:.2f} ms,"
              f" worst {max(timings) * 1000:.1f} ms")
    for label, grid, corners, slots in LIFTS:
        state = board(grid, corners)
        best = min(_timed(state, frozenset(slots)) for _ in range(3))
        print(f"lifted {label}: {len(arrangements(state, frozenset(slots)))} ways,"
              f" {best * 1000:.1f} ms")


def _timed(state: MedleyState, slots: frozenset[str]) -> float:
    began = time.perf_counter()
    arrangements(state, slots)
    return time.perf_counter() - began
