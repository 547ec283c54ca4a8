"""Seats (one numbering for players, buttons and zones) and the observations format, fuzzed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.observations import (
    ButtonPress,
    CameraStatus,
    Sighting,
    Tap,
    observation_json,
    parse_observation,
    read_recording,
)
from companion.engine.seats import Seating
from companion.errors import IllegalMove, ObservationError

START = '{"type": "start", "game": "medley", "players": ["ann"]}'


def test_seats_default_to_the_order_of_players() -> None:
    seating = Seating.of(["ann", "ben", "cat"])
    assert [(s.number, s.player, s.button, s.zone) for s in seating.seats] == [
        (1, "ann", 1, "seat-1"), (2, "ben", 2, "seat-2"), (3, "cat", 3, "seat-3")]


def test_a_start_event_can_rewire_buttons_and_zones() -> None:
    seating = Seating.from_start({"players": ["ann", "ben"], "seats": [
        {"seat": 1, "button": 4, "zone": "north"}, {"seat": 2, "player": "ben", "button": 1}]})
    assert seating.by_button(4).player == "ann" and seating.by_button(1).player == "ben"
    assert seating.by_zone("north").number == 1 and seating.zone_seat("seat-1") is None
    assert seating.to_json()[1] == {"seat": 2, "player": "ben", "button": 1, "zone": "seat-2"}


@pytest.mark.parametrize(("seats", "message"), [
    ([{"seat": 3}], "'seat' must be a whole number from 1 to 2"),
    ([{"seat": 1}, {"seat": 1}], "a seat number is given twice"),
    ([{"seat": 1, "player": "ben"}], "seat 1 is 'ann', not 'ben'"),
    ([{"seat": 2, "zone": "seat-1"}], "zone seat-1 is given to two seats"),
    ([{"seat": 1, "button": 0}], "'button' must be a whole number from 1 up"),
])
def test_bad_seats_are_refused_naming_the_problem(seats: list[dict[str, Any]],
                                                  message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        Seating.from_start({"players": ["ann", "ben"], "seats": seats})


def test_lookups_of_what_is_not_there_are_one_line() -> None:
    seating = Seating.of(["ann"])
    with pytest.raises(IllegalMove, match="there is no seat 2"):
        seating.by_number(2)
    with pytest.raises(IllegalMove, match="'zoe' has no seat"):
        seating.by_player("zoe")


@pytest.mark.parametrize("observation", [
    Sighting("moved", "Kd", "seat-2", 1.5, from_zone="deck"),
    Sighting("rolled", "die", "dice", 2.0, value=6, unsure=True),
    ButtonPress(None, "hold", 3.25),
    ButtonPress(2, "press", 3.5, late_ms=41.0),
    Tap("total", 4.0, seat=1, data={"x": 3, "total": 17}),
    CameraStatus(True, 5.0, "no frames for 2 s"),
    CameraStatus(False, 6.0),
])
def test_every_observation_round_trips_through_json(observation: Any) -> None:
    text = json.dumps(observation_json(observation))
    assert parse_observation(json.loads(text), where="x") == observation


def test_time_must_not_go_back_and_the_start_comes_first() -> None:
    with pytest.raises(ObservationError, match=r"r\.jsonl:3: 't' 1.0 goes back before 2.0"):
        read_recording(START + '\n{"t": 2, "type": "camera", "kind": "lost"}\n'
                       '{"t": 1, "type": "camera", "kind": "back"}', path="r.jsonl")
    with pytest.raises(ObservationError, match=r"r\.jsonl:1: a recorded game begins with"):
        read_recording('{"t": 1, "type": "camera", "kind": "lost"}', path="r.jsonl")
    with pytest.raises(ObservationError, match=r"r\.jsonl: no start line"):
        read_recording("\n\n", path="r.jsonl")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["t", "type", "kind", "card", "zone", "seat", "value",
                                       "action", "data", "late_ms", "unsure", "reason",
                                       "from_zone"]), children, max_size=6),
    max_leaves=12)
KINDS = st.sampled_from(["sighting", "button", "tap", "camera", "start", None, 3])


@settings(max_examples=400, deadline=None)
@given(obj=st.dictionaries(st.sampled_from(["t", "kind", "card", "zone", "seat", "value",
                                             "action", "data", "late_ms", "unsure"]), JSON),
       kind=KINDS)
def test_any_json_object_is_an_observation_or_one_clean_error(obj: dict[str, Any],
                                                              kind: Any) -> None:
    try:
        observation = parse_observation({**obj, "type": kind}, where="f:2")
    except ObservationError as error:
        assert "\n" not in str(error) and str(error).startswith("f:2: ")
    else:
        assert parse_observation(observation_json(observation), where="f:2") == observation


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.text(max_size=40) | JSON.map(json.dumps), max_size=5))
def test_any_file_is_a_recording_or_one_clean_error(lines: list[str]) -> None:
    try:
        read_recording("\n".join([START, *lines]), path="g.jsonl")
    except ObservationError as error:
        assert "\n" not in str(error) and str(error).startswith("g.jsonl")
