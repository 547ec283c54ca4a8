"""What a screen shows of a game: one typed, JSON-ready shape for every game.

Every game's rules give :meth:`~companion.games.base.GameRules.view` of a state: the phase,
what the referee waits for and from whom, each seat's public cards, the running timers
and the :class:`Outcome`. A screen, the ``play`` command and the tests read this and never
a game's internal state.

>>> view = GameView(game="medley", phase="rolling", seats=(SeatView(1, "ann"),),
...                 expecting=(Expecting("roll", (1,)),))
>>> view.to_json()["expecting"]
[{'what': 'roll', 'seats': [1], 'detail': ''}]
>>> view.outcome.over
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

TimerKind = Literal["countdown", "stopwatch"]


@dataclass(frozen=True)
class CardView:
    """One public card: its name (catalogue id or playing card), what it reads, its value.

    ``value`` is the exact value as a person writes it (``"12"``, ``"5/2"``) where the game
    gives cards values; ``working`` shows how it was reached (``"6 x 2 = 12"``).
    """

    card: str
    text: str = ""
    value: str | None = None
    working: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form (empty fields left out)."""
        out: dict[str, Any] = {"card": self.card}
        for key in ("text", "value", "working"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        return out


@dataclass(frozen=True)
class SeatView:
    """What everyone may see of one seat: its player, cards, stated total and status."""

    seat: int
    player: str
    cards: tuple[CardView, ...] = ()
    hidden: int = 0
    """How many cards the seat holds that nobody can see (the trick game's hands)."""
    total: str | None = None
    status: str = "playing"
    """``playing``, ``standing``, ``calling``, ``stated``, ``eliminated``, ``won``..."""
    note: str = ""
    """One line about the seat (``called 21 with X = 4 but the cards make 38``)."""
    points: int = 0

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "seat": self.seat, "player": self.player,
            "cards": [card.to_json() for card in self.cards], "hidden": self.hidden,
            "total": self.total, "status": self.status, "note": self.note,
            "points": self.points,
        }


@dataclass(frozen=True)
class TimerView:
    """A running timer: a countdown ends at ``ends_at``; a stopwatch started at ``started_at``.

    Times are on the referee's clock (wall time in the app), so a screen shows
    ``ends_at - now`` without asking the rules.
    """

    name: str
    kind: TimerKind
    started_at: float
    ends_at: float | None = None
    paused: bool = False

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"name": self.name, "kind": self.kind, "started_at": self.started_at,
                "ends_at": self.ends_at, "paused": self.paused}


@dataclass(frozen=True)
class Expecting:
    """Something the referee waits for: ``what`` (an event kind such as ``call`` or a
    word such as ``x``) from the ``seats`` listed (empty: from anyone, or the referee)."""

    what: str
    seats: tuple[int, ...] = ()
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"what": self.what, "seats": list(self.seats), "detail": self.detail}


@dataclass(frozen=True)
class Outcome:
    """How a game ended (or stands): the same shape for every game.

    ``eliminated`` maps each eliminated player to why; ``reason`` is one line.
    """

    over: bool = False
    winners: tuple[str, ...] = ()
    eliminated: Mapping[str, str] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"over": self.over, "winners": list(self.winners),
                "eliminated": dict(self.eliminated), "points": dict(self.points),
                "reason": self.reason}


@dataclass(frozen=True)
class GameView:
    """The whole public picture of a game at one moment.

    ``table`` holds what lies on the table between the seats, in the game's own terms
    but JSON-ready: the trick and its leader, solitaire's columns and its SCORE / DECK /
    TIME / TOP figures, Medley's grid, dice, target and corners, a 21X deck count.
    """

    game: str
    phase: str
    seats: tuple[SeatView, ...] = ()
    expecting: tuple[Expecting, ...] = ()
    timers: tuple[TimerView, ...] = ()
    outcome: Outcome = field(default_factory=Outcome)
    table: Mapping[str, Any] = field(default_factory=dict)

    def seat_of(self, player: str) -> SeatView:
        """The seat ``player`` sits at (``KeyError`` if nobody of that name plays)."""
        for seat in self.seats:
            if seat.player == player:
                return seat
        raise KeyError(player)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (what ``companion play --json`` prints)."""
        return {
            "game": self.game, "phase": self.phase,
            "seats": [seat.to_json() for seat in self.seats],
            "expecting": [item.to_json() for item in self.expecting],
            "timers": [timer.to_json() for timer in self.timers],
            "outcome": self.outcome.to_json(), "table": dict(self.table),
        }
