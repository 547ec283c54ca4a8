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
``catalogue``). Each event is decoded once into its move (:mod:`.moves`) by ``MOVES``;
:mod:`.view` gives what a screen shows and the moves open, :mod:`.translator` the table.

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
from companion.engine.view import GameView
from companion.errors import IllegalMove
from companion.games.base import option, solo_start
from companion.games.moves import MoveTable, NoData, PossibleMoves
from companion.games.x21.table import Cards, Claim, read_setup, take_from_deck
from companion.games.x21_solo.moves import MakeTwentyOne, TakeCard
from companion.games.x21_solo.view import solo_moves, solo_view

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
    scored_at: tuple[Claim, ...] = ()
    """The X (and Y) each scored hand made 21 at, in the order of ``scored``."""
    discards: frozenset[str] = frozenset()
    stopwatch: Stopwatch | None = None
    attempts: int = 0
    miss: str = ""
    tried: Claim | None = None
    """The X of the last missed make-21 of the hand in play (None once it changes)."""
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
        return MOVES.apply(replace(state, t=event.t), event)

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

    def view(self, state: SoloState) -> GameView:
        return solo_view(state, self.name)

    def moves(self, state: SoloState) -> PossibleMoves:
        return solo_moves(state)


def _take_card(state: SoloState, card: str) -> frozenset[str]:
    if not state.deck and state.discards:
        raise IllegalMove("the deck is empty: reshuffle the discards into a new deck first")
    return take_from_deck(state.deck, card, state.places())


MOVES: MoveTable[SoloState] = MoveTable("21x-solo")


@MOVES.handles("deal", TakeCard)
def _deal(state: SoloState, move: TakeCard, t: float) -> SoloState:
    if len(state.hand) >= 2:
        raise IllegalMove("the hand already has its 2 dealt cards: draw instead")
    deck = _take_card(state, move.card)
    watch = state.stopwatch or Stopwatch(started_at=t)
    return replace(state, deck=deck, hand=(*state.hand, move.card), stopwatch=watch,
                   tried=None)


@MOVES.handles("draw", TakeCard)
def _draw(state: SoloState, move: TakeCard, t: float) -> SoloState:
    if len(state.hand) < 2:
        raise IllegalMove("a hand starts with 2 dealt cards: deal first")
    limit = state.cards.hand_rules.max_cards
    if limit is not None and len(state.hand) >= limit:
        raise IllegalMove(f"the hand already has {limit} cards, the most allowed")
    deck = _take_card(state, move.card)
    return replace(state, deck=deck, hand=(*state.hand, move.card), tried=None)


@MOVES.handles("mulligan", NoData)
def _mulligan(state: SoloState, move: NoData, t: float) -> SoloState:
    if not state.hand:
        raise IllegalMove("there is no hand to discard")
    return replace(state, hand=(), discards=state.discards | set(state.hand), tried=None)


@MOVES.handles("make21", MakeTwentyOne)
def _make21(state: SoloState, move: MakeTwentyOne, t: float) -> SoloState:
    if len(state.hand) < 2:
        raise IllegalMove("a hand needs at least its 2 dealt cards")
    claim = move.claim()
    _, miss = state.cards.judge(state.hand, claim, state.v, "tried")
    if miss:
        return replace(state, attempts=state.attempts + 1, miss=miss, tried=claim)
    points = state.points + state.cards.icons(state.hand)
    watch = state.stopwatch
    if points >= state.target and watch is not None:
        watch = watch.stop(t)
    return replace(state, hand=(), scored=(*state.scored, state.hand),
                   scored_at=(*state.scored_at, claim), points=points, stopwatch=watch,
                   attempts=state.attempts + 1, miss="", tried=None)


@MOVES.handles("reshuffle", NoData)
def _reshuffle(state: SoloState, move: NoData, t: float) -> SoloState:
    if state.deck:
        raise IllegalMove(f"the deck still has {len(state.deck)} cards")
    if not state.discards:
        raise IllegalMove("there are no discards to reshuffle")
    return replace(state, deck=state.discards, discards=frozenset())


RULES = SoloRules()
