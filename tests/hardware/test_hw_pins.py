"""The pin map: the shipped defaults, a real config file, and every kind of mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import load_config
from companion.errors import ConfigError
from hardware.buttons import DEFAULT_HOLD_TIME, ButtonPanel, ButtonSpec
from hardware.keyboard import KeyboardButtons
from hardware.pins import (
    HEADER_PIN,
    BuzzerPins,
    PinMap,
    PlayerPins,
    default_pin_map,
    load_pin_map,
)

I2C_SPI_UART_I2S_EEPROM = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15, 18, 19, 20, 21}


def write(tmp_path: Path, text: str) -> tuple[dict[str, object], str]:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path), str(path)


def error_for(tmp_path: Path, text: str) -> str:
    """The one-line message for ``text``, from reading the file or checking its pin map."""
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_pin_map(load_config(path), path=str(path))
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:")
    return message.removeprefix(f"{path}:")


def test_default_map_has_four_players_on_free_distinct_pins() -> None:
    pins = default_pin_map()
    used = [p.button for p in pins.players.values()] + [p.led for p in pins.players.values()]
    used += [pins.referee, pins.buzzer.pin if pins.buzzer else None]
    assert sorted(pins.players) == [1, 2, 3, 4]
    assert None not in used and len(set(used)) == len(used) == 10
    assert not set(used) & I2C_SPI_UART_I2S_EEPROM
    assert (pins.hold_time, pins.bounce_time) == (1.0, 0.03)


def test_header_pins_are_the_40_pin_layout() -> None:
    assert len(HEADER_PIN) == 26 and len(set(HEADER_PIN.values())) == 26
    assert (HEADER_PIN[17], HEADER_PIN[26], HEADER_PIN[2], HEADER_PIN[21]) == (11, 37, 3, 40)


def test_a_config_file_overrides_parts_and_keeps_default_for_the_rest(tmp_path: Path) -> None:
    config, path = write(
        tmp_path,
        """
        [hardware]
        hold_time = 0.8
        [hardware.buzzer]
        pin = 12
        type = "tonal"
        [hardware.players.1]
        button = 17
        stand = 4
        led = 27
        [hardware.players.2]
        button = 22
        """,
    )
    pins = load_pin_map(config, path=path)
    assert pins.hold_time == 0.8 and pins.bounce_time == 0.03
    assert pins.players == {1: PlayerPins(17, 4, 27), 2: PlayerPins(22, None, None)}
    assert pins.buzzer == BuzzerPins(12, "tonal") and pins.referee == 26
    assert pins.buttons() == {
        ButtonSpec("player 1", 1, "call"): 17,
        ButtonSpec("player 1 stand", 1, "stand"): 4,
        ButtonSpec("player 2", 2, "call"): 22,
        ButtonSpec("referee", None, "referee"): 26,
    }
    assert pins.leds() == {1: 27}


def test_players_are_ordered_by_number_not_text(tmp_path: Path) -> None:
    body = "".join(f"[hardware.players.{n}]\nbutton = {n + 3}\n" for n in (8, 2, 10 - 9))
    config, path = write(tmp_path, body)
    assert list(load_pin_map(config, path=path).players) == [1, 2, 8]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[hardware.referee]\nbutton = 22\n",
            "2: hardware.players.2.button: 22 clashes with hardware.referee.button",
        ),
        (
            "[hardware.players.1]\nbutton = 17\nled = 17\n",
            "3: hardware.players.1.led: 17 clashes with hardware.players.1.button",
        ),
        (
            "[hardware.players.3]\nbutton = 13\n",
            "2: hardware.players.3.button: 13 clashes with hardware.buzzer.pin",
        ),
        ("[hardware.players.1]\nbutton = 40\n", "2: hardware.players.1.button: 40 is not a GPIO"),
        ("[hardware.players.1]\nbutton = 1\n", "2: hardware.players.1.button: 1 is reserved"),
        (
            "[hardware.players.1]\nbutton = '17'\n",
            '2: hardware.players.1.button: must be a BCM GPIO number (2-27), not "17"',
        ),
        ("[hardware.players.1]\nbutton = true\n", "2: hardware.players.1.button: must be"),
        ("[hardware.players.1]\nled = 4\n", "1: hardware.players.1.button: is required"),
        (
            "[hardware.players.1]\nled = 4\nbuton = 4\n",
            "3: hardware.players.1.buton: unknown key (known: button, stand, led)",
        ),
        ("[hardware.players.0]\nbutton = 4\n", "1: hardware.players.0: the player must be"),
        ("[hardware.players.one]\nbutton = 4\n", "1: hardware.players.one: the player must be"),
        ('[hardware.players."²"]\nbutton = 4\n', '1: hardware.players."²": the player must be'),
        ("[hardware]\nplayers = 3\n", "2: hardware.players: must be a table, not 3"),
        ("[hardware]\nplayers = {}\n", "2: hardware.players: must have at least one player"),
        ("[hardware]\nreferee = 4\n", "2: hardware.referee: must be a table, not 4"),
        ("[hardware]\nhold_tme = 1\n", "2: hardware.hold_tme: unknown key (known: hold_time,"),
        (
            "[hardware]\nhold_time = 'long'\n",
            '2: hardware.hold_time: must be a number of seconds from 0.1 to 10.0, not "long"',
        ),
        ("[hardware]\nhold_time = 60\n", "2: hardware.hold_time: must be a number of seconds"),
        ("[hardware]\nbounce_time = -0.1\n", "2: hardware.bounce_time: must be a number of"),
        (
            "[hardware]\nhold_time = 0.2\nbounce_time = 0.3\n",
            "3: hardware.bounce_time: 0.3 must be shorter than hold_time = 0.2",
        ),
        ("[hardware.buzzer]\npin = 13\ntype = 'loud'\n", "3: hardware.buzzer.type: must be"),
        ("hardware = 5\n", "1: hardware: must be a table, not 5"),
        ("[hardwre]\nhold_time = 1\n", "1: hardwre: unknown key (known: hardware, vision, games)"),
        ("[games]\ntrick = 3\n", "2: games.trick: must be a table, not 3"),
    ],
)
def test_mistakes_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    assert error_for(tmp_path, text).startswith(message)


def test_a_corrupt_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[hardware]\nhold_time = = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.toml:2: invalid TOML"):
        load_config(path)


def test_no_buzzer_and_no_referee_when_left_empty(tmp_path: Path) -> None:
    config, path = write(tmp_path, "[hardware.referee]\n[hardware.buzzer]\n")
    pins = load_pin_map(config, path=path)
    assert pins.referee is None and pins.buzzer is None
    assert [spec.name for spec in pins.buttons()][-1] == "player 4"


def test_one_hold_time_default_for_the_map_the_panel_and_the_keyboard() -> None:
    with KeyboardButtons() as keyboard:
        defaults = [
            default_pin_map().hold_time,  # from the shipped default_pins.toml
            PinMap(players={}, referee=None, buzzer=None).hold_time,
            ButtonPanel([]).hold_time,
            keyboard.panel.hold_time,
        ]
    assert defaults == [DEFAULT_HOLD_TIME] * 4
