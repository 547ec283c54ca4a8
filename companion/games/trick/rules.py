"""Twenty One, the trick game: seven cards each, tricks of singles or pairs, the last card scores.

The referee works from what a camera over the table sees. By default (``hands: "hidden"``)
the hands are private: the referee knows how many cards each player holds (the deal, minus
what they played; a swap gives and takes the same number), sees every play face up in the
trick area and sees the last cards when they are turned over together (``reveal``). It
enforces the lead, shape, beat and match rules on every play at once. "Cannot go higher" and
"dump your lowest card" are honour rules while the hands are hidden; once the last cards
are turned over the referee has seen every card each hand held since the swaps, checks
every dump and pass against it and reports any that broke the rule (``revokes``).

With ``hands: "declared"`` (the app's simulator, or a game played with open hands) the
``deal`` names every hand, swaps name their cards, every rule is enforced on the spot and
the deal is scored as soon as everybody is down to one card. Readings of the rule text:
``docs/games/trick.md``. Options of the ``start`` event, with their defaults:

``target`` (21, or 50 with ``score_all``), ``score_all`` (False: only the highest last card
scores), ``swapping`` (True), ``passing`` (False: a player who cannot go higher dumps their
lowest card), ``ace_low`` (False), ``higher`` (``"rank"``: 2 < ... < 10 < J < Q < K < A;
``"value"``: 10, J, Q and K are equal), ``must_match`` (False: a player who cannot beat the
last play may match it or dump), ``hands`` (``"hidden"``), ``hand_size`` (7) and ``dealer``
(the first player).

>>> state = RULES.start(Event("start", {"game": "trick", "players": ["anna", "ben"],
...                                      "options": {"swapping": False, "hand_size": 2}}))
>>> state = RULES.apply(state, Event("deal", {}))
>>> state.on_turn, state.counts
('ben', (2, 2))
>>> state = RULES.apply(state, Event("play", {"player": "ben", "cards": ["2h"]}))
>>> state = RULES.apply(state, Event("play", {"player": "anna", "cards": ["3c"]}))
>>> state.phase
'reveal'
>>> state = RULES.apply(state, Event("reveal", {"cards": {"anna": "As", "ben": "9d"}}))
>>> RULES.summary(state)["deals"][0]["scores"]
{'anna': 11, 'ben': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from companion.engine.events import Event
from companion.engine.view import GameView
from companion.errors import IllegalMove, MalformedMove
from companion.games.base import check_option_keys, option, table_players
from companion.games.moves import MoveTable, PossibleMoves
from companion.games.trick.moves import Deal, Passed, Played, Reveal, Swap, Swapping
from companion.playing_cards import RANKS, PlayingCard, UnknownCard, standard_deck

DECK = frozenset(standard_deck())
ORDERS = ("rank", "value")
HIDDEN, DECLARED = "hidden", "declared"
OPTION_KEYS = frozenset(
    (
        "target",
        "score_all",
        "swapping",
        "passing",
        "ace_low",
        "higher",
        "must_match",
        "hands",
        "hand_size",
        "dealer",
    )
)

DEAL, DECIDE, SWAP, PLAY, REVEAL, OVER = "deal", "decide", "swap", "play", "reveal", "over"
"""The phases: waiting for the deal, for the leader's swapping decision, for the swaps,
trick play, the last cards turned over (hidden hands only), and the game over."""

Cards = tuple[PlayingCard, ...]


@dataclass(frozen=True)
class TrickOptions:
    """The table's choices, read from the ``start`` event (see the module docstring)."""

    target: int = 21
    score_all: bool = False
    swapping: bool = True
    passing: bool = False
    ace_low: bool = False
    higher: str = "rank"
    must_match: bool = False
    hands: str = HIDDEN
    hand_size: int = 7
    dealer: int = 0

    @classmethod
    def read(cls, options: Mapping[str, Any], players: tuple[str, ...]) -> TrickOptions:
        """Validate ``options`` for a table of ``players``; ``IllegalMove`` names the problem."""
        check_option_keys(options, OPTION_KEYS, "trick")
        score_all = option(options, "score_all", False, bool)
        target = option(options, "target", 50 if score_all else 21, int)
        higher = option(options, "higher", "rank", str)
        hands = option(options, "hands", HIDDEN, str)
        hand_size = option(options, "hand_size", 7, int)
        dealer = option(options, "dealer", players[0], str)
        if target < 1:
            raise IllegalMove(f"option 'target' must be at least 1, not {target}")
        if higher not in ORDERS:
            raise IllegalMove(f"option 'higher' must be 'rank' or 'value', not {higher!r}")
        if hands not in (HIDDEN, DECLARED):
            raise IllegalMove(f"option 'hands' must be 'hidden' or 'declared', not {hands!r}")
        if hand_size < 2 or hand_size * len(players) > len(DECK):
            raise IllegalMove(
                f"option 'hand_size' {hand_size} does not fit: need 2 or more cards each and "
                f"at most {len(DECK)} for {len(players)} players"
            )
        if dealer not in players:
            raise IllegalMove(f"option 'dealer' {dealer!r} is not one of the players")
        return cls(
            target=target,
            score_all=score_all,
            swapping=option(options, "swapping", True, bool),
            passing=option(options, "passing", False, bool),
            ace_low=option(options, "ace_low", False, bool),
            higher=higher,
            must_match=option(options, "must_match", False, bool),
            hands=hands,
            hand_size=hand_size,
            dealer=players.index(dealer),
        )


