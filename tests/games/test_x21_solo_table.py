"""21X single player at the table: view, moves, the translator's moves and questions, the
recorded game played through the conductor, the example log's summary and the catch-up."""

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
from companion.engine.replay import catch_up, replay
from companion.engine.scores import best_times
from companion.engine.seats import Seating
from companion.engine.store import Store
from companion.errors import MalformedMove
from companion.games.translate import Table, Translation
from companion.games.x21_solo.rules import RULES, SoloState
from companion.games.x21_solo.translator import TRANSLATOR, Awaiting
from tests.games.recordings import example_log, play

SUMMARIES = Path(__file__).resolve().parent / "data"
DECK = ["6x", "2x+4", "x/2", "prime", "fib"]


def start(**options: Any) -> SoloState:
    return RULES.start(Event("start", {"players": ["ann"], "deck": DECK, "cards": [],
                                       "options": options}))


def do(state: SoloState, *moves: tuple[str, dict[str, Any]], t: float = 5.0) -> SoloState:
    for kind, data in moves:
        state = RULES.apply(state, Event(kind, data, t=t))
    return state


def dealt(*cards: str, t: float = 5.0) -> SoloState:
    """A game whose hand holds ``cards`` (the first two dealt, the rest drawn)."""
    return do(start(), *((("deal" if i < 2 else "draw"), {"card": c})
                         for i, c in enumerate(cards)), t=t)


def translate(state: SoloState, observation: Observation,
              memory: Awaiting = False) -> Translation[Awaiting]:
    return TRANSLATOR.translate(Table(RULES, state, Seating.of(["ann"])), memory, observation)


def moves_of(state: SoloState, observation: Observation,
             memory: Awaiting = False) -> tuple[list[tuple[str, dict[str, Any]]], Awaiting]:
    translation = translate(state, observation, memory)
    assert translation.asks == ()
    return [(move.kind, dict(move.data)) for move in translation.moves], translation.memory


def asked(state: SoloState, observation: Observation) -> tuple[str, list[str]]:
    translation = translate(state, observation)
    assert translation.moves == ()
    [ask] = translation.asks
    return ask.message, [choice.label for choice in ask.choices]


def seen(card: str, zone: str | None, kind: SightingKind = "placed", **more: Any) -> Sighting:
    return Sighting(kind, card, zone, 9.0, **more)


# --- view and moves ---------------------------------------------------------------------------


def test_the_view_deals_then_plays_with_the_stopwatch_running() -> None:
    fresh = RULES.view(start())
    assert fresh.phase == "dealing" and fresh.timers == ()
    assert fresh.expecting[0].to_json() == {"what": "deal", "seats": [1],
                                            "detail": "deal 2 cards into the hand"}
    one = RULES.view(dealt("6x", t=4.0))
    assert one.expecting[0].detail == "deal 1 card into the hand"
    [watch] = one.timers
    assert (watch.kind, watch.started_at, watch.ends_at) == ("stopwatch", 4.0, None)
    playing = RULES.view(dealt("6x", "2x+4"))
    assert playing.phase == "playing" and playing.expecting[0].what == "play"
    assert [card.to_json() for card in playing.seats[0].cards] == [
        {"card": "6x", "text": "6X"}, {"card": "2x+4", "text": "2X+4"}]
    json.dumps(playing.to_json())


def test_a_missed_make21_shows_the_working_at_the_x_tried_until_the_hand_changes() -> None:
    state = do(dealt("6x", "2x+4", "x/2"), ("make21", {"x": 1}))
    seat = RULES.view(state).seats[0]
    assert seat.total == "12.5" and seat.note == "tried with X = 1 but the cards make 12.5"
    assert [card.value for card in seat.cards] == ["6", "6", "0.5"]
    assert seat.cards[0].working == "6X = 6\N{MULTIPLICATION SIGN}1 = 6"
    tried_zero = RULES.view(do(state, ("make21", {"x": 0}))).seats[0]
    assert tried_zero.total is None and tried_zero.note == "tried with X = 0: X cannot be 0"
    assert [card.value for card in tried_zero.cards] == [None, None, None]
    mulliganed = RULES.view(do(state, ("mulligan", {}))).seats[0]
    assert mulliganed.cards == () and mulliganed.note == "" and mulliganed.total is None


