"""The referee on a real SQLite file: the cost of logging an event durably, replaying, resuming.

Every example game in ``docs/logs/`` is fed event by event through :class:`Referee` (each
event fsync'ed before it is acted on), then replayed from its JSON lines and resumed from
the store. No goal is set; a table produces a few events a second, so anything under
~50 ms per event keeps up.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from companion.engine.clock import ManualClock
from companion.engine.events import Event
from companion.engine.referee import Referee
from companion.engine.replay import read_jsonl, replay
from companion.engine.store import Store
from companion.engine.timers import TIMER_KINDS

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "docs" / "logs"
REPEATS = 20


def _feed(store: Store, log: list[Event]) -> tuple[Referee, list[float]]:
    """Play ``log`` into ``store`` at its logged times; the wall time of each submit."""
    clock = ManualClock(log[0].t)
    start = log[0]
    data = {key: value for key, value in start.data.items() if key != "game"}
    referee = Referee.start(store, clock, start.data["game"], data)
    latencies = []
    for event in log[1:]:
        clock.now = event.t
        began = time.perf_counter()
        if event.kind in TIMER_KINDS:
            referee.tick()
        else:
            referee.submit(event.kind, event.data)
        latencies.append(time.perf_counter() - began)
    return referee, latencies


def _best_of(repeats: int, action: Callable[[], object]) -> float:
    timings = []
    for _ in range(repeats):
        began = time.perf_counter()
        action()
        timings.append(time.perf_counter() - began)
    return min(timings)


def main() -> None:
    """Print per-log figures: submit latency (median, worst), replay and resume time."""
    for path in sorted(LOGS.glob("*.jsonl")):
        log = read_jsonl(path)
        # beside the checkout, not in /tmp: /tmp may be RAM, where fsync costs nothing
        with tempfile.TemporaryDirectory(dir=ROOT) as directory, Store.open(directory) as store:
            referee, latencies = _feed(store, log)
            resume_again = partial(Referee.resume, store, referee.game_id, referee.clock)
            resume = _best_of(REPEATS, resume_again)
        replay_time = _best_of(REPEATS, partial(replay, log))
        print(
            f"referee {path.stem}: {len(log)} events; submit (fsync) median "
            f"{statistics.median(latencies) * 1000:.2f} ms, worst {max(latencies) * 1000:.2f} ms; "
            f"replay {replay_time * 1000:.2f} ms; resume from SQLite {resume * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
