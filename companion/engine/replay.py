"""Replay: a game's state is a pure function of its event log.

History is never edited. A mistake (a misread card, a wrongly pressed button) is fixed
by a ``correction`` event naming the ``seq`` of an earlier event; it voids that event
or, with a ``replacement``, replaces its kind and data (keeping its place, ``seq`` and
``t``). A correction can void an earlier correction, which undoes it. This works for
every game because corrections are resolved here, before the rules see the log.

>>> log = [
...     Event("start", {"game": "demo"}, seq=1),
...     Event("draw", {"card": "a"}, seq=2),
...     Event("correction", {"target": 2, "replacement": {"kind": "draw", "data": {"card": "b"}}},
...           seq=3),
... ]
>>> [(e.seq, e.data) for e in effective_events(log)]
[(1, {'game': 'demo'}), (2, {'card': 'b'})]
>>> undo = Event("correction", {"target": 3}, seq=4)
>>> [(e.seq, e.data) for e in effective_events([*log, undo])]
[(1, {'game': 'demo'}), (2, {'card': 'a'})]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine.events import Event
from companion.errors import IllegalMove, LogError, MalformedMove
from companion.games.base import GameRules
from companion.games.registry import rules_for
from companion.jsonlines import read_log_text

CORRECTION = "correction"
START = "start"


class ReplayError(IllegalMove):
    """An event of a log that the rules refuse; ``seq`` names it."""

    def __init__(self, message: str, *, seq: int) -> None:
        self.seq = seq
        super().__init__(message)


@dataclass(frozen=True)
class Replayed:
    """The outcome of a replay: the game's rules and its state after the whole log."""

    rules: GameRules[Any]
    state: Any
    events: tuple[Event, ...]

    def summary(self) -> dict[str, Any]:
        """The rules' JSON-ready summary of the state."""
        return self.rules.summary(self.state)


def _correction_target(event: Event, seen: dict[int, Event]) -> int:
    target = event.data.get("target")
    if isinstance(target, bool) or not isinstance(target, int) or target not in seen:
        raise IllegalMove(f"correction {event.seq} must name the seq of an earlier event")
    if seen[target].kind == START:
        raise IllegalMove(f"correction {event.seq}: the start event cannot be corrected")
    return target


def _replacement(event: Event, original: Event) -> Event | None:
    replacement = event.data.get("replacement")
    if replacement is None:
        return None
    if original.kind == CORRECTION:
        raise IllegalMove(f"correction {event.seq}: a correction can be voided, not replaced")
    if not isinstance(replacement, dict):
        raise IllegalMove(f"correction {event.seq}: 'replacement' must be an object")
    kind, data = replacement.get("kind", original.kind), replacement.get("data", {})
    if not isinstance(kind, str) or kind in (START, CORRECTION) or not isinstance(data, dict):
        raise IllegalMove(f"correction {event.seq}: a replacement needs a game kind and data")
    return Event(kind=kind, data=data, t=original.t, seq=original.seq)


def effective_events(events: Sequence[Event]) -> list[Event]:
    """The log as the rules see it: corrections applied, correction events removed."""
    seen: dict[int, Event] = {}
    targets: dict[int, int] = {}
    for event in events:
        if event.kind == CORRECTION:
            targets[event.seq] = _correction_target(event, seen)
        seen[event.seq] = event
    voided: set[int] = set()
    replaced: dict[int, Event] = {}
    for event in reversed(events):
        if event.kind != CORRECTION or event.seq in voided:
            continue
        target = targets[event.seq]
        substitute = _replacement(event, seen[target])
        if substitute is None:
            voided.add(target)
        elif target not in voided:
            replaced.setdefault(target, substitute)
    return [
        replaced.get(event.seq, event)
        for event in events
        if event.kind != CORRECTION and event.seq not in voided
    ]


def replay(events: Sequence[Event]) -> Replayed:
    """Replay a whole log (first event ``start``); an illegal event raises ``IllegalMove``."""
    if not events or events[0].kind != START:
        raise IllegalMove("a game log must begin with a 'start' event")
    game = events[0].data.get("game")
    if not isinstance(game, str):
        raise IllegalMove("the start event must name the 'game'")
    rules = rules_for(game)
    effective = effective_events(events)
    try:
        state = rules.start(effective[0])
    except (IllegalMove, MalformedMove) as error:
        raise ReplayError(f"event {events[0].seq} (start): {error}", seq=events[0].seq) from None
    for event in effective[1:]:
        try:
            state = rules.apply(catch_up(rules, state, event), event)
        except (IllegalMove, MalformedMove) as error:
            message = f"event {event.seq} ({event.kind}): {error}"
            raise ReplayError(message, seq=event.seq) from None
    return Replayed(rules=rules, state=state, events=tuple(events))


def catch_up(rules: GameRules[Any], state: Any, event: Event) -> Any:
    """``state`` with every timer event due before ``event`` applied, as the live referee
    logs them before any later event: a log that lacks an expiry (merged, hand-written,
    imported) is judged as if it were there. A logged timer event is not applied twice."""
    while due := rules.due(state, event.t):
        first = due[0]
        if first.kind == event.kind and first.t == event.t and first.data == event.data:
            return state
        state = rules.apply(state, first)
    return state


def read_jsonl(path: str | os.PathLike[str]) -> list[Event]:
    """Read a JSON-lines log; a malformed line raises ``LogError`` naming ``path:line``."""
    return [event for _, event in _numbered_events(path)]


def _numbered_events(path: str | os.PathLike[str]) -> list[tuple[int, Event]]:
    """The log's events, each with its 1-based line number in the file."""
    name = str(path)
    numbered: list[tuple[int, Event]] = []
    for number, line in enumerate(read_log_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        event = Event.from_json(line, path=name, line=number)
        if numbered and event.seq <= numbered[-1][1].seq:
            raise LogError(f"seq {event.seq} does not follow {numbered[-1][1].seq}", path=name,
                           line=number)
        if numbered and event.t < numbered[-1][1].t:
            raise LogError(f"t {event.t:g} goes back in time (the event before has "
                           f"t {numbered[-1][1].t:g})", path=name, line=number)
        if not numbered and event.kind != START:
            raise LogError("the first event must be 'start'", path=name, line=number)
        numbered.append((number, event))
    if not numbered:
        raise LogError("the log has no events", path=name)
    return numbered


def replay_file(path: str | os.PathLike[str]) -> Replayed:
    """Read and replay a JSON-lines log; an illegal event is reported with its line."""
    numbered = _numbered_events(path)
    try:
        return replay([event for _, event in numbered])
    except ReplayError as error:
        line = {event.seq: number for number, event in numbered}.get(error.seq)
        raise LogError(str(error), path=str(path), line=line) from None
    except (IllegalMove, MalformedMove) as error:
        raise LogError(str(error), path=str(path)) from None


def write_jsonl(events: Iterable[Event], path: str | os.PathLike[str]) -> None:
    """Write events as JSON lines (the format :func:`read_jsonl` reads)."""
    Path(path).write_text("".join(event.to_json() + "\n" for event in events), encoding="utf-8")