def test_the_score_area_shows_each_hand_with_its_x_v_and_icons_and_the_end_its_time() -> None:
    state = do(dealt("6x", "2x+4", "x/2", t=2.0), ("make21", {"x": 2}), t=40.0)
    view = RULES.view(state)
    [hand] = view.table["scored"]
    assert (hand["x"], hand["v"], hand["icons"]) == (2, 1, 4)
    assert [card["value"] for card in hand["cards"]] == ["12", "8", "1"]
    assert view.outcome.points == {"ann": 4} and not view.outcome.over
    hand = [("deal", {"card": "6x"}), ("deal", {"card": "2x+4"}), ("draw", {"card": "x/2"})]
    over = do(do(start(target=4), *hand, t=2.0), ("make21", {"x": 2}), t=40.0)
    won = RULES.view(over)
    assert won.phase == "over" and won.outcome.winners == ("ann",) and won.timers == ()
    assert won.outcome.reason == "ann scored 4 points in 38 s" and won.table["time"] == 38.0
    assert won.seats[0].status == "won" and RULES.moves(over).moves == ()


def test_moves_follow_the_hand_and_the_deck() -> None:
    def kinds(state: SoloState) -> list[str]:
        return [move.kind for move in RULES.moves(state).moves]

    assert kinds(start()) == ["deal"]
    assert kinds(dealt("6x")) == ["deal", "mulligan"]
    assert kinds(dealt("6x", "2x+4")) == ["draw", "mulligan", "make21"]
    assert RULES.moves(dealt("6x", "2x+4")).moves[2].detail == {"needs": ["x"], "v": 1}
    assert RULES.moves(dealt("6x", "2x+4")).unknown == (
        "which of the 3 face-down deck cards comes next",)
    assert kinds(dealt("6x", "2x+4", "x/2", "prime", "fib")) == ["mulligan", "make21"]
    emptied = do(dealt("6x", "2x+4", "x/2", "prime", "fib"), ("mulligan", {}))
    assert RULES.view(emptied).phase == "reshuffling" and kinds(emptied) == ["reshuffle"]
    assert RULES.moves(emptied).unknown == ()
    assert RULES.view(emptied).expecting[0].what == "reshuffle"


def test_malformed_moves_are_told_apart_from_illegal_ones() -> None:
    with pytest.raises(MalformedMove, match="a 'deal' needs 'card'"):
        do(start(), ("deal", {}))
    with pytest.raises(MalformedMove, match="'x' of a 'make21' must be a number, not 'two'"):
        do(dealt("6x", "2x+4"), ("make21", {"x": "two"}))


# --- the translator: moves -------------------------------------------------------------------


def test_cards_into_the_hand_are_deals_then_draws() -> None:
    assert moves_of(start(), seen("6x", "hand")) == ([("deal", {"card": "6x"})], False)
    assert moves_of(dealt("6x", "2x+4"), seen("x/2", "hand"))[0] == [("draw", {"card": "x/2"})]
    assert moves_of(dealt("6x", "2x+4"), seen("6x", "hand"))[0] == []  # seen again


def test_the_hand_moved_to_the_score_area_awaits_x_and_x_makes_21() -> None:
    state = dealt("6x", "2x+4", "x/2")
    moves, awaiting = moves_of(state, seen("6x", "score", "moved", from_zone="hand"))
    assert moves == [] and awaiting is True
    table = Table(RULES, state, Seating.of(["ann"]))
    assert [e.what for e in TRANSLATOR.expecting(table, awaiting)] == ["x"]
    assert moves_of(state, Tap("x", 9.0, 1, {"x": 2, "y": None}), True) == (
        [("make21", {"x": 2})], False)
    assert moves_of(state, seen("6x", "hand", "moved", from_zone="score"), True) == ([], False)
    assert moves_of(state, Tap("cancel", 9.0, 1), True) == ([], False)
    assert moves_of(state, ButtonPress(1, "press", 9.0)) == ([], True)
    scored = do(state, ("make21", {"x": 2}))
    assert moves_of(scored, seen("x/2", "score", "moved", from_zone="hand")) == ([], False)


def test_the_hand_swept_to_the_discards_is_a_mulligan() -> None:
    state = dealt("6x", "2x+4", "x/2")
    assert moves_of(state, seen("6x", "discard", "moved", from_zone="hand"), True) == (
        [("mulligan", {})], False)
    discarded = do(state, ("mulligan", {}))
    assert moves_of(discarded, seen("2x+4", "discard", "moved", from_zone="hand")) == ([], False)
    assert moves_of(state, Tap("mulligan", 9.0, 1))[0] == [("mulligan", {})]


