"""Medley at the table: what the camera, the button and the screen say, as moves.

Zones (``vision.layout.medley_layout``): ``cell-0`` to ``cell-8`` (the grid, row by row),
``corner-0`` to ``corner-3``, ``draw`` (the face-down pile), ``dice`` and ``discard``.

- Two settled dice are a ``roll`` (the first die waits for the second).
- A card placed in an empty cell, or on a free corner spot, is a ``draw`` there.
- Cards lifted from the grid (or corner cards turned face down) are a claim. The lifted
  cards are judged when the player deals the first card into a gap, or presses the button:
  when exactly one valid combination uses exactly those cards it is claimed at once; when
  several do, the player is asked which (one choice each) and the cards dealt meanwhile
  wait for the answer; when none does, the player is asked. A lifted card put back in its
  cell is no longer lifted; lifted cards laid on the discard pile change nothing.
- ``Tap("claim", {"expression": ...})``, ``Tap("roll", {"dice": [a, b]})`` and
  ``Tap("draw", {...})`` enter a move by touch.
A card somewhere else (the pile, the dice tray, no zone), a card leaving a cell that the
referee has elsewhere, a die without a read value, a roll when none is due, the button
with nothing lifted and an unsure read become an :class:`~companion.games.translate.Ask`.

>>> from companion.engine.events import Event
>>> from companion.engine.seats import Seating
>>> from companion.games.registry import rules_for
>>> rules = rules_for("medley")
>>> state = rules.start(Event("start", {"players": ["mia"]}))
>>> table = Table(rules, state, Seating.of(["mia"]))
>>> TRANSLATOR.translate(table, MedleyMemory(), Sighting("placed", "8h", "cell-0", 1.0)).moves
(Submit(kind='draw', data={'card': '8h', 'cell': 0}),)
>>> first = TRANSLATOR.translate(table, MedleyMemory(), Sighting("rolled", "die", "dice", 2.0,
...                                                               value=4))
>>> TRANSLATOR.translate(table, first.memory, Sighting("rolled", "die", "dice", 2.1,
...                                                    value=5)).moves
(Submit(kind='roll', data={'dice': [4, 5]}),)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.engine.observations import DIE, ButtonPress, Observation, Sighting, Tap
from companion.engine.view import Expecting
from companion.games.medley.lifted import arrangements
from companion.games.medley.rules import MedleyState
from companion.games.translate import Ask, Choice, Submit, Table, Translation, card_tap, dismiss

TOLD = ("claim", "roll", "draw")
"""The moves a person may enter on the screen as a ``Tap`` of that name."""
RELEASE = "release"
"""The tap of "none of these": the cards dealt while a claim was asked go ahead."""


@dataclass(frozen=True)
class MedleyMemory:
    """What the translator holds between observations: the dice read since the last roll,
    the slots (``g4`` grid cell 4, ``c2`` corner spot 2) lifted since the last claim, and
    the cards dealt while the player is asked which combination they meant."""

    dice: tuple[int, ...] = ()
    lifted: tuple[str, ...] = ()
    held: tuple[Submit, ...] = ()
    asking: bool = False


class MedleyTranslator:
    """The translator of Mountainside Math Medley (see the module docstring)."""

    def initial(self) -> MedleyMemory:
        return MedleyMemory()

    def expecting(self, table: Table, memory: MedleyMemory) -> tuple[Expecting, ...]:
        found = []
        if memory.dice:
            found.append(Expecting("roll", (1,), f"one die reads {memory.dice[0]}: waiting"
                                                 " for the other"))
        if memory.asking:
            found.append(Expecting("claim", (1,), "which combination did you lift?"))
        elif memory.lifted:
            cards = " ".join(_card_at(table.state, slot) for slot in sorted(memory.lifted))
            found.append(Expecting("claim", (1,), f"lifted {cards}: deal into the gaps (or"
                                                  " press the button) to claim them"))
        return tuple(found)

    def translate(self, table: Table, memory: MedleyMemory,
                  observation: Observation) -> Translation[MedleyMemory]:
        if table.state.over:
            return Translation(memory)
        if isinstance(observation, Sighting):
            if observation.card == DIE:
                return _die(table, memory, observation)
            return _card(table, memory, observation)
        if isinstance(observation, ButtonPress):
            if memory.lifted and not memory.asking:
                return _judge(table, memory, observation.t)
            return Translation(memory, asks=(Ask(
                "nothing is lifted: lift the cards of a combination, or put a corner card"
                " on a free spot", 1, (dismiss(),)),))
        if isinstance(observation, Tap):
            return _tap(memory, observation)
        return Translation(memory)


def _die(table: Table, memory: MedleyMemory, seen: Sighting) -> Translation[MedleyMemory]:
    if seen.kind != "rolled":
        return Translation(memory)
    if seen.value is None:
        return Translation(memory, asks=(Ask("a die settled but its pips were not read: enter"
                                             " the roll by touch", 1, (dismiss(),)),))
    state: MedleyState = table.state
    if not state.reroll:
        return Translation(replace(memory, dice=()), asks=(Ask(
            f"a die was rolled ({seen.value}), but the dice are rolled only at the start and"
            " after a joker", 1, (dismiss(),)),))
    dice = (*memory.dice, seen.value)
    if len(dice) < 2:
        return Translation(replace(memory, dice=dice))
    return Translation(replace(memory, dice=()), (Submit("roll", {"dice": list(dice)}),))


def _slot(zone: str | None) -> str | None:
    """The rules' slot of a zone: ``cell-4`` is ``g4``, ``corner-2`` is ``c2``."""
    for prefix, slot in (("cell-", "g"), ("corner-", "c")):
        if zone is not None and zone.startswith(prefix) and zone[len(prefix):].isdigit():
            return f"{slot}{int(zone[len(prefix):])}"
    return None


