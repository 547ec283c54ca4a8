"""Translators: what the table shows becomes what a game's rules expect.

Each game has a translator (``companion.games.<game>.translator.TRANSLATOR``): a pure
function of the table as it stands (the rules' state, the seating), the translator's own
small memory (a hold waiting for its total, cards lifted from a Medley grid) and one
observation, giving the moves to submit and the attention items to raise. It never calls
the referee: the conductor does, and tells the translator nothing but the new state.

What a translator cannot place (a card in no zone, a card the rules refuse, an unsure
read) becomes an :class:`Ask` for a person to resolve by touch, never a crash and never a
silent drop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from companion.engine.observations import Observation, Sighting, Tap
from companion.engine.seats import Seating
from companion.engine.view import Expecting
from companion.games.base import GameRules

Memory = TypeVar("Memory")


@dataclass(frozen=True)
class Submit:
    """A move for the referee: the event ``kind`` and its ``data``."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    """One way to resolve an attention item: a label and the taps it submits."""

    label: str
    taps: tuple[Tap, ...] = ()


@dataclass(frozen=True)
class Ask:
    """An attention item to raise: one line, the seat it concerns, and its choices."""

    message: str
    seat: int | None = None
    choices: tuple[Choice, ...] = ()


@dataclass(frozen=True)
class Translation(Generic[Memory]):
    """What one observation comes to: the translator's new memory, moves and questions."""

    memory: Memory
    moves: tuple[Submit, ...] = ()
    asks: tuple[Ask, ...] = ()


@dataclass(frozen=True)
class Table:
    """The table as a translator sees it: the game's rules and state, and who sits where."""

    rules: GameRules[Any]
    state: Any
    seating: Seating
    t: float = 0.0

    def player(self, seat: int | None) -> str | None:
        """The player at ``seat`` (None for the referee's button or an unknown seat)."""
        if seat is None:
            return None
        return next((s.player for s in self.seating.seats if s.number == seat), None)


class Translator(Protocol[Memory]):
    """A game's translator (see the module docstring)."""

    def initial(self) -> Memory:
        """The memory at the start of a game."""
        ...

    def translate(self, table: Table, memory: Memory,
                  observation: Observation) -> Translation[Memory]:
        """The moves and questions one observation comes to."""
        ...

    def expecting(self, table: Table, memory: Memory) -> tuple[Expecting, ...]:
        """What the translator itself waits for (a hold's X and total), beyond the rules."""
        ...


def dismiss(label: str = "ignore") -> Choice:
    """The choice that resolves an item with nothing done."""
    return Choice(label)


def card_tap(card: str, zone: str | None, t: float) -> Tap:
    """The tap that enters a card placed in ``zone`` by touch."""
    return Tap("card", t, data={"card": card, "zone": zone})


def confirm_read(seen: Sighting, seat: int) -> Ask:
    """The question for a card the reader is unsure of: yes enters it as seen."""
    return Ask(f"the camera is unsure of the card in {seen.zone or 'no zone'}: is it"
               f" {seen.card}?", seat,
               (Choice(f"yes, {seen.card}", (card_tap(seen.card, seen.zone, seen.t),)),
                dismiss("no: enter it by touch")))
