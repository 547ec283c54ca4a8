"""The table loop as the app holds it: the game store, the referee's clock and a conductor.

Kivy-free. Between games there is no conductor; :meth:`TableLoop.start` makes one for a
new game (all games of one app run share a session, so 21X's V and the standings carry
over) and :meth:`TableLoop.resume` picks up an unfinished game after a restart. Every
entry from the screen or the keyboard becomes an observation stamped on the same clock.
Only the app's UI thread calls :meth:`TableLoop.step`; any thread may :meth:`post`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.clock import Clock
from companion.engine.conductor import Conductor, Update
from companion.engine.observations import ButtonPress, Observation, PressKind, TableStart, Tap
from companion.engine.referee import Referee
from companion.engine.store import Store
from companion.errors import CompanionError

PLAYERS = {"21x": (2, 4), "trick": (2, 4), "21x-solo": (1, 1), "solitaire": (1, 1),
           "medley": (1, 1)}
"""How many players each game takes (fewest, most)."""
DEFAULT_NAMES = ("ann", "ben", "cat", "dan")


def default_start(game: str, count: int | None = None) -> TableStart:
    """A game of ``game`` for ``count`` players (default: up to three) with default names.

    >>> default_start("trick").players, default_start("medley").players
    (('ann', 'ben', 'cat'), ('ann',))
    """
    if game not in PLAYERS:
        raise CompanionError(f"unknown game {game!r} (known: {', '.join(PLAYERS)})")
    low, high = PLAYERS[game]
    chosen = min(max(count or 3, low), high)
    return TableStart(game, DEFAULT_NAMES[:chosen])


class NoGame(CompanionError):
    """Something needs a game in progress and there is none."""


class TableLoop:
    """One table: its store and clock, and the conductor of the game in progress."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self.conductor: Conductor | None = None
        self.session_id: int | None = None
        self.start_line: TableStart | None = None

    @property
    def playing(self) -> bool:
        """True while a game is in progress (or just over and still shown)."""
        return self.conductor is not None

    @property
    def game(self) -> Conductor:
        """The conductor of the game on the table; :class:`NoGame` between games."""
        if self.conductor is None:
            raise NoGame("no game is on the table: choose one on the home screen")
        return self.conductor

    def resume(self) -> bool:
        """Resume the most recent unfinished game, if there is one."""
        referee = Referee.resume_unfinished(self.store, self.clock)
        if referee is None:
            return False
        self.conductor = Conductor.resume(referee)
        self.start_line = start_of(referee)
        return True

    def start(self, start: TableStart) -> Conductor:
        """Start a new game in this app run's session."""
        if self.session_id is None:
            self.session_id = self.store.new_session(self.clock())
        self.conductor = Conductor.start(self.store, self.clock, start, self.session_id)
        self.start_line = start
        return self.conductor

    def adopt(self, conductor: Conductor, start: TableStart, clock: Clock) -> None:
        """Play a game someone else set up (the demo's), on its clock."""
        self.conductor = conductor
        self.start_line = start
        self.clock = clock

    def leave(self) -> None:
        """Put the game away (it stays in the store; an unfinished one resumes next start)."""
        self.conductor = None
        self.start_line = None

    def post(self, observation: Observation) -> None:
        """Hand ``observation`` to the game, from any thread; dropped between games."""
        if self.conductor is not None:
            self.conductor.post(observation)

    def tap(self, action: str, seat: int | None = None,
            data: Mapping[str, Any] | None = None) -> None:
        """A screen entry, stamped now."""
        self.post(Tap(action, self.clock(), seat=seat, data=dict(data or {})))

    def press(self, seat: int | None, kind: PressKind, late_ms: float | None = None) -> None:
        """A button press (a touch on a seat's on-screen button or a key), stamped now."""
        self.post(ButtonPress(seat=seat, kind=kind, t=self.clock(), late_ms=late_ms))

    def step(self) -> Update | None:
        """Run one step of the game's conductor (UI thread only); None between games."""
        return None if self.conductor is None else self.conductor.step()


START_KEYS = ("game", "players", "seats", "options", "session", "v")
"""Start event fields :class:`TableStart` holds itself or the referee adds."""


def start_of(referee: Referee) -> TableStart:
    """The table start a game's log began with."""
    data = referee.events[0].data
    return TableStart(game=referee.rules.name, players=tuple(data.get("players", [])),
                      t=referee.events[0].t, seats=tuple(data.get("seats", [])),
                      options=dict(data.get("options", {})),
                      extra={k: v for k, v in data.items() if k not in START_KEYS})
