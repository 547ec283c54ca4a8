"""The referee: checks each event against the rules, logs it durably, then acts on it.

An event is applied to the current state first; if the rules refuse it,
:class:`~companion.errors.IllegalMove` is raised and nothing is logged. Otherwise it is
committed to the store *before* the referee's state moves on, so a crash at any point
resumes (:meth:`Referee.resume`) to exactly the state the log describes. Timer events
(warnings, expiries) are logged by :meth:`Referee.tick`, stamped with their exact due
time, and every :meth:`Referee.submit` ticks first so they keep their place in the log.

>>> from companion.engine.clock import ManualClock
>>> clock, store = ManualClock(0.0), Store(":memory:")
>>> referee = Referee.start(store, clock, "21x-solo", {"players": ["ann"]})
>>> referee.submit("deal", {"card": "6x"}).seq
2
>>> Referee.resume(store, referee.game_id, clock).summary()["over"]
False
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.clock import Clock
from companion.engine.events import Event
from companion.engine.replay import CORRECTION, START, replay
from companion.engine.store import Store
from companion.errors import IllegalMove
from companion.games.base import GameRules
from companion.games.registry import rules_for

SESSION_VALUE_GAME = "21x"
"""The game whose start event carries each player's V = 1 + games won this session."""


class Referee:
    """One game in progress, backed by its log in a :class:`~companion.engine.store.Store`."""

    def __init__(self, store: Store, game_id: int, clock: Clock, rules: GameRules[Any],
                 events: list[Event], state: Any) -> None:
        self.store = store
        self.game_id = game_id
        self.clock = clock
        self.rules = rules
        self.events = events
        self.state = state

    @classmethod
    def start(cls, store: Store, clock: Clock, game: str, data: Mapping[str, Any],
              session_id: int | None = None) -> Referee:
        """Start a new game of ``game`` with the start event's ``data`` (players, options...).

        In a session, a 21X start event gets each player's V from the games they won.
        """
        rules = rules_for(game)
        payload = {**data, "game": game}
        if session_id is not None:
            payload["session"] = session_id
            if game == SESSION_VALUE_GAME and "v" not in payload:
                wins = store.session_wins(session_id, game)
                players = payload.get("players", [])
                payload["v"] = {p: 1 + wins.get(p, 0) for p in players if isinstance(p, str)}
        event = Event(kind=START, data=payload, t=float(clock()), seq=1)
        state = rules.start(event)
        game_id = store.new_game(game, event.t, session_id, start=event)
        return cls(store, game_id, clock, rules, [event], state)

    @classmethod
    def resume(cls, store: Store, game_id: int, clock: Clock) -> Referee:
        """Rebuild a game from its stored log (and record its end if that was missed)."""
        events = store.events(game_id)
        replayed = replay(events)
        referee = cls(store, game_id, clock, replayed.rules, events, replayed.state)
        summary = referee.summary()
        if summary.get("over") and not store.game(game_id).finished:
            store.finish(game_id, summary)
        return referee

    @classmethod
    def resume_unfinished(cls, store: Store, clock: Clock) -> Referee | None:
        """Resume the most recent unfinished game (what the app does on start), if any."""
        unfinished = store.unfinished()
        return cls.resume(store, unfinished[-1], clock) if unfinished else None

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next logged event will get."""
        return self.events[-1].seq + 1

    def summary(self) -> dict[str, Any]:
        """The rules' JSON-ready summary of the current state."""
        return self.rules.summary(self.state)

    def submit(self, kind: str, data: Mapping[str, Any] | None = None) -> Event:
        """Check, log and apply one event stamped now; ``IllegalMove`` logs nothing."""
        self.tick()
        now = max(float(self.clock()), self.events[-1].t)
        event = Event(kind=kind, data=dict(data or {}), t=now, seq=self.next_seq)
        if kind == START:
            raise IllegalMove("a game has only one start event")
        if kind == CORRECTION:
            state = replay([*self.events, event]).state
        else:
            state = self.rules.apply(self.state, event)
        self._commit(event, state)
        return event

    def correct(self, target: int, replacement: Mapping[str, Any] | None = None,
                reason: str = "") -> Event:
        """Void event ``target`` or replace its kind/data (``{"kind":..., "data":...}``)."""
        data: dict[str, Any] = {"target": target}
        if replacement is not None:
            data["replacement"] = dict(replacement)
        if reason:
            data["reason"] = reason
        return self.submit(CORRECTION, data)

    def tick(self) -> list[Event]:
        """Log every timer event due by now (at its exact due time); returns them."""
        logged: list[Event] = []
        now = self.clock()
        while due := self.rules.due(self.state, now):
            for timer_event in due:
                event = Event(kind=timer_event.kind, data=dict(timer_event.data),
                              t=timer_event.t, seq=self.next_seq)
                self._commit(event, self.rules.apply(self.state, event))
                logged.append(event)
        return logged

    def _commit(self, event: Event, state: Any) -> None:
        self.store.append(self.game_id, event)
        self.events.append(event)
        self.state = state
        summary = self.summary()
        if summary.get("over") or self.store.game(self.game_id).finished:
            self.store.finish(self.game_id, summary)
