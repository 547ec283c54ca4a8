"""Moves: each event kind of a game is a frozen dataclass, decoded once from the event's data.

A game declares its moves and their handlers in one :class:`MoveTable`; the table's
:meth:`~MoveTable.apply` is the game's ``apply``: it decodes the event's data into the
move (a missing field or a wrong type is :class:`~companion.errors.MalformedMove`, naming
the field) and hands it to the handler, which checks the rules (a breach is
:class:`~companion.errors.IllegalMove`). The JSON of the log is unchanged: a move's fields
are the keys of its event's ``data``.

>>> @dataclass(frozen=True)
... class Draw(Move):
...     player: str
...     card: str
>>> table: MoveTable[tuple[str, ...]] = MoveTable("demo")
>>> @table.handles("draw", Draw)
... def draw(state: tuple[str, ...], move: Draw, t: float) -> tuple[str, ...]:
...     return (*state, move.card)
>>> table.apply((), Event("draw", {"player": "ann", "card": "Kd"}))
('Kd',)
>>> table.apply((), Event("draw", {"player": "ann"}))
Traceback (most recent call last):
companion.errors.MalformedMove: a 'draw' needs 'card'
>>> table.apply((), Event("draw", {"player": "ann", "card": 7}))
Traceback (most recent call last):
companion.errors.MalformedMove: 'card' of a 'draw' must be text, not 7
>>> table.apply((), Event("fold", {}))
Traceback (most recent call last):
companion.errors.IllegalMove: demo has no event kind 'fold'
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from companion.engine.events import Event
from companion.errors import IllegalMove, MalformedMove

S = TypeVar("S")
M = TypeVar("M", bound="Move")


@dataclass(frozen=True)
class Move:
    """Base of every game's moves (fields: the event's ``data`` keys)."""


@dataclass(frozen=True)
class TimerMove(Move):
    """A ``timer_warning`` or ``timer_expired`` of the countdown ``timer``."""

    timer: str = ""
    remaining: int = 0


@dataclass(frozen=True)
class NoData(Move):
    """A move that carries nothing (``close``, ``start``-like signals)."""


Handler = Callable[[S, Any, float], S]


class MoveTable(Generic[S]):
    """The moves of one game: event kind -> (move class, handler)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.entries: dict[str, tuple[type[Move], Handler[S]]] = {}

    def handles(self, kind: str, move: type[M]) -> Callable[[Callable[[S, M, float], S]],
                                                             Callable[[S, M, float], S]]:
        """Register the decorated function as the handler of ``kind`` events."""
        def register(handler: Callable[[S, M, float], S]) -> Callable[[S, M, float], S]:
            self.entries[kind] = (move, handler)
            return handler
        return register

    def add(self, kinds: tuple[str, ...], move: type[Move], handler: Handler[S]) -> None:
        """Register one handler for several kinds (a timer's warning and expiry)."""
        for kind in kinds:
            self.entries[kind] = (move, handler)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every event kind the game knows."""
        return tuple(self.entries)

    def decode(self, event: Event) -> Move:
        """The move of ``event``; ``IllegalMove`` for a kind the game does not have."""
        entry = self.entries.get(event.kind)
        if entry is None:
            raise IllegalMove(f"{self.game} has no event kind {event.kind!r}")
        return decode(entry[0], event.data, event.kind)

    def apply(self, state: S, event: Event) -> S:
        """Decode ``event`` and hand it to its handler with the event's time."""
        move = self.decode(event)
        return self.entries[event.kind][1](state, move, event.t)


def decode(cls: type[M], data: Mapping[str, Any], kind: str) -> M:
    """Build move ``cls`` from event data (keys the move lacks are left alone)."""
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for spec in dataclasses.fields(cls):
        if spec.name not in data or (data[spec.name] is None and _optional(hints[spec.name])):
            if spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
                raise MalformedMove(f"a {kind!r} needs {spec.name!r}")
            continue
        values[spec.name] = _convert(hints[spec.name], data[spec.name], f"{spec.name!r} of a"
                                     f" {kind!r}")
    return cls(**values)


def _optional(hint: Any) -> bool:
    return type(None) in typing.get_args(hint)


def _convert(hint: Any, value: Any, what: str) -> Any:
    """``value`` checked (and converted) to the type ``hint``; ``MalformedMove`` if not."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [h for h in typing.get_args(hint) if h is not type(None)]
        if value is None:
            return None
        if len(options) == 1:
            return _convert(options[0], value, what)
        for option in options:
            try:
                return _convert(option, value, what)
            except MalformedMove:
                continue
        raise MalformedMove(f"{what} has the wrong type: {value!r}")
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if not isinstance(value, list | tuple):
            raise MalformedMove(f"{what} must be a list, not {value!r}")
        return tuple(_convert(item, element, what) for element in value)
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        if not isinstance(value, dict):
            raise MalformedMove(f"{what} must be an object, not {value!r}")
        return value
    if hint is Any:
        return value
    if hint is Fraction:
        return _fraction(value, what)
    if hint is bool:
        if not isinstance(value, bool):
            raise MalformedMove(f"{what} must be true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedMove(f"{what} must be a whole number, not {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise MalformedMove(f"{what} must be a number, not {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise MalformedMove(f"{what} must be text, not {value!r}")
        return value
    raise TypeError(f"moves cannot hold {hint!r}")  # a programming error, not input


MAX_NUMBER_TEXT = 64
"""The longest number a player can state as text (``"12345/678"``); longer is damage."""


def _fraction(value: Any, what: str) -> Fraction:
    """An exact number from an int, a float, or a decimal or fraction string."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise MalformedMove(f"{what} must be a number, not {value!r}")
    if isinstance(value, str) and len(value) > MAX_NUMBER_TEXT:
        raise MalformedMove(f"{what} is longer than {MAX_NUMBER_TEXT} characters")
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError, OverflowError):
        raise MalformedMove(f"{what} must be a number, not {value!r}") from None


@dataclass(frozen=True)
class Possible:
    """A move a seat could make now: its ``kind`` and what it would take (``detail``)."""

    kind: str
    player: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"kind": self.kind, "player": self.player, "detail": dict(self.detail)}


@dataclass(frozen=True)
class PossibleMoves:
    """What can be done now (``moves``), and what the rules cannot know (``unknown``,
    one line each: hidden hands make the trick game's legal plays unknowable)."""

    moves: tuple[Possible, ...] = ()
    unknown: tuple[str, ...] = ()

    def kinds(self, player: str | None = None) -> set[str]:
        """The kinds of move open (to ``player``, when named)."""
        return {m.kind for m in self.moves if player is None or m.player == player}

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"moves": [m.to_json() for m in self.moves], "unknown": list(self.unknown)}