def card_value(card: PlayingCard, *, ace_low: bool = False) -> int:
    """What a last card scores: ace 11 (1 when aces are low), J Q K 10, others face value.

    >>> [card_value(PlayingCard.parse(n)) for n in ("As", "Kd", "10h", "2c")]
    [11, 10, 10, 2]
    >>> card_value(PlayingCard.parse("Ah"), ace_low=True)
    1
    """
    if card.rank == "A":
        return 1 if ace_low else 11
    return 10 if card.rank in ("J", "Q", "K") else int(card.rank)


def strength(card: PlayingCard, options: TrickOptions) -> int:
    """How high ``card`` plays: rank order 2 < ... < K < A, or its score value if
    ``higher`` is ``"value"``; the ace is lowest when aces are low.

    >>> ten, king = PlayingCard.parse("10s"), PlayingCard.parse("Kc")
    >>> strength(ten, TrickOptions()) < strength(king, TrickOptions())
    True
    >>> strength(ten, TrickOptions(higher="value")) == strength(king, TrickOptions(higher="value"))
    True
    """
    if options.higher == "value":
        return card_value(card, ace_low=options.ace_low)
    if card.rank == "A":
        return 0 if options.ace_low else len(RANKS)
    return RANKS.index(card.rank)


@dataclass(frozen=True)
class Play:
    """Cards one player put on the trick; ``kind`` is lead, beat, match, dump or pass."""

    seat: int
    cards: Cards
    kind: str


@dataclass(frozen=True)
class Claim:
    """A dump or a pass: the player said they could not go higher than ``best``.

    ``played_before`` counts the cards the seat had put down this deal before it, so once
    the last cards are turned over the hand they held then is known.
    """

    seat: int
    best: Cards
    dumped: PlayingCard | None
    played_before: int


