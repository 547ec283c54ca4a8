"""A recorded game played back on a clock: its observations come due at their times.

Kivy-free. ``companion snapshot --state FILE`` plays a recording up to a moment on a
manual clock; demo mode without the simulated dealer plays one on the wall clock. Each
observation is re-stamped on the playing clock (its recorded ``t`` counts from the
recording's start).

>>> from companion.engine.observations import Tap
>>> start = TableStart("21x-solo", ("ann",))
>>> playback = Playback(start, [Tap("x", 1.0), Tap("x", 3.0)], began=100.0)
>>> [o.t for o in playback.due(102.0)], playback.finished
([101.0], False)
>>> [o.t for o in playback.due(200.0)], playback.finished
([103.0], True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from companion.engine.observations import Observation, TableStart, read_recording


class Playback:
    """The observations of a recording, handed out as the clock reaches them."""

    def __init__(self, start: TableStart, observations: Sequence[Observation],
                 began: float) -> None:
        self.start = start
        self.observations = list(observations)
        self.began = began
        self.next = 0

    @classmethod
    def read(cls, path: str | Path, began: float) -> Playback:
        """The recording in ``path``; errors name the file and line."""
        text = Path(path).read_text(encoding="utf-8")
        start, observations = read_recording(text, path=str(path))
        return cls(start, observations, began)

    @property
    def finished(self) -> bool:
        """True once every observation has been handed out."""
        return self.next >= len(self.observations)

    @property
    def next_time(self) -> float | None:
        """When the next observation comes due on the playing clock."""
        if self.finished:
            return None
        return self.began + self.observations[self.next].t - self.start.t

    def due(self, now: float) -> list[Observation]:
        """The observations due by ``now``, re-stamped on the playing clock."""
        out: list[Observation] = []
        while (when := self.next_time) is not None and when <= now:
            out.append(dataclasses.replace(self.observations[self.next], t=when))
            self.next += 1
        return out
