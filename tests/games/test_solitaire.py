"""Twenty One solitaire on a real deck: every rule, scoring example and tip of the text."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.clock import ManualClock
from companion.engine.events import Event
from companion.engine.referee import Referee
from companion.engine.scores import high_scores
from companion.engine.store import Store
from companion.errors import IllegalMove, MalformedMove
from companion.games.solitaire.piles import clear_points, pile_value
from companion.games.solitaire.rules import DECK, RULES, SolitaireState, legal_moves
from companion.playing_cards import PlayingCard

LOGS = Path(__file__).resolve().parents[2] / "docs" / "logs"
LOG = LOGS / "solitaire.jsonl"
DEFAULT_LOG = LOGS / "solitaire-default.jsonl"
TEN_VALUES = ("10", "J", "Q", "K")


def cards(*names: str) -> tuple[PlayingCard, ...]:
    return tuple(PlayingCard.parse(name) for name in names)


def start(t: float = 0.0, **options: Any) -> SolitaireState:
    data = {"game": "solitaire", "players": ["sol"], "options": options}
    return RULES.start(Event("start", data, t=t))


def put(state: SolitaireState, card: str, column: int, t: float = 1.0) -> SolitaireState:
    """Turn up ``card`` from the stock and place it on ``column``."""
    state = RULES.apply(state, Event("draw", {"card": card}, t=t))
    return RULES.apply(state, Event("place", {"column": column}, t=t))


def build(state: SolitaireState, column: int, *names: str) -> SolitaireState:
    for name in names:
        state = put(state, name, column)
    return state


def assert_every_card_once(state: SolitaireState) -> None:
    counts = Counter(card for pile in state.places().values() for card in pile)
    assert set(counts) == DECK
    assert set(counts.values()) == {1}


# --- card values -------------------------------------------------------------------------


def test_numbers_count_face_value_and_pictures_ten() -> None:
    for rank in range(2, 11):
        assert pile_value(cards(f"{rank}h")) == rank
    assert [pile_value(cards(f"{r}s")) for r in "JQK"] == [10, 10, 10]


def test_ace_is_eleven_only_beside_exactly_one_ten_value_card() -> None:
    for rank in TEN_VALUES:
        assert pile_value(cards("Ad", f"{rank}c")) == 21
        assert pile_value(cards(f"{rank}c", "Ad")) == 21
    assert pile_value(cards("As")) == 1  # reading: a lone ace counts 1
    assert pile_value(cards("As", "9d")) == 10  # with a card that is not worth ten: 1
    assert pile_value(cards("As", "Ah")) == 2
    assert pile_value(cards("10c", "Kh", "Ad")) == 21  # with two or more cards: 1
    assert pile_value(cards("Ac", "5d", "5h")) == 11


# --- scoring -----------------------------------------------------------------------------


@pytest.mark.parametrize("rank", TEN_VALUES)
def test_ace_with_a_ten_value_card_scores_51(rank: str) -> None:
    state = build(start(), 0, f"{rank}s", "Ah")
    assert (state.score, state.columns[0]) == (51, ())
    assert clear_points(cards("Ah", f"{rank}s")) == 51


@pytest.mark.parametrize(
    "pile", [("6c", "6d", "9h"), ("6c", "7d", "8h"), ("7c", "7d", "7h"), ("9c", "8d", "4h")]
)
def test_tip_three_card_combinations_score_31(pile: tuple[str, ...]) -> None:
    state = build(start(), 2, *pile)
    assert (state.score, state.columns[2]) == (31, ())
    assert set(cards(*pile)) <= state.cleared


@pytest.mark.parametrize("pair", [("9c", "2d"), ("8c", "3d"), ("4c", "7d"), ("5c", "6d")])
@pytest.mark.parametrize("ten", TEN_VALUES)
def test_tip_two_card_combinations_handle_a_ten_value_card(pair: tuple[str, str], ten: str) -> None:
    state = build(start(), 1, *pair)
    assert pile_value(state.columns[1]) == 11
    state = put(state, f"{ten}h", 1)
    assert (state.score, state.columns[1]) == (31, ())


def test_ten_ten_waits_for_an_ace_which_counts_one_and_scores_31() -> None:
    state = build(start(), 0, "10c", "Kd")
    assert pile_value(state.columns[0]) == 20
    with pytest.raises(IllegalMove, match="does not fit on column 0"):
        put(state, "2h", 0)
    state = put(state, "As", 0)
    assert (state.score, state.columns[0]) == (31, ())


def test_four_cards_totaling_21_score_21() -> None:
    state = build(start(), 3, "5c", "5d", "5h", "6s")
    assert (state.score, state.columns[3]) == (21, ())


def test_five_cards_worth_21_or_less_clear_and_score_their_value() -> None:
    state = build(start(), 0, "2c", "3d", "2h", "Ac", "4s")
    assert (state.score, state.columns[0]) == (12, ())
    state = build(state, 1, "2d", "3c", "4d", "5c", "7h")  # exactly 21 on the fifth card
    assert (state.score, state.columns[1]) == (12 + 21, ())
    assert clear_points(cards("2d", "3c", "4d", "5c", "7h")) == 21


def test_piles_below_21_stay_and_score_nothing() -> None:
    state = build(start(), 0, "9c", "9d")
    assert (state.score, len(state.columns[0])) == (0, 2)
    assert clear_points(cards("9c", "9d")) is None
    assert clear_points(cards("2c", "2d", "2h", "2s")) is None


def test_scores_accumulate_and_summary_exposes_score() -> None:
    state = build(start(), 0, "Kc", "As")
    state = build(state, 1, "7c", "7d", "7h")
    summary = RULES.summary(state)
    assert summary["score"] == 82 == summary["points"]["sol"]
    assert summary["game"] == "solitaire" and not summary["over"]
    json.dumps(summary)


# --- placing cards -------------------------------------------------------------------------


def test_an_empty_column_takes_any_card_and_the_next_card_comes_from_the_stock() -> None:
    state = start()
    for column, name in enumerate(("Kc", "Qd", "Jh", "10s")):
        state = put(state, name, column)
    assert [len(pile) for pile in state.columns] == [1, 1, 1, 1]
    assert len(state.stock) == 48 and state.current is None


def test_a_card_that_does_not_fit_is_refused_and_can_go_elsewhere() -> None:
    state = build(start(), 0, "Kc", "9d")
    state = RULES.apply(state, Event("draw", {"card": "5h"}, t=2.0))
    with pytest.raises(IllegalMove, match="5h does not fit on column 0: the pile is worth 19"):
        RULES.apply(state, Event("place", {"column": 0}, t=2.0))
    assert state.current == PlayingCard.parse("5h")  # rolled back: still turned up
    state = RULES.apply(state, Event("place", {"column": 1}, t=2.0))
    assert state.columns[1] == cards("5h")


def test_draw_and_place_in_turn() -> None:
    state = start()
    with pytest.raises(IllegalMove, match="draw one first"):
        RULES.apply(state, Event("place", {"column": 0}))
    state = RULES.apply(state, Event("draw", {"card": "4c"}))
    with pytest.raises(IllegalMove, match="place the turned-up 4c"):
        RULES.apply(state, Event("draw", {"card": "5c"}))
    with pytest.raises(IllegalMove, match="column 7 does not exist"):
        RULES.apply(state, Event("place", {"column": 7}))
    with pytest.raises(MalformedMove, match="'column' of a 'place' must be a whole number"):
        RULES.apply(state, Event("place", {"column": "left"}))
    with pytest.raises(MalformedMove, match="a 'draw' needs 'card'"):
        RULES.apply(replace(state, current=None), Event("draw", {}))
    state = RULES.apply(state, Event("place", {"column": 0}))
    with pytest.raises(IllegalMove, match="4c is not in the stock: it is in column:0"):
        RULES.apply(state, Event("draw", {"card": "4c"}))
    with pytest.raises(IllegalMove, match="unknown card 'Xy'"):
        RULES.apply(state, Event("draw", {"card": "Xy"}))
    with pytest.raises(IllegalMove, match="solitaire has no event kind 'undo'"):
        RULES.apply(state, Event("undo", {}))


def test_columns_are_configurable() -> None:
    state = start(columns=6)
    assert len(state.columns) == 6
    state = put(state, "Kc", 5)
    assert state.columns[5] == cards("Kc")
    with pytest.raises(IllegalMove, match="'columns' must be 1 to 12"):
        start(columns=0)
    with pytest.raises(IllegalMove, match="unknown solitaire option 'rows'"):
        start(rows=3)
    with pytest.raises(IllegalMove, match="exactly one player"):
        RULES.start(Event("start", {"game": "solitaire", "players": ["a", "b"]}))


# --- the deck, cleared cards and reshuffling -------------------------------------------------


def test_cleared_cards_are_set_aside_while_the_stock_lasts() -> None:
    state = build(start(time_limit=0), 0, "Kc", "As")
    assert state.cleared == set(cards("Kc", "As"))
    assert not state.cleared & state.stock
    with pytest.raises(IllegalMove, match="reshuffle only when the stock is empty"):
        RULES.apply(state, Event("reshuffle", {}))


def test_a_whole_deck_played_out_then_everything_off_the_board_reshuffled() -> None:
    rng = random.Random(7)
    state = start(time_limit=0, columns=12)
    while state.stock:
        state = RULES.apply(state, rng.choice(legal_moves(state)))
        places = legal_moves(state)
        state = RULES.apply(state, max(places, key=lambda e: len(state.columns[e.data["column"]])))
        assert not state.over
    on_board = {card for pile in state.columns for card in pile}
    assert on_board and state.cleared == DECK - on_board
    assert RULES.summary(state)["deck"] == 0
    with pytest.raises(IllegalMove, match="the stock is empty: reshuffle"):
        RULES.apply(state, Event("draw", {"card": "2c"}))
    assert legal_moves(state) == [Event("reshuffle", {})]
    state = RULES.apply(state, Event("reshuffle", {}))
    assert state.stock == DECK - on_board and not state.cleared and state.reshuffles == 1
    assert RULES.summary(state)["deck"] == 52 - len(on_board)
    assert {card for pile in state.columns for card in pile} == on_board
    assert_every_card_once(state)


# --- the end of the game ---------------------------------------------------------------------


def test_game_over_when_no_column_can_take_the_card_is_seen_by_the_referee() -> None:
    state = build(start(columns=2), 0, "Kc", "Qd")
    state = build(state, 1, "Jh", "9s")
    state = RULES.apply(state, Event("draw", {"card": "3c"}, t=5.0))
    assert state.over and state.ended == "blocked"
    assert legal_moves(state) == []
    summary = RULES.summary(state)
    assert summary["over"] and summary["ended"] == "blocked" and summary["current"] == "3c"
    with pytest.raises(IllegalMove, match="the game is over"):
        RULES.apply(state, Event("place", {"column": 0}, t=6.0))
    assert RULES.due(state, 1000.0) == []


def test_a_card_that_fits_somewhere_does_not_end_the_game() -> None:
    state = build(start(columns=2), 0, "Kc", "Qd")
    state = build(state, 1, "Jh", "9s")
    state = RULES.apply(state, Event("draw", {"card": "Ac"}, t=5.0))
    assert not state.over
    assert legal_moves(state) == [Event("place", {"column": 0}), Event("place", {"column": 1})]


def test_three_minute_countdown_by_default_with_warnings_then_time_out() -> None:
    state = start(t=100.0)
    assert state.countdown is not None and state.countdown.ends_at == 280.0
    assert RULES.due(state, 269.0) == []
    due = RULES.due(state, 300.0)
    assert [e.kind for e in due] == ["timer_warning"] * 10 + ["timer_expired"]
    assert due[-1].t == 280.0
    for event in due:
        state = RULES.apply(state, event)
    assert state.over and RULES.summary(state)["ended"] == "timeout"
    assert RULES.due(state, 400.0) == []


def test_no_move_after_time_and_time_limit_is_configurable() -> None:
    state = start(t=0.0, time_limit=60, warnings=0)
    state = put(state, "Kc", 0, t=59.0)
    with pytest.raises(IllegalMove, match="time is up at t=60"):
        RULES.apply(state, Event("draw", {"card": "As"}, t=60.0))
    with pytest.raises(IllegalMove, match="not the countdown's next event"):
        RULES.apply(state, Event("timer_expired", {"timer": "time", "remaining": 0}, t=30.0))
    [expiry] = RULES.due(state, 61.0)
    state = RULES.apply(state, expiry)
    assert RULES.summary(state)["score"] == 0 and state.ended == "timeout"
    assert RULES.summary(state)["ends_at"] == 60.0
    untimed = start(time_limit=0)
    assert untimed.countdown is None and RULES.due(untimed, 1e9) == []
    assert RULES.summary(untimed)["time_limit"] == 0.0
    assert RULES.summary(untimed)["ends_at"] is None


# --- random games from legal moves -------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    columns=st.integers(min_value=1, max_value=6),
)
def test_random_legal_games_keep_every_card_in_one_place(seed: int, columns: int) -> None:
    rng = random.Random(seed)
    states = [start(columns=columns, time_limit=0)]
    while not states[-1].over and len(states) < 600:
        states.append(RULES.apply(states[-1], rng.choice(legal_moves(states[-1]))))
    for before, after in pairwise(states):
        assert_every_card_once(after)
        assert after.score >= before.score
        assert all(pile_value(pile) <= 21 and len(pile) < 5 for pile in after.columns)
    last = states[-1]
    assert last.score == sum(clear.points for clear in last.clears)
    if last.over:
        assert last.current is not None
        assert not any(last.accepts(c, last.current) for c in range(columns))


# --- the example log -----------------------------------------------------------------------


def test_example_log_replays_to_a_finished_game() -> None:
    events = [Event.from_json(line) for line in LOG.read_text().splitlines()]
    assert events[0].kind == "start" and events[0].data["game"] == "solitaire"
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    state = RULES.start(events[0])
    for event in events[1:]:
        assert RULES.due(state, event.t - 1e-9) == []  # no timer event was left out
        state = RULES.apply(state, event)
        assert_every_card_once(state)
    summary = RULES.summary(state)
    assert summary["over"] and summary["score"] == sum(c.points for c in state.clears) > 0
    assert {"draw", "place", "reshuffle", "timer_warning"} <= {e.kind for e in events}
    assert events[-1].kind == "timer_expired" and summary["ended"] == "timeout"


def test_played_through_the_referee_on_a_real_store_the_score_is_a_high_score(
    tmp_path: Path,
) -> None:
    clock, store = ManualClock(1000.0), Store(tmp_path / "games.sqlite")
    referee = Referee.start(store, clock, "solitaire", {"players": ["ann"]})
    for card in ("Qh", "Ac", "7c", "7d", "7h"):
        clock.advance(2.0)
        referee.submit("draw", {"card": card})
        referee.submit("place", {"column": 0})
    with pytest.raises(IllegalMove, match="draw one first"):
        referee.submit("place", {"column": 1})
    clock.advance(200.0)
    ticked = referee.tick()
    assert [e.kind for e in ticked][-1] == "timer_expired" and ticked[-1].t == 1180.0
    assert referee.summary()["over"] and referee.summary()["score"] == 51 + 31
    resumed = Referee.resume(Store(tmp_path / "games.sqlite"), referee.game_id, clock)
    assert resumed.summary() == referee.summary()
    assert [(e.player, e.value) for e in high_scores(store, "solitaire")] == [("ann", 82.0)]


def test_default_example_log_four_columns_three_minutes_ends_blocked(tmp_path: Path) -> None:
    events = [Event.from_json(line) for line in DEFAULT_LOG.read_text().splitlines()]
    assert "options" not in events[0].data  # the defaults
    clock, store = ManualClock(events[0].t), Store(tmp_path / "games.sqlite")
    referee = Referee.start(store, clock, "solitaire", {"players": events[0].data["players"]})
    assert len(referee.state.columns) == 4 and referee.summary()["ends_at"] == 180.0
    for event in events[1:]:
        clock.now = event.t
        referee.submit(event.kind, event.data)
        assert_every_card_once(referee.state)
    state, summary = referee.state, referee.summary()
    assert summary["over"] and summary["ended"] == "blocked" and events[-1].t < 180.0
    assert events[-1].kind == "draw" and summary["current"] == events[-1].data["card"]
    assert state.current is not None
    assert all(
        len(pile) > 0 and not state.accepts(c, state.current)
        for c, pile in enumerate(state.columns)
    )
    assert summary["score"] == sum(c.points for c in state.clears)
    assert {c.points for c in state.clears} >= {51, 31}
    assert any(len(c.cards) == 5 for c in state.clears)
    assert [(e.player, e.value) for e in high_scores(store, "solitaire")] == [
        ("sol", float(summary["score"]))
    ]