@dataclass(frozen=True)
class DealResult:
    """One finished deal: who dealt, each seat's last card and score, and any revokes."""

    dealer: int
    last_cards: Cards
    scores: tuple[int, ...]
    revokes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TrickState:
    """Everything the referee knows, seat-indexed in the order of ``players``.

    ``counts`` is how many cards each player holds; ``hands`` their cards when declared
    (None when hidden) and ``stock`` the stock's cards likewise. ``played`` is what each
    seat has put face up this deal, in order. ``waiting`` lists the seats still to act:
    the players still to swap, the leader before a lead, then the players still to reply.
    ``best`` is the index in ``trick`` of the play to beat (-1 before the lead).
    """

    players: tuple[str, ...]
    options: TrickOptions
    dealer: int
    phase: str
    counts: tuple[int, ...]
    stock_count: int
    hands: tuple[Cards, ...] | None = None
    stock: frozenset[PlayingCard] | None = None
    discards: frozenset[PlayingCard] = frozenset()
    played: tuple[Cards, ...] = ()
    claims: tuple[Claim, ...] = ()
    trick: tuple[Play, ...] = ()
    waiting: tuple[int, ...] = ()
    best: int = -1
    totals: tuple[int, ...] = ()
    deals: tuple[DealResult, ...] = ()

    @property
    def leader(self) -> int:
        """The seat to the dealer's left, who leads the first trick of the deal."""
        return (self.dealer + 1) % len(self.players)

    @property
    def on_turn(self) -> str | None:
        """The player who must act next; None while waiting for a deal, swaps or the
        reveal (anyone may act then), and when over."""
        if self.phase == DECIDE:
            return self.players[self.leader]
        return self.players[self.waiting[0]] if self.phase == PLAY else None

    def places(self) -> dict[str, Cards]:
        """Where every known card is: stock, discards, trick and ``hand:<player>``.

        With declared hands every card of the deck is in exactly one place; with hidden
        hands only the cards seen face up are (``discards`` and ``trick``).
        """
        where = {
            "stock": tuple(sorted(self.stock or ())),
            "discards": tuple(sorted(self.discards)),
            "trick": tuple(card for play in self.trick for card in play.cards),
        }
        for name, hand in zip(self.players, self.hands or (), strict=False):
            where[f"hand:{name}"] = hand
        return where


def parse_cards(value: Any, what: str) -> Cards:
    """Card names from an event's data, as distinct cards of the 52-card deck."""
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise IllegalMove(f"{what} must be a list of card names, not {value!r}")
    try:
        cards = tuple(PlayingCard.parse(name) for name in value)
    except UnknownCard as error:
        raise IllegalMove(f"{what}: {error}") from None
    if any(card not in DECK for card in cards):
        raise IllegalMove(f"{what}: jokers are taken out of the deck in this game")
    if len(set(cards)) != len(cards):
        raise IllegalMove(f"{what}: the same card is named twice")
    return cards


def _names(cards: Iterable[PlayingCard]) -> list[str]:
    return [str(card) for card in cards]


def _is_set(cards: Cards, options: TrickOptions) -> bool:
    """One card, or two cards of the same value (same rank, or same score with ``value``)."""
    return len(cards) == 1 or (
        len(cards) == 2 and strength(cards[0], options) == strength(cards[1], options)
    )


def _without(hand: Cards, cards: Cards) -> Cards:
    return tuple(card for card in hand if card not in cards)


def _plays_from(hand: Cards, shape: int, level: int, options: TrickOptions) -> list[Cards]:
    """Plays of ``shape`` cards from ``hand`` at or above ``level``, keeping a last card."""
    if len(hand) <= shape:
        return []
    return [
        cards
        for cards in combinations(hand, shape)
        if _is_set(cards, options) and strength(cards[0], options) >= level
    ]


def _lowest(hand: Cards, options: TrickOptions) -> Cards:
    """Every card of the lowest strength in ``hand`` (any of them may be dumped)."""
    low = min(strength(card, options) for card in hand)
    return tuple(card for card in hand if strength(card, options) == low)


def wanted(best: Cards, options: TrickOptions) -> str:
    """What a player must play against ``best`` if they can, e.g. ``a higher pair``."""
    higher = "higher or equal" if options.must_match else "higher"
    return f"a {higher} {'card' if len(best) == 1 else 'pair'}"


