"""The trick game at the table: what the camera, the buttons and the screen say, as moves.

Zones (``vision.layout``): ``trick`` (the centre, where plays go face up), the stock
(``stock`` or ``deck``) and one zone per seat (``seat-n``, where the last card is turned
over). With hidden hands the camera never sees a hand, so:

- The deal, swapping and swaps are told, not seen: the referee's button (or ``Tap("deal")``)
  is the ``deal``; the leader's button opens swapping with a press and keeps it closed
  with a hold (or ``Tap("swapping", {"open": ...})``); ``Tap("swap", {"count": n})`` is a
  seat's trade, and a press of a swapping seat's button keeps their hand (0 cards).
- A card placed in the trick area is the play of the seat on turn. When the shape is
  already known (a single was led, or the seat holds two cards and must keep one) it is
  played at once. Otherwise (a lead, or a reply to a pair) it waits: a second card of the
  same value within :data:`PAIR_SECONDS` makes a pair; any later card, or the seat's
  button, ends the play as a single card (a lead, or a dump).
- With ``passing``, a press of the button of the seat on turn with nothing placed passes.
- Once everybody is down to one card, the cards turned over in the seat zones are
  collected; the last one makes the ``reveal``.
- Cards swept off the trick area after a trick change nothing.
A card in no zone or on the stock, a face-up card in front of a seat during play, a card
the rules refuse, a die or an unsure read becomes an :class:`~companion.games.translate.Ask`.

>>> from companion.engine.events import Event
>>> from companion.engine.seats import Seating
>>> from companion.games.registry import rules_for
>>> rules = rules_for("trick")
>>> state = rules.start(Event("start", {"players": ["ann", "ben"],
...                                     "options": {"swapping": False, "hand_size": 3}}))
>>> state = rules.apply(state, Event("deal"))
>>> table = Table(rules, state, Seating.of(["ann", "ben"]))
>>> waiting = TRANSLATOR.translate(table, TRANSLATOR.initial(),
...                                Sighting("placed", "9d", "trick", 5.0))
>>> waiting.moves, waiting.memory.pending
((), ('9d',))
>>> TRANSLATOR.translate(table, waiting.memory, Sighting("placed", "9h", "trick", 5.8)).moves
(Submit(kind='play', data={'player': 'ben', 'cards': ['9d', '9h']}),)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.engine.events import Event
from companion.engine.observations import DIE, ButtonPress, Observation, Sighting, Tap
from companion.engine.view import Expecting
from companion.errors import IllegalMove, MalformedMove
from companion.games.translate import Ask, Choice, Submit, Table, Translation, card_tap, dismiss
from companion.games.trick.rules import (
    DEAL,
    DECIDE,
    OVER,
    PLAY,
    REVEAL,
    SWAP,
    TrickState,
    expecting_text,
    strength,
)
from companion.playing_cards import PlayingCard, UnknownCard

TRICK_ZONE = "trick"
STOCK_ZONES = ("stock", "deck")
PAIR_SECONDS = 2.0
"""How soon after a first card the second card of a pair is put down (a pair goes down
together; the next player's answer comes later)."""
TOLD = ("deal", "swapping", "swap", "play", "pass", "reveal")
"""The moves a person may enter on the screen as a ``Tap`` of that name."""


@dataclass(frozen=True)
class TrickMemory:
    """What the translator holds between observations: the card(s) put on the trick by the
    seat on turn while the play may still become a pair, and the last cards turned over."""

    pending: tuple[str, ...] = ()
    pending_seat: int | None = None
    pending_t: float = 0.0
    revealed: tuple[tuple[int, str], ...] = ()


class TrickTranslator:
    """The translator of the trick game (see the module docstring)."""

    def initial(self) -> TrickMemory:
        return TrickMemory()

    def expecting(self, table: Table, memory: TrickMemory) -> tuple[Expecting, ...]:
        found: list[Expecting] = []
        if memory.pending and memory.pending_seat is not None:
            found.append(Expecting("play", (memory.pending_seat,),
                                   f"{table.player(memory.pending_seat)} put down"
                                   f" {' '.join(memory.pending)}: a second card of the same"
                                   " value makes a pair, the button ends the play"))
        if memory.revealed:
            shown = dict(memory.revealed)
            waiting = tuple(s.number for s in table.seating.seats if s.number not in shown)
            found.append(Expecting("reveal", waiting, "turn over your last card"))
        return tuple(found)

    def translate(self, table: Table, memory: TrickMemory,
                  observation: Observation) -> Translation[TrickMemory]:
        if table.state.phase == OVER:
            return Translation(memory)
        if isinstance(observation, Sighting):
            if memory.pending and _ends_pending(table.state, memory, observation):
                return _after_flush(table, memory, observation)
            return _sighting(table, memory, observation)
        if isinstance(observation, Tap | ButtonPress) and memory.pending:
            return _after_flush(table, memory, observation)
        if isinstance(observation, ButtonPress):
            return _button(table, memory, observation)
        if isinstance(observation, Tap):
            return _tap(table, memory, observation)
        return Translation(memory)


def _ends_pending(state: TrickState, memory: TrickMemory, seen: Sighting) -> bool:
    """True if ``seen`` shows the pending play is over: a card turned over in a seat zone,
    or the trick being swept (a card other than the pending one leaves it, or the pending
    card itself when it was the trick's last answer)."""
    if seen.kind != "removed":
        return seen.zone != TRICK_ZONE
    if seen.zone != TRICK_ZONE:
        return False
    last = state.phase == PLAY and len(state.waiting) == 1 and bool(state.trick)
    return seen.card not in memory.pending or last


def _after_flush(table: Table, memory: TrickMemory,
                 observation: Sighting | Tap | ButtonPress) -> Translation[TrickMemory]:
    """The pending play ended by an observation elsewhere, then that observation (a press
    of the playing seat's button, or the referee's, only ends the play)."""
    flushed, state = _flush(table, memory)
    if isinstance(observation, ButtonPress) and observation.seat in (memory.pending_seat, None):
        return flushed
    after = replace(table, state=state)
    if isinstance(observation, Sighting):
        rest = _sighting(after, flushed.memory, observation)
    elif isinstance(observation, Tap):
        rest = _tap(after, flushed.memory, observation)
    else:
        rest = _button(after, flushed.memory, observation)
    return _then(flushed, rest)


def _then(first: Translation[TrickMemory],
          rest: Translation[TrickMemory]) -> Translation[TrickMemory]:
    """Two translations one after the other: the later memory, the moves and asks of both."""
    return Translation(rest.memory, (*first.moves, *rest.moves), (*first.asks, *rest.asks))


def _sighting(table: Table, memory: TrickMemory, seen: Sighting) -> Translation[TrickMemory]:
    if seen.card == DIE:
        return Translation(memory, asks=(Ask(f"a die ({seen.value}) is on the table: the trick"
                                             " game uses no dice", None, (dismiss(),)),))
    if seen.kind == "removed" or seen.from_zone is not None:
        memory = _taken_back(memory, seen.card)
        if seen.kind == "removed":
            return Translation(memory)
    if seen.unsure:
        return Translation(memory, asks=(Ask(
            f"is the card in {seen.zone or 'no zone'} {seen.card}?", None,
            (Choice(f"yes, {seen.card}", (card_tap(seen.card, seen.zone, seen.t),)),
             dismiss("no: enter it by touch"))),))
    seat = table.seating.zone_seat(seen.zone)
    if seen.zone == TRICK_ZONE:
        return _into_trick(table, memory, seen)
    if seat is not None and table.state.phase == REVEAL:
        return _revealed(table, memory, seat.number, seen.card)
    where = (f"face up in front of {seat.player}" if seat is not None
             else "on the stock" if seen.zone in STOCK_ZONES else f"in {seen.zone or 'no zone'}")
    return Translation(memory, asks=(Ask(
        f"{seen.card} is {where}: plays go face up in the trick area",
        None if seat is None else seat.number,
        (Choice("it was played to the trick", (card_tap(seen.card, TRICK_ZONE, seen.t),)),
         dismiss("it is back where it belongs"))),))


def _taken_back(memory: TrickMemory, card: str) -> TrickMemory:
    """The memory once ``card`` left where it was put (a play taken back before it ended,
    or a last card turned face down again)."""
    pending = tuple(c for c in memory.pending if c != card)
    revealed = tuple((s, c) for s, c in memory.revealed if c != card)
    return replace(memory, pending=pending, pending_seat=memory.pending_seat if pending else None,
                   revealed=revealed)


def _into_trick(table: Table, memory: TrickMemory, seen: Sighting) -> Translation[TrickMemory]:
    state: TrickState = table.state
    if state.phase == REVEAL:
        return Translation(memory, asks=(Ask(
            f"{seen.card} was turned over in the trick area: whose last card is it?", None,
            (*(Choice(f"{s.player}'s", (card_tap(seen.card, s.zone, seen.t),))
               for s in table.seating.seats), dismiss())),))
    if state.phase == DEAL:
        return Translation(memory, asks=(Ask(
            f"{seen.card} is in the trick area before the deal", None, (dismiss(),)),))
    if memory.pending:
        if _pairs(state, memory, seen):
            pair = Submit("play", {"player": table.player(memory.pending_seat),
                                   "cards": [*memory.pending, seen.card]})
            return Translation(replace(memory, pending=(), pending_seat=None), (pair,))
        flushed, state = _flush(table, memory)
        return _then(flushed, _into_trick(replace(table, state=state), flushed.memory, seen))
    if state.phase not in (DECIDE, SWAP, PLAY):
        return Translation(memory, asks=(Ask(
            f"{seen.card} is in the trick area, but {_waiting(state)}", None, (dismiss(),)),))
    seat = _on_turn(state)
    player = table.player(seat)
    if _complete_alone(state, seat):
        return Translation(memory, (Submit("play", {"player": player, "cards": [seen.card]}),))
    return Translation(replace(memory, pending=(seen.card,), pending_seat=seat,
                               pending_t=seen.t))


def _pairs(state: TrickState, memory: TrickMemory, seen: Sighting) -> bool:
    """True if ``seen`` is the second card of a pair with the one pending."""
    if len(memory.pending) != 1 or seen.t - memory.pending_t > PAIR_SECONDS:
        return False
    try:
        first, second = PlayingCard.parse(memory.pending[0]), PlayingCard.parse(seen.card)
    except UnknownCard:
        return False
    return strength(first, state.options) == strength(second, state.options)


def _flush(table: Table, memory: TrickMemory) -> tuple[Translation[TrickMemory], TrickState]:
    """The pending card(s) as a finished play (memory cleared of them), and the state once
    it is played; a play the rules refuse is asked about instead, the state unchanged."""
    cleared = replace(memory, pending=(), pending_seat=None)
    play = Submit("play", {"player": table.player(memory.pending_seat),
                           "cards": list(memory.pending)})
    try:
        after = table.rules.apply(table.state, Event(play.kind, play.data, table.t))
    except (IllegalMove, MalformedMove) as error:
        cards = " ".join(memory.pending)
        return Translation(cleared, asks=(Ask(f"{cards} in the trick was refused: {error}",
                                              memory.pending_seat, (dismiss(),)),)), table.state
    return Translation(cleared, (play,)), after


def _on_turn(state: TrickState) -> int:
    """The seat number (from 1) of the seat to play: the one answering, or the leader."""
    return (state.waiting[0] if state.phase == PLAY else state.leader) + 1


def _complete_alone(state: TrickState, seat: int) -> bool:
    """True if one card is the whole play: a single was led, or the seat holds two cards
    (it must keep a last card) and so plays one."""
    if state.counts[seat - 1] <= 2:
        return True
    return state.phase == PLAY and bool(state.trick) and len(state.trick[state.best].cards) == 1


def _waiting(state: TrickState) -> str:
    return expecting_text(state) if state.phase != OVER else "the game is over"


def _revealed(table: Table, memory: TrickMemory, seat: int,
              card: str) -> Translation[TrickMemory]:
    shown = {**dict(memory.revealed), seat: card}
    if len(shown) < len(table.seating.seats):
        return Translation(replace(memory, revealed=tuple(sorted(shown.items()))))
    cards = {table.player(s): c for s, c in sorted(shown.items())}
    return Translation(replace(memory, revealed=()), (Submit("reveal", {"cards": cards}),))


def _button(table: Table, memory: TrickMemory, press: ButtonPress) -> Translation[TrickMemory]:
    state: TrickState = table.state
    if press.seat is None:
        if state.phase == DEAL and state.hands is None:
            return Translation(memory, (Submit("deal"),))
        return _nothing(memory, state, None)
    player = table.player(press.seat)
    if player is None:
        return Translation(memory, asks=(Ask(f"button {press.seat} has no player", None),))
    number = press.seat - 1
    if state.phase == DECIDE and number == state.leader:
        return Translation(memory, (Submit("swapping", {"player": player,
                                                        "open": press.kind == "press"}),))
    if state.phase == SWAP and number in state.waiting and state.hands is None:
        return Translation(memory, (Submit("swap", {"player": player, "count": 0}),))
    if (state.phase == PLAY and state.options.passing and state.waiting[0] == number
            and state.trick):
        return Translation(memory, (Submit("pass", {"player": player}),))
    return _nothing(memory, state, press.seat)


def _nothing(memory: TrickMemory, state: TrickState, seat: int | None) -> Translation[TrickMemory]:
    who = "the referee's button" if seat is None else f"button {seat}"
    return Translation(memory, asks=(Ask(f"{who} does nothing now: {_waiting(state)}", seat,
                                         (dismiss(),)),))


def _tap(table: Table, memory: TrickMemory, tap: Tap) -> Translation[TrickMemory]:
    if tap.action not in TOLD:
        return Translation(memory, asks=(Ask(f"the trick game has no {tap.action!r} on the"
                                             " screen", tap.seat, (dismiss(),)),))
    data: dict[str, Any] = dict(tap.data)
    player = table.player(tap.seat)
    if player is not None:
        data["player"] = player
    return Translation(memory, (Submit(tap.action, data),))


TRANSLATOR = TrickTranslator()