def test_the_discards_taken_up_on_an_empty_deck_are_the_reshuffle() -> None:
    emptied = do(dealt("6x", "2x+4", "x/2", "prime", "fib"), ("mulligan", {}))
    assert moves_of(emptied, seen("fib", "discard", "removed"))[0] == [("reshuffle", {})]
    assert moves_of(emptied, seen("fib", "hand"))[0] == [("reshuffle", {}),
                                                         ("deal", {"card": "fib"})]
    assert moves_of(emptied, seen("fib", "deck"))[0] == [("reshuffle", {})]
    assert moves_of(emptied, Tap("reshuffle", 9.0, 1))[0] == [("reshuffle", {})]
    assert moves_of(start(), seen("fib", "deck"))[0] == []


# --- the translator: every question -----------------------------------------------------------


def test_cards_leaving_the_hand_the_score_area_or_the_discards_are_asked_about() -> None:
    state = dealt("6x", "2x+4", "x/2")
    assert asked(state, seen("x/2", "hand", "removed")) == (
        "x/2 left the hand: in 21X a card drawn is kept",
        ["it is still there", "it was a mulligan"])
    scored = do(state, ("make21", {"x": 2}))
    assert asked(scored, seen("x/2", "score", "removed"))[0] == (
        "x/2 left the score area: scored hands stay there")
    discarded = do(dealt("6x", "2x+4"), ("mulligan", {}))
    assert asked(discarded, seen("6x", "discard", "removed"))[0] == (
        "6x left the discards: they make a new deck only when the deck is empty")
    assert asked(state, seen("x/2", "deck", "moved", from_zone="hand"))[0] == (
        "x/2 went back to the deck: in 21X a card drawn is kept")


def test_cards_in_the_score_area_or_discards_not_from_the_hand_are_asked_about() -> None:
    state = dealt("6x", "2x+4")
    assert asked(state, seen("fib", "score"))[0] == (
        "fib is in the score area but not in the hand: only a hand that made 21 goes there")
    assert asked(state, seen("fib", "discard"))[0] == (
        "fib is on the discards but not from the hand: a mulligan discards the whole hand")


def test_a_card_in_no_zone_an_unsure_read_and_a_die_are_asked_about() -> None:
    state = start()
    assert asked(state, seen("6x", None)) == (
        "6x is in no zone: not the hand, score area or discards",
        ["it went into the hand", "ignore"])
    assert asked(state, seen("6x", "hand", unsure=True)) == (
        "the camera is unsure of the card in hand: is it 6x?",
        ["yes, 6x", "no: enter it by touch"])
    assert asked(state, seen("die", "hand", "rolled", value=3))[0] == (
        "a die (3) is on the table: 21X uses no dice")


def test_stray_buttons_early_presses_and_unknown_taps_are_asked_about() -> None:
    assert asked(dealt("6x", "2x+4"), ButtonPress(2, "press", 9.0))[0] == (
        "button 2 has no player: 21X single player has one")
    assert asked(dealt("6x"), ButtonPress(1, "press", 9.0))[0] == (
        "a hand needs its 2 dealt cards to make 21")
    assert asked(start(), Tap("stand", 9.0, 1))[0] == (
        "21X single player has no 'stand' on the screen")


def test_after_the_game_is_over_the_table_is_not_read() -> None:
    over = replace(start(), points=21)
    assert translate(over, seen("6x", "hand")) == Translation(False)


# --- through the conductor --------------------------------------------------------------------


def test_a_card_the_rules_refuse_is_asked_about_and_the_answer_is_entered(tmp_path: Path) -> None:
    clock = ManualClock(0.0)
    table = Conductor.start(Store.open(tmp_path), clock, TableStart(
        "21x-solo", ("ann",), extra={"deck": DECK, "cards": []}))
    for t, observation in enumerate([seen("6x", "hand"), seen("2x+4", "hand"),
                                     seen("6x", "discard", "moved", from_zone="hand"),
                                     seen("2x+4", "hand", "moved", from_zone="discard"),
                                     seen("7q", "elsewhere")], start=1):
        clock.now = float(t)
        table.post(replace(observation, t=float(t)))
        update = table.step()
    refused, stray = update.attention
    assert refused.message == ("2x+4 in hand was refused: card '2x+4' is not in the deck (in"
                               " the discards)")
    table.resolve(stray.id, 0)
    still, item = table.step().attention
    assert still == refused
    assert item.message == "7q in hand was refused: card '7q' is not in the declared deck"
    assert [e.kind for e in table.referee.events] == ["start", "deal", "deal", "mulligan"]