def _fault(hand: Cards, claim: Claim, options: TrickOptions) -> tuple[str, Cards] | None:
    """Why dumping (or passing) from ``hand`` broke the rules, or None if it did not:
    ``("higher", a play the hand had to make)`` or ``("lowest", the lowest cards)``."""
    level = strength(claim.best[0], options) + (0 if options.must_match else 1)
    plays = _plays_from(hand, len(claim.best), level, options)
    if plays:
        return "higher", plays[0]
    lowest = _lowest(hand, options)
    if claim.dumped is not None and claim.dumped not in lowest:
        return "lowest", lowest
    return None


class TrickRules:
    """The rules of the Twenty One trick game (``game`` = ``trick``)."""

    name = "trick"

    def start(self, event: Event) -> TrickState:
        """The table before the first deal: every card in the stock."""
        data = event.data
        table = table_players(event, self.name)
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise IllegalMove(f"'options' must be an object, not {options!r}")
        chosen = TrickOptions.read(options, table)
        return TrickState(
            players=table,
            options=chosen,
            dealer=chosen.dealer,
            phase=DEAL,
            counts=tuple(0 for _ in table),
            stock_count=len(DECK),
            hands=tuple(() for _ in table) if chosen.hands == DECLARED else None,
            stock=DECK if chosen.hands == DECLARED else None,
            totals=tuple(0 for _ in table),
        )

    def apply(self, state: TrickState, event: Event) -> TrickState:
        """The state after ``event``: deal, swapping, swap, play, pass or reveal."""
        if event.kind not in PHASES:
            raise IllegalMove(f"unknown trick event {event.kind!r}")
        if state.phase == OVER:
            raise IllegalMove(f"the game is over: no {event.kind!r} allowed")
        if state.phase not in PHASES[event.kind]:
            raise IllegalMove(f"a {event.kind!r} is not allowed now: {expecting_text(state)}")
        return MOVES.apply(state, event)

    def due(self, state: TrickState, now: float) -> list[Event]:
        """The trick game has no timers."""
        return []

    def view(self, state: TrickState) -> GameView:
        """What a screen shows (:mod:`companion.games.trick.view`)."""
        from companion.games.trick.view import trick_view  # the view reads these rules

        return trick_view(state, self.name)

    def moves(self, state: TrickState) -> PossibleMoves:
        """The moves open now; with hidden hands, what is unknowable is said."""
        from companion.games.trick.view import trick_moves

        return trick_moves(state)

    def summary(self, state: TrickState) -> dict[str, Any]:
        """Totals, per-deal results and, once over, the winners (everyone on the top total)."""
        top = max(state.totals)
        over = state.phase == OVER
        return {
            "game": self.name,
            "winners": [p for p, t in zip(state.players, state.totals, strict=True) if t == top]
            if over
            else [],
            "eliminated": [],
            "points": dict(zip(state.players, state.totals, strict=True)),
            "over": over,
            "target": state.options.target,
            "hands": state.options.hands,
            "phase": state.phase,
            "dealer": state.players[state.dealer],
            "on_turn": state.on_turn,
            "to_swap": [state.players[s] for s in state.waiting] if state.phase == SWAP else [],
            "cards_held": dict(zip(state.players, state.counts, strict=True)),
            "stock": state.stock_count,
            "deals": [
                {
                    "dealer": state.players[deal.dealer],
                    "last_cards": dict(zip(state.players, _names(deal.last_cards), strict=True)),
                    "scores": dict(zip(state.players, deal.scores, strict=True)),
                    "revokes": list(deal.revokes),
                }
                for deal in state.deals
            ],
        }


def expecting_text(state: TrickState) -> str:
    """What the referee waits for, in one line (``waiting for ben to play``)."""
    expected = {
        DEAL: "waiting for the deal",
        DECIDE: f"waiting for {state.on_turn} to open or close swapping",
        SWAP: f"waiting for {', '.join(state.players[s] for s in state.waiting)} to swap "
        f"or {state.players[state.leader]} to lead",
        PLAY: f"waiting for {state.on_turn} to play",
        REVEAL: "waiting for the last cards to be turned over",
    }
    return expected[state.phase]


