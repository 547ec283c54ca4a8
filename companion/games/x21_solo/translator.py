"""Single-player 21X at the table: what the camera, the button and the screen say, as moves.

Table zones (the layout names them so): ``hand`` (the player's hand), ``score`` (the score
area: scored hands set aside), ``discard`` (the discards) and ``deck``.

- A card placed in ``hand`` is a ``deal`` while the hand has fewer than two cards, then a
  ``draw``. When the deck is empty and the card comes from the discards, the discards were
  shuffled into a new deck: ``reshuffle`` first.
- A card of the hand moved to ``score`` is a make-21: X is awaited (``Tap("x")`` with x[,
  y] gives the ``make21``). Pressing the button does the same. X entered before the hand
  is moved is a make-21 at once; the hand then follows into the score area.
- A card of the hand swept to ``discard`` is a ``mulligan`` (the whole hand goes).
- A card taken off the discards when the deck is empty is a ``reshuffle``.
- The screen's ``mulligan`` and ``reshuffle`` taps are those moves; ``cancel`` stops
  waiting for X.
What cannot be so (a card in no zone, a card leaving the hand or the score area, a card
in the score area that is not from the hand, an unsure read, a die) is asked about.

>>> from companion.engine.events import Event
>>> from companion.engine.seats import Seating
>>> from companion.games.registry import rules_for
>>> rules = rules_for("21x-solo")
>>> state = rules.start(Event("start", {"players": ["ann"]}))
>>> table = Table(rules, state, Seating.of(["ann"]))
>>> TRANSLATOR.translate(table, False, Sighting("placed", "6x", "hand", 1.0)).moves
(Submit(kind='deal', data={'card': '6x'}),)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from companion.games.x21_solo.view import SEAT

if TYPE_CHECKING:
    from companion.games.x21_solo.rules import SoloState

HAND, SCORE, DISCARD, DECK = "hand", "score", "discard", "deck"
Awaiting = bool
"""True while the hand lies in the score area (or the button was pressed) and X is awaited."""


class SoloTranslator:
    """The translator of single-player 21X (see the module docstring)."""

    def initial(self) -> Awaiting:
        return False

    def expecting(self, table: Table, memory: Awaiting) -> tuple[Expecting, ...]:
        if not memory:
            return ()
        return (Expecting("x", (SEAT,), "making 21: state X (and Y) for the hand"),)

    def translate(self, table: Table, memory: Awaiting,
                  observation: Observation) -> Translation[Awaiting]:
        state: SoloState = table.state
        if state.over:
            return Translation(memory)
        if isinstance(observation, Sighting):
            return _sighting(state, memory, observation)
        if isinstance(observation, ButtonPress):
            if observation.seat not in (None, SEAT):
                return Translation(memory, asks=(Ask(f"button {observation.seat} has no player:"
                                                     " 21X single player has one", None),))
            if len(state.hand) < 2:
                return Translation(memory, asks=(Ask("a hand needs its 2 dealt cards to make"
                                                     " 21", SEAT),))
            return Translation(True)
        if isinstance(observation, Tap):
            return _tap(memory, observation)
        return Translation(memory)


def _sighting(state: SoloState, memory: Awaiting, seen: Sighting) -> Translation[Awaiting]:
    if seen.card == DIE:
        return Translation(memory, asks=(Ask(f"a die ({seen.value}) is on the table: 21X uses"
                                             " no dice", SEAT),))
    if seen.unsure and seen.kind != "removed":
        return Translation(memory, asks=(confirm_read(seen, SEAT),))
    if seen.kind == "removed":
        if seen.zone == DISCARD and _reshuffled(state, seen.card):
            return Translation(memory, _reshuffled(state, seen.card))
        return Translation(memory, asks=_removed(state, seen))
    card, reshuffled = seen.card, _reshuffled(state, seen.card)
    if seen.zone == HAND:
        if card in state.hand:  # back from the score area after a miss, or seen again
            return Translation(memory and seen.from_zone != SCORE)
        take = "deal" if len(state.hand) < 2 else "draw"
        return Translation(memory, (*reshuffled, Submit(take, {"card": card})))
    if seen.zone == SCORE:
        if card in state.hand:
            return Translation(True)
        if any(card in hand for hand in state.scored):
            return Translation(memory)
        return Translation(memory, asks=(Ask(f"{card} is in the score area but not in the hand:"
                                             " only a hand that made 21 goes there", SEAT),))
    if seen.zone == DISCARD:
        if card in state.hand:
            return Translation(False, (Submit("mulligan"),))
        if card in state.discards:
            return Translation(memory)
        return Translation(memory, asks=(Ask(f"{card} is on the discards but not from the hand:"
                                             " a mulligan discards the whole hand", SEAT),))
    if seen.zone == DECK:
        if card in state.deck or reshuffled:
            return Translation(memory, reshuffled)
        return Translation(memory, asks=(Ask(f"{card} went back to the deck: in 21X a card"
                                             " drawn is kept", SEAT),))
    return Translation(memory, asks=(Ask(
        f"{card} is in {seen.zone or 'no zone'}: not the hand, score area or discards", SEAT,
        (Choice("it went into the hand", (card_tap(card, HAND, seen.t),)), dismiss())),))


def _reshuffled(state: SoloState, card: str) -> tuple[Submit, ...]:
    """A ``reshuffle`` if ``card`` can only have come from the discards made a new deck."""
    return (Submit("reshuffle"),) if not state.deck and card in state.discards else ()


def _removed(state: SoloState, seen: Sighting) -> tuple[Ask, ...]:
    card = seen.card
    if seen.zone == HAND and card in state.hand:
        mulligan = Choice("it was a mulligan", (Tap("mulligan", seen.t),))
        return (Ask(f"{card} left the hand: in 21X a card drawn is kept", SEAT,
                    (dismiss("it is still there"), mulligan)),)
    if seen.zone == SCORE and any(card in hand for hand in state.scored):
        return (Ask(f"{card} left the score area: scored hands stay there", SEAT,
                    (dismiss("it is still there"),)),)
    if seen.zone == DISCARD and card in state.discards:
        return (Ask(f"{card} left the discards: they make a new deck only when the deck is"
                    " empty", SEAT, (dismiss("it is still there"),)),)
    return ()


def _tap(memory: Awaiting, tap: Tap) -> Translation[Awaiting]:
    if tap.action == "x":
        numbers = {key: tap.data[key] for key in ("x", "y") if tap.data.get(key) is not None}
        return Translation(False, (Submit("make21", numbers),))
    if tap.action in ("mulligan", "reshuffle"):
        return Translation(False, (Submit(tap.action),))
    if tap.action == "cancel":
        return Translation(False)
    return Translation(memory, asks=(Ask(f"21X single player has no {tap.action!r} on the"
                                         " screen", SEAT),))


TRANSLATOR = SoloTranslator()
