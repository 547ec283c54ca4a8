"""Twenty One, the trick game: seven cards each, tricks of singles or pairs, the last card scores.

The referee follows where every physical card is: the stock, each hand, the trick on the
table and the discards (cards played in finished tricks and cards swapped away). The camera
reports the cards; events carry card names. The readings of the rule text are in
``docs/games/trick.md``; the options of the ``start`` event, with their defaults:

``target`` (21, or 50 with ``score_all``), ``score_all`` (False: only the highest last card
scores), ``swapping`` (True), ``passing`` (False: a player who cannot go higher dumps their
lowest card), ``ace_low`` (False), ``higher`` (``"rank"``: 2 < ... < 10 < J < Q < K < A;
``"value"``: 10, J, Q and K are equal), ``hand_size`` (7) and ``dealer`` (the first player).

>>> state = RULES.start(Event("start", {"game": "trick", "players": ["anna", "ben"],
...                                      "options": {"swapping": False, "hand_size": 2}}))
>>> state = RULES.apply(state, Event("deal", {"hands": {"anna": ["As", "3c"],
...                                                    "ben": ["9d", "2h"]}}))
>>> state.on_turn, [e.data["cards"] for e in legal_moves(state)]
('ben', [['2h'], ['9d']])
>>> state = RULES.apply(state, Event("play", {"player": "ben", "cards": ["2h"]}))
>>> state = RULES.apply(state, Event("play", {"player": "anna", "cards": ["3c"]}))
>>> RULES.summary(state)["deals"][0]["scores"]
{'anna': 11, 'ben': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from companion.errors import IllegalMove
from companion.events import Event
from companion.games.base import option
from companion.playing_cards import RANKS, PlayingCard, UnknownCard, standard_deck

DECK = frozenset(standard_deck())
ORDERS = ("rank", "value")
OPTION_KEYS = frozenset(
    ("target", "score_all", "swapping", "passing", "ace_low", "higher", "hand_size", "dealer")
)

DEAL, DECIDE, SWAP, PLAY, OVER = "deal", "decide", "swap", "play", "over"
"""The phases: waiting for the deal, for the leader's swapping decision, for the swaps,
trick play, and the game over."""

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
    hand_size: int = 7
    dealer: int = 0

    @classmethod
    def read(cls, options: Mapping[str, Any], players: tuple[str, ...]) -> TrickOptions:
        """Validate ``options`` for a table of ``players``; ``IllegalMove`` names the problem."""
        unknown = sorted(set(options) - OPTION_KEYS)
        if unknown:
            raise IllegalMove(f"unknown trick option {unknown[0]!r}")
        score_all = option(options, "score_all", False, bool)
        target = option(options, "target", 50 if score_all else 21, int)
        higher = option(options, "higher", "rank", str)
        hand_size = option(options, "hand_size", 7, int)
        dealer = option(options, "dealer", players[0], str)
        if target < 1:
            raise IllegalMove(f"option 'target' must be at least 1, not {target}")
        if higher not in ORDERS:
            raise IllegalMove(f"option 'higher' must be 'rank' or 'value', not {higher!r}")
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
class DealResult:
    """One finished deal: who dealt, the last card of each seat and what each scored."""

    dealer: int
    last_cards: Cards
    scores: tuple[int, ...]


@dataclass(frozen=True)
class TrickState:
    """Everything the referee knows, seat-indexed in the order of ``players``.

    ``waiting`` lists the seats still to act in this phase, the first one on turn: the
    swappers in the swap phase, the leader before a lead, then the players still to reply.
    ``best`` is the index in ``trick`` of the play to beat (-1 before the lead).
    """

    players: tuple[str, ...]
    options: TrickOptions
    dealer: int
    phase: str
    hands: tuple[Cards, ...]
    stock: frozenset[PlayingCard]
    discards: frozenset[PlayingCard]
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
        """The player who must act next, or None while waiting for a deal or when over."""
        if self.phase in (DEAL, OVER):
            return None
        return self.players[self.leader if self.phase == DECIDE else self.waiting[0]]

    def places(self) -> dict[str, Cards]:
        """Where every card of the deck is: stock, discards, trick and ``hand:<player>``."""
        where = {
            "stock": tuple(sorted(self.stock)),
            "discards": tuple(sorted(self.discards)),
            "trick": tuple(card for play in self.trick for card in play.cards),
        }
        for name, hand in zip(self.players, self.hands, strict=True):
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


def _higher_plays(hand: Cards, shape: int, level: int, options: TrickOptions) -> list[Cards]:
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


def _level(state: TrickState) -> int:
    return strength(state.trick[state.best].cards[0], state.options)


def _can_beat(state: TrickState, seat: int) -> bool:
    shape = len(state.trick[0].cards)
    plays = _higher_plays(state.hands[seat], shape, _level(state) + 1, state.options)
    return bool(plays)


class TrickRules:
    """The rules of the Twenty One trick game (``game`` = ``trick``)."""

    name = "trick"

    def start(self, event: Event) -> TrickState:
        """The table before the first deal: every card in the stock."""
        data = event.data
        players = data.get("players")
        if (
            not isinstance(players, list)
            or not all(isinstance(p, str) and p for p in players)
            or len(set(players)) != len(players)
            or len(players) < 2
        ):
            raise IllegalMove(f"'players' must be two or more distinct names, not {players!r}")
        table = tuple(players)
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise IllegalMove(f"'options' must be an object, not {options!r}")
        chosen = TrickOptions.read(options, table)
        return TrickState(
            players=table,
            options=chosen,
            dealer=chosen.dealer,
            phase=DEAL,
            hands=tuple(() for _ in table),
            stock=DECK,
            discards=frozenset(),
            totals=tuple(0 for _ in table),
        )

    def apply(self, state: TrickState, event: Event) -> TrickState:
        """The state after ``event``: deal, swapping, swap, play or pass."""
        handlers = {
            "deal": (DEAL, _deal),
            "swapping": (DECIDE, _decide),
            "swap": (SWAP, _swap),
            "play": (PLAY, _play),
            "pass": (PLAY, _pass),
        }
        if event.kind not in handlers:
            raise IllegalMove(f"unknown trick event {event.kind!r}")
        phase, handler = handlers[event.kind]
        if state.phase == OVER:
            raise IllegalMove(f"the game is over: no {event.kind!r} allowed")
        if state.phase != phase:
            raise IllegalMove(f"a {event.kind!r} is not allowed now: {_expecting(state)}")
        if event.kind != "deal":
            _check_turn(state, event)
        return handler(state, event)

    def due(self, state: TrickState, now: float) -> list[Event]:
        """The trick game has no timers."""
        return []

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
            "dealer": state.players[state.dealer],
            "on_turn": state.on_turn,
            "deals": [
                {
                    "dealer": state.players[deal.dealer],
                    "last_cards": dict(zip(state.players, _names(deal.last_cards), strict=True)),
                    "scores": dict(zip(state.players, deal.scores, strict=True)),
                }
                for deal in state.deals
            ],
        }


def _expecting(state: TrickState) -> str:
    expected = {
        DEAL: "waiting for the deal",
        DECIDE: f"waiting for {state.on_turn} to open or close swapping",
        SWAP: f"waiting for {state.on_turn} to swap",
        PLAY: f"waiting for {state.on_turn} to play",
    }
    return expected[state.phase]


def _check_turn(state: TrickState, event: Event) -> None:
    player = event.data.get("player")
    if player not in state.players:
        raise IllegalMove(f"{event.kind!r} needs 'player', one of {list(state.players)}")
    if player != state.on_turn:
        raise IllegalMove(f"it is {state.on_turn}'s turn, not {player}'s")


def _deal(state: TrickState, event: Event) -> TrickState:
    hands = event.data.get("hands")
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
    leader = state.leader
    return replace(
        state,
        phase=DECIDE if state.options.swapping else PLAY,
        hands=tuple(tuple(sorted(hand)) for hand in dealt),
        stock=DECK - set(all_dealt),
        discards=frozenset(),
        trick=(),
        waiting=(leader,),
        best=-1,
    )


def _decide(state: TrickState, event: Event) -> TrickState:
    is_open = event.data.get("open")
    if not isinstance(is_open, bool):
        raise IllegalMove("'swapping' needs 'open': true or false")
    if not is_open:
        return replace(state, phase=PLAY, waiting=(state.leader,))
    seats = len(state.players)
    return replace(
        state, phase=SWAP, waiting=tuple((state.leader + i) % seats for i in range(seats))
    )


def _swap(state: TrickState, event: Event) -> TrickState:
    seat = state.waiting[0]
    give = parse_cards(event.data.get("give", []), "'give'")
    take = parse_cards(event.data.get("take", []), "'take'")
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
    waiting = state.waiting[1:]
    return replace(
        state,
        hands=tuple(hands),
        stock=state.stock - set(take),
        discards=state.discards | set(give),
        phase=SWAP if waiting else PLAY,
        waiting=waiting or (state.leader,),
    )


def _classify(state: TrickState, seat: int, cards: Cards) -> str:
    """lead, beat, match or dump; ``IllegalMove`` explains what the player should do."""
    options, hand = state.options, state.hands[seat]
    if not state.trick:
        if not _is_set(cards, options):
            raise IllegalMove("a lead is one card or two cards of the same value")
        return "lead"
    best = state.trick[state.best]
    shape = len(state.trick[0].cards)
    if len(cards) == shape and _is_set(cards, options):
        level = strength(cards[0], options) - _level(state)
        if level > 0:
            return "beat"
        if level == 0:
            return "match"
    wanted = "a higher single card" if shape == 1 else "a higher pair"
    if options.passing:
        raise IllegalMove(f"play {wanted} than {' '.join(_names(best.cards))} or pass")
    if _can_beat(state, seat):
        raise IllegalMove(
            f"{state.players[seat]} can play {wanted} than {' '.join(_names(best.cards))} "
            "and must do so (or match it)"
        )
    if len(cards) != 1 or cards[0] not in _lowest(hand, options):
        lowest = " or ".join(_names(_lowest(hand, options)))
        raise IllegalMove(f"{state.players[seat]} cannot go higher: dump the lowest card, {lowest}")
    return "dump"


def _play(state: TrickState, event: Event) -> TrickState:
    seat = state.waiting[0]
    cards = parse_cards(event.data.get("cards"), "'cards'")
    hand = state.hands[seat]
    missing = [str(card) for card in cards if card not in hand]
    if missing:
        raise IllegalMove(f"{state.players[seat]} does not hold {', '.join(missing)}")
    if not cards or len(cards) >= len(hand):
        raise IllegalMove(f"{state.players[seat]} must play 1 card or a pair and keep a last card")
    kind = _classify(state, seat, cards)
    hands = list(state.hands)
    hands[seat] = _without(hand, cards)
    trick = (*state.trick, Play(seat, cards, kind))
    best = state.best if kind == "dump" else len(trick) - 1
    if kind == "lead":
        seats = len(state.players)
        after = ((seat + i) % seats for i in range(1, seats))
        waiting = tuple(s for s in after if len(hands[s]) > 1)
    else:
        waiting = state.waiting[1:]
    played = replace(state, hands=tuple(hands), trick=trick, best=best, waiting=waiting)
    return played if waiting else _end_trick(played)


def _pass(state: TrickState, event: Event) -> TrickState:
    seat = state.waiting[0]
    if not state.options.passing:
        raise IllegalMove("passing is not allowed: play higher, match, or dump the lowest card")
    if not state.trick:
        raise IllegalMove("the leader cannot pass")
    if _can_beat(state, seat):
        raise IllegalMove(f"{state.players[seat]} can go higher and must do so (or match)")
    played = replace(state, trick=(*state.trick, Play(seat, (), "pass")), waiting=state.waiting[1:])
    return played if played.waiting else _end_trick(played)


def _end_trick(state: TrickState) -> TrickState:
    """The trick goes to the discards; its winner leads, or the deal is scored."""
    winner = state.trick[state.best].seat
    discards = state.discards | {card for play in state.trick for card in play.cards}
    cleared = replace(state, trick=(), best=-1, discards=discards)
    if all(len(hand) == 1 for hand in state.hands):
        return _score_deal(cleared)
    seats = len(state.players)
    leader = next(
        s for s in ((winner + i) % seats for i in range(seats)) if len(state.hands[s]) > 1
    )
    return replace(cleared, waiting=(leader,))


def _score_deal(state: TrickState) -> TrickState:
    options = state.options
    last = tuple(hand[0] for hand in state.hands)
    values = [card_value(card, ace_low=options.ace_low) for card in last]
    top = max(values)
    scores = tuple(v if options.score_all or v == top else 0 for v in values)
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    result = DealResult(dealer=state.dealer, last_cards=last, scores=scores)
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
    """Every event the player on turn may send now (without ``t``/``seq``), e.g. for hints.

    A swap takes whichever cards the camera sees come off the stock; the swaps listed
    take the stock's first cards in deck order (any stock cards are equally legal).
    Before a deal (and once over) there is nothing to choose: the list is empty.
    """
    if state.phase in (DEAL, OVER):
        return []
    player = state.on_turn
    if state.phase == DECIDE:
        return [Event("swapping", {"player": player, "open": value}) for value in (True, False)]
    seat = state.waiting[0]
    hand = state.hands[seat]
    if state.phase == SWAP:
        stock = sorted(state.stock)
        return [
            Event("swap", {"player": player, "give": _names(give), "take": _names(stock[:n])})
            for n in range(min(len(hand), len(stock)) + 1)
            for give in combinations(hand, n)
        ]
    options = state.options
    if not state.trick:
        plays = [*_higher_plays(hand, 1, -1, options), *_higher_plays(hand, 2, -1, options)]
        return [Event("play", {"player": player, "cards": _names(p)}) for p in plays]
    shape = len(state.trick[0].cards)
    plays = _higher_plays(hand, shape, _level(state), options)
    moves = [Event("play", {"player": player, "cards": _names(p)}) for p in plays]
    if not _can_beat(state, seat):
        if options.passing:
            moves.append(Event("pass", {"player": player}))
        else:
            dumps = [(card,) for card in _lowest(hand, options) if (card,) not in plays]
            moves += [Event("play", {"player": player, "cards": _names(d)}) for d in dumps]
    return moves


RULES = TrickRules()
"""The trick game's rules, as the registry imports them."""
