"""The pin map: which BCM GPIO pin each button, light and the buzzer is wired to.

It is the ``[hardware]`` table of the companion's TOML configuration; any part left out
(``players``, ``referee``, ``buzzer``, ``hold_time``, ``bounce_time``) comes from the
shipped default map, ``hardware/default_pins.toml``. Every mistake is a
:class:`~companion.errors.ConfigError` naming the file and the key:

>>> try:
...     load_pin_map({"hardware": {"referee": {"button": 17}}}, path="config.toml")
... except ConfigError as error:
...     print(error)
config.toml: [hardware.players.1] button = 17 clashes with [hardware.referee] button

>>> pins = default_pin_map()
>>> pins.players[2].button, pins.referee, pins.buzzer
(22, 26, BuzzerPins(pin=13, kind='active'))
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from companion.config import section
from companion.errors import ConfigError
from hardware.buttons import DEFAULT_HOLD_TIME, ButtonSpec

BuzzerKind = Literal["active", "tonal"]

#: Physical header position (1-40) of each BCM GPIO pin on a 40-pin Raspberry Pi.
HEADER_PIN: Mapping[int, int] = {
    2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33,
    14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18,
    25: 22, 26: 37, 27: 13,
}

#: The shipped default map (package data).
DEFAULT_PINS = Path(__file__).with_name("default_pins.toml")

_TOP_KEYS = ("hold_time", "bounce_time", "referee", "buzzer", "players")
_MAX_PLAYERS = 8


@dataclass(frozen=True)
class PlayerPins:
    """One player's pins: the buzzer button, an optional separate stand button and LED."""

    button: int
    stand: int | None = None
    led: int | None = None


@dataclass(frozen=True)
class BuzzerPins:
    """The buzzer's pin and kind: ``active`` (on/off) or ``tonal`` (a passive piezo on PWM)."""

    pin: int
    kind: BuzzerKind = "active"


@dataclass(frozen=True)
class PinMap:
    """The validated ``[hardware]`` table. Times are in seconds."""

    players: Mapping[int, PlayerPins]
    referee: int | None
    buzzer: BuzzerPins | None
    hold_time: float = DEFAULT_HOLD_TIME
    bounce_time: float = 0.03

    def buttons(self) -> dict[ButtonSpec, int]:
        """Every button with its pin, players in number order then the referee.

        >>> [spec.name for spec in default_pin_map().buttons()]
        ['player 1', 'player 2', 'player 3', 'player 4', 'referee']
        """
        wired: dict[ButtonSpec, int] = {}
        for number in sorted(self.players):
            player = self.players[number]
            wired[ButtonSpec(f"player {number}", number, "call")] = player.button
            if player.stand is not None:
                wired[ButtonSpec(f"player {number} stand", number, "stand")] = player.stand
        if self.referee is not None:
            wired[ButtonSpec("referee", None, "referee")] = self.referee
        return wired

    def leds(self) -> dict[int, int]:
        """Player number to LED pin, for the players that have one."""
        return {n: p.led for n, p in sorted(self.players.items()) if p.led is not None}


def default_pin_map() -> PinMap:
    """The shipped map for four players (``hardware/default_pins.toml``)."""
    return load_pin_map({}, path="config.toml")


def _default_table() -> dict[str, Any]:
    text = DEFAULT_PINS.read_text(encoding="utf-8")
    table: dict[str, Any] = tomllib.loads(text)["hardware"]
    return table


def load_pin_map(config: Mapping[str, Any], *, path: str = "config.toml") -> PinMap:
    """Validate the ``[hardware]`` table of a loaded configuration (see :func:`load_config`)."""
    try:
        user = section(dict(config), "hardware")
    except ConfigError as error:
        raise ConfigError(error.message, path=path) from None
    for key in user:
        if key not in _TOP_KEYS:
            known = ", ".join(_TOP_KEYS)
            raise ConfigError(f"[hardware] unknown key {key!r} (known: {known})", path=path)
    table = {**_default_table(), **user}
    reader = _Reader(path)
    hold_time = reader.seconds(table, "hold_time", low=0.1, high=10.0)
    bounce_time = reader.seconds(table, "bounce_time", low=0.0, high=0.5)
    if bounce_time >= hold_time:
        raise ConfigError(
            f"[hardware] bounce_time = {bounce_time} must be shorter than hold_time = {hold_time}",
            path=path,
        )
    referee_table = reader.table(table["referee"], "[hardware.referee]", ("button",))
    referee = reader.pin(referee_table, "button", "[hardware.referee]")
    buzzer = reader.buzzer(table["buzzer"])
    players = reader.players(table["players"])
    return PinMap(players, referee, buzzer, hold_time=hold_time, bounce_time=bounce_time)


class _Reader:
    """Checks values one key at a time and remembers which key holds which pin."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.owners: dict[int, str] = {}

    def fail(self, message: str) -> ConfigError:
        return ConfigError(message, path=self.path)

    def seconds(self, table: Mapping[str, Any], key: str, *, low: float, high: float) -> float:
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(f"[hardware] {key} = {value!r} must be a number of seconds")
        if not low <= value <= high:
            raise self.fail(f"[hardware] {key} = {value} must be between {low} and {high} seconds")
        return float(value)

    def table(self, value: Any, name: str, keys: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"{name} must be a table, not {type(value).__name__}")
        for key in value:
            if key not in keys:
                raise self.fail(f"{name} unknown key {key!r} (known: {', '.join(keys)})")
        return value

    def required_pin(self, table: Mapping[str, Any], key: str, name: str) -> int:
        pin = self.pin(table, key, name)
        if pin is None:
            raise self.fail(f"{name} needs a {key} pin")
        return pin

    def pin(self, table: Mapping[str, Any], key: str, name: str) -> int | None:
        if key not in table:
            return None
        value = table[key]
        label = f"{name} {key}"
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{label} = {value!r} must be a BCM GPIO number (2-27)")
        if value in (0, 1):
            raise self.fail(f"{label} = {value} is reserved for the HAT ID EEPROM")
        if value not in HEADER_PIN:
            raise self.fail(f"{label} = {value} is not a GPIO pin of the header (BCM 2-27)")
        if value in self.owners:
            raise self.fail(f"{label} = {value} clashes with {self.owners[value]}")
        self.owners[value] = label
        return value

    def players(self, value: Any) -> dict[int, PlayerPins]:
        if not isinstance(value, dict) or not value:
            raise self.fail("[hardware.players] must be a table with at least one player")
        players: dict[int, PlayerPins] = {}
        for key in sorted(value, key=lambda k: (not k.isdigit(), k.zfill(3))):
            if not key.isdigit() or not 1 <= int(key) <= _MAX_PLAYERS:
                raise self.fail(
                    f"[hardware.players.{key}] the player must be a number 1-{_MAX_PLAYERS}"
                )
            name = f"[hardware.players.{key}]"
            table = self.table(value[key], name, ("button", "stand", "led"))
            button = self.required_pin(table, "button", name)
            stand = self.pin(table, "stand", name)
            led = self.pin(table, "led", name)
            players[int(key)] = PlayerPins(button, stand, led)
        return players

    def buzzer(self, value: Any) -> BuzzerPins | None:
        table = self.table(value, "[hardware.buzzer]", ("pin", "type"))
        pin = self.pin(table, "pin", "[hardware.buzzer]")
        kind = table.get("type", "active")
        if kind not in ("active", "tonal"):
            raise self.fail(f"[hardware.buzzer] type = {kind!r} must be 'active' or 'tonal'")
        return None if pin is None else BuzzerPins(pin, kind)
