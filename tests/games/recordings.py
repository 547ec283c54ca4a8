"""Play a recorded game (docs/observations/) through the conductor, as the table would."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine.clock import ManualClock
from companion.engine.conductor import Conductor, Update, play_recorded
from companion.engine.observations import Observation, TableStart, read_recording
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


def recording(name: str) -> tuple[TableStart, list[Observation]]:
    """The start and observations of ``docs/observations/<name>.jsonl``."""
    path = DOCS / "observations" / f"{name}.jsonl"
    return read_recording(path.read_text(encoding="utf-8"), path=str(path))


def feed(store: Store, start: TableStart, observations: list[Observation]) -> Played:
    """Feed ``observations`` to a conductor on ``store`` as the table would: the clock set to
    each one's time, then post and step."""
    clock = ManualClock(start.t)
    conductor = Conductor.start(store, clock, start)
    return Played(conductor, list(play_recorded(conductor, clock, observations)))


def play(name: str, data_dir: Path) -> Played:
    """The recorded game ``name`` played on a real SQLite store in ``data_dir``."""
    return feed(Store.open(data_dir), *recording(name))


def conduct(store_path: Path, start: TableStart,
            observations: list[Observation]) -> tuple[Conductor, list[str], list[str]]:
    """Feed ``observations`` to a conductor on a SQLite file; the conductor, and the
    attention items and refusals it raised."""
    store_path.parent.mkdir(parents=True, exist_ok=True)
    played = feed(Store(store_path), start, observations)
    asked: list[str] = []
    for update in played.updates:
        asked += [item.message for item in update.attention if item.message not in asked]
    refused = [s.detail for update in played.updates for s in update.signals
               if s.kind == "refused"]
    return played.conductor, asked, refused


def moves(conductor: Conductor) -> list[tuple[str, dict[str, Any]]]:
    """The referee's events after the start, as (kind, data)."""
    return [(e.kind, dict(e.data)) for e in conductor.referee.events[1:]]


def example_log(name: str) -> Replayed:
    """The example event log ``docs/logs/<name>.jsonl``, replayed."""
    return replay_file(DOCS / "logs" / f"{name}.jsonl")