def test_a_card_taken_out_of_the_hand_can_be_told_to_be_a_mulligan(tmp_path: Path) -> None:
    clock = ManualClock(0.0)
    table = Conductor.start(Store.open(tmp_path), clock, TableStart(
        "21x-solo", ("ann",), extra={"deck": DECK, "cards": []}))
    for observation in (seen("6x", "hand"), seen("2x+4", "hand"), seen("6x", "hand", "removed")):
        table.post(observation)
    [item] = table.step().attention
    assert [choice.label for choice in item.choices] == ["it is still there", "it was a mulligan"]
    table.resolve(item.id, 1)
    update = table.step()
    assert [e.kind for e in update.events] == ["mulligan"] and update.attention == ()


def test_the_recorded_game_is_refereed_as_its_example_log(tmp_path: Path) -> None:
    played = play("21x-solo", tmp_path)
    log = example_log("21x-solo")
    assert played.logged() == [(e.kind, dict(e.data)) for e in log.events[1:]]
    referee = played.conductor.referee
    assert referee.summary() == log.summary()
    signals = [(s.kind, s.detail) for update in played.updates for s in update.signals]
    assert signals[0] == ("wrong", "tried with X = 1 but the cards make 12.5")
    assert [kind for kind, _ in signals[1:]] == ["right"] * 4 + ["over"]
    assert all(update.attention == () for update in played.updates)
    view = played.conductor.view
    assert view.outcome.over and view.outcome.reason == "ann scored 26 points in 188 s"
    assert best_times(referee.store)[0].value == 188.0


# --- the example log and the catch-up ---------------------------------------------------------


def test_single_player_has_no_countdown_so_catch_up_changes_nothing() -> None:
    """The stopwatch only measures: no timer event is ever due, however late a move comes."""
    events = example_log("21x-solo").events
    state = RULES.start(events[0])
    for event in events[1:]:
        assert RULES.due(state, 1e9) == [] and catch_up(RULES, state, event) is state
        state = RULES.apply(state, event)
    assert replay(events).summary() == RULES.summary(state)


# --- whatever the table shows, the conductor never fails -----------------------------------

SOLO_CARDS = [*DECK, "7q", "die"]
SOLO_ZONES = [None, "hand", "score", "discard", "deck", "floor"]
SIGHTING = st.builds(Sighting, st.sampled_from(["placed", "moved", "removed", "rolled"]),
                     st.sampled_from(SOLO_CARDS), st.sampled_from(SOLO_ZONES), st.just(0.0),
                     from_zone=st.sampled_from(SOLO_ZONES), value=st.none() | st.integers(1, 6),
                     unsure=st.sampled_from([False, False, False, True]))
TAP = st.builds(Tap, st.sampled_from(["x", "x", "mulligan", "reshuffle", "cancel", "stand",
                                      "choose"]), st.just(0.0), st.none() | st.integers(1, 2),
                data=st.fixed_dictionaries({
                    "x": st.sampled_from([1, 2, 3, "5/2", 0, "two", None, [1]]),
                    "item": st.integers(0, 4), "choice": st.integers(0, 2)}))
BUTTON = st.builds(ButtonPress, st.none() | st.integers(1, 2),
                   st.sampled_from(["press", "hold"]), st.just(0.0))
PLAY = st.one_of(
    st.builds(Sighting, st.just("placed"), st.sampled_from(DECK), st.just("hand"), st.just(0.0)),
    st.builds(Sighting, st.just("moved"), st.sampled_from(DECK), st.sampled_from(
        ["score", "discard"]), st.just(0.0), from_zone=st.just("hand")),
    st.builds(Tap, st.just("x"), st.just(0.0), st.just(1), st.fixed_dictionaries(
        {"x": st.integers(1, 3)})))
OBSERVATION = st.one_of(PLAY, PLAY, PLAY, SIGHTING, TAP, BUTTON)


@settings(max_examples=40, deadline=None)
@given(observations=st.lists(OBSERVATION, min_size=10, max_size=60))
def test_any_table_is_refereed_without_a_crash_and_replays_the_same(
        observations: list[Observation]) -> None:
    """Random sightings, taps and presses (on an in-memory SQLite store): the conductor
    never raises, every card stays in one place, and the log replays to the live state."""
    clock = ManualClock(0.0)
    table = Conductor.start(Store(":memory:"), clock, TableStart(
        "21x-solo", ("ann",), extra={"deck": DECK, "cards": []}, options={"target": 6}))
    for observation in observations:
        clock.now += 1.0
        table.post(replace(observation, t=clock.now))
        json.dumps(table.step().view.to_json())
        state = table.referee.state
        scored = [card for hand in state.scored for card in hand]
        assert sorted([*state.deck, *state.hand, *scored, *state.discards]) == sorted(DECK)
    assert replay(table.referee.events).summary() == table.referee.summary()
