"""What every game's rules module provides: a pure reducer over events.

A rules object never performs I/O and never reads a clock: time arrives as the
``t`` of each event, and :meth:`GameRules.due` tells the referee which timer events
(warnings, expiries) fall due by a given time so it can log them like any other event.

The first event of every log is ``start``::

    {"kind": "start", "data": {"game": "trick", "players": ["anna", "ben"], "options": {...}}}

State objects are immutable (frozen dataclasses or tuples): ``apply`` returns a new one.
An event the rules do not allow raises :class:`~companion.errors.IllegalMove` and
leaves nothing changed.

Rules never see ``correction`` events: :mod:`companion.engine.replay` resolves them first.
Countdowns and stopwatches are data in the state (:mod:`companion.engine.timers`); their
``timer_warning``/``timer_expired`` events come back to ``apply`` once logged.
:mod:`companion.games.registry` finds a game's rules by name (``RULES`` in its module).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Protocol, TypeVar

from companion.engine.events import Event
from companion.engine.view import GameView
from companion.errors import IllegalMove
from companion.games.moves import PossibleMoves
from companion.playing_cards import PlayingCard, UnknownCard

State = TypeVar("State")


class GameRules(Protocol[State]):
    """The rules of one game, as a pure function of the event log."""

    name: str
    """The ``game`` of the ``start`` event: 21x, 21x-solo, trick, solitaire or medley."""

    def start(self, event: Event) -> State:
        """The state right after the ``start`` event (its options validated)."""
        ...

    def apply(self, state: State, event: Event) -> State:
        """The state after ``event``; raises ``IllegalMove`` if the rules forbid it."""
        ...

    def due(self, state: State, now: float) -> list[Event]:
        """Timer events (without ``seq``) that fall due at or before ``now``, in order."""
        ...

    def summary(self, state: State) -> dict[str, Any]:
        """JSON-ready outcome: at least game, winners, eliminated, points and over."""
        ...

    def view(self, state: State) -> GameView:
        """What a screen shows: phase, who is expected to do what, seats, timers, outcome."""
        ...

    def moves(self, state: State) -> PossibleMoves:
        """The moves open now, per player, and what hidden cards make unknowable."""
        ...


def option(options: Mapping[str, Any], key: str, default: Any, kind: type) -> Any:
    """Read one game option, checked for type; ``IllegalMove`` names the bad key.

    >>> option({"target": 50}, "target", 21, int)
    50
    >>> option({}, "target", 21, int)
    21
    """
    value = options.get(key, default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise IllegalMove(f"option {key!r} must be {kind.__name__}, not {value!r}")
    return value


def check_option_keys(options: Mapping[str, Any], known: Collection[str], game: str) -> None:
    """Refuse an option ``game`` does not have, naming the first unknown key.

    >>> check_option_keys({"colour": 1}, ("columns",), "solitaire")
    Traceback (most recent call last):
    ...
    companion.errors.IllegalMove: unknown solitaire option 'colour'
    """
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise IllegalMove(f"unknown {game} option {unknown[0]!r}")


def table_players(event: Event, game: str) -> tuple[str, ...]:
    """The players of a game for two or more, from its ``start`` event: distinct names.

    >>> table_players(Event("start", {"players": ["ann", "ben"]}), "trick")
    ('ann', 'ben')
    """
    players = event.data.get("players")
    if (not isinstance(players, list) or len(players) < 2
            or not all(isinstance(p, str) and p for p in players)
            or len(set(players)) != len(players)):
        raise IllegalMove(f"{game} needs two or more distinct player names, not {players!r}")
    return tuple(players)


def event_card(event: Event) -> PlayingCard:
    """The playing card an event names in ``card`` (as the camera reads it).

    >>> event_card(Event("draw", {"card": "10h"}))
    PlayingCard(rank='10', suit='h')
    """
    name = event.data.get("card")
    if not isinstance(name, str):
        raise IllegalMove(f"{event.kind!r} needs 'card', a card name, not {name!r}")
    try:
        return PlayingCard.parse(name)
    except UnknownCard as error:
        raise IllegalMove(str(error)) from None


def solo_start(event: Event, game: str) -> tuple[str, Mapping[str, Any]]:
    """The one player and the options of a single-player game's ``start`` event.

    >>> solo_start(Event("start", {"players": ["ann"], "options": {"columns": 5}}), "solitaire")
    ('ann', {'columns': 5})
    >>> solo_start(Event("start", {"players": [""]}), "medley")
    Traceback (most recent call last):
    companion.errors.IllegalMove: medley has exactly one player, not ['']
    """
    players = event.data.get("players")
    if not isinstance(players, list) or len(players) != 1:
        raise IllegalMove(f"{game} has exactly one player, not {players!r}")
    player = players[0]
    if not isinstance(player, str) or not player:
        raise IllegalMove(f"{game} has exactly one player, not {players!r}")
    options = event.data.get("options", {})
    if not isinstance(options, dict):
        raise IllegalMove(f"'options' must be an object, not {options!r}")
    return player, options
