"""The trick game at the table: the recorded game through the conductor, the translator's
plays, pairs, swaps and reveal, every attention item it raises, the view and the moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.conductor import Conductor
from companion.engine.observations import (
    ButtonPress,
    Observation,
    Sighting,
    TableStart,
    Tap,
)
from companion.engine.replay import catch_up, read_jsonl, replay
from companion.engine.store import Store
from tests.games.recordings import DOCS, conduct, moves, recording

PLAYERS = ("anna", "ben", "cara")


def table(tmp_path: Path, *observations: Observation,
          **options: Any) -> tuple[Conductor, list[str], list[str]]:
    """Three players, anna dealing (so ben leads), hidden hands of 4 unless told."""
    options = {"dealer": "anna", "hand_size": 4, "swapping": False, **options}
    start = TableStart("trick", PLAYERS, options=options)
    return conduct(tmp_path / "games.db", start, list(observations))


def placed(card: str, t: float, zone: str | None = "trick") -> Sighting:
    return Sighting("placed", card, zone, t)


DEAL = ButtonPress(None, "press", 1.0)


def test_the_recorded_game_becomes_the_example_log_and_ends_over(tmp_path: Path) -> None:
    start, observations = recording("trick")
    conductor, asked, refused = conduct(tmp_path / "games.db", start, observations)
    assert (asked, refused) == ([], [])
    assert moves(conductor) == [(e.kind, dict(e.data)) for e in
                                read_jsonl(DOCS / "logs" / "trick.jsonl")[1:]]
    outcome = conductor.view.outcome
    assert outcome.over and outcome.winners == ("ben",)
    assert outcome.points == {"anna": 20, "ben": 21, "cara": 10, "dan": 20}
    stored = replay(Store(tmp_path / "games.db").events(conductor.referee.game_id))
    assert stored.summary() == conductor.referee.rules.summary(conductor.referee.state)


def test_a_single_led_then_answered_at_once(tmp_path: Path) -> None:
    conductor, asked, _ = table(tmp_path, DEAL, placed("9d", 5.0), placed("Jc", 9.0),
                                placed("Jh", 14.0))
    assert moves(conductor)[1:] == [("play", {"player": "ben", "cards": ["9d"]}),
                                    ("play", {"player": "cara", "cards": ["Jc"]}),
                                    ("play", {"player": "anna", "cards": ["Jh"]})]
    assert asked == []


def test_a_pair_goes_down_together_and_a_late_equal_card_is_the_next_players_match(
        tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, DEAL, placed("9d", 5.0), placed("9h", 5.7),
                            placed("Qc", 11.0), placed("Qh", 11.4), placed("5c", 17.0))
    assert moves(conductor)[1:] == [("play", {"player": "ben", "cards": ["9d", "9h"]}),
                                    ("play", {"player": "cara", "cards": ["Qc", "Qh"]})]
    waiting = conductor.view.expecting[0]
    assert (waiting.seats, waiting.detail) == ((1,), "anna put down 5c: a second card of the same"
                                               " value makes a pair, the button ends the play")
    late, _, _ = table(tmp_path / "late", DEAL, placed("9d", 5.0), placed("9h", 9.0))
    assert moves(late)[1:] == [("play", {"player": "ben", "cards": ["9d"]}),
                               ("play", {"player": "cara", "cards": ["9h"]})]


def test_the_button_ends_a_single_lead_and_a_dump_ends_with_the_sweep(tmp_path: Path) -> None:
    conductor, _, _ = table(
        tmp_path, DEAL, placed("3c", 5.0), placed("3h", 5.5), placed("8c", 9.0),
        placed("8d", 9.3), placed("2s", 14.0),  # anna cannot beat the eights: she dumps
        Sighting("removed", "3c", "trick", 18.0), Sighting("removed", "2s", "trick", 18.1),
        placed("Kd", 20.0), ButtonPress(3, "press", 21.0))
    assert moves(conductor)[1:] == [("play", {"player": "ben", "cards": ["3c", "3h"]}),
                                    ("play", {"player": "cara", "cards": ["8c", "8d"]}),
                                    ("play", {"player": "anna", "cards": ["2s"]}),
                                    ("play", {"player": "cara", "cards": ["Kd"]})]


def test_a_card_taken_back_before_the_play_ends_is_not_played(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, DEAL, placed("7d", 5.0),
                            Sighting("removed", "7d", "trick", 6.0), placed("8s", 8.0),
                            ButtonPress(2, "press", 9.0))
    assert moves(conductor)[1:] == [("play", {"player": "ben", "cards": ["8s"]})]


def test_swapping_by_buttons_and_the_screen(tmp_path: Path) -> None:
    conductor, _, _ = table(
        tmp_path, DEAL, ButtonPress(2, "press", 2.0), Tap("swap", 3.0, seat=3, data={"count": 2}),
        ButtonPress(1, "press", 4.0), Tap("swap", 5.0, seat=2, data={"count": 1}),
        swapping=True)
    assert moves(conductor)[1:] == [("swapping", {"player": "ben", "open": True}),
                                    ("swap", {"player": "cara", "count": 2}),
                                    ("swap", {"player": "anna", "count": 0}),
                                    ("swap", {"player": "ben", "count": 1})]
    closed, _, _ = table(tmp_path / "closed", DEAL, ButtonPress(2, "hold", 2.0), swapping=True)
    assert moves(closed)[1:] == [("swapping", {"player": "ben", "open": False})]


def test_passing_is_a_press_of_the_seat_on_turn(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, DEAL, placed("Ad", 5.0), ButtonPress(3, "press", 9.0),
                            passing=True)
    assert moves(conductor)[1:] == [("play", {"player": "ben", "cards": ["Ad"]}),
                                    ("pass", {"player": "cara"})]


def test_the_last_cards_turned_over_are_the_reveal(tmp_path: Path) -> None:
    plays = [placed(card, 5.0 + 5 * i) for i, card in enumerate(("4c", "5c", "6c"))]
    again = [placed(card, 25.0 + 5 * i) for i, card in enumerate(("7h", "8h", "9h"))]
    shown = [placed(card, 50.0 + i, f"seat-{i + 1}") for i, card in enumerate(("Ks", "2d", "9d"))]
    conductor, asked, _ = table(tmp_path, DEAL, *plays, *again, *shown, hand_size=3)
    assert moves(conductor)[-1] == ("reveal", {"cards": {"anna": "Ks", "ben": "2d", "cara": "9d"}})
    assert conductor.view.outcome.points == {"anna": 10, "ben": 0, "cara": 0}
    assert asked == []


def test_every_attention_item(tmp_path: Path) -> None:
    _, asked, refused = table(
        tmp_path,
        placed("4h", 0.5),                                   # before the deal
        DEAL,
        Sighting("rolled", "die", "trick", 2.0, value=3),    # a die
        placed("Qs", 3.0, zone="stock"),                     # on the stock
        placed("Js", 3.5, zone=None),                        # in no zone
        placed("Jd", 4.0, zone="seat-2"),                    # face up in front of a seat
        Sighting("placed", "6s", "trick", 4.5, unsure=True),  # an unsure read
        ButtonPress(1, "press", 5.0),                        # a button that does nothing
        ButtonPress(7, "press", 5.5),                        # a button of no player
        Tap("bid", 6.0, seat=1),                             # a tap the game does not have
        placed("9c", 7.0), placed("9c", 12.0),               # the same card twice
    )
    assert asked == [
        "4h is in the trick area before the deal",
        "a die (3) is on the table: the trick game uses no dice",
        "Qs is on the stock: plays go face up in the trick area",
        "Js is in no zone: plays go face up in the trick area",
        "Jd is face up in front of ben: plays go face up in the trick area",
        "is the card in trick 6s?",
        "button 1 does nothing now: waiting for ben to play",
        "button 7 has no player",
        "the trick game has no 'bid' on the screen",
        "9c in trick was refused: 9c was already played this deal",
    ]
    assert refused == []


def test_the_reveal_in_the_trick_area_asks_whose_card_and_the_answer_plays_it(
        tmp_path: Path) -> None:
    plays = [placed(card, 5.0 + 5 * i) for i, card in enumerate(("4c", "5c", "6c"))]
    conductor, _, _ = table(tmp_path, DEAL, *plays, hand_size=2)
    conductor.post(placed("Ks", 30.0))
    item = conductor.step().attention[-1]
    assert item.message == "Ks was turned over in the trick area: whose last card is it?"
    assert [c.label for c in item.choices] == ["anna's", "ben's", "cara's", "ignore"]
    conductor.resolve(item.id, 0)
    for seat, card in ((2, "2d"), (3, "Qd")):
        conductor.post(placed(card, 31.0, f"seat-{seat}"))
    conductor.step()
    assert moves(conductor)[-1] == ("reveal", {"cards": {"anna": "Ks", "ben": "2d", "cara": "Qd"}})


def test_a_card_in_no_zone_is_played_when_the_person_says_so(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, DEAL, placed("Ah", 3.0, zone=None))
    item = conductor.attention[-1]
    conductor.resolve(item.id, 0)
    conductor.post(ButtonPress(2, "press", 6.0))
    conductor.step()
    assert moves(conductor)[1:] == [("play", {"player": "ben", "cards": ["Ah"]})]


def test_the_view_shows_counts_not_cards_and_the_moves_say_what_is_unknown(
        tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, DEAL, placed("10d", 5.0), ButtonPress(2, "press", 6.0))
    view = conductor.view.to_json()
    assert [(s["player"], s["hidden"], s["cards"], s["status"]) for s in view["seats"]] == [
        ("anna", 4, [], "playing"), ("ben", 3, [], "playing"), ("cara", 4, [], "on turn")]
    assert view["table"]["trick"] == [{"player": "ben", "cards": ["10d"], "kind": "lead"}]
    assert view["expecting"][0]["seats"] == [3]
    possible = conductor.referee.rules.moves(conductor.referee.state)
    assert [dict(m.detail) for m in possible.moves] == [
        {"beat": "J", "shape": "single"}, {"match": "10", "shape": "single"},
        {"dump": "the lowest card", "shape": "single"}]
    assert possible.unknown == ("cara's hand is hidden: which of these cara can play is unknown",)


def test_declared_hands_list_every_legal_play(tmp_path: Path) -> None:
    hands = {"anna": ["2c", "3c", "4c"], "ben": ["5c", "6c", "6d"], "cara": ["7c", "8c", "9c"]}
    conductor, _, _ = table(tmp_path, Tap("deal", 1.0, data={"hands": hands}), hand_size=3,
                            hands="declared")
    possible = conductor.referee.rules.moves(conductor.referee.state)
    assert [m.detail["cards"] for m in possible.moves] == [["5c"], ["6c"], ["6d"], ["6c", "6d"]]
    assert possible.unknown == ()
    assert [c["card"] for c in conductor.view.to_json()["seats"][1]["cards"]] == hands["ben"]


@pytest.mark.parametrize("kind", ["deal", "swap"])
def test_malformed_data_from_the_screen_is_refused_not_crashed(tmp_path: Path, kind: str) -> None:
    taps = {"deal": Tap("deal", 1.0, data={"hands": "all"}),
            "swap": Tap("swap", 3.0, seat=1, data={"count": "two"})}
    first = [] if kind == "deal" else [DEAL, ButtonPress(2, "press", 2.0)]
    _, _, refused = table(tmp_path, *first, taps[kind], swapping=True)
    assert len(refused) == 1 and "must be" in refused[0]


def test_replay_catches_up_nothing_the_trick_game_has_no_timers() -> None:
    log = read_jsonl(DOCS / "logs" / "trick.jsonl")
    started = replay(log[:1])
    rules, state = started.rules, started.state
    for event in log[1:]:
        assert catch_up(rules, state, event) is state
        state = rules.apply(state, event)
    assert replay(log).summary() == rules.summary(state)


def test_a_pending_play_the_rules_refuse_is_asked_about_whatever_ends_it(tmp_path: Path) -> None:
    conductor, asked, refused = table(
        tmp_path, DEAL, placed("9c", 5.0), placed("10c", 9.0), placed("2c", 13.0),
        placed("9c", 18.0), ButtonPress(3, "press", 19.0))  # cara leads 9c again
    assert moves(conductor)[-1] == ("play", {"player": "anna", "cards": ["2c"]})
    assert asked == ["9c in the trick was refused: 9c was already played this deal"]
    assert refused == [] and conductor.attention[-1].seat == 3
