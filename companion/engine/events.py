"""Events: everything that happens at the table, as plain data.

A game is an append-only sequence of events; its state is a pure function of that
sequence (see :mod:`companion.games.base`). On disk and in docs an event is one JSON
object per line::

    {"seq": 3, "t": 12.5, "kind": "draw", "data": {"player": "ann", "card": "x21-006"}}

>>> event = Event(kind="draw", data={"player": "ann"}, t=1.5, seq=3)
>>> Event.from_json(event.to_json()) == event
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import LogError
from companion.jsonlines import load_line

MAX_T = 1e12
"""Largest time stamp accepted, in seconds (about 31,700 years of game clock)."""
MAX_SEQ = 2**53
"""Largest event number accepted."""


@dataclass(frozen=True)
class Event:
    """One thing that happened: its kind, data, time t on the game clock and number seq."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    t: float = 0.0
    seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form."""
        return {"seq": self.seq, "t": self.t, "kind": self.kind, "data": dict(self.data)}

    def to_json(self) -> str:
        """One JSON line (no newline)."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=False)

    @classmethod
    def from_dict(cls, obj: Any, *, path: str = "", line: int | None = None) -> Event:
        """Validate and build an event, naming ``path`` and ``line`` in any error."""
        if not isinstance(obj, dict):
            raise LogError("an event must be a JSON object", path=path, line=line)
        kind, data = obj.get("kind"), obj.get("data", {})
        t, seq = obj.get("t", 0.0), obj.get("seq", 0)
        if not isinstance(kind, str) or not kind:
            raise LogError("an event needs a non-empty string 'kind'", path=path, line=line)
        if not isinstance(data, dict):
            raise LogError(f"'data' of a {kind!r} event must be an object", path=path, line=line)
        if isinstance(t, bool) or not isinstance(t, int | float) or not abs(t) <= MAX_T:
            raise LogError(f"'t' of a {kind!r} event must be a finite number of seconds "
                           f"(at most {MAX_T:g})", path=path, line=line)
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
            raise LogError(f"'seq' of a {kind!r} event must be a whole number from 0 to "
                           f"{MAX_SEQ}", path=path, line=line)
        return cls(kind=kind, data=data, t=float(t), seq=seq)

    @classmethod
    def from_json(cls, text: str, *, path: str = "", line: int | None = None) -> Event:
        """Parse one JSON line."""
        return cls.from_dict(load_line(text, path=path, line=line), path=path, line=line)