def _seat(state: TrickState, player: str) -> int:
    """The seat of ``player``."""
    if player not in state.players:
        raise IllegalMove(f"{player!r} is not playing: one of {list(state.players)}")
    return state.players.index(player)


def _check_turn(state: TrickState, player: str) -> int:
    """The seat of ``player``, who must be the one on turn."""
    seat = _seat(state, player)
    if seat != state.waiting[0]:
        raise IllegalMove(f"it is {state.on_turn}'s turn, not {state.players[seat]}'s")
    return seat


MOVES: MoveTable[TrickState] = MoveTable("trick")
PHASES = {
    "deal": (DEAL,),
    "swapping": (DECIDE,),
    "swap": (SWAP,),
    "play": (DECIDE, SWAP, PLAY),
    "pass": (PLAY,),
    "reveal": (REVEAL,),
}
"""Each event kind and the phases that accept it."""


@MOVES.handles("deal", Deal)
def _deal(state: TrickState, move: Deal, t: float) -> TrickState:
    size = state.options.hand_size
    fresh = replace(
        state,
        counts=tuple(size for _ in state.players),
        stock_count=len(DECK) - size * len(state.players),
        discards=frozenset(),
        played=tuple(() for _ in state.players),
        claims=(),
        trick=(),
        best=-1,
    )
    if state.hands is None:
        if move.hands is not None:
            raise IllegalMove("hands are hidden (option 'hands'): a deal names no cards")
    else:
        fresh = _declared_deal(fresh, move.hands)
    if state.options.swapping:
        return replace(fresh, phase=DECIDE, waiting=(state.leader,))
    return replace(fresh, phase=PLAY, waiting=(state.leader,))


def _declared_deal(state: TrickState, hands: Any) -> TrickState:
    if not isinstance(hands, dict) or set(hands) != set(state.players):
        raise IllegalMove(f"'hands' must give the cards of each of {list(state.players)}")
    dealt = tuple(parse_cards(hands[name], f"hand of {name}") for name in state.players)
    size = state.options.hand_size
    for name, hand in zip(state.players, dealt, strict=True):
        if len(hand) != size:
            raise IllegalMove(f"{name} was dealt {len(hand)} cards, not {size}")
    all_dealt = [card for hand in dealt for card in hand]
    if len(set(all_dealt)) != len(all_dealt):
        raise IllegalMove("the same card was dealt to two players")
    return replace(
        state, hands=tuple(tuple(sorted(hand)) for hand in dealt), stock=DECK - set(all_dealt)
    )


@MOVES.handles("swapping", Swapping)
def _decide(state: TrickState, move: Swapping, t: float) -> TrickState:
    if _seat(state, move.player) != state.leader:
        raise IllegalMove(f"it is {state.on_turn}'s turn, not {move.player}'s")
    if not move.open:
        return replace(state, phase=PLAY, waiting=(state.leader,))
    seats = len(state.players)
    return replace(
        state, phase=SWAP, waiting=tuple((state.leader + i) % seats for i in range(seats))
    )


@MOVES.handles("swap", Swap)
def _swap(state: TrickState, move: Swap, t: float) -> TrickState:
    """One player's trade, in any order while swapping is open; 0 cards declines."""
    seat = _seat(state, move.player)
    name = state.players[seat]
    if seat not in state.waiting:
        raise IllegalMove(f"{name} has already swapped this deal")
    if state.hands is None:
        if move.give is not None or move.take is not None:
            raise IllegalMove("hands are hidden (option 'hands'): a swap gives only 'count'")
        count = move.count
        if count is None:
            raise MalformedMove("a 'swap' needs 'count' while hands are hidden")
        if count < 0:
            raise IllegalMove(f"'swap' needs 'count', the number of cards traded, not {count!r}")
        traded = state
    else:
        count, traded = _declared_swap(state, seat, move)
    if count > state.counts[seat]:
        raise IllegalMove(f"{name} holds {state.counts[seat]} cards and cannot trade {count}")
    if count > state.stock_count:
        raise IllegalMove(f"{name} cannot take {count}: the stock has {state.stock_count} left")
    waiting = tuple(s for s in state.waiting if s != seat)
    return replace(
        traded,
        stock_count=state.stock_count - count,
        phase=SWAP if waiting else PLAY,
        waiting=waiting or (state.leader,),
    )


