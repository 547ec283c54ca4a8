"""21X for one player: score 21 difficulty icons by making 21, as fast as possible.

The stopwatch starts with the first deal. The referee knows where every card of the
declared deck is: in the deck, the hand, a scored hand or the discards. Event kinds
(``data`` fields):

``deal`` (card)
    One of the two cards that start a hand (at the start, after a mulligan, after
    scoring). The first deal starts the stopwatch.
``draw`` (card)
    Another card for the hand (which already has two), at most ``max_cards``.
``mulligan`` ()
    The whole hand goes to the discards; deal two new cards.
``make21`` (x[, y])
    Checked against the hand with V = 1 + hands in the score area. Exactly 21 moves the
    hand to the score area for its icons; reaching ``target`` points (21) ends the game
    and stops the stopwatch. Anything else changes nothing but ``attempts`` and
    ``miss`` (why it was not 21): keep playing.
``reshuffle`` ()
    The deck is empty: the discards become the new deck.

There is no standing in single player. The start event has ``players`` (exactly one
name, as in every single-player game), ``deck`` (card ids; it must include every
core-set card) and ``options`` (``target``, ``non_integer_x``, ``max_cards``,
``catalogue``).

>>> state = RULES.start(Event("start", {"game": "21x-solo", "players": ["ann"]}))
>>> state = RULES.apply(state, Event("deal", {"card": "6x"}, t=2.0))
>>> RULES.summary(state)["player"], RULES.summary(state)["stopwatch_started_at"]
('ann', 2.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.engine.events import Event
from companion.engine.timers import Stopwatch
from companion.errors import IllegalMove
from companion.games.base import option, solo_start
from companion.games.x21.table import Cards, Claim, read_setup, take_from_deck

CORE_SET = "core"


@dataclass(frozen=True)
class SoloState:
    """A single-player 21X game at one moment."""

    player: str
    cards: Cards
    target: int
    deck: frozenset[str]
    hand: tuple[str, ...] = ()
    scored: tuple[tuple[str, ...], ...] = ()
    discards: frozenset[str] = frozenset()
    stopwatch: Stopwatch | None = None
    attempts: int = 0
    miss: str = ""
    points: int = 0
    t: float = 0.0

    @property
    def over(self) -> bool:
        """True once the score area holds ``target`` points."""
        return self.points >= self.target

    @property
    def v(self) -> int:
        """V in single player: 1 + hands in the score area."""
        return 1 + len(self.scored)

    def places(self) -> dict[str, str]:
        """Where every card outside the deck is."""
        where = {card: "in the hand" for card in self.hand}
        where.update({card: "in the discards" for card in self.discards})
        for number, hand in enumerate(self.scored, start=1):
            where.update({card: f"in scored hand {number}" for card in hand})
        return where


class SoloRules:
    """The rules of single-player 21X (see the module docstring)."""

    name = "21x-solo"

    def start(self, event: Event) -> SoloState:
        player, _ = solo_start(event, self.name)
        setup = read_setup(event.data)
        core = [card.id for card in setup.cards.known.values() if card.set == CORE_SET]
        missing = [card for card in core if card not in setup.deck]
        if missing:
            shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise IllegalMove(f"single player must include every core card: "
                              f"{len(missing)} missing ({shown})")
        target = option(setup.options, "target", 21, int)
        if target < 1:
            raise IllegalMove("option 'target' must be at least 1")
        return SoloState(player=player, cards=setup.cards, target=target,
                         deck=frozenset(setup.deck), t=event.t)

    def apply(self, state: SoloState, event: Event) -> SoloState:
        if state.over:
            raise IllegalMove("the game is over")
        if event.kind == "stand":
            raise IllegalMove("you cannot stand in single player")
        handler = _HANDLERS.get(event.kind)
        if handler is None:
            raise IllegalMove(f"21x-solo has no event kind {event.kind!r}")
        return handler(replace(state, t=event.t), event)

    def due(self, state: SoloState, now: float) -> list[Event]:
        return []

    def summary(self, state: SoloState) -> dict[str, Any]:
        watch = state.stopwatch
        return {
            "game": self.name,
            "player": state.player,
            "winners": [state.player] if state.over else [],
            "eliminated": [],
            "points": {state.player: state.points},
            "over": state.over,
            "time": watch.elapsed(state.t) if watch is not None and state.over else None,
            "stopwatch_started_at": None if watch is None else watch.started_at,
            "hand": list(state.hand),
            "scored": [list(hand) for hand in state.scored],
            "v": state.v,
            "attempts": state.attempts,
            "miss": state.miss,
            "deck_left": len(state.deck),
            "discards": sorted(state.discards),
        }


def _take_card(state: SoloState, event: Event) -> tuple[frozenset[str], str]:
    card = event.data.get("card")
    if not state.deck and state.discards:
        raise IllegalMove("the deck is empty: reshuffle the discards into a new deck first")
    deck = take_from_deck(state.deck, card, state.places())
    return deck, str(card)


def _deal(state: SoloState, event: Event) -> SoloState:
    if len(state.hand) >= 2:
        raise IllegalMove("the hand already has its 2 dealt cards: draw instead")
    deck, card = _take_card(state, event)
    watch = state.stopwatch or Stopwatch(started_at=event.t)
    return replace(state, deck=deck, hand=(*state.hand, card), stopwatch=watch)


def _draw(state: SoloState, event: Event) -> SoloState:
    if len(state.hand) < 2:
        raise IllegalMove("a hand starts with 2 dealt cards: deal first")
    limit = state.cards.hand_rules.max_cards
    if limit is not None and len(state.hand) >= limit:
        raise IllegalMove(f"the hand already has {limit} cards, the most allowed")
    deck, card = _take_card(state, event)
    return replace(state, deck=deck, hand=(*state.hand, card))


def _mulligan(state: SoloState, event: Event) -> SoloState:
    if not state.hand:
        raise IllegalMove("there is no hand to discard")
    return replace(state, hand=(), discards=state.discards | set(state.hand))


def _make21(state: SoloState, event: Event) -> SoloState:
    if len(state.hand) < 2:
        raise IllegalMove("a hand needs at least its 2 dealt cards")
    claim = Claim.read(event.data, with_total=False)
    _, miss = state.cards.judge(state.hand, claim, state.v, "tried")
    if miss:
        return replace(state, attempts=state.attempts + 1, miss=miss)
    points = state.points + state.cards.icons(state.hand)
    watch = state.stopwatch
    if points >= state.target and watch is not None:
        watch = watch.stop(event.t)
    return replace(state, hand=(), scored=(*state.scored, state.hand), points=points,
                   stopwatch=watch, attempts=state.attempts + 1, miss="")


def _reshuffle(state: SoloState, event: Event) -> SoloState:
    if state.deck:
        raise IllegalMove(f"the deck still has {len(state.deck)} cards")
    if not state.discards:
        raise IllegalMove("there are no discards to reshuffle")
    return replace(state, deck=state.discards, discards=frozenset())


_HANDLERS = {
    "deal": _deal,
    "draw": _draw,
    "mulligan": _mulligan,
    "make21": _make21,
    "reshuffle": _reshuffle,
}

RULES = SoloRules()
