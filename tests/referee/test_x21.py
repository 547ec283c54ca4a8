"""21X multi-player: every rule of play, checked through the referee on a real store."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.events import Event
from companion.engine.replay import replay
from companion.errors import IllegalMove, MalformedMove
from companion.games.x21.rules import RULES
from companion.games.x21.table import Claim

from .tables import ALL_IDS, INLINE_CARDS, Table

Move = tuple[str, str, int, int | None]  # kind, player, X, total


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
    with pytest.raises(IllegalMove, match=r"'10' is not in the deck \(in ann's hand\)"):
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
    stand = ("stand", "ann", 2, 13)
    summary = played(tmp_path / "a", {"ann": ["3x", "x+5"], "ben": ["9", "5"], "cat": ["10", "4"]},
                     [stand, ("state", "ben", 1, 14), ("state", "cat", 1, 14)])
    assert sorted(summary["winners"]) == ["ben", "cat"]
    assert summary["points"] == {"ann": 0, "ben": 2, "cat": 2}
    summary = played(tmp_path / "b", {"ann": ["3x", "x+5"], "ben": ["9", "5"], "cat": ["2n", "10"]},
                     [stand, ("state", "ben", 1, 14), ("state", "cat", 1, 14)])
    assert summary["winners"] == ["cat"] and summary["points"]["cat"] == 3
    assert summary["eliminated"] == []


def test_a_wrong_best_tied_total_passes_the_win_to_its_equal(tmp_path: Path) -> None:
    summary = played(tmp_path, {"ann": ["3x", "x+5"], "ben": ["10", "4"], "cat": ["2n", "9"]},
                     [("stand", "ann", 2, 13), ("state", "ben", 1, 14), ("state", "cat", 1, 14)])
    assert summary["winners"] == ["ben"] and summary["eliminated"] == ["cat"]
    assert summary["points"] == {"ann": 0, "ben": 2, "cat": 0}


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
    for bad in ("two", True, [2]):
        with pytest.raises(MalformedMove, match="'x' of a 'call' must be a number"):
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
    st.sampled_from(["deal", "draw", "draw", "draw", "call", "press", "stand", "stand", "state",
                     "state", "state", "pass", "close", "discard"]),
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
        if kind == "press":  # the call button: X follows in a second call
            kind, data = "call", {"player": data["player"]}
        event = Event(kind, data, t=now, seq=len(log) + 1)
        calling = state.calling
        try:
            state = RULES.apply(state, event)
        except IllegalMove:
            continue
        log.append(event)
        assert calling is None or (kind, data["player"]) == ("call", calling)
        in_hands = [c for hand in state.hands.values() for c in hand]
        assert sorted([*state.deck, *in_hands]) == sorted(ALL_IDS)  # each card in one place
        summary = RULES.summary(state)
        assert all(summary["points"][p] >= points[p] for p in names)
        points = summary["points"]
        assert set(summary["winners"]) <= set(names) - set(summary["eliminated"])
        assert set(summary["why"]) == set(summary["eliminated"])
        assert summary["over"] or not summary["winners"]
    numbered = [Event(e.kind, e.data, e.t, seq) for seq, e in enumerate(log, start=1)]
    assert replay(numbered).summary() == RULES.summary(state)


def test_a_call_stops_everyone_until_the_caller_states_x(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben", "cat"])
    game.deal({"ann": ["10", "4"], "ben": ["3x", "x+5"], "cat": ["9", "5"]})
    game.at(10).do("stand", player="cat", x=1, total=14)
    summary = game.at(65).do("call", player="ann")  # the button: X comes next
    assert summary["calling"] == "ann" and summary["eliminated"] == []
    for kind, data in (("draw", {"card": "n"}), ("call", {}), ("call", {"x": 4})):
        with pytest.raises(IllegalMove, match="ann called 21: everyone stops"):
            game.do(kind, player="ben", **data)
    with pytest.raises(IllegalMove, match="ann called 21 already: state X"):
        game.do("call", player="ann")
    with pytest.raises(IllegalMove, match="ann called 21: state X, no more drawing"):
        game.do("draw", player="ann", card="n")
    with pytest.raises(IllegalMove, match="ann called 21: state X, not a total"):
        game.do("stand", player="ann", x=1, total=14)
    assert game.at(75).referee.tick() == []  # the minute waits for the check
    summary = game.at(80).do("call", player="ann", x=1)
    assert summary["calling"] is None and summary["eliminated"] == ["ann"]
    assert summary["timer_ends_at"] == 1140.0
    game.at(90).do("call", player="ben")
    assert game.at(95).do("call", player="ben", x=4)["winners"] == ["ben"]


def test_a_press_without_x_needs_play_to_have_started(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben"])
    game.do("deal", player="ann", card="10")
    with pytest.raises(IllegalMove, match="play starts once"):
        game.do("call", player="ann")


def test_eliminations_say_why(tmp_path: Path) -> None:
    game = table(tmp_path, ["ann", "ben", "cat", "dan", "eve", "fay"])
    game.deal({"ann": ["6x", "2x+4", "x/2"], "ben": ["7-x", "4"], "cat": ["10", "9"],
               "dan": ["3x", "x+5"], "eve": ["y", "5"], "fay": ["2n", "6"]})
    game.do("call", player="ann", x=4)
    game.do("call", player="ben", x=0)
    game.do("stand", player="cat", x=1, total=18)
    game.at(60).referee.tick()
    game.do("state", player="dan", x=5, total=20)
    game.do("pass", player="eve")
    summary = game.at(70).do("close")
    assert summary["why"] == {
        "ann": "called 21 with X = 4 but the cards make 38",
        "ben": "called 21 with X = 0: X cannot be 0",
        "dan": "stated 20, which is bust",
        "eve": "passed: no total to state",
        "fay": "stated no total when the minute ran out",
        "cat": "stood on 18 with X = 1 but the cards make 19",
    }
    assert summary["winners"] == [] and summary["reason"] == "no stated total was correct"


def test_the_reason_tells_who_beat_whom(tmp_path: Path) -> None:
    games: list[tuple[dict[str, list[str]], list[Move]]] = [
        ({"ann": ["6x", "2x+4", "x/2"], "ben": ["10", "4"]}, [("call", "ann", 2, None)]),
        ({"ann": ["10", "4"], "ben": ["9", "5"]}, [("stand", "ann", 1, 14),
                                                  ("state", "ben", 1, 14)]),
        ({"ann": ["3x", "x+5"], "ben": ["9", "5"], "cat": ["2n", "10"]},
         [("stand", "ann", 2, 13), ("state", "ben", 1, 14), ("state", "cat", 1, 14)]),
        ({"ann": ["10", "4"], "ben": ["9", "5"]}, [("stand", "ann", 1, 15),
                                                  ("state", "ben", 1, 14)]),
    ]
    reasons = [played(tmp_path / str(n), *game)["reason"] for n, game in enumerate(games)]
    assert reasons == [
        "ann called 21 with X = 2 and made it",
        "nobody beat ann's stand on 14",
        "cat beat ann's stand on 13 with 14 (more difficulty icons than ben)",
        "ben had the best correct total, 14 (ann's stand on 15 was wrong)",
    ]


def played(tmp_path: Path, hands: dict[str, list[str]], moves: list[Move]) -> dict[str, Any]:
    """The summary after dealing ``hands`` and playing ``moves`` (kind, player, X, total);
    the first ``state`` comes after the stand timer has run out."""
    game = table(tmp_path, list(hands))
    game.deal(hands)
    for kind, player, x, total in moves:
        if kind == "state":
            game.at(60).referee.tick()
        game.do(kind, player=player, x=x, **({} if total is None else {"total": total}))
    return game.referee.summary()
