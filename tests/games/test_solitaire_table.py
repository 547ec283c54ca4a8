"""Solitaire at the table: view, moves, the translator's moves and questions, recorded games
played through the conductor, the example logs' summaries and the timer catch-up."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.clock import ManualClock
from companion.engine.conductor import Conductor
from companion.engine.events import Event
from companion.engine.observations import (
    ButtonPress,
    Observation,
    Sighting,
    SightingKind,
    TableStart,
    Tap,
)
from companion.engine.replay import ReplayError, replay
from companion.engine.scores import high_scores
from companion.engine.seats import Seating
from companion.engine.store import Store
from companion.engine.timers import TIMER_KINDS
from companion.errors import IllegalMove
from companion.games.solitaire.rules import DECK, RULES, SolitaireState
from companion.games.solitaire.translator import TRANSLATOR
from companion.games.translate import Table, Translation
from tests.games.recordings import DOCS, example_log, play

SUMMARIES = Path(__file__).resolve().parent / "data"


def start(**options: Any) -> SolitaireState:
    return RULES.start(Event("start", {"players": ["sol"], "options": options}))


def play_cards(state: SolitaireState, *moves: tuple[str, int]) -> SolitaireState:
    """Turn up each card and put it on its column."""
    for card, column in moves:
        state = RULES.apply(state, Event("draw", {"card": card}, t=1.0))
        state = RULES.apply(state, Event("place", {"column": column}, t=1.0))
    return state


def turn_up(state: SolitaireState, card: str) -> SolitaireState:
    return RULES.apply(state, Event("draw", {"card": card}, t=1.0))


def translate(state: SolitaireState, observation: Observation) -> Translation[None]:
    return TRANSLATOR.translate(Table(RULES, state, Seating.of(["sol"])), None, observation)


def moves_of(state: SolitaireState, observation: Observation) -> list[tuple[str, dict[str, Any]]]:
    translation = translate(state, observation)
    assert translation.asks == ()
    return [(move.kind, dict(move.data)) for move in translation.moves]


def asked(state: SolitaireState, observation: Observation) -> tuple[str, list[str]]:
    """The one question an observation raises (and that it submits nothing)."""
    translation = translate(state, observation)
    assert translation.moves == ()
    [ask] = translation.asks
    assert ask.seat == 1
    return ask.message, [choice.label for choice in ask.choices]


def seen(card: str, zone: str | None, kind: SightingKind = "placed", **more: Any) -> Sighting:
    return Sighting(kind, card, zone, 2.0, **more)


# --- view and moves --------------------------------------------------------------------------


def test_the_view_shows_the_top_bar_the_columns_and_the_countdown() -> None:
    state = turn_up(play_cards(start(columns=3), ("Kc", 0), ("9d", 0), ("7h", 1)), "As")
    view = RULES.view(state)
    assert view.phase == "placing" and view.seats[0].cards[0].to_json() == {
        "card": "As", "text": "A\N{BLACK SPADE SUIT}", "value": "1 or 11"}
    assert [e.to_json() for e in view.expecting] == [
        {"what": "place", "seats": [1], "detail": "put As on column 0, 1 or 2"}]
    table = view.table
    assert (table["score"], table["deck"], table["current"]) == (0, 48, "As")
    assert [(c["value"], c["takes"]) for c in table["columns"]] == [(19, True), (7, True),
                                                                    (0, True)]
    assert [c["card"] for c in table["columns"][0]["cards"]] == ["Kc", "9d"]
    [timer] = view.timers
    assert (timer.kind, timer.started_at, timer.ends_at) == ("countdown", 0.0, 180.0)
    assert not view.outcome.over and view.outcome.points == {"sol": 0}
    json.dumps(view.to_json())


def test_a_clear_shows_as_the_last_clear_and_the_score() -> None:
    view = RULES.view(play_cards(start(), ("Kc", 2), ("Ah", 2)))
    assert view.phase == "drawing" and view.seats[0].points == 51
    assert view.table["last_clear"] == {"column": 2, "cards": ["Kc", "Ah"], "points": 51}
    assert view.expecting[0].what == "draw"


def test_moves_are_the_columns_that_take_the_card_with_what_they_would_score() -> None:
    state = turn_up(play_cards(start(columns=3), ("Kc", 0), ("Qd", 0), ("7h", 1)), "4s")
    assert [(m.kind, dict(m.detail)) for m in RULES.moves(state).moves] == [
        ("place", {"column": 1, "clears": None}), ("place", {"column": 2, "clears": None})]
    state = turn_up(play_cards(start(), ("Kc", 0), ("9d", 0)), "2h")
    assert dict(RULES.moves(state).moves[0].detail) == {"column": 0, "clears": 31}


def test_the_next_card_of_the_stock_is_unknown_and_an_empty_stock_is_reshuffled() -> None:
    drawing = RULES.moves(start())
    assert [m.kind for m in drawing.moves] == ["draw"]
    assert drawing.unknown == ("which of the 52 face-down stock cards turns up next",)
    state = replace(play_cards(start(), ("Kc", 0), ("Ah", 0)), stock=frozenset())
    assert RULES.view(state).phase == "reshuffling"
    assert [(m.kind, dict(m.detail)) for m in RULES.moves(state).moves] == [
        ("reshuffle", {"cards": 2})]


def test_a_blocked_game_is_over_with_its_reason_and_no_moves() -> None:
    state = turn_up(play_cards(start(columns=1), ("Kc", 0), ("Qd", 0)), "5h")
    view = RULES.view(state)
    assert view.phase == "over" and view.timers == () and view.expecting == ()
    assert view.outcome.over and view.outcome.winners == ()
    assert view.outcome.reason == "sol scored 0: 5h fits no column"
    assert RULES.moves(state).moves == ()


# --- the translator: moves ------------------------------------------------------------------


def test_the_turned_up_card_is_a_draw_and_its_drop_on_a_column_a_place() -> None:
    state = start()
    assert moves_of(state, seen("7h", "draw")) == [("draw", {"card": "7h"})]
    state = turn_up(state, "7h")
    assert moves_of(state, seen("7h", "draw")) == []  # seen again where it lies
    assert moves_of(state, seen("7h", "draw", "removed")) == []  # lifted to be placed
    assert moves_of(state, seen("7h", "column-3", "moved", from_zone="draw")) == [
        ("place", {"column": 3})]


def test_a_card_seen_straight_on_a_column_was_turned_up_and_placed() -> None:
    state = play_cards(start(), ("7h", 1))
    assert moves_of(state, seen("Kd", "column-1")) == [("draw", {"card": "Kd"}),
                                                       ("place", {"column": 1})]
    assert moves_of(state, seen("7h", "column-1")) == []  # a pile card seen again


def test_the_cleared_cards_taken_up_on_an_empty_stock_are_the_reshuffle() -> None:
    state = replace(play_cards(start(), ("Kc", 0), ("Ah", 0)), stock=frozenset())
    assert moves_of(state, seen("Kc", "cleared", "removed")) == [("reshuffle", {})]
    assert moves_of(state, seen("Ah", "draw")) == [("reshuffle", {}), ("draw", {"card": "Ah"})]
    assert moves_of(state, seen("Ah", "column-2")) == [
        ("reshuffle", {}), ("draw", {"card": "Ah"}), ("place", {"column": 2})]
    assert moves_of(state, Tap("reshuffle", 3.0)) == [("reshuffle", {})]


def test_a_cleared_column_is_checked_and_a_true_clear_passes() -> None:
    state = play_cards(start(), ("Kc", 0), ("Ah", 0))
    assert moves_of(state, seen("Kc", "cleared", "moved", from_zone="column-0")) == []
    assert moves_of(state, seen("Ah", "column-0", "removed")) == []


def test_after_the_game_is_over_the_table_is_not_read() -> None:
    state = turn_up(play_cards(start(columns=1), ("Kc", 0), ("Qd", 0)), "5h")
    assert translate(state, seen("5h", "column-0")) == Translation(None)


# --- the translator: every question ---------------------------------------------------------


def test_a_pile_that_does_not_clear_is_asked_about_when_it_is_taken_off() -> None:
    state = play_cards(start(), ("Kc", 0), ("8d", 0))
    assert asked(state, seen("8d", "column-0", "removed")) == (
        "8d was taken off column 0, but that pile (18) does not clear", ["it is back"])
    assert asked(state, seen("8d", "cleared", "moved", from_zone="column-0")) == (
        "8d is among the cleared cards, but its pile on column 0 (18) did not clear",
        ["it is back on the column"])


def test_cards_among_the_cleared_that_are_not_cleared_are_asked_about() -> None:
    state = start()
    assert asked(state, seen("8d", "cleared"))[0] == (
        "8d is among the cleared cards, but it is still in the stock")
    assert asked(turn_up(state, "8d"), seen("8d", "cleared"))[0] == (
        "8d is among the cleared cards, but it is the turned-up card")


def test_cleared_cards_taken_up_while_the_stock_lasts_are_asked_about() -> None:
    state = play_cards(start(), ("Kc", 0), ("Ah", 0))
    assert asked(state, seen("Kc", "cleared", "removed"))[0] == (
        "Kc left the cleared cards: they are shuffled into a new stock only when the stock is"
        " empty")
    assert asked(state, seen("Kc", "column-1"))[0] == (
        "Kc is on column 1, but it was cleared: it comes back only with the reshuffle")


def test_cards_moved_between_columns_or_dropped_while_another_is_turned_up_are_asked() -> None:
    state = play_cards(start(), ("Kc", 0))
    assert asked(state, seen("Kc", "column-2", "moved", from_zone="column-0")) == (
        "Kc moved from column 0 to column 2: a card stays where it was placed",
        ["it is back on column 0"])
    assert asked(turn_up(state, "5d"), seen("9s", "column-1"))[0] == (
        "9s is on column 1, but the turned-up card is 5d")
    assert asked(state, seen("9s", "column-6"))[0] == (
        "9s is on column 6, but this game has columns 0 to 3")


def test_a_card_in_no_zone_is_asked_with_the_places_it_could_be() -> None:
    state = turn_up(play_cards(start(columns=2), ("Kc", 0), ("Qd", 0)), "5h")
    assert asked(state, seen("5h", None)) == (
        "5h is in no zone: not on a column, the draw or the cleared cards",
        ["it is on column 1", "ignore"])
    assert asked(start(), seen("5h", "table-edge"))[1] == ["it is the turned-up card", "ignore"]


def test_unsure_reads_unknown_names_dice_buttons_and_taps_are_asked() -> None:
    state = start()
    message, choices = asked(state, seen("8d", "draw", unsure=True))
    assert message == "the camera is unsure of the card in draw: is it 8d?"
    assert choices == ["yes, 8d", "no: enter it by touch"]
    assert asked(state, seen("Zz", "draw"))[0].startswith("Zz in draw: unknown card 'Zz'")
    assert asked(state, seen("die", "draw", "rolled", value=4))[0] == (
        "a die (4) is on the table: solitaire uses no dice")
    assert asked(state, ButtonPress(1, "press", 2.0))[0] == (
        "solitaire uses no buttons: the camera sees the cards")
    assert asked(state, Tap("undo", 2.0))[0] == "solitaire has no 'undo' on the screen"


# --- through the conductor --------------------------------------------------------------------


def conductor(tmp_path: Path, **options: Any) -> tuple[Conductor, ManualClock]:
    clock = ManualClock(0.0)
    start = TableStart("solitaire", ("sol",), options=options)
    return Conductor.start(Store.open(tmp_path), clock, start), clock


def test_a_drop_the_rules_refuse_is_asked_and_the_answer_places_the_card(tmp_path: Path) -> None:
    table, clock = conductor(tmp_path, columns=2)
    for t, observation in enumerate([seen("Kc", "column-0"), seen("9d", "column-0"),
                                     seen("5h", "draw"), seen("5h", "column-0")], start=1):
        clock.now = float(t)
        table.post(replace(observation, t=float(t)))
        update = table.step()
    [item] = update.attention
    assert item.message == ("5h in column-0 was refused: 5h does not fit on column 0: the pile"
                            " is worth 19")
    assert table.referee.state.current is not None  # rolled back: still turned up
    clock.now = 6.0
    table.post(seen("5h", None))
    [_, where] = table.step().attention
    assert where.choices[0].label == "it is on column 1"
    table.resolve(where.id, 0)
    update = table.step()
    assert [(e.kind, dict(e.data)) for e in update.events] == [("place", {"column": 1})]
    table.resolve(item.id, 0)
    assert table.step().attention == ()


def test_the_unsure_read_of_a_recording_is_confirmed_on_the_screen(tmp_path: Path) -> None:
    played = play("solitaire-default", tmp_path)
    asks = [item for update in played.updates for item in update.attention]
    assert asks and all(item.message.startswith("the camera is unsure") for item in asks)
    assert played.conductor.attention == ()


@pytest.mark.parametrize("name", ["solitaire", "solitaire-default"])
def test_a_recorded_game_is_refereed_as_its_example_log(name: str, tmp_path: Path) -> None:
    played = play(name, tmp_path)
    log = example_log(name)
    assert played.logged() == [(e.kind, dict(e.data)) for e in log.events[1:]]
    referee = played.conductor.referee
    assert referee.summary() == log.summary()
    view = played.conductor.view
    assert view.outcome.over and view.outcome.points == {"sol": log.summary()["score"]}
    assert referee.store.game(referee.game_id).finished
    assert high_scores(referee.store, "solitaire")[0].value == log.summary()["score"]


def test_the_recordings_are_in_time_order_and_begin_with_the_start() -> None:
    for name in ("solitaire", "solitaire-default"):
        lines = (DOCS / "observations" / f"{name}.jsonl").read_text().splitlines()
        first = json.loads(lines[0])
        assert first["type"] == "start" and first["game"] == "solitaire"
        times = [json.loads(line)["t"] for line in lines[1:]]
        assert times == sorted(times)


# --- the example logs and the timer catch-up --------------------------------------------------


def test_a_log_without_its_warnings_is_judged_as_if_they_were_logged() -> None:
    full = example_log("solitaire").events
    without = [e for e in full if e.kind != "timer_warning"]
    assert len(without) == len(full) - 10
    assert replay(without).summary() == replay(full).summary()


def test_a_log_without_its_expiry_refuses_a_late_move_like_the_live_referee(
        tmp_path: Path) -> None:
    full = example_log("solitaire").events
    moves = [e for e in full if e.kind not in TIMER_KINDS]
    late = Event("place", {"column": 0}, t=150.5, seq=moves[-1].seq + 1)
    with pytest.raises(ReplayError, match=r"event 176 \(place\): the game is over \(timeout\)"):
        replay([*moves, late])
    clock = ManualClock(0.0)
    referee = Conductor.start(Store.open(tmp_path), clock, TableStart(
        "solitaire", ("sol",), options=full[0].data["options"])).referee
    for event in moves[1:]:
        clock.now = event.t
        referee.submit(event.kind, event.data)
    clock.now = late.t
    with pytest.raises(IllegalMove, match=r"the game is over \(timeout\)"):
        referee.submit(late.kind, late.data)


# --- whatever the table shows, the conductor never fails -----------------------------------

CARDS = ["Kc", "Qd", "Ah", "9s", "2c", "7h", "5d", "Zz", "die"]
ZONES = [None, "draw", "cleared", "floor", "column-0", "column-1", "column-2", "column-7",
         "column-\N{SUPERSCRIPT TWO}"]
SIGHTING = st.builds(Sighting, st.sampled_from(["placed", "moved", "removed", "rolled"]),
                     st.sampled_from(CARDS), st.sampled_from(ZONES), st.just(0.0),
                     from_zone=st.sampled_from(ZONES), value=st.none() | st.integers(1, 6),
                     unsure=st.sampled_from([False, False, False, True]))
PLAY = st.builds(Sighting, st.just("placed"), st.sampled_from(CARDS[:7]),
                 st.sampled_from(["draw", "column-0", "column-1", "column-2"]), st.just(0.0))
TAP = st.builds(Tap, st.sampled_from(["reshuffle", "choose", "undo", "card"]), st.just(0.0),
                data=st.fixed_dictionaries({"item": st.integers(0, 4), "choice": st.integers(0, 2),
                                            "card": st.sampled_from(CARDS),
                                            "zone": st.sampled_from(ZONES)}))
OBSERVATION = st.one_of(PLAY, PLAY, SIGHTING, SIGHTING, TAP,
                        st.builds(ButtonPress, st.none() | st.just(1), st.just("press"),
                                  st.just(0.0)))


@settings(max_examples=40, deadline=None)
@given(observations=st.lists(st.tuples(OBSERVATION, st.floats(0.0, 3.0)), min_size=10,
                                     max_size=60))
def test_any_table_is_refereed_without_a_crash_and_replays_the_same(
        observations: list[tuple[Observation, float]]) -> None:
    """Random sightings, taps and presses (on an in-memory SQLite store): the conductor
    never raises, every card stays in one place, and the log replays to the live state."""
    clock = ManualClock(0.0)
    table = Conductor.start(Store(":memory:"), clock, TableStart(
        "solitaire", ("sol",), options={"columns": 3, "time_limit": 90}))
    for observation, pause in observations:
        clock.now += pause
        table.post(replace(observation, t=clock.now))
        json.dumps(table.step().view.to_json())
        state = table.referee.state
        assert sorted(c for pile in state.places().values() for c in pile) == sorted(DECK)
    assert replay(table.referee.events).summary() == table.referee.summary()