def _declared_swap(state: TrickState, seat: int, move: Swap) -> tuple[int, TrickState]:
    """The number of cards traded and the hands, stock and discards after the trade."""
    assert state.hands is not None and state.stock is not None
    if move.count is not None:
        raise IllegalMove("hands are declared (option 'hands'): a swap names 'give' and 'take'")
    give = parse_cards(list(move.give or ()), "'give'")
    take = parse_cards(list(move.take or ()), "'take'")
    hand = state.hands[seat]
    if len(give) != len(take):
        raise IllegalMove(f"a swap gives as many cards as it takes: {len(give)} for {len(take)}")
    missing = [str(card) for card in give if card not in hand]
    if missing:
        raise IllegalMove(f"{state.players[seat]} does not hold {', '.join(missing)}")
    not_in_stock = [str(card) for card in take if card not in state.stock]
    if not_in_stock:
        raise IllegalMove(f"{', '.join(not_in_stock)} is not in the stock")
    hands = list(state.hands)
    hands[seat] = tuple(sorted(_without(hand, give) + take))
    traded = replace(
        state,
        hands=tuple(hands),
        stock=state.stock - set(take),
        discards=state.discards | set(give),
    )
    return len(give), traded


def _classify(state: TrickState, seat: int, cards: Cards) -> str:
    """lead, beat, match or dump; ``IllegalMove`` explains what the player should do."""
    options, name = state.options, state.players[seat]
    if not state.trick:
        if not _is_set(cards, options):
            raise IllegalMove("a lead is one card or two cards of the same value")
        return "lead"
    best = state.trick[state.best].cards
    if len(cards) == len(best) and _is_set(cards, options):
        level = strength(cards[0], options) - strength(best[0], options)
        if level > 0:
            return "beat"
        if level == 0:
            return "match"
    needed = f"{wanted(best, options)} than {' '.join(_names(best))}"
    if options.passing:
        raise IllegalMove(f"play {needed} or pass")
    if state.hands is not None:
        _refuse_fault(state, Claim(seat, best, cards[0], 0))
    if len(cards) != 1:
        raise IllegalMove(f"{name} did not play {needed}: a player who cannot dumps one card")
    return "dump"


def _refuse_fault(state: TrickState, claim: Claim) -> None:
    """With declared hands, refuse a dump or pass that breaks the rules, saying why."""
    assert state.hands is not None
    fault = _fault(state.hands[claim.seat], claim, state.options)
    name, best = state.players[claim.seat], " ".join(_names(claim.best))
    if fault and fault[0] == "higher":
        needed = wanted(claim.best, state.options)
        raise IllegalMove(
            f"{name} can play {needed} than {best} ({' '.join(_names(fault[1]))}) and must"
        )
    if fault:
        raise IllegalMove(
            f"{name} cannot go higher: dump the lowest card, {' or '.join(_names(fault[1]))}"
        )


