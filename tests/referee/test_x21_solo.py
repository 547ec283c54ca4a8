"""21X single player: stopwatch, mulligan, make 21, score area, reshuffle, best times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cardmath.solver import solve
from companion.engine.events import Event
from companion.engine.replay import replay
from companion.engine.scores import best_times, personal_bests
from companion.errors import IllegalMove
from companion.games.x21_solo.rules import RULES, SoloState

from .tables import CELEBRITY, EXAMPLE_HAND, Table

SMALL_DECK = {"deck": ["6x", "2x+4", "x/2", "prime", "fib"], "cards": []}


def solo(tmp_path: Path, **data: Any) -> Table:
    return Table(tmp_path, "21x-solo", {"players": ["ann"], **data})


def test_the_stopwatch_starts_with_the_first_deal(tmp_path: Path) -> None:
    game = solo(tmp_path)
    assert game.referee.summary()["stopwatch_started_at"] is None
    summary = game.at(7).do("deal", card="6x")
    assert summary["stopwatch_started_at"] == 1007.0


def test_make_21_moves_the_hand_to_the_score_area(tmp_path: Path) -> None:
    game = solo(tmp_path)
    for card in ("6x", "2x+4"):
        game.do("deal", card=card)
    game.do("draw", card="x/2")
    missed = game.do("make21", x=1)
    assert missed["attempts"] == 1 and missed["hand"] == ["6x", "2x+4", "x/2"]
    assert missed["points"] == {"ann": 0} and missed["v"] == 1
    assert missed["miss"] == "tried with X = 1 but the cards make 12.5"
    assert game.do("make21", x=0)["miss"] == "tried with X = 0: X cannot be 0"
    scored = game.do("make21", x=2)
    assert scored["scored"] == [["6x", "2x+4", "x/2"]] and scored["hand"] == []
    assert scored["points"] == {"ann": 4} and scored["v"] == 2 and not scored["over"]
    assert scored["miss"] == "" and scored["attempts"] == 3


def test_v_counts_hands_in_the_score_area(tmp_path: Path) -> None:
    game = solo(tmp_path)
    for card in ("6x", "2x+4"):
        game.do("deal", card=card)
    game.do("draw", card="x/2")
    game.do("make21", x=2)
    for card in ("v", "10"):
        game.do("deal", card=card)
    game.do("draw", card="9")
    assert game.do("make21", x=1)["scored"][-1] == ["v", "10", "9"]  # V = 2


def test_a_full_game_ends_at_21_points_and_records_the_time(tmp_path: Path) -> None:
    game = solo(tmp_path)
    hands = [(["6x", "2x+4", "x/2"], 2), (["triangle", "10", "5"], 3),
             (["prime", "fib", "factorsum", "4"], 4), (["9", "x+5"], 7)]
    points: list[int] = []
    for step, (cards, x) in enumerate(hands):
        game.at(10 + 30 * step)
        for index, card in enumerate(cards):
            game.do("deal" if index < 2 else "draw", card=card)
        summary = game.at(30 + 30 * step).do("make21", x=x)
        points.append(summary["points"]["ann"])
    assert points == [4, 9, 19, 21]  # 19 points: play on; exactly 21: the end
    assert summary["over"] and summary["winners"] == ["ann"]
    assert summary["time"] == 110.0
    with pytest.raises(IllegalMove, match="over"):
        game.do("deal", card="6")
    assert best_times(game.store)[0].value == 110.0
    assert personal_bests(game.store) == {"ann": 110.0}


def test_mulligan_discards_and_reshuffle_makes_a_new_deck(tmp_path: Path) -> None:
    game = solo(tmp_path, **SMALL_DECK)
    for card in ("6x", "2x+4"):
        game.do("deal", card=card)
    game.do("draw", card="x/2")
    with pytest.raises(IllegalMove, match="deck still has 2 cards"):
        game.do("reshuffle")
    game.do("mulligan")
    for card in ("prime", "fib"):
        game.do("deal", card=card)
    summary = game.do("mulligan")
    assert summary["deck_left"] == 0 and len(summary["discards"]) == 5
    with pytest.raises(IllegalMove, match="deck is empty: reshuffle the discards"):
        game.do("deal", card="6x")
    summary = game.do("reshuffle")
    assert summary["deck_left"] == 5 and summary["discards"] == []
    assert game.do("deal", card="6x")["hand"] == ["6x"]
    game.do("deal", card="2x+4")
    game.do("draw", card="x/2")
    game.do("mulligan")
    with pytest.raises(IllegalMove, match=r"'6x' is not in the deck \(in the discards\)"):
        game.do("deal", card="6x")


def test_a_hand_starts_with_two_dealt_cards(tmp_path: Path) -> None:
    game = solo(tmp_path)
    with pytest.raises(IllegalMove, match="deal first"):
        game.do("draw", card="6x")
    with pytest.raises(IllegalMove, match="no hand to discard"):
        game.do("mulligan")
    game.do("deal", card="6x")
    with pytest.raises(IllegalMove, match="at least its 2 dealt cards"):
        game.do("make21", x=1)
    game.do("deal", card="10")
    with pytest.raises(IllegalMove, match="draw instead"):
        game.do("deal", card="9")
    for card in ("9", "4", "5"):
        game.do("draw", card=card)
    with pytest.raises(IllegalMove, match="already has 5 cards"):
        game.do("draw", card="6")


@pytest.mark.parametrize("data", [
    {"player": "ann"},
    {"players": "ann"},
    {"players": ["ann", "ben"]},
    {"players": []},
    {},
])
def test_the_start_event_names_exactly_one_player_in_players(data: dict[str, Any]) -> None:
    with pytest.raises(IllegalMove, match=r"21x-solo has exactly one player, not "):
        RULES.start(Event("start", {"game": "21x-solo", **data}))


def test_you_cannot_stand_in_single_player(tmp_path: Path) -> None:
    game = solo(tmp_path)
    with pytest.raises(IllegalMove, match="cannot stand in single player"):
        game.do("stand", x=1, total=14)


def test_every_core_card_must_be_in_the_deck(tmp_path: Path) -> None:
    with pytest.raises(IllegalMove, match=r"every core card: 1 missing \(x/2\)"):
        solo(tmp_path, deck=["6x", "2x+4", "prime"], cards=[])
    extra = [{"id": "k1", "text": "X+1", "icons": 1}]
    with pytest.raises(IllegalMove, match=r"1 missing \(k1\)"):
        solo(tmp_path, deck=["6x", "2x+4", "x/2"], cards=extra)
    assert solo(tmp_path, deck=["6x", "2x+4", "x/2"], cards=[]).referee.summary()["deck_left"] == 3


def test_target_option_and_unknown_kinds(tmp_path: Path) -> None:
    game = solo(tmp_path, options={"target": 4})
    with pytest.raises(IllegalMove, match="no event kind 'call'"):
        game.do("call", x=2)
    for card in ("6x", "2x+4"):
        game.do("deal", card=card)
    game.do("draw", card="x/2")
    assert game.do("make21", x=2)["over"]


def _winning_x(state: SoloState, fallback: int) -> int:
    expressions = [state.cards.card(card).expression for card in state.hand]
    if len(expressions) < 2 or None in expressions:
        return fallback
    found = solve([e for e in expressions if e is not None], v=state.v, search=20).twentyone
    return int(found[0].x) if found and found[0].y is None else fallback


ACTION = st.tuples(st.sampled_from(["deal", "deal", "deal", "draw", "draw", "mulligan",
                                    "make21", "solve", "solve", "solve", "reshuffle", "stand"]),
                   st.integers(0, 40), st.integers(-3, 6), st.floats(0.0, 20.0))


@settings(max_examples=120, deadline=None)
@given(deck=st.lists(st.sampled_from(CELEBRITY), unique=True, max_size=6),
       actions=st.lists(ACTION, min_size=20, max_size=120))
def test_random_solo_games_keep_every_card_in_one_place(
        deck: list[str], actions: list[tuple[str, int, int, float]]) -> None:
    declared = [*EXAMPLE_HAND, *deck]
    start = Event("start", {"game": "21x-solo", "players": ["ann"], "deck": declared,
                            "cards": [], "options": {"target": 8}})
    state, now, log = RULES.start(start), 0.0, [start]
    points = 0
    for kind, pick, x, pause in actions:
        now += pause
        in_deck = sorted(state.deck)
        card = in_deck[pick % len(in_deck)] if in_deck else "joker"
        if kind == "solve":  # the card engine's solver finds an X that makes 21, if any
            kind, x = "make21", _winning_x(state, x)
        event = Event(kind, {"card": card, "x": x}, t=now, seq=len(log) + 1)
        try:
            state = RULES.apply(state, event)
        except IllegalMove:
            continue
        log.append(event)
        scored = [c for hand in state.scored for c in hand]
        places = [*state.deck, *state.hand, *scored, *state.discards]
        assert sorted(places) == sorted(declared)
        summary = RULES.summary(state)
        assert summary["points"]["ann"] >= points
        points = summary["points"]["ann"]
        assert summary["v"] == 1 + len(state.scored)
        assert summary["over"] == (points >= 8)
        if summary["over"]:
            assert summary["time"] is not None and summary["time"] >= 0
    assert replay(log).summary() == RULES.summary(state)
