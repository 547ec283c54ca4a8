"""Play a recorded game (docs/observations/) through the conductor, as the table would."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.engine.clock import ManualClock
from companion.engine.conductor import Conductor, Update
from companion.engine.observations import read_recording
from companion.engine.replay import Replayed, replay_file
from companion.engine.store import Store

DOCS = Path(__file__).resolve().parents[2] / "docs"


@dataclass
class Played:
    """A recorded game played to its end: the conductor and every step's update."""

    conductor: Conductor
    updates: list[Update]

    def logged(self) -> list[tuple[str, dict[str, object]]]:
        """The referee's events after the start, as (kind, data)."""
        return [(e.kind, dict(e.data)) for e in self.conductor.referee.events[1:]]


def play(name: str, data_dir: Path) -> Played:
    """Feed ``docs/observations/<name>.jsonl`` to a conductor on a real SQLite store: the
    clock set to each observation's time, then post and step."""
    path = DOCS / "observations" / f"{name}.jsonl"
    start, observations = read_recording(path.read_text(encoding="utf-8"), path=str(path))
    clock = ManualClock(start.t)
    conductor = Conductor.start(Store.open(data_dir), clock, start)
    updates = []
    for observation in observations:
        clock.now = observation.t
        conductor.post(observation)
        updates.append(conductor.step())
    return Played(conductor, updates)


def example_log(name: str) -> Replayed:
    """The example event log ``docs/logs/<name>.jsonl``, replayed."""
    return replay_file(DOCS / "logs" / f"{name}.jsonl")