@MOVES.handles("play", Played)
def _play(state: TrickState, move: Played, t: float) -> TrickState:
    if state.phase != PLAY:  # the leader's lead closes swapping: the others keep their hands
        if _seat(state, move.player) != state.leader:
            raise IllegalMove(f"a 'play' is not allowed now: {expecting_text(state)}")
        state = replace(state, phase=PLAY, waiting=(state.leader,))
    seat = _check_turn(state, move.player)
    name = state.players[seat]
    cards = parse_cards(list(move.cards), "'cards'")
    if not cards or len(cards) >= state.counts[seat]:
        raise IllegalMove(f"{name} must play 1 card or a pair and keep a last card")
    if state.hands is not None:
        missing = [str(card) for card in cards if card not in state.hands[seat]]
        if missing:
            raise IllegalMove(f"{name} does not hold {', '.join(missing)}")
    again = [str(card) for card in cards if card in seen(state)]
    if again:
        raise IllegalMove(f"{', '.join(again)} was already played this deal")
    kind = _classify(state, seat, cards)
    played = _put_down(state, seat, cards)
    if kind == "dump":
        best = state.trick[state.best].cards
        claim = Claim(seat, best, cards[0], len(state.played[seat]))
        played = replace(played, claims=(*state.claims, claim))
    return _next_turn(played, Play(seat, cards, kind))


def seen(state: TrickState) -> set[PlayingCard]:
    """The cards put face up this deal."""
    return {card for cards in state.played for card in cards}


def _put_down(state: TrickState, seat: int, cards: Cards) -> TrickState:
    """The state with ``cards`` gone from the seat's hand (not yet on the trick)."""
    counts, played = list(state.counts), list(state.played)
    counts[seat] -= len(cards)
    played[seat] = (*played[seat], *cards)
    hands = state.hands
    if hands is not None:
        hands = tuple(_without(h, cards) if s == seat else h for s, h in enumerate(hands))
    return replace(state, counts=tuple(counts), played=tuple(played), hands=hands)


def _next_turn(state: TrickState, play: Play) -> TrickState:
    """Add ``play`` to the trick; the next player answers, or the trick ends."""
    trick = (*state.trick, play)
    best = state.best if play.kind in ("dump", "pass") else len(trick) - 1
    if play.kind == "lead":
        seats = len(state.players)
        after = ((play.seat + i) % seats for i in range(1, seats))
        waiting = tuple(s for s in after if state.counts[s] > 1)
    else:
        waiting = state.waiting[1:]
    moved = replace(state, trick=trick, best=best, waiting=waiting)
    return moved if waiting else _end_trick(moved)


@MOVES.handles("pass", Passed)
def _pass(state: TrickState, move: Passed, t: float) -> TrickState:
    seat = _check_turn(state, move.player)
    if not state.options.passing:
        raise IllegalMove("passing is not allowed: play higher, match, or dump the lowest card")
    if not state.trick:
        raise IllegalMove("the leader cannot pass")
    best = state.trick[state.best].cards
    claim = Claim(seat, best, None, len(state.played[seat]))
    if state.hands is not None:
        _refuse_fault(state, claim)
    passed = replace(state, claims=(*state.claims, claim))
    return _next_turn(passed, Play(seat, (), "pass"))


def _end_trick(state: TrickState) -> TrickState:
    """The trick goes to the discards; its winner leads, or the deal ends."""
    winner = state.trick[state.best].seat
    discards = state.discards | {card for play in state.trick for card in play.cards}
    cleared = replace(state, trick=(), best=-1, discards=discards)
    if all(count == 1 for count in state.counts):
        if state.hands is None:
            return replace(cleared, phase=REVEAL, waiting=())
        return _score_deal(cleared, tuple(hand[0] for hand in state.hands))
    seats = len(state.players)
    leader = next(s for s in ((winner + i) % seats for i in range(seats)) if state.counts[s] > 1)
    return replace(cleared, waiting=(leader,))


@MOVES.handles("reveal", Reveal)
def _reveal(state: TrickState, move: Reveal, t: float) -> TrickState:
    """The last cards turned over together: checked against what was seen, then scored."""
    shown = move.cards
    if set(shown) != set(state.players):
        raise IllegalMove(f"'reveal' needs 'cards': the last card of each of {list(state.players)}")
    last = parse_cards([shown[name] for name in state.players], "'cards'")
    again = [str(card) for card in last if card in seen(state)]
    if again:
        raise IllegalMove(f"{', '.join(again)} was already played this deal")
    return _score_deal(state, last)


