"""The table loop on a real SQLite file: one conductor step per observation of a recorded game.

Every recorded game in ``docs/observations/`` is fed observation by observation through
:class:`~companion.engine.conductor.Conductor` (the translator, the referee's fsync'ed
commit, the new view), as the app's UI loop does. No goal is set; a table produces a few
observations a second, so anything under ~50 ms a step keeps up.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from companion.engine.clock import ManualClock
from companion.engine.conductor import Conductor
from companion.engine.observations import read_recording
from companion.engine.store import Store

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = ROOT / "docs" / "observations"


def main() -> None:
    """Print per-recording figures: step latency (median, worst) and the events logged."""
    for path in sorted(RECORDINGS.glob("*.jsonl")):
        start, observations = read_recording(path.read_text(encoding="utf-8"), path=str(path))
        # beside the checkout, not in /tmp: /tmp may be RAM, where fsync costs nothing
        with tempfile.TemporaryDirectory(dir=ROOT) as directory, Store.open(directory) as store:
            clock = ManualClock(start.t)
            conductor = Conductor.start(store, clock, start)
            latencies = []
            for observation in observations:
                clock.now = observation.t
                began = time.perf_counter()
                conductor.post(observation)
                conductor.step()
                latencies.append(time.perf_counter() - began)
            events = len(conductor.referee.events)
        print(f"conductor {path.stem}: {len(observations)} observations -> {events} events;"
              f" step median {statistics.median(latencies) * 1000:.2f} ms,"
              f" worst {max(latencies) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
