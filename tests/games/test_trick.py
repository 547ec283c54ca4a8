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

from companion.clock import ManualClock
from companion.errors import IllegalMove
from companion.events import Event
from companion.games.trick import (
    DECK,
    RULES,
    TrickOptions,
    TrickState,
    card_value,
    legal_moves,
    strength,
)
from companion.playing_cards import PlayingCard
from companion.referee import Referee
from companion.scores import standings
from companion.store import Store

LOG = Path(__file__).resolve().parents[2] / "docs" / "logs" / "trick.jsonl"


def start(players: list[str], **options: Any) -> TrickState:
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
    with pytest.raises(IllegalMove, match="must do so"):
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


def test_open_swapping_each_player_trades_once_in_turn_from_the_leader() -> None:
    state = seven_each(anna_table())
    state = apply(state, "swapping", player="anna", open=True)
    stock = sorted(state.stock)
    anna_gives = names(state.hands[0][:2])
    state = apply(state, "swap", player="anna", give=anna_gives, take=[str(c) for c in stock[:2]])
    assert set(anna_gives) <= {str(c) for c in state.discards}
    assert stock[0] in state.hands[0] and stock[0] not in state.stock
    with pytest.raises(IllegalMove, match="ben's turn"):
        apply(state, "swap", player="anna", give=[], take=[])
    with pytest.raises(IllegalMove, match="as many cards"):
        apply(state, "swap", player="ben", give=names(state.hands[1][:1]), take=[])
    with pytest.raises(IllegalMove, match="not in the stock"):
        apply(state, "swap", player="ben", give=names(state.hands[1][:1]), take=anna_gives[:1])
    with pytest.raises(IllegalMove, match="does not hold"):
        apply(state, "swap", player="ben", give=anna_gives[:1], take=[str(stock[5])])
    for name in ("ben", "cara", "dan"):
        state = apply(state, "swap", player=name, give=[], take=[])
    assert (state.phase, state.on_turn) == ("play", "anna")
    assert all(len(hand) == 7 for hand in state.hands)
    assert_every_card_once(state)


def test_variation_no_swapping_goes_straight_to_the_lead() -> None:
    state = seven_each(anna_table(swapping=False))
    assert (state.phase, state.on_turn) == ("play", "anna")
    with pytest.raises(IllegalMove, match="not allowed now"):
        apply(state, "swapping", player="anna", open=True)


def test_seven_players_fit_and_eight_do_not() -> None:
    seven = start([f"p{i}" for i in range(7)])
    state = seven_each(seven)
    assert len(state.stock) == 3
    with pytest.raises(IllegalMove, match="hand_size"):
        start([f"p{i}" for i in range(8)])


def test_swaps_are_limited_by_the_cards_left_in_the_stock() -> None:
    players = [f"p{i}" for i in range(7)]
    state = seven_each(start(players, dealer="p6"))
    state = apply(state, "swapping", player="p0", open=True)
    assert max(len(e.data["give"]) for e in legal_moves(state)) == 3
    stock = [str(card) for card in sorted(state.stock)]
    state = apply(state, "swap", player="p0", give=names(state.hands[0][:3]), take=stock)
    assert state.stock == frozenset()
    assert [e.data for e in legal_moves(state)] == [{"player": "p1", "give": [], "take": []}]
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
    with pytest.raises(IllegalMove, match="must do so"):
        play(state, "ben", "5d")
    matched = play(state, "ben", "9d")
    assert matched.trick[-1].kind == "match"
    beaten = play(state, "ben", "Qd")
    assert beaten.trick[-1].kind == "beat"


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
    assert len(state.hands[1]) == 2  # ben keeps his hand
    with pytest.raises(IllegalMove, match="must do so"):
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
        "hand_size": st.integers(min_value=2, max_value=7),
    }
)


def random_game(setup: dict[str, Any], seed: int, deals: int = 3) -> list[TrickState]:
    """Play up to ``deals`` deals choosing uniformly among the legal moves."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(setup["players"])]
    options = {k: v for k, v in setup.items() if k != "players"}
    options["hand_size"] = min(options["hand_size"], 52 // len(players))
    states = [start(players, **options)]
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
            if event.kind == "swap":
                taken = rng.sample(sorted(state.stock), len(event.data["take"]))
                event = Event("swap", {**event.data, "take": [str(c) for c in taken]})
        states.append(RULES.apply(state, event))
    return states


@settings(max_examples=100, deadline=None)
@given(setup=SETUPS, seed=st.integers(min_value=0, max_value=2**32))
def test_random_legal_games_keep_every_card_in_one_place(setup: dict[str, Any], seed: int) -> None:
    states = random_game(setup, seed)
    for before, after in pairwise(states):
        assert_every_card_once(after)
        assert all(b <= a for b, a in zip(before.totals, after.totals, strict=True))
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
    for state in random_game(setup, seed, deals=1):
        if state.phase != "play":
            continue
        legal = {tuple(sorted(e.data.get("cards", []))) for e in legal_moves(state)}
        seat = state.waiting[0]
        hand = [str(c) for c in state.hands[seat]]
        guess = tuple(sorted(rng.sample(hand, min(len(hand), rng.choice([1, 2])))))
        event = Event("play", {"player": state.on_turn, "cards": list(guess)})
        if guess in legal:
            RULES.apply(state, event)
        else:
            with pytest.raises(IllegalMove):
                RULES.apply(state, event)


# --- the example log ---------------------------------------------------------------------


def test_example_log_replays_to_a_finished_game() -> None:
    events = [Event.from_json(line) for line in LOG.read_text().splitlines()]
    assert events[0].kind == "start" and events[0].data["game"] == "trick"
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    state = RULES.start(events[0])
    for event in events[1:]:
        state = RULES.apply(state, event)
        assert_every_card_once(state)
    summary = RULES.summary(state)
    assert summary["over"]
    assert max(summary["points"].values()) >= summary["target"]
    assert summary["winners"] == [
        p for p, total in summary["points"].items() if total == max(summary["points"].values())
    ]
    kinds = {e.kind for e in events}
    assert {"deal", "swapping", "swap", "play"} <= kinds


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