def _revokes(state: TrickState, last: Cards) -> tuple[str, ...]:
    """Every dump or pass that broke the rule, now that each hand is known in full."""
    revokes = []
    for claim in state.claims:
        hand = (*state.played[claim.seat][claim.played_before :], last[claim.seat])
        fault = _fault(hand, claim, state.options)
        if fault:
            did = f"dumped {claim.dumped}" if claim.dumped else "passed"
            held = " ".join(_names(fault[1]))
            if fault[0] == "higher":
                why = f"{held}, {wanted(claim.best, state.options)}"
            else:
                why = f"a lower card, {held}"
            best = " ".join(_names(claim.best))
            revokes.append(f"{state.players[claim.seat]} {did} against {best} but held {why}")
    return tuple(revokes)


def _score_deal(state: TrickState, last: Cards) -> TrickState:
    options = state.options
    values = [card_value(card, ace_low=options.ace_low) for card in last]
    top = max(values)
    scores = tuple(v if options.score_all or v == top else 0 for v in values)
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    revokes = _revokes(state, last) if state.hands is None else ()
    result = DealResult(state.dealer, last, scores, revokes)
    over = max(totals) >= options.target
    return replace(
        state,
        totals=totals,
        deals=(*state.deals, result),
        phase=OVER if over else DEAL,
        dealer=state.dealer if over else (state.dealer + 1) % len(state.players),
        waiting=(),
    )



def legal_moves(state: TrickState) -> list[Event]:
    """Every event the players may send now (without ``t``/``seq``), e.g. for hints.

    A declared swap takes whichever cards the camera sees come off the stock; the swaps
    listed take the stock's first cards in deck order (any stock cards are equally legal).
    With hidden hands the referee cannot list plays or the reveal: only the swapping
    decision, swap counts and (with ``passing``) the pass. Before a deal and once over
    the list is empty.
    """
    if state.phase in (DEAL, OVER, REVEAL):
        return []
    moves = []
    leader = state.players[state.leader]
    if state.phase == DECIDE:
        moves = [Event("swapping", {"player": leader, "open": value}) for value in (True, False)]
    elif state.phase == SWAP:
        moves = [event for seat in state.waiting for event in _swaps(state, seat)]
    seat = state.leader if state.phase != PLAY else state.waiting[0]
    return moves + _plays(state, seat)


def _swaps(state: TrickState, seat: int) -> list[Event]:
    player = state.players[seat]
    most = min(state.counts[seat], state.stock_count)
    if state.hands is None or state.stock is None:
        return [Event("swap", {"player": player, "count": n}) for n in range(most + 1)]
    stock = sorted(state.stock)
    return [
        Event("swap", {"player": player, "give": _names(give), "take": _names(stock[:n])})
        for n in range(most + 1)
        for give in combinations(state.hands[seat], n)
    ]


def _plays(state: TrickState, seat: int) -> list[Event]:
    """The plays (and pass) open to ``seat``, the one to lead or answer."""
    player, options = state.players[seat], state.options
    can_pass = options.passing and bool(state.trick)
    if state.hands is None:
        return [Event("pass", {"player": player})] if can_pass else []
    hand = state.hands[seat]
    if not state.trick:
        plays = [*_plays_from(hand, 1, -1, options), *_plays_from(hand, 2, -1, options)]
        return [Event("play", {"player": player, "cards": _names(p)}) for p in plays]
    best = state.trick[state.best].cards
    plays = _plays_from(hand, len(best), strength(best[0], options), options)
    moves = [Event("play", {"player": player, "cards": _names(p)}) for p in plays]
    if _fault(hand, Claim(seat, best, None, 0), options) is None:
        if options.passing:
            moves.append(Event("pass", {"player": player}))
        else:
            dumps = [(card,) for card in _lowest(hand, options) if (card,) not in plays]
            moves += [Event("play", {"player": player, "cards": _names(d)}) for d in dumps]
    return moves


RULES = TrickRules()
"""The trick game's rules, as the registry imports them."""
