"""21X multi-player: every rule of play, checked through the referee on a real store."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalMove
from companion.events import Event
from companion.games.x21 import RULES, Claim
from companion.replay import replay

from .tables import ALL_IDS, INLINE_CARDS, Table


def table(tmp_path: Path, players: list[str], **options: Any) -> Table:
    return Table(tmp_path, "21x", {"players": players, "options": options})


def test_worked_example_hand_values_at_three_x(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["6x", "2x+4", "x/2"], "ben": ["10", "4"]})
    cards = game.referee.state.cards
    hand = ("6x", "2x+4", "x/2")
    assert cards.total(hand, Claim(x=Fraction(4)), v=1) == 38
    assert cards.total(hand, Claim(x=Fraction(1)), v=1) == Fraction(25, 2)
    assert cards.total(hand, Claim(x=Fraction(2)), v=1) == 21


def test_worked_example_call_21_wins_and_scores_the_icons(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["6x", "2x+4", "x/2"], "ben": ["10", "4"]})
    summary = game.do("call", player="ann", x=2)
    assert summary["over"] and summary["winners"] == ["ann"]
    assert summary["points"] == {"ann": 4, "ben": 0}
    assert summary["claims"]["ann"] == {"x": 2, "total": 21}
    with pytest.raises(IllegalMove, match="over"):
        game.do("draw", player="ben", card="9")


def test_a_wrong_call_eliminates_and_play_goes_on(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben", "cat"])
    game.deal({"ann": ["6x", "2x+4", "x/2"], "ben": ["10", "4"], "cat": ["3x", "x+5"]})
    summary = game.do("call", player="ann", x=4)
    assert summary["eliminated"] == ["ann"] and not summary["over"]
    assert summary["claims"]["ann"]["total"] == 38
    with pytest.raises(IllegalMove, match="ann has been eliminated"):
        game.do("draw", player="ann", card="9")
    assert game.do("call", player="cat", x=4)["winners"] == ["cat"]


def test_deal_two_each_before_play_and_n_follows_the_hand(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.do("deal", player="ann", card="n")
    with pytest.raises(IllegalMove, match="every player has been dealt 2"):
        game.do("draw", player="ann", card="10")
    game.do("deal", player="ann", card="10")
    with pytest.raises(IllegalMove, match="dealt 2 cards already"):
        game.do("deal", player="ann", card="9")
    game.deal({"ben": ["4", "5"]})
    assert game.referee.summary()["phase"] == "playing"
    game.do("draw", player="ann", card="9")
    game.do("call", player="ann", x=1)  # N = 3: 3 + 10 + 9 = 22, bust
    assert game.referee.summary()["claims"]["ann"]["total"] == 22


def test_at_most_five_cards_unless_the_option_allows_more(tmp_path: Path) -> None:
    hand = ["10", "4", "5", "6", "9"]
    game = table(tmp_path / "a", ["ann", "ben"])
    game.deal({"ann": hand, "ben": ["3x", "x+5"]})
    with pytest.raises(IllegalMove, match="already has 5 cards"):
        game.do("draw", player="ann", card="n")
    roomy = table(tmp_path / "b", ["ann", "ben"], max_cards=None)
    roomy.deal({"ann": [*hand, "n"], "ben": ["3x", "x+5"]})
    assert len(roomy.referee.summary()["hands"]["ann"]) == 6


def test_cards_cannot_be_got_rid_of_or_taken_twice(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    with pytest.raises(IllegalMove, match="no cards can be got rid of"):
        game.do("discard", player="ann", card="10")
    with pytest.raises(IllegalMove, match=r"'10' is not in the deck \(ann's hand\)"):
        game.do("draw", player="ben", card="10")
    with pytest.raises(IllegalMove, match="not in the declared deck"):
        game.do("draw", player="ben", card="joker")
    assert len(game.referee.events) == 5


def test_an_empty_deck_cannot_be_drawn_from(tmp_path: Path) -> None:
    game = Table(tmp_path, "21x", {"players": ["ann", "ben"], "deck": ["10", "4", "9", "5"]})
    game.deal({"ann": ["10", "4"], "ben": ["9", "5"]})
    with pytest.raises(IllegalMove, match="the deck is empty"):
        game.do("draw", player="ann", card="6")


def test_stand_locks_the_player_and_runs_the_minute(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben", "cat"])
    game.deal({"ann": ["6x", "2x+4"], "ben": ["10", "4"], "cat": ["3x", "x+5"]})
    game.at(10).do("stand", player="ben", x=1, total=14)
    with pytest.raises(IllegalMove, match="ben is standing"):
        game.do("draw", player="ben", card="9")
    with pytest.raises(IllegalMove, match="ben is standing"):
        game.do("call", player="ben", x=1)
    with pytest.raises(IllegalMove, match="nobody else can stand"):
        game.do("stand", player="cat", x=3, total=17)
    game.at(20).do("draw", player="ann", card="n")
    assert game.at(59.9).referee.tick() == []
    warnings = game.at(65).referee.tick()
    assert [e.data["remaining"] for e in warnings] == [10, 9, 8, 7, 6, 5]
    assert [e.t for e in warnings] == [1060.0 + k for k in range(6)]
    rest = game.at(75).referee.tick()
    assert [e.kind for e in rest] == ["timer_warning"] * 4 + ["timer_expired"]
    assert rest[-1].t == 1070.0
    summary = game.referee.summary()
    assert summary["phase"] == "stating" and not summary["over"]
    with pytest.raises(IllegalMove, match="minute is up"):
        game.do("draw", player="cat", card="9")
    game.do("state", player="ann", x=1, total=13)  # 6 + 6 + 3 = 15 really
    summary = game.do("state", player="cat", x=3, total=17)
    assert summary["winners"] == ["cat"] and summary["points"]["cat"] == 2


def test_no_timer_runs_until_someone_stands(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["9", "5"]})
    assert game.referee.summary()["timer_ends_at"] is None
    assert game.at(500).referee.tick() == []


def test_a_non_integer_total_can_stand_and_win(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["6x", "2x+4", "x/2"], "ben": ["10", "4"]})
    game.do("stand", player="ann", x=1, total="12.5")
    game.at(60).referee.tick()
    summary = game.do("state", player="ben", x=1, total=15)  # wrong: 10 + 4 = 14
    assert summary["winners"] == ["ann"] and summary["claims"]["ann"]["total"] == "25/2"


def test_standing_player_wins_a_tie(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["9", "5"]})
    game.do("stand", player="ann", x=1, total=14)
    game.at(60).referee.tick()
    assert game.do("state", player="ben", x=1, total=14)["winners"] == ["ann"]


def test_a_wrong_standing_total_passes_the_win_down(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["9", "5"]})
    game.do("stand", player="ann", x=1, total=15)  # the cards give 14
    game.at(60).referee.tick()
    summary = game.do("state", player="ben", x=1, total=14)
    assert summary["winners"] == ["ben"] and summary["eliminated"] == ["ann"]


def test_beat_means_a_strictly_higher_correct_total(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben", "cat"])
    game.deal({"ann": ["10", "4"], "ben": ["9", "6"], "cat": ["3x", "x+5"]})
    game.do("stand", player="ann", x=1, total=14)
    game.at(60).referee.tick()
    game.do("state", player="ben", x=1, total=16)  # wrong: 9 + 6 = 15
    summary = game.do("state", player="cat", x=2, total=20)  # bust: never correct
    assert summary["winners"] == ["ann"]
    assert sorted(summary["eliminated"]) == ["ben", "cat"]


def test_tied_chasers_split_by_icons_then_all_win(tmp_path: Path) -> None:
    game = table(tmp_path / "a", ["ann", "ben", "cat"])
    game.deal({"ann": ["3x", "x+5"], "ben": ["9", "5"], "cat": ["10", "4"]})
    game.do("stand", player="ann", x=2, total=13)
    game.at(60).referee.tick()
    game.do("state", player="ben", x=1, total=14)
    summary = game.do("state", player="cat", x=1, total=14)
    assert sorted(summary["winners"]) == ["ben", "cat"]
    assert summary["points"] == {"ann": 0, "ben": 2, "cat": 2}
    icons = table(tmp_path / "b", ["ann", "ben", "cat"])
    icons.deal({"ann": ["3x", "x+5"], "ben": ["9", "5"], "cat": ["2n", "10"]})
    icons.do("stand", player="ann", x=2, total=13)
    icons.at(60).referee.tick()
    icons.do("state", player="ben", x=1, total=14)
    summary = icons.do("state", player="cat", x=1, total=14)
    assert summary["winners"] == ["cat"] and summary["points"]["cat"] == 3


def test_a_wrong_call_during_the_minute_restarts_it(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben", "cat"])
    game.deal({"ann": ["10", "4"], "ben": ["9", "5"], "cat": ["3x", "x+5"]})
    game.at(10).do("stand", player="ann", x=1, total=14)
    summary = game.at(50).do("call", player="ben", x=1)
    assert summary["eliminated"] == ["ben"] and summary["timer_ends_at"] == 1110.0
    assert game.at(80).referee.tick() == []
    assert game.at(110).referee.tick()[-1].kind == "timer_expired"
    summary = game.at(115).do("close")
    assert summary["winners"] == ["ann"]
    assert summary["eliminated"] == ["ben", "cat"]
    assert "hesitat" not in summary["reason"]


def test_a_right_call_during_the_minute_wins(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    game.at(10).do("stand", player="ann", x=1, total=14)
    summary = game.at(30).do("call", player="ben", x=4)
    assert summary["winners"] == ["ben"] and summary["over"]
    assert game.at(200).referee.tick() == []


def test_a_player_who_passes_is_eliminated(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    game.do("stand", player="ann", x=1, total=14)
    game.at(60).referee.tick()
    summary = game.do("pass", player="ben")
    assert summary["winners"] == ["ann"] and summary["eliminated"] == ["ben"]


def test_stand_totals_must_be_valid(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    with pytest.raises(IllegalMove, match="cannot stand on 20: it is bust"):
        game.do("stand", player="ben", x=1, total=20)
    with pytest.raises(IllegalMove, match="cannot stand on 22"):
        game.do("stand", player="ben", x=1, total=22)
    summary = game.do("stand", player="ben", x="1/1", total="25/2")
    assert summary["claims"]["ben"] == {"x": 1, "total": "25/2"}


def test_everybody_eliminated_means_no_winner(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    assert not game.do("call", player="ann", x=1)["over"]
    summary = game.do("call", player="ben", x=1)
    assert summary["over"] and summary["winners"] == []
    assert summary["points"] == {"ann": 0, "ben": 0}


def test_last_player_plays_on_and_their_stand_is_checked_at_once(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    game.do("call", player="ann", x=1)
    summary = game.do("stand", player="ben", x=3, total=17)
    assert summary["winners"] == ["ben"] and summary["timer_ends_at"] is None


def test_last_player_wins_when_configured(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"], last_player="wins")
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    summary = game.do("call", player="ann", x=1)
    assert summary["winners"] == ["ben"] and summary["points"]["ben"] == 2


def test_standing_players_total_alone_is_checked_if_chasers_are_out(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    game.do("stand", player="ann", x=1, total=15)
    summary = game.do("call", player="ben", x=1)
    assert summary["over"] and summary["winners"] == []
    assert summary["eliminated"] == ["ben", "ann"]


def test_non_integer_x_only_with_the_option(tmp_path: Path) -> None:
    plain = table(tmp_path / "a", ["ann", "ben"])
    plain.deal({"ann": ["6x", "2x+4"], "ben": ["10", "4"]})
    assert plain.do("call", player="ann", x="17/8")["eliminated"] == ["ann"]
    hard = table(tmp_path / "b", ["ann", "ben"], non_integer_x=True)
    hard.deal({"ann": ["6x", "2x+4"], "ben": ["10", "4"]})
    assert hard.do("call", player="ann", x="17/8")["winners"] == ["ann"]


def test_x_zero_and_missing_or_negative_y_are_wrong_calls(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben", "cat", "dan"])
    game.deal({"ann": ["7-x", "4", "n"], "ben": ["y+1", "10", "9"],
               "cat": ["y", "5", "6"], "dan": ["xy", "2n", "x+5"]})
    assert game.do("call", player="ann", x=0)["eliminated"] == ["ann"]
    assert game.do("call", player="ben", x=1)["eliminated"] == ["ann", "ben"]
    assert game.do("call", player="cat", x=1, y=-7)["eliminated"][-1] == "cat"
    assert game.do("call", player="dan", x=1, y=9)["winners"] == ["dan"]


def test_malformed_numbers_are_refused_not_judged(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"]})
    for bad in ("two", True, None, [2]):
        with pytest.raises(IllegalMove, match="'x' must be a number"):
            game.do("call", player="ann", x=bad)
    with pytest.raises(IllegalMove, match="'zoe' is not playing"):
        game.do("call", player="zoe", x=1)
    assert game.referee.summary()["eliminated"] == []


def test_v_is_one_plus_games_won_this_session(tmp_path: Path) -> None:
    first = table(tmp_path, ["ann", "ben"])
    session = first.store.new_session(started_at=0.0)
    first = Table(tmp_path, "21x", {"players": ["ann", "ben"]}, session_id=session,
                  store=first.store)
    first.deal({"ann": ["v", "10", "9"], "ben": ["3x", "x+5"]})
    assert first.referee.summary()["v"] == {"ann": 1, "ben": 1}
    assert first.do("call", player="ben", x=4)["winners"] == ["ben"]
    second = Table(tmp_path, "21x", {"players": ["ann", "ben"]}, session_id=session,
                   store=first.store)
    assert second.referee.events[0].data["v"] == {"ann": 1, "ben": 2}
    second.deal({"ann": ["3x", "x+5"], "ben": ["v", "10", "9"]})
    assert second.do("call", player="ben", x=1)["winners"] == ["ben"]  # 2 + 10 + 9


@pytest.mark.parametrize(("start", "message"), [
    ({"players": ["ann"]}, "two or more distinct"),
    ({"players": ["ann", "ann"]}, "two or more distinct"),
    ({"players": ["ann", "ben"], "deck": ["10", "10"]}, "more than once"),
    ({"players": ["ann", "ben"], "deck": ["nope"]}, "unknown card id 'nope'"),
    ({"players": ["ann", "ben"], "options": {"last_player": "maybe"}}, "last_player"),
    ({"players": ["ann", "ben"], "options": {"max_cards": 1}}, "at least 2"),
    ({"players": ["ann", "ben"], "v": {"ann": 0}}, "'v' must map"),
    ({"players": ["ann", "ben"], "cards": [{"id": "z", "text": "2Q"}]}, "card 'z'"),
])
def test_bad_start_events_are_refused(tmp_path: Path, start: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        Table(tmp_path, "21x", start)


ACTION = st.tuples(
    st.sampled_from(["deal", "draw", "draw", "draw", "call", "stand", "stand", "state", "state",
                     "state", "pass", "close", "discard"]),
    st.integers(0, 3), st.integers(0, len(ALL_IDS)), st.integers(-3, 5), st.integers(-5, 24),
    st.sampled_from([0.0, 0.5, 3.0, 20.0, 45.0]),
)


@settings(max_examples=120, deadline=None)
@given(players=st.integers(2, 4), order=st.permutations(ALL_IDS),
       actions=st.lists(ACTION, max_size=60), last_player=st.sampled_from(["plays_on", "wins"]))
def test_random_event_sequences_keep_the_invariants(
        players: int, order: list[str], actions: list[tuple[str, int, int, int, int, float]],
        last_player: str) -> None:
    names = ["ann", "ben", "cat", "dan"][:players]
    start = Event("start", {"game": "21x", "players": names, "deck": ALL_IDS,
                            "cards": INLINE_CARDS, "options": {"last_player": last_player,
                                                               "stand_seconds": 30}})
    state, now, log = RULES.start(start), 0.0, [start]
    points = RULES.summary(state)["points"]
    deals = [("deal", seat, order.index(order[2 * seat + k]), 0, 0, 0.0)
             for k in range(2) for seat in range(players)]
    for kind, who, card, x, total, pause in [*deals, *actions]:
        now += pause
        for timer_event in RULES.due(state, now):
            state = RULES.apply(state, timer_event)
            log.append(timer_event)
        data = {"player": names[who % players], "card": [*order, "joker"][card],
                "x": x, "total": total}
        event = Event(kind, data, t=now, seq=len(log) + 1)
        try:
            state = RULES.apply(state, event)
        except IllegalMove:
            continue
        log.append(event)
        in_hands = [c for hand in state.hands.values() for c in hand]
        assert sorted([*state.deck, *in_hands]) == sorted(ALL_IDS)  # each card in one place
        summary = RULES.summary(state)
        assert all(summary["points"][p] >= points[p] for p in names)
        points = summary["points"]
        assert set(summary["winners"]) <= set(names) - set(summary["eliminated"])
        assert summary["over"] or not summary["winners"]
    numbered = [Event(e.kind, e.data, e.t, seq) for seq, e in enumerate(log, start=1)]
    assert replay(numbered).summary() == RULES.summary(state)
