"""The one TOML reader: limits, models, and one-line errors that find the key's line."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Annotated, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CatalogueError, ConfigError
from companion.tomlfile import (
    MAX_TOML_BYTES,
    Pair,
    Text,
    TomlModel,
    dump_model,
    key_line,
    load_model,
    quantity,
    read_model,
    whole_number,
)


class Seat(TomlModel):
    name: Text
    button: Annotated[int, whole_number(0, 27)]
    corner: Pair = (0.0, 0.0)
    side: Literal["left", "right"] = "left"


class Room(TomlModel):
    width: Annotated[float, quantity(above=0, unit="mm")] = 1.0
    seat: list[Seat] = field(default_factory=list)
    players: dict[str, Seat] = field(default_factory=dict)


def message(text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        load_model(text, Room, path="room.toml")
    assert "\n" not in str(caught.value)
    return str(caught.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('width = "x"\n', 'room.toml:1: width: must be a positive number of mm, not "x"'),
        ("width = nan\n", "room.toml:1: width: must be a positive number of mm, not nan"),
        ("width = true\n", "room.toml:1: width: must be a positive number of mm, not true"),
        (
            '[[seat]]\nname = "a"\nbutton = 1\n\n[[seat]]\nname = "b"\nbutton = 28\n',
            "room.toml:7: seat.2.button: must be a whole number 0-27, not 28",
        ),
        ('[[seat]]\nbutton = 1\n', "room.toml:1: seat.1.name: is required"),
        (
            '[[seat]]\nname = ""\nbutton = 1\n',
            'room.toml:2: seat.1.name: must be non-empty text, not ""',
        ),
        (
            '[[seat]]\nname = "a"\nbutton = 1\ncorner = [1, "y"]\n',
            'room.toml:4: seat.1.corner: must be a pair of numbers [x, y], not [1, "y"]',
        ),
        (
            '[players."two words"]\nname = "a"\nbutton = 1.5\n',
            'room.toml:3: players."two words".button: must be a whole number 0-27, not 1.5',
        ),
        (
            'players.a.name = "a"\nplayers.a.button = 99\n',
            "room.toml:2: players.a.button: must be a whole number 0-27, not 99",
        ),
        (
            'text = """\n[[seat]]\nwidth = 1\n"""\n',
            "room.toml:1: text: unknown key (known: width, seat, players)",
        ),
        ("seat = 3\n", "room.toml:1: seat: must be a list, not 3"),
        ("seat = [3]\n", "room.toml:1: seat.1: must be a table, not 3"),
        (
            '[[seat]]\nname = "a"\nbutton = 1\nside = "up"\n',
            'room.toml:4: seat.1.side: must be "left" or "right", not "up"',
        ),
        (
            '[[seat]]\nname = "a"\nbutton = 1\nside = true\n',
            'room.toml:4: seat.1.side: must be "left" or "right", not true',
        ),
        ("players = [1]\n", "room.toml:1: players: must be a table, not [1]"),
    ],
)
def test_one_line_names_file_line_key_and_problem(text: str, expected: str) -> None:
    assert message(text) == expected


def test_a_key_written_after_a_multiline_string_is_found_on_its_own_line() -> None:
    text = 'width = 2\nnote = """\n[[seat]]\nbutton = 1\n"""\n[[seat]]\nname = "a"\nbutton = 40\n'
    assert key_line(text, ("seat", 0, "button")) == 8


def test_the_size_limit_and_the_callers_error_type_stay(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"# " + b"x" * MAX_TOML_BYTES + b"\n")
    with pytest.raises(CatalogueError, match=r"big\.toml: the file is larger than 1024 KiB"):
        read_model(path, Room, error=CatalogueError)
    with pytest.raises(FileNotFoundError):
        read_model(tmp_path / "absent.toml", Room, error=CatalogueError)


@given(st.lists(st.text(min_size=1).filter(str.strip), min_size=1, max_size=3))
@settings(max_examples=50, deadline=None)
def test_any_seat_names_round_trip_through_the_writer(names: list[str]) -> None:
    room = Room(seat=[Seat(name=name, button=n % 28) for n, name in enumerate(names)])
    assert load_model(dump_model(room), Room, path="room.toml") == room
