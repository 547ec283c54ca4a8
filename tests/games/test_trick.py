"""The Twenty One trick game: every rule, variation and worked example of the text."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.clock import ManualClock
from companion.engine.events import Event
from companion.engine.referee import Referee
from companion.engine.scores import standings
from companion.engine.store import Store
from companion.errors import IllegalMove, MalformedMove
from companion.games.trick.rules import (
    DECK,
    RULES,
    TrickOptions,
    TrickState,
    card_value,
    legal_moves,
    strength,
)
from companion.playing_cards import PlayingCard

LOG = Path(__file__).resolve().parents[2] / "docs" / "logs" / "trick.jsonl"


def start(players: list[str], **options: Any) -> TrickState:
    """A table with declared hands unless ``hands`` is given (the rules' default is hidden)."""
    options.setdefault("hands", "declared")
    return RULES.start(Event("start", {"game": "trick", "players": players, "options": options}))


def apply(state: TrickState, kind: str, **data: Any) -> TrickState:
    return RULES.apply(state, Event(kind, data))


def deal(state: TrickState, **hands: list[str]) -> TrickState:
    return apply(state, "deal", hands=hands)


def play(state: TrickState, player: str, *cards: str) -> TrickState:
    return apply(state, "play", player=player, cards=list(cards))


def names(cards: tuple[PlayingCard, ...]) -> list[str]:
    return [str(card) for card in cards]


def assert_every_card_once(state: TrickState) -> None:
    counts = Counter(card for cards in state.places().values() for card in cards)
    assert set(counts) == DECK
    assert set(counts.values()) == {1}


def anna_table(**options: Any) -> TrickState:
    """Anna, Ben, Cara and Dan with Dan dealing, so Anna leads."""
    return start(["anna", "ben", "cara", "dan"], dealer="dan", **options)


# --- worked example and scoring -------------------------------------------------------


def test_worked_example_anna_ace_ben_nine_cara_three_dan_jack() -> None:
    state = anna_table(swapping=False, hand_size=2)
    state = deal(state, anna=["As", "2c"], ben=["9d", "4h"], cara=["3s", "5c"], dan=["Jc", "6d"])
    state = play(state, "anna", "2c")
    state = play(state, "ben", "4h")
    state = play(state, "cara", "5c")
    state = play(state, "dan", "6d")
    result = RULES.summary(state)["deals"][0]
    assert result["last_cards"] == {"anna": "As", "ben": "9d", "cara": "3s", "dan": "Jc"}
    assert result["scores"] == {"anna": 11, "ben": 0, "cara": 0, "dan": 0}
    assert RULES.summary(state)["points"] == {"anna": 11, "ben": 0, "cara": 0, "dan": 0}


def test_card_values_ace_eleven_pictures_ten_others_face() -> None:
    values = {name: card_value(PlayingCard.parse(name)) for name in ("Ac", "Kc", "Qd", "Jh")}
    assert values == {"Ac": 11, "Kc": 10, "Qd": 10, "Jh": 10}
    assert [card_value(PlayingCard.parse(f"{n}s")) for n in range(2, 11)] == list(range(2, 11))


def two_player_deal(
    state: TrickState, leader_cards: list[str], other_cards: list[str]
) -> TrickState:
    """Deal two cards each; the leader leads the low card, the other answers with theirs."""
    leader = state.players[state.leader]
    other = state.players[1 - state.leader]
    state = deal(state, **{leader: leader_cards, other: other_cards})
    state = play(state, leader, leader_cards[0])
    return play(state, other, other_cards[0])


def test_equal_top_values_each_score_it() -> None:
    state = start(["anna", "ben"], swapping=False, hand_size=2)
    state = two_player_deal(state, ["2c", "Jd"], ["3c", "Ks"])
    assert RULES.summary(state)["deals"][0]["scores"] == {"ben": 10, "anna": 10}


def test_only_the_highest_last_card_scores_by_default() -> None:
    state = start(["anna", "ben"], swapping=False, hand_size=2)
    state = two_player_deal(state, ["2c", "9d"], ["3c", "10s"])  # ben leads, anna follows
    assert RULES.summary(state)["points"] == {"anna": 10, "ben": 0}


def test_variation_everybody_scores_their_last_card_with_target_fifty() -> None:
    state = start(["anna", "ben"], swapping=False, hand_size=2, score_all=True)
    assert state.options.target == 50
    state = two_player_deal(state, ["2c", "9d"], ["3c", "10s"])
    assert RULES.summary(state)["points"] == {"anna": 10, "ben": 9}


def test_variation_ace_low_plays_lowest_and_scores_one() -> None:
    state = start(["anna", "ben"], swapping=False, hand_size=2, ace_low=True)
    assert card_value(PlayingCard.parse("As"), ace_low=True) == 1
    leader = state.players[state.leader]
    other = state.players[1 - state.leader]
    state = deal(state, **{leader: ["2c", "As"], other: ["Ad", "5h"]})
    state = play(state, leader, "2c")
    with pytest.raises(IllegalMove, match="and must"):
        play(state, other, "Ad")  # the ace is below the two: 5h beats, so it must be played
    state = play(state, other, "5h")
    assert RULES.summary(state)["deals"][0]["scores"] == {leader: 1, other: 1}


# --- seats, dealer and leader ---------------------------------------------------------


def test_first_leader_is_left_of_dealer_and_both_rotate_each_deal() -> None:
    state = start(["anna", "ben", "cara"], swapping=False, hand_size=2)
    assert (state.players[state.dealer], state.on_turn) == ("anna", None)
    state = deal(state, anna=["2c", "3c"], ben=["4c", "5c"], cara=["6c", "7c"])
    assert state.on_turn == "ben"
    state = play(state, "ben", "4c")
    state = play(state, "cara", "6c")
    with pytest.raises(IllegalMove, match="dump the lowest card, 2c"):
        play(state, "anna", "3c")
    state = play(state, "anna", "2c")  # cannot go higher: dumps the lowest card
    summary = RULES.summary(state)
    assert summary["deals"][0]["dealer"] == "anna"
    assert summary["dealer"] == "ben"
    state = deal(state, anna=["2c", "3c"], ben=["4c", "5c"], cara=["6c", "7c"])
    assert state.on_turn == "cara"


def test_dealer_option_names_the_first_dealer() -> None:
    state = start(["anna", "ben", "cara"], dealer="cara", swapping=False)
    assert state.players[state.leader] == "anna"


# --- swapping --------------------------------------------------------------------------


def seven_each(state: TrickState) -> TrickState:
    deck = sorted(DECK)
    hands = {
        name: [str(c) for c in deck[7 * i : 7 * i + 7]] for i, name in enumerate(state.players)
    }
    return deal(state, **hands)


def test_leader_closes_swapping_for_everybody() -> None:
    state = seven_each(anna_table())
    with pytest.raises(IllegalMove, match="anna's turn"):
        apply(state, "swapping", player="ben", open=False)
    state = apply(state, "swapping", player="anna", open=False)
    with pytest.raises(IllegalMove, match="not allowed now"):
        apply(state, "swap", player="anna", give=[], take=[])
    assert state.on_turn == "anna" and state.phase == "play"


def test_open_swapping_each_player_trades_once_in_any_order() -> None:
    state = seven_each(anna_table())
    state = apply(state, "swapping", player="anna", open=True)
    assert state.on_turn is None and RULES.summary(state)["to_swap"] == [
        "anna",
        "ben",
        "cara",
        "dan",
    ]
    assert state.hands is not None and state.stock is not None
    stock = sorted(state.stock)
    cara_gives = names(state.hands[2][:2])
    state = apply(state, "swap", player="cara", give=cara_gives, take=[str(c) for c in stock[:2]])
    assert state.hands is not None and state.stock is not None
    assert set(cara_gives) <= {str(c) for c in state.discards}
    assert stock[0] in state.hands[2] and stock[0] not in state.stock
    assert state.stock_count == len(state.stock) == 52 - 28 - 2
    with pytest.raises(IllegalMove, match="cara has already swapped this deal"):
        apply(state, "swap", player="cara", give=[], take=[])
    with pytest.raises(IllegalMove, match="as many cards"):
        apply(state, "swap", player="ben", give=names(state.hands[1][:1]), take=[])
    with pytest.raises(IllegalMove, match="not in the stock"):
        apply(state, "swap", player="ben", give=names(state.hands[1][:1]), take=cara_gives[:1])
    with pytest.raises(IllegalMove, match="does not hold"):
        apply(state, "swap", player="ben", give=cara_gives[:1], take=[str(stock[5])])
    with pytest.raises(IllegalMove, match="a swap names 'give' and 'take'"):
        apply(state, "swap", player="ben", count=1)
    with pytest.raises(IllegalMove, match="waiting for anna, ben, dan to swap or anna to lead"):
        play(state, "ben", names(state.hands[1][:1])[0])
    for name in ("dan", "anna", "ben"):  # a trade of no cards declines
        state = apply(state, "swap", player=name, give=[], take=[])
    assert (state.phase, state.on_turn) == ("play", "anna")
    assert state.hands is not None
    assert all(len(hand) == 7 for hand in state.hands) and state.counts == (7, 7, 7, 7)
    assert_every_card_once(state)


def test_the_leaders_lead_closes_swapping_and_the_others_keep_their_hands() -> None:
    state = seven_each(anna_table())
    state = apply(state, "swapping", player="anna", open=True)
    assert state.hands is not None
    state = apply(state, "swap", player="ben", give=names(state.hands[1][:1]), take=["Kh"])
    assert state.hands is not None
    lead = names(state.hands[0][:1])
    state = play(state, "anna", *lead)
    assert state.phase == "play" and state.on_turn == "ben"
    with pytest.raises(IllegalMove, match="'swap' is not allowed now"):
        apply(state, "swap", player="cara", give=[], take=[])
    closed = seven_each(anna_table())
    closed = play(closed, "anna", *lead)  # leading without a decision keeps swapping closed
    assert closed.trick[0].kind == "lead" and closed.stock_count == 52 - 28


def test_variation_no_swapping_goes_straight_to_the_lead() -> None:
    state = seven_each(anna_table(swapping=False))
    assert (state.phase, state.on_turn) == ("play", "anna")
    with pytest.raises(IllegalMove, match="not allowed now"):
        apply(state, "swapping", player="anna", open=True)


def test_seven_players_fit_and_eight_do_not() -> None:
    seven = start([f"p{i}" for i in range(7)])
    state = seven_each(seven)
    assert state.stock is not None
    assert len(state.stock) == 3
    with pytest.raises(IllegalMove, match="hand_size"):
        start([f"p{i}" for i in range(8)])


def test_swaps_are_limited_by_the_cards_left_in_the_stock() -> None:
    players = [f"p{i}" for i in range(7)]
    state = seven_each(start(players, dealer="p6"))
    state = apply(state, "swapping", player="p0", open=True)
    assert max(len(e.data["give"]) for e in legal_moves(state) if e.kind == "swap") == 3
    assert state.hands is not None and state.stock is not None
    stock = [str(card) for card in sorted(state.stock)]
    state = apply(state, "swap", player="p0", give=names(state.hands[0][:3]), take=stock)
    assert state.stock == frozenset() and state.stock_count == 0
    assert state.hands is not None
    swaps = [e.data for e in legal_moves(state) if e.kind == "swap"]
    assert swaps == [{"player": f"p{i}", "give": [], "take": []} for i in range(1, 7)]
    with pytest.raises(IllegalMove, match="not in the stock"):
        apply(state, "swap", player="p1", give=names(state.hands[1][:1]), take=["2c"])
    assert_every_card_once(state)


# --- leads and replies -----------------------------------------------------------------


def test_lead_is_one_card_or_two_of_the_same_value() -> None:
    state = anna_table(swapping=False, hand_size=4)
    state = deal(
        state,
        anna=["8c", "8d", "9c", "2h"],
        ben=["9d", "9h", "3c", "4c"],
        cara=["As", "Ac", "3d", "4d"],
        dan=["5c", "5d", "6c", "7c"],
    )
    with pytest.raises(IllegalMove, match="same value"):
        play(state, "anna", "8c", "9c")
    with pytest.raises(IllegalMove, match="keep a last card"):
        play(state, "anna", "8c", "8d", "9c", "2h")
    with pytest.raises(IllegalMove, match="does not hold"):
        play(state, "anna", "Kd")
    state = play(state, "anna", "8c", "8d")
    with pytest.raises(IllegalMove, match="higher pair"):
        play(state, "ben", "3c")  # two eights are never beaten by a single card...
    with pytest.raises(IllegalMove, match="higher pair"):
        play(state, "ben", "9d", "3c")  # ...nor by two cards of different values
    state = play(state, "ben", "9d", "9h")
    with pytest.raises(IllegalMove, match="higher pair"):
        play(state, "cara", "Ac")  # not by a single ace either
    state = play(state, "cara", "As", "Ac")
    with pytest.raises(IllegalMove, match="lowest card, 5c or 5d"):
        play(state, "dan", "7c")
    state = play(state, "dan", "5d")  # cannot beat a pair of aces: dumps one lowest single
    assert state.on_turn == "cara"  # the trick winner leads the next trick
    assert state.trick == ()
    assert {"8c", "8d", "9d", "9h", "As", "Ac", "5d"} <= {str(c) for c in state.discards}


def test_matching_takes_the_lead() -> None:
    state = anna_table(swapping=False, hand_size=3)
    state = deal(
        state,
        anna=["9c", "2c", "3c"],
        ben=["Kd", "4d", "5d"],
        cara=["Kh", "4h", "5h"],
        dan=["2s", "3s", "4s"],
    )
    state = play(state, "anna", "9c")
    state = play(state, "ben", "Kd")
    state = play(state, "cara", "Kh")  # equal to the last play: cara now holds the trick
    state = play(state, "dan", "2s")
    assert state.on_turn == "cara"


def test_must_beat_when_possible_and_may_match_instead() -> None:
    state = anna_table(swapping=False, hand_size=3)
    state = deal(
        state,
        anna=["9c", "2c", "3c"],
        ben=["9d", "Qd", "5d"],
        cara=["Kh", "4h", "5h"],
        dan=["2s", "3s", "4s"],
    )
    state = play(state, "anna", "9c")
    with pytest.raises(IllegalMove, match="and must"):
        play(state, "ben", "5d")
    matched = play(state, "ben", "9d")
    assert matched.trick[-1].kind == "match"
    beaten = play(state, "ben", "Qd")
    assert beaten.trick[-1].kind == "beat"


def test_a_player_who_can_match_but_not_beat_may_dump_unless_the_table_says_must_match() -> None:
    hands = {
        "anna": ["9c", "2c", "3c"],
        "ben": ["9d", "4d", "5d"],
        "cara": ["Kh", "4h", "5h"],
        "dan": ["2s", "3s", "4s"],
    }
    state = play(deal(anna_table(swapping=False, hand_size=3), **hands), "anna", "9c")
    dumped = play(state, "ben", "4d")  # by default matching is allowed, never required
    assert dumped.trick[-1].kind == "dump"
    strict = play(
        deal(anna_table(swapping=False, hand_size=3, must_match=True), **hands), "anna", "9c"
    )
    with pytest.raises(IllegalMove, match=r"can play a higher or equal card than 9c \(9d\)"):
        play(strict, "ben", "4d")
    assert play(strict, "ben", "9d").trick[-1].kind == "match"
    hidden = apply(hidden_table(swapping=False, hand_size=3, must_match=True), "deal")
    hidden = play(hidden, "anna", "9c")
    hidden = play(hidden, "ben", "4d")
    for name, card in (
        ("cara", "Kh"),
        ("dan", "2s"),
        ("cara", "4h"),
        ("dan", "4s"),
        ("anna", "2c"),
        ("ben", "5d"),
    ):
        hidden = play(hidden, name, card)
    hidden = reveal(hidden, anna="3c", ben="9d", cara="5h", dan="3s")
    assert RULES.summary(hidden)["deals"][0]["revokes"] == [
        "ben dumped 4d against 9c but held 9d, a higher or equal card"
    ]


def test_rank_order_puts_king_above_ten_and_value_order_makes_them_equal() -> None:
    ten, king = PlayingCard.parse("10c"), PlayingCard.parse("Kc")
    assert strength(king, TrickOptions()) > strength(ten, TrickOptions())
    by_value = TrickOptions(higher="value")
    assert strength(king, by_value) == strength(ten, by_value)
    state = anna_table(swapping=False, hand_size=2, higher="value")
    state = deal(state, anna=["10c", "2c"], ben=["Kd", "3d"], cara=["Jh", "4h"], dan=["Qs", "5s"])
    state = play(state, "anna", "10c")
    state = play(state, "ben", "Kd")
    assert state.trick[-1].kind == "match"


def test_value_order_lets_a_jack_and_queen_make_a_pair() -> None:
    state = start(["a", "b"], higher="value", swapping=False, hand_size=3)
    state = deal(state, a=["2c", "3c", "4c"], b=["Jd", "Qd", "5d"])
    state = play(state, "b", "Jd", "Qd")
    assert state.trick[0].kind == "lead"


def test_player_down_to_one_card_keeps_it_and_a_play_never_empties_a_hand() -> None:
    state = start(["anna", "ben", "cara"], swapping=False, hand_size=3, dealer="cara")
    state = deal(state, anna=["2c", "3c", "Ac"], ben=["4d", "5d", "Kd"], cara=["6h", "7h", "Qh"])
    state = play(state, "anna", "2c")
    state = play(state, "ben", "4d")
    state = play(state, "cara", "6h")
    state = play(state, "cara", "7h")  # cara leads again and is down to one card
    state = play(state, "anna", "Ac")
    with pytest.raises(IllegalMove, match="keep a last card"):
        play(state, "ben", "5d", "Kd")
    state = play(state, "ben", "5d")
    assert state.phase == "deal"  # everybody holds one card: the deal is scored
    result = RULES.summary(state)["deals"][0]
    assert result["last_cards"] == {"anna": "3c", "ben": "Kd", "cara": "Qh"}
    assert result["scores"] == {"anna": 0, "ben": 10, "cara": 10}


def test_one_card_players_sit_out_and_a_one_card_winner_hands_on_the_lead() -> None:
    state = start(["anna", "ben", "cara"], swapping=False, hand_size=4, dealer="cara")
    state = deal(
        state,
        anna=["2c", "2d", "3c", "Ac"],
        ben=["5d", "5h", "6d", "Kd"],
        cara=["4h", "4s", "9h", "Qh"],
    )
    state = play(state, "anna", "2c", "2d")
    state = play(state, "ben", "5d", "5h")
    state = play(state, "cara", "4h")  # cannot beat the fives: one lowest single
    assert state.on_turn == "ben"
    state = play(state, "ben", "6d")  # ben is down to his king
    state = play(state, "cara", "9h")
    state = play(state, "anna", "Ac")  # anna wins the trick on her last-but-one card
    assert state.on_turn == "cara"  # anna and ben hold one card each: cara leads
    state = play(state, "cara", "4s")  # nobody left to answer: the trick ends at once
    assert state.phase == "deal"
    result = RULES.summary(state)["deals"][0]
    assert result["last_cards"] == {"anna": "3c", "ben": "Kd", "cara": "Qh"}


# --- hidden hands: what a camera over the table sees -----------------------------------


def hidden_table(**options: Any) -> TrickState:
    """Anna, Ben, Cara and Dan with Dan dealing, hands hidden (the default)."""
    return RULES.start(
        Event(
            "start",
            {
                "game": "trick",
                "players": ["anna", "ben", "cara", "dan"],
                "options": {"dealer": "dan", **options},
            },
        )
    )


def reveal(state: TrickState, **cards: str) -> TrickState:
    return apply(state, "reveal", cards=cards)


def test_hidden_hands_are_the_default_and_a_deal_names_no_cards() -> None:
    state = hidden_table()
    assert state.options.hands == "hidden" and state.hands is None and state.stock is None
    with pytest.raises(IllegalMove, match="a deal names no cards"):
        deal(state, anna=["2c"] * 7)
    state = apply(state, "deal")
    assert state.counts == (7, 7, 7, 7) and state.stock_count == 24
    summary = RULES.summary(state)
    assert summary["hands"] == "hidden" and summary["cards_held"]["dan"] == 7
    assert summary["on_turn"] == "anna" and summary["stock"] == 24
    assert [e.data for e in legal_moves(state)] == [  # the hands, so the leads, are unknown
        {"player": "anna", "open": True},
        {"player": "anna", "open": False},
    ]
    assert legal_moves(apply(state, "swapping", player="anna", open=False)) == []
    with pytest.raises(IllegalMove, match="'hands' must be 'hidden' or 'declared'"):
        start(["anna", "ben"], hands="open")


def test_hidden_worked_example_is_scored_when_the_last_cards_are_turned_over() -> None:
    state = apply(hidden_table(swapping=False, hand_size=2), "deal")
    state = play(state, "anna", "2c")
    state = play(state, "ben", "4h")
    state = play(state, "cara", "5c")
    state = play(state, "dan", "6d")
    assert state.phase == "reveal" and state.counts == (1, 1, 1, 1) and state.on_turn is None
    with pytest.raises(IllegalMove, match="waiting for the last cards to be turned over"):
        apply(state, "deal")
    state = reveal(state, anna="As", ben="9d", cara="3s", dan="Jc")
    result = RULES.summary(state)["deals"][0]
    assert result["last_cards"] == {"anna": "As", "ben": "9d", "cara": "3s", "dan": "Jc"}
    assert result["scores"] == {"anna": 11, "ben": 0, "cara": 0, "dan": 0}
    assert result["revokes"] == []  # every dump was the player's lowest card
    assert state.phase == "deal" and RULES.summary(state)["dealer"] == "anna"


def test_hidden_hands_plays_are_checked_against_what_was_seen_and_counted() -> None:
    state = apply(hidden_table(swapping=False, hand_size=3), "deal")
    with pytest.raises(IllegalMove, match="keep a last card"):
        play(state, "anna", "9c", "9d", "9h")
    state = play(state, "anna", "9c")
    with pytest.raises(IllegalMove, match="9c was already played this deal"):
        play(state, "ben", "9c")
    with pytest.raises(IllegalMove, match="did not play a higher card than 9c"):
        play(state, "ben", "Kd", "Kh")
    state = play(state, "ben", "Kd")
    state = play(state, "cara", "2h")  # a dump: the referee takes it on trust for now
    state = play(state, "dan", "Kh")  # dan matches and takes the lead
    assert state.on_turn == "dan" and state.counts == (2, 2, 2, 2)
    with pytest.raises(IllegalMove, match="keep a last card"):
        play(state, "dan", "5c", "5d")  # a pair would leave dan no last card
    state = play(state, "dan", "5c")
    for name, card in (("anna", "6c"), ("ben", "7c"), ("cara", "8c")):
        state = play(state, name, card)
    assert state.phase == "reveal"
    bad_reveals = [
        ({"anna": "Ah", "ben": "Ah", "cara": "2c", "dan": "3c"}, "the same card is named twice"),
        ({"anna": "Kd", "ben": "Ah", "cara": "2c", "dan": "3c"}, "Kd was already played"),
        ({"anna": "Ah", "ben": "2s"}, "the last card of each of"),
        ({"anna": "Zz", "ben": "Ah", "cara": "2c", "dan": "3c"}, "unknown card 'Zz'"),
    ]
    for cards, message in bad_reveals:
        with pytest.raises(IllegalMove, match=message):
            apply(state, "reveal", cards=cards)
    state = reveal(state, anna="Ah", ben="2s", cara="Jd", dan="4c")
    assert RULES.summary(state)["points"] == {"anna": 11, "ben": 0, "cara": 0, "dan": 0}


def test_hidden_swaps_are_counts_in_any_order_within_the_stock() -> None:
    state = apply(hidden_table(), "deal")
    state = apply(state, "swapping", player="anna", open=True)
    with pytest.raises(IllegalMove, match="a swap gives only 'count'"):
        apply(state, "swap", player="dan", give=["2c"], take=["3c"])
    with pytest.raises(IllegalMove, match="'count', the number of cards traded"):
        apply(state, "swap", player="dan", count=-1)
    with pytest.raises(IllegalMove, match="holds 7 cards and cannot trade 8"):
        apply(state, "swap", player="dan", count=8)
    for name, count in (("dan", 7), ("cara", 7), ("ben", 7)):
        state = apply(state, "swap", player=name, count=count)
    assert state.stock_count == 3 and state.counts == (7, 7, 7, 7)
    with pytest.raises(IllegalMove, match="cannot take 4: the stock has 3 left"):
        apply(state, "swap", player="anna", count=4)
    assert [e.data["count"] for e in legal_moves(state) if e.kind == "swap"] == [0, 1, 2, 3]
    state = apply(state, "swap", player="anna", count=3)
    assert (state.phase, state.on_turn, state.stock_count) == ("play", "anna", 0)


def test_hidden_dumps_that_broke_the_rules_are_reported_at_the_reveal() -> None:
    state = apply(hidden_table(swapping=False, hand_size=3), "deal")
    state = play(state, "anna", "8s")
    state = play(state, "ben", "7c")  # ben holds 9d: he could have gone higher
    state = play(state, "cara", "6h")  # cara holds 2h: 6h was not her lowest card
    state = play(state, "dan", "3d")  # honest: dan's lowest, and nothing above the 8
    state = play(state, "anna", "Ks")
    for name, card in (("ben", "2c"), ("cara", "2h"), ("dan", "4d")):
        state = play(state, name, card)
    state = reveal(state, anna="As", ben="9d", cara="4h", dan="5d")
    assert RULES.summary(state)["deals"][0]["revokes"] == [
        "ben dumped 7c against 8s but held 9d, a higher card",
        "cara dumped 6h against 8s but held a lower card, 2h",
    ]
    assert RULES.summary(state)["points"]["anna"] == 11  # the deal still scores


def test_hidden_passes_that_broke_the_rules_are_reported_too() -> None:
    state = start(["anna", "ben"], hands="hidden", swapping=False, hand_size=2, passing=True)
    state = apply(state, "deal")  # anna deals, ben leads
    state = play(state, "ben", "5c")
    state = apply(state, "pass", player="anna")  # anna holds 9h: she could have gone higher
    assert state.counts == (2, 1) and state.on_turn == "anna"  # ben holds one card now
    state = play(state, "anna", "9h")  # nobody left to answer: the deal ends
    state = reveal(state, anna="3d", ben="Qd")
    result = RULES.summary(state)["deals"][0]
    assert result["revokes"] == ["anna passed against 5c but held 9h, a higher card"]
    assert result["scores"] == {"anna": 0, "ben": 10}


# --- passing variation -----------------------------------------------------------------


def test_variation_passing_instead_of_dumping() -> None:
    state = anna_table(swapping=False, hand_size=2, passing=True)
    state = deal(state, anna=["Kc", "2c"], ben=["3d", "4d"], cara=["Ah", "4h"], dan=["5s", "6s"])
    with pytest.raises(IllegalMove, match="cannot pass"):
        apply(state, "pass", player="anna")
    state = play(state, "anna", "Kc")
    with pytest.raises(IllegalMove, match="or pass"):
        play(state, "ben", "3d")
    state = apply(state, "pass", player="ben")
    assert state.hands is not None
    assert len(state.hands[1]) == 2  # ben keeps his hand
    with pytest.raises(IllegalMove, match="and must"):
        apply(state, "pass", player="cara")
    state = play(state, "cara", "Ah")
    state = apply(state, "pass", player="dan")
    assert state.on_turn == "dan"  # cara won on her last-but-one card: the next seat leads
    without = anna_table(swapping=False, hand_size=2)
    without = deal(
        without, anna=["Kc", "2c"], ben=["3d", "4d"], cara=["Ah", "4h"], dan=["5s", "6s"]
    )
    without = play(without, "anna", "Kc")
    with pytest.raises(IllegalMove, match="passing is not allowed"):
        apply(without, "pass", player="ben")


# --- ending the game -------------------------------------------------------------------


def test_game_ends_after_the_deal_reaching_the_target_and_highest_total_wins() -> None:
    state = start(["anna", "ben"], swapping=False, hand_size=2)  # anna deals, ben leads
    state = two_player_deal(state, ["3h", "Kd"], ["5c", "As"])  # ben keeps K, anna A
    assert RULES.summary(state)["points"] == {"anna": 11, "ben": 0}
    state = two_player_deal(state, ["4c", "2d"], ["Qs", "Ah"])  # anna leads; ben keeps A
    summary = RULES.summary(state)
    assert summary["points"] == {"anna": 11, "ben": 11} and not summary["over"]
    assert summary["winners"] == []
    state = two_player_deal(state, ["3c", "Kh"], ["5d", "Jc"])  # ben leads: both keep ten
    summary = RULES.summary(state)
    assert summary["over"] and summary["points"] == {"anna": 21, "ben": 21}
    assert summary["winners"] == ["anna", "ben"]  # level on the top total: they share
    with pytest.raises(IllegalMove, match="over"):
        deal(state, anna=["2c", "3c"], ben=["4c", "5c"])


def test_target_is_configurable_and_single_winner() -> None:
    state = start(["anna", "ben"], swapping=False, hand_size=2, target=11)
    state = two_player_deal(state, ["3h", "Kd"], ["5c", "As"])
    summary = RULES.summary(state)
    assert summary["over"] and summary["winners"] == ["anna"]


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": 1}, "unknown trick option 'colour'"),
        ({"target": "21"}, "'target' must be int"),
        ({"higher": "suit"}, "'higher' must be 'rank' or 'value'"),
        ({"dealer": "zoe"}, "'dealer' 'zoe' is not one of the players"),
        ({"hand_size": 1}, "'hand_size' 1 does not fit"),
    ],
)
def test_bad_options_are_named(options: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        start(["anna", "ben"], **options)


def test_bad_players_and_events_get_one_line_messages() -> None:
    with pytest.raises(IllegalMove, match="two or more distinct"):
        start(["anna", "anna"])
    state = start(["anna", "ben"], hand_size=2)
    with pytest.raises(IllegalMove, match="anna was dealt 3 cards, not 2"):
        deal(state, anna=["2c", "3c", "4c"], ben=["5c", "6c"])
    with pytest.raises(IllegalMove, match="unknown card 'Zz'"):
        deal(state, anna=["2c", "Zz"], ben=["5c", "6c"])
    with pytest.raises(IllegalMove, match="jokers"):
        deal(state, anna=["2c", "JK"], ben=["5c", "6c"])
    with pytest.raises(IllegalMove, match="two players"):
        deal(state, anna=["2c", "3c"], ben=["3c", "6c"])
    with pytest.raises(IllegalMove, match="each of"):
        deal(state, anna=["2c", "3c"])
    with pytest.raises(IllegalMove, match="unknown trick event 'bid'"):
        apply(state, "bid")
    with pytest.raises(IllegalMove, match="waiting for the deal"):
        play(state, "anna", "2c")


def test_no_timers() -> None:
    assert RULES.due(start(["anna", "ben"]), 1e9) == []


# --- random games from legal moves -------------------------------------------------------

SETUPS = st.fixed_dictionaries(
    {
        "players": st.integers(min_value=2, max_value=7),
        "swapping": st.booleans(),
        "passing": st.booleans(),
        "ace_low": st.booleans(),
        "score_all": st.booleans(),
        "higher": st.sampled_from(["rank", "value"]),
        "must_match": st.booleans(),
        "hand_size": st.integers(min_value=2, max_value=7),
    }
)


def random_game(
    setup: dict[str, Any], seed: int, deals: int = 3
) -> tuple[list[TrickState], list[Event]]:
    """Play up to ``deals`` deals with declared hands, choosing uniformly among the legal
    moves; the states after each event, and the events."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(setup["players"])]
    options = {k: v for k, v in setup.items() if k != "players"}
    options["hand_size"] = min(options["hand_size"], 52 // len(players))
    states, events = [start(players, **options)], []
    while states[-1].phase != "over" and len(states[-1].deals) < deals:
        state = states[-1]
        if state.phase == "deal":
            shuffled = sorted(DECK)
            rng.shuffle(shuffled)
            size = state.options.hand_size
            hands = {
                p: [str(c) for c in shuffled[i * size : (i + 1) * size]]
                for i, p in enumerate(players)
            }
            event = Event("deal", {"hands": hands})
        else:
            event = rng.choice(legal_moves(state))
            if event.kind == "swap" and state.stock is not None:
                taken = rng.sample(sorted(state.stock), len(event.data["take"]))
                event = Event("swap", {**event.data, "take": [str(c) for c in taken]})
        states.append(RULES.apply(state, event))
        events.append(event)
    return states, events


def as_the_camera_sees_it(states: list[TrickState], events: list[Event]) -> list[Event]:
    """The same game with hidden hands: deals and swaps without cards, and a reveal of
    the last cards after each deal's last trick."""
    seen = []
    for before, after, event in zip(states, states[1:], events, strict=False):
        if event.kind == "deal":
            seen.append(Event("deal", {}))
        elif event.kind == "swap":
            seen.append(
                Event("swap", {"player": event.data["player"], "count": len(event.data["give"])})
            )
        else:
            seen.append(event)
        if len(after.deals) > len(before.deals):
            last = dict(zip(after.players, names(after.deals[-1].last_cards), strict=True))
            seen.append(Event("reveal", {"cards": last}))
    return seen


@settings(max_examples=100, deadline=None)
@given(setup=SETUPS, seed=st.integers(min_value=0, max_value=2**32))
def test_random_legal_games_keep_every_card_in_one_place(setup: dict[str, Any], seed: int) -> None:
    states, _ = random_game(setup, seed)
    for before, after in pairwise(states):
        assert_every_card_once(after)
        assert all(b <= a for b, a in zip(before.totals, after.totals, strict=True))
        assert after.hands is not None
        assert all(len(hand) >= 1 for hand in after.hands) or not after.deals
        seats = range(len(after.players))
        assert after.totals == tuple(sum(d.scores[i] for d in after.deals) for i in seats)
    last = states[-1]
    assert len(last.deals) == 3 or last.phase == "over"
    for result in last.deals:
        assert max(result.scores) > 0
    summary = RULES.summary(last)
    json.dumps(summary)
    assert summary["over"] == (last.phase == "over")


@settings(max_examples=30, deadline=None)
@given(setup=SETUPS, seed=st.integers(min_value=0, max_value=2**32))
def test_moves_not_listed_as_legal_are_refused(setup: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    for state in random_game(setup, seed, deals=1)[0]:
        if state.phase != "play":
            continue
        legal = {tuple(sorted(e.data.get("cards", []))) for e in legal_moves(state)}
        seat = state.waiting[0]
        assert state.hands is not None
        hand = [str(c) for c in state.hands[seat]]
        guess = tuple(sorted(rng.sample(hand, min(len(hand), rng.choice([1, 2])))))
        event = Event("play", {"player": state.on_turn, "cards": list(guess)})
        if guess in legal:
            RULES.apply(state, event)
        else:
            with pytest.raises(IllegalMove):
                RULES.apply(state, event)


@settings(max_examples=40, deadline=None)
@given(setup=SETUPS, seed=st.integers(min_value=0, max_value=2**32))
def test_legal_games_seen_by_a_camera_score_the_same_without_revokes(
    setup: dict[str, Any], seed: int
) -> None:
    states, events = random_game(setup, seed)
    hidden = RULES.start(
        Event(
            "start",
            {
                "game": "trick",
                "players": list(states[0].players),
                "options": {**setup_options(setup), "hands": "hidden"},
            },
        )
    )
    for event in as_the_camera_sees_it(states, events):
        hidden = RULES.apply(hidden, event)
        assert_known_cards_once(hidden)
    summary, declared = RULES.summary(hidden), RULES.summary(states[-1])
    assert summary["points"] == declared["points"] and summary["over"] == declared["over"]
    assert [d["last_cards"] for d in summary["deals"]] == [
        d["last_cards"] for d in declared["deals"]
    ]
    assert all(d["revokes"] == [] for d in summary["deals"])


def setup_options(setup: dict[str, Any]) -> dict[str, Any]:
    players = setup["players"]
    options = {k: v for k, v in setup.items() if k != "players"}
    return {**options, "hand_size": min(options["hand_size"], 52 // players)}


# --- the example log ---------------------------------------------------------------------


def assert_known_cards_once(state: TrickState) -> None:
    """Hidden hands: every card seen is in one place, and the cards each player holds plus
    the cards played this deal are the cards dealt (a swap gives and takes as many)."""
    seen = [card for cards in state.places().values() for card in cards]
    assert len(seen) == len(set(seen))
    if state.played:
        played = [card for cards in state.played for card in cards]
        assert set(seen) == set(played)
        dealt = state.options.hand_size * len(state.players)
        assert sum(state.counts) + len(played) == dealt


def test_example_log_replays_to_a_finished_game() -> None:
    events = [Event.from_json(line) for line in LOG.read_text().splitlines()]
    assert events[0].kind == "start" and events[0].data["game"] == "trick"
    assert "hands" not in events[0].data["options"]  # the default: hidden hands, a camera
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    state = RULES.start(events[0])
    for event in events[1:]:
        state = RULES.apply(state, event)
        assert_known_cards_once(state)
    summary = RULES.summary(state)
    assert summary["over"]
    assert max(summary["points"].values()) >= summary["target"]
    assert summary["winners"] == [
        p for p, total in summary["points"].items() if total == max(summary["points"].values())
    ]
    assert all(deal["revokes"] == [] for deal in summary["deals"])
    kinds = {e.kind for e in events}
    assert {"deal", "swapping", "swap", "play", "reveal"} <= kinds
    swappers = [e.data["player"] for e in events if e.kind == "swap"][:4]
    assert swappers != ["ben", "cara", "dan", "anna"]  # not in seat order from the leader


def test_the_example_log_through_the_referee_on_a_real_store(tmp_path: Path) -> None:
    events = [Event.from_json(line) for line in LOG.read_text().splitlines()]
    clock, store = ManualClock(events[0].t), Store(tmp_path / "games.sqlite")
    start_data = {k: v for k, v in events[0].data.items() if k != "game"}
    referee = Referee.start(store, clock, "trick", start_data)
    for event in events[1:]:
        clock.now = event.t
        referee.submit(event.kind, event.data)
    summary = referee.summary()
    assert summary["over"]
    table = {s.player: (s.points, s.wins) for s in standings(store, "trick")}
    assert table == {p: (summary["points"][p], int(p in summary["winners"])) for p in table}
    assert set(table) == set(summary["points"])


@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [
        ("play", {"player": "anna"}, "a 'play' needs 'cards'"),
        ("play", {"player": "anna", "cards": "2c"}, "'cards' of a 'play' must be a list"),
        ("play", {"cards": ["2c"]}, "a 'play' needs 'player'"),
        ("swapping", {"player": "anna", "open": "yes"}, "must be true or false"),
        ("swap", {"player": "anna"}, "a 'swap' needs 'count' while hands are hidden"),
        ("swap", {"player": "anna", "count": 1.5}, "must be a whole number"),
    ],
)
def test_malformed_data_is_its_own_error_not_a_rule_breach(
        kind: str, data: dict[str, Any], message: str) -> None:
    state = apply(start(["anna", "ben"], hands="hidden", dealer="ben"), "deal")
    if kind in ("swap", "play"):
        state = apply(state, "swapping", player="anna", open=True)
    with pytest.raises(MalformedMove, match=message):
        apply(state, kind, **data)
