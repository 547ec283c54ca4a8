"""Twenty One solitaire at the table: what the camera and the screen say, as moves.

Table zones (``vision.layout.solitaire_layout``): ``column-0`` .. ``column-k`` (the
columns, 0 at the left), ``draw`` (where the turned-up card lies) and ``cleared`` (the
cleared cards, set aside).

- A card placed on ``draw`` is the ``draw`` (turned up from the stock).
- The turned-up card placed on ``column-k`` is a drop there (``place`` k). A card from the
  stock seen straight on a column (the turn-up was missed) is a ``draw`` and the ``place``.
- When the stock is empty, the first cleared card taken up (or seen turned up again) is the
  ``reshuffle``; ``Tap("reshuffle")`` says so by touch.
- A cleared column is checked: cards taken off a column, or seen among the cleared cards,
  must be of a pile the rules cleared.
What cannot be so (a card in no zone, a card moved off a pile that stays, a cleared card
played again, a card on a column while another is turned up, an unsure read, a die, a
button) is asked about; a drop the rules refuse (the pile would pass 21) is asked about by
the conductor.

>>> from companion.engine.events import Event
>>> from companion.engine.seats import Seating
>>> from companion.games.registry import rules_for
>>> rules = rules_for("solitaire")
>>> state = rules.start(Event("start", {"players": ["sol"]}))
>>> table = Table(rules, state, Seating.of(["sol"]))
>>> TRANSLATOR.translate(table, None, Sighting("placed", "Kd", "column-2", 1.0)).moves
(Submit(kind='draw', data={'card': 'Kd'}), Submit(kind='place', data={'column': 2}))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.observations import DIE, Observation, Sighting, Tap
from companion.engine.view import Expecting
from companion.games.solitaire.piles import pile_value
from companion.games.solitaire.view import SEAT
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
from companion.playing_cards import PlayingCard, UnknownCard

if TYPE_CHECKING:
    from companion.games.solitaire.rules import SolitaireState

DRAW, CLEARED, COLUMN_PREFIX = "draw", "cleared", "column-"


def column_zone(column: int) -> str:
    """The table zone of ``column`` (``column-0`` at the left)."""
    return f"{COLUMN_PREFIX}{column}"


def zone_column(zone: str | None) -> int | None:
    """The column a zone names, or None for any other zone.

    >>> zone_column("column-3"), zone_column("draw"), zone_column("column-x")
    (3, None, None)
    """
    if zone is None or not zone.startswith(COLUMN_PREFIX):
        return None
    number = zone.removeprefix(COLUMN_PREFIX)
    return int(number) if number.isdecimal() else None


class SolitaireTranslator:
    """The translator of Twenty One solitaire (see the module docstring); it keeps no memory."""

    def initial(self) -> None:
        return None

    def expecting(self, table: Table, memory: None) -> tuple[Expecting, ...]:
        return ()

    def translate(self, table: Table, memory: None,
                  observation: Observation) -> Translation[None]:
        state: SolitaireState = table.state
        if state.over:
            return Translation(None)
        if isinstance(observation, Sighting):
            return Translation(None, *_sighting(state, observation))
        if isinstance(observation, Tap):
            if observation.action == "reshuffle":
                return Translation(None, (Submit("reshuffle"),))
            return Translation(None, asks=(Ask(f"solitaire has no {observation.action!r} on"
                                               " the screen", SEAT),))
        return Translation(None, asks=(Ask("solitaire uses no buttons: the camera sees the"
                                           " cards", SEAT),))


Moves = tuple[tuple[Submit, ...], tuple[Ask, ...]]


def _sighting(state: SolitaireState, seen: Sighting) -> Moves:
    if seen.card == DIE:
        return (), (Ask(f"a die ({seen.value}) is on the table: solitaire uses no dice", SEAT),)
    try:
        card = PlayingCard.parse(seen.card)
    except UnknownCard as error:
        return (), (Ask(f"{seen.card} in {seen.zone or 'no zone'}: {error}", SEAT),)
    if seen.unsure and seen.kind != "removed":
        return (), (confirm_read(seen, SEAT),)
    if seen.kind == "removed":
        return _taken_up(state, card, seen.zone)
    column = zone_column(seen.zone)
    if column is not None:
        return _on_column(state, card, column)
    if seen.zone == DRAW:
        if card == state.current:
            return (), ()
        return (*_reshuffled(state, card), Submit("draw", {"card": str(card)})), ()
    if seen.zone == CLEARED:
        return (), _check_cleared(state, card)
    choices = [Choice(f"it is on column {c}", (card_tap(seen.card, column_zone(c), seen.t),))
               for c in (state.takers(card) if card == state.current else ())]
    if state.current is None:
        choices.append(Choice("it is the turned-up card", (card_tap(seen.card, DRAW, seen.t),)))
    return (), (Ask(f"{card} is in {seen.zone or 'no zone'}: not on a column, the draw or the"
                    " cleared cards", SEAT, (*choices, dismiss())),)


def _reshuffled(state: SolitaireState, card: PlayingCard) -> tuple[Submit, ...]:
    """A ``reshuffle`` if ``card`` can only be played again because the stock was remade."""
    if not state.stock and state.current is None and card in state.cleared:
        return (Submit("reshuffle"),)
    return ()


def _pile_of(state: SolitaireState, card: PlayingCard) -> int | None:
    return next((c for c, pile in enumerate(state.columns) if card in pile), None)


def _on_column(state: SolitaireState, card: PlayingCard, column: int) -> Moves:
    if not 0 <= column < len(state.columns):
        return (), (Ask(f"{card} is on column {column}, but this game has columns 0 to"
                        f" {len(state.columns) - 1}", SEAT),)
    place = Submit("place", {"column": column})
    if card == state.current:
        return (place,), ()
    pile = _pile_of(state, card)
    if pile == column:
        return (), ()
    if pile is not None:
        return (), (Ask(f"{card} moved from column {pile} to column {column}: a card stays"
                        " where it was placed", SEAT, (dismiss(f"it is back on column {pile}"),)),)
    if state.current is not None:
        return (), (Ask(f"{card} is on column {column}, but the turned-up card is"
                        f" {state.current}", SEAT, (dismiss(),)),)
    if card in state.stock or _reshuffled(state, card):
        return (*_reshuffled(state, card), Submit("draw", {"card": str(card)}), place), ()
    return (), (Ask(f"{card} is on column {column}, but it was cleared: it comes back only"
                    " with the reshuffle", SEAT, (dismiss(),)),)


def _taken_up(state: SolitaireState, card: PlayingCard, zone: str | None) -> Moves:
    column = zone_column(zone)
    if column is not None and _pile_of(state, card) == column:
        value = pile_value(state.columns[column])
        return (), (Ask(f"{card} was taken off column {column}, but that pile ({value}) does"
                        " not clear", SEAT, (dismiss("it is back"),)),)
    if zone == CLEARED and card in state.cleared:
        if _reshuffled(state, card):
            return _reshuffled(state, card), ()
        return (), (Ask(f"{card} left the cleared cards: they are shuffled into a new stock"
                        " only when the stock is empty", SEAT, (dismiss("it is back"),)),)
    return (), ()


def _check_cleared(state: SolitaireState, card: PlayingCard) -> tuple[Ask, ...]:
    if card in state.cleared:
        return ()
    pile = _pile_of(state, card)
    if pile is not None:
        value = pile_value(state.columns[pile])
        return (Ask(f"{card} is among the cleared cards, but its pile on column {pile}"
                    f" ({value}) did not clear", SEAT, (dismiss("it is back on the column"),)),)
    where = "the turned-up card" if card == state.current else "still in the stock"
    return (Ask(f"{card} is among the cleared cards, but it is {where}", SEAT, (dismiss(),)),)


TRANSLATOR = SolitaireTranslator()