def _card_at(state: MedleyState, slot: str) -> str:
    """The card the referee has in ``slot`` (a face-up corner card only), or ``""``."""
    index = int(slot[1:])
    if slot[0] == "g":
        return (state.grid[index] or "") if index < len(state.grid) else ""
    corners = state.board().corners
    return (corners[index] or "") if index < len(corners) else ""


def _card(table: Table, memory: MedleyMemory, seen: Sighting) -> Translation[MedleyMemory]:
    if seen.kind == "removed" or seen.from_zone is not None:
        left = _slot(seen.from_zone if seen.kind == "moved" else seen.zone)
        if left is not None:
            lifted = _lift(table, memory, left, seen)
            if seen.kind == "removed" or lifted.asks:
                return lifted
            memory = lifted.memory
        elif seen.kind == "removed":
            return Translation(memory)
    if seen.unsure:
        return Translation(memory, asks=(Ask(
            f"is the card in {seen.zone or 'no zone'} {seen.card}?", 1,
            (Choice(f"yes, {seen.card}", (card_tap(seen.card, seen.zone, seen.t),)),
             dismiss("no: enter it by touch"))),))
    slot = _slot(seen.zone)
    if slot is None:
        return _elsewhere(table, memory, seen)
    state: MedleyState = table.state
    if slot in memory.lifted and _card_at(state, slot) == seen.card:
        return Translation(replace(memory, lifted=tuple(s for s in memory.lifted if s != slot)))
    key = "cell" if slot[0] == "g" else "corner"
    draw = Submit("draw", {"card": seen.card, key: int(slot[1:])})
    if memory.asking:
        return Translation(replace(memory, held=(*memory.held, draw)))
    if memory.lifted:
        judged = _judge(table, memory, seen.t)
        if judged.memory.asking:
            return replace(judged, memory=replace(judged.memory, held=(draw,)))
        return replace(judged, moves=(*judged.moves, draw))
    return Translation(memory, (draw,))


def _lift(table: Table, memory: MedleyMemory, slot: str,
          seen: Sighting) -> Translation[MedleyMemory]:
    """``seen.card`` left ``slot``: lifted for a claim, if the referee has it there."""
    held = _card_at(table.state, slot)
    if held != seen.card:
        has = f"has {held} there" if held else "has no card there"
        return Translation(memory, asks=(Ask(
            f"{seen.card} left {seen.from_zone or seen.zone}, but the referee {has}", 1,
            (dismiss(),)),))
    if slot in memory.lifted:
        return Translation(memory)
    return Translation(replace(memory, lifted=(*memory.lifted, slot)))


def _elsewhere(table: Table, memory: MedleyMemory, seen: Sighting) -> Translation[MedleyMemory]:
    """A card placed outside the grid and the corner spots."""
    state: MedleyState = table.state
    lifted = {_card_at(state, slot) for slot in memory.lifted}
    if seen.zone == "discard" and seen.card in lifted:
        return Translation(memory)
    where = {"discard": "on the discard pile", "draw": "on the draw pile",
             "dice": "in the dice tray"}.get(seen.zone or "", f"in {seen.zone or 'no zone'}")
    gaps = [f"cell-{cell}" for cell, card in enumerate(state.grid) if card is None]
    free = [f"corner-{spot}" for spot, corner in enumerate(state.corners) if corner is None]
    return Translation(memory, asks=(Ask(
        f"{seen.card} is {where}: cards go into the grid or onto a corner spot", 1,
        (*(Choice(f"it went to {zone}", (card_tap(seen.card, zone, seen.t),))
           for zone in gaps or free), dismiss())),))


def _judge(table: Table, memory: MedleyMemory, t: float) -> Translation[MedleyMemory]:
    """The lifted cards as a claim: taken when one combination fits, else asked."""
    state: MedleyState = table.state
    slots = frozenset(memory.lifted)
    cards = " ".join(_card_at(state, slot) for slot in sorted(slots))
    found = arrangements(state, slots)
    cleared = replace(memory, lifted=())
    if len(found) == 1:
        return Translation(cleared, (Submit("claim", {"expression": found[0].expression}),))
    if not found:
        made = "" if state.target is None else f" {state.target}"
        return Translation(cleared, asks=(Ask(
            f"the lifted cards {cards} make no combination of{made}: put them back", 1,
            (dismiss(),)),))
    choices = tuple(Choice(c.expression, (Tap("claim", t, 1, {"expression": c.expression}),))
                    for c in found)
    return Translation(replace(cleared, asking=True), asks=(Ask(
        f"the lifted cards {cards} make {state.target} in {len(found)} ways: which one?", 1,
        (*choices, Choice("none of these", (Tap(RELEASE, t, 1),)))),))


def _tap(memory: MedleyMemory, tap: Tap) -> Translation[MedleyMemory]:
    if tap.action == RELEASE:
        return Translation(replace(memory, held=(), asking=False), memory.held)
    if tap.action not in TOLD:
        return Translation(memory, asks=(Ask(f"medley has no {tap.action!r} on the screen", 1,
                                             (dismiss(),)),))
    move = Submit(tap.action, dict(tap.data))
    if tap.action == "claim":
        return Translation(replace(memory, lifted=(), held=(), asking=False),
                           (move, *memory.held))
    if tap.action == "roll":
        return Translation(replace(memory, dice=()), (move,))
    if memory.asking:
        return Translation(replace(memory, held=(*memory.held, move)))
    return Translation(memory, (move,))


TRANSLATOR = MedleyTranslator()
