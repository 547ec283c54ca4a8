"""Multi-player 21X at the table: what the camera, the buttons and the screen say, as moves.

- A card placed in a seat's zone is a ``deal`` while the game deals (two each), then a
  ``draw``. A card anywhere else, a card leaving a hand, a die, or an unsure read is
  asked about.
- A press of a seat's button is a ``call`` (everyone stops); that seat's X, entered on the
  screen (``Tap("x")``), is the checked call.
- A hold is a stand: the seat's X and total (``Tap("total")``) are awaited, then ``stand``.
- At the end of the minute, a ``Tap("total")`` is a best total (``state``), ``Tap("pass")``
  passes, and ``Tap("close")`` or the referee's button closes the statements.
The stand timer runs itself (the conductor ticks it).

>>> from companion.engine.events import Event
>>> from companion.engine.seats import Seating
>>> from companion.games.registry import rules_for
>>> rules = rules_for("21x")
>>> state = rules.start(Event("start", {"players": ["ann", "ben"]}))
>>> table = Table(rules, state, Seating.of(["ann", "ben"]))
>>> TRANSLATOR.translate(table, TRANSLATOR.initial(), Sighting("placed", "6x", "seat-2", 1.0)).moves
(Submit(kind='deal', data={'player': 'ben', 'card': '6x'}),)
>>> memory = TRANSLATOR.translate(table, frozenset(), ButtonPress(1, "hold", 2.0)).memory
>>> TRANSLATOR.expecting(table, memory)
(Expecting(what='total', seats=(1,), detail='ann holds to stand: state X and the total'),)
"""

from __future__ import annotations

from typing import Any

from companion.engine.observations import DIE, ButtonPress, Observation, Sighting, Tap
from companion.engine.view import Expecting
from companion.games.translate import (
    Ask,
    Choice,
    Submit,
    Table,
    Translation,
    card_tap,
    confirm_read,
    dismiss,
)

Holding = frozenset[int]
"""The seats that held their button to stand and have not yet stated X and a total."""

NUMBER_KEYS = ("x", "y")


class X21Translator:
    """The translator of multi-player 21X (see the module docstring)."""

    def initial(self) -> Holding:
        return frozenset()

    def expecting(self, table: Table, memory: Holding) -> tuple[Expecting, ...]:
        return tuple(Expecting("total", (seat,),
                               f"{table.player(seat)} holds to stand: state X and the total")
                     for seat in sorted(memory))

    def translate(self, table: Table, memory: Holding,
                  observation: Observation) -> Translation[Holding]:
        if isinstance(observation, Sighting):
            return Translation(memory, *_sighting(table, observation))
        if isinstance(observation, ButtonPress):
            return _button(table, memory, observation)
        if isinstance(observation, Tap):
            return _tap(table, memory, observation)
        return Translation(memory)


def _sighting(table: Table, seen: Sighting) -> tuple[tuple[Submit, ...], tuple[Ask, ...]]:
    state = table.state
    if state.phase == "over":
        return (), ()
    if seen.card == DIE:
        return (), (Ask(f"a die ({seen.value}) is on the table: 21X uses no dice", None,
                        (dismiss(),)),)
    seat = table.seating.zone_seat(seen.zone)
    came_from = table.seating.zone_seat(seen.from_zone)
    if seen.kind == "removed" or (seen.kind == "moved" and came_from is not None):
        if came_from is None and seat is None:
            return (), ()
        owner = came_from or seat
        assert owner is not None
        return (), (Ask(f"{seen.card} left {owner.player}'s hand: in 21X a card drawn is kept",
                        owner.number, (dismiss("it is still there"),)),)
    if seat is None:
        return (), (Ask(f"{seen.card} is in {seen.zone or 'no zone'}, not in front of a seat",
                        None, (*(Choice(f"{s.player} took it", (card_tap(seen.card, s.zone,
                                                                             seen.t),))
                                 for s in table.seating.seats), dismiss())),)
    if seen.unsure:
        return (), (confirm_read(seen, seat.number),)
    kind = "deal" if state.phase == "dealing" else "draw"
    return (Submit(kind, {"player": seat.player, "card": seen.card}),), ()


def _button(table: Table, memory: Holding, press: ButtonPress) -> Translation[Holding]:
    player = table.player(press.seat)
    if press.seat is None:
        closing = table.state.phase == "stating"
        return Translation(memory, (Submit("close"),) if closing else ())
    if player is None:
        return Translation(memory, asks=(Ask(f"button {press.seat} has no player", None),))
    if press.kind == "press":
        return Translation(memory - {press.seat}, (Submit("call", {"player": player}),))
    return Translation(memory | {press.seat})


def _tap(table: Table, memory: Holding, tap: Tap) -> Translation[Holding]:
    player = table.player(tap.seat)
    if tap.action == "close":
        return Translation(memory, (Submit("close"),))
    if player is None:
        return Translation(memory)
    numbers = _numbers(tap.data, NUMBER_KEYS)
    if tap.action == "x":
        return Translation(memory, (Submit("call", {"player": player, **numbers}),))
    if tap.action == "total":
        kind = "state" if table.state.phase == "stating" else "stand"
        total = {"total": tap.data["total"]} if "total" in tap.data else {}
        return Translation(memory - {tap.seat},
                           (Submit(kind, {"player": player, **numbers, **total}),))
    if tap.action == "pass":
        return Translation(memory, (Submit("pass", {"player": player}),))
    if tap.action == "cancel":
        return Translation(memory - {tap.seat})
    return Translation(memory, asks=(Ask(f"21X has no {tap.action!r} on the screen", tap.seat),))


def _numbers(data: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: data[key] for key in keys if key in data and data[key] is not None}


TRANSLATOR = X21Translator()
