"""The pin map: which BCM GPIO pin each button, light and the buzzer is wired to.

It is the ``[hardware]`` table of the companion's TOML configuration; any part left out
(``players``, ``referee``, ``buzzer``, ``hold_time``, ``bounce_time``) comes from the
shipped default map, ``hardware/default_pins.toml``. Every mistake is a
:class:`~companion.errors.ConfigError` naming the file and the key:

>>> from companion.errors import ConfigError
>>> try:
...     load_pin_map({"hardware": {"referee": {"button": 17}}}, path="config.toml")
... except ConfigError as error:
...     print(error)
config.toml: hardware.players.1.button: 17 clashes with hardware.referee.button

>>> pins = default_pin_map()
>>> pins.players[2].button, pins.referee, pins.buzzer
(22, 26, BuzzerPins(pin=13, kind='active'))
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from companion.errors import CompanionError
from companion.tomlfile import (
    Check,
    Key,
    TomlModel,
    dotted,
    problem,
    quantity,
    read_toml_text,
    show,
    validate,
)
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
    return load_pin_map({}, path="config.toml", text="")


def _default_table() -> dict[str, Any]:
    text = DEFAULT_PINS.read_text(encoding="utf-8")
    table: dict[str, Any] = tomllib.loads(text)["hardware"]
    return table


def load_pin_map(
    config: Mapping[str, Any], *, path: str = "config.toml", text: str | None = None
) -> PinMap:
    """Validate the ``[hardware]`` table of a loaded configuration (see :func:`load_config`).

    ``text`` is the file's text, for the line of a mistake; by default the file at
    ``path`` is read again when there is a mistake to place.
    """
    user = config.get("hardware", {})
    table = {**_default_table(), **user} if isinstance(user, dict) else user
    hardware = validate(
        table,
        HardwareTable,
        path=path,
        within=("hardware",),
        text=text if text is not None else lambda: _text_of(Path(path)),
    )
    players = {
        int(number): PlayerPins(player.button, player.stand, player.led)
        for number, player in sorted(hardware.players.items(), key=lambda item: int(item[0]))
    }
    buzzer = hardware.buzzer
    return PinMap(
        players,
        hardware.referee.button,
        None if buzzer.pin is None else BuzzerPins(buzzer.pin, buzzer.type),
        hold_time=hardware.hold_time,
        bounce_time=hardware.bounce_time,
    )


def _text_of(path: Path) -> str:
    """The text of the configuration file, or "" when it cannot be read (no line then)."""
    try:
        return read_toml_text(path)
    except (OSError, CompanionError):
        return ""


# --- the schema of [hardware] ---------------------------------------------------------


def _pin(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise problem(f"must be a BCM GPIO number (2-27), not {show(value)}")
    if value in (0, 1):
        raise problem(f"{value} is reserved for the HAT ID EEPROM")
    if value not in HEADER_PIN:
        raise problem(f"{value} is not a GPIO pin of the header (BCM 2-27)")
    return value


def _player_number(key: str) -> str:
    if not (key.isascii() and key.isdigit() and 1 <= int(key) <= _MAX_PLAYERS):
        raise problem(f"the player must be a number 1-{_MAX_PLAYERS}")
    return key


Pin = Annotated[int, Check(_pin)]
PlayerNumber = Annotated[str, Check(_player_number)]


class PlayerTable(TomlModel):
    """``[hardware.players.N]``: the player's button, and optionally a stand button and LED."""

    button: Pin
    stand: Pin | None = None
    led: Pin | None = None


class RefereeTable(TomlModel):
    """``[hardware.referee]``: the referee's button, if there is one."""

    button: Pin | None = None


class BuzzerTable(TomlModel):
    """``[hardware.buzzer]``: the buzzer's pin, if there is one, and its kind."""

    pin: Pin | None = None
    type: BuzzerKind = "active"


class HardwareTable(TomlModel):
    """``[hardware]`` merged over the defaults: every pin used once, bounce shorter than hold."""

    hold_time: Annotated[float, quantity(0.1, 10.0, unit="seconds")]
    bounce_time: Annotated[float, quantity(0.0, 0.5, unit="seconds")]
    referee: RefereeTable
    buzzer: BuzzerTable
    players: dict[PlayerNumber, PlayerTable]

    def check(self) -> None:
        """At least one player, bounce shorter than hold, every pin wired once."""
        if not self.players:
            raise problem("must have at least one player", at=("players",))
        if self.bounce_time >= self.hold_time:
            raise problem(
                f"{self.bounce_time} must be shorter than hold_time = {self.hold_time}",
                at=("bounce_time",),
            )
        owners: dict[int, Key] = {}
        for key, pin in self._wired():
            if pin in owners:
                raise problem(
                    f"{pin} clashes with {dotted(('hardware', *owners[pin]))}",
                    at=key,
                    also=owners[pin],
                )
            owners[pin] = key

    def _wired(self) -> Iterator[tuple[Key, int]]:
        """Every pin in use with its key: the referee, the buzzer, then players by number."""
        if self.referee.button is not None:
            yield ("referee", "button"), self.referee.button
        if self.buzzer.pin is not None:
            yield ("buzzer", "pin"), self.buzzer.pin
        for number in sorted(self.players, key=int):
            player = self.players[number]
            for role in ("button", "stand", "led"):
                pin = getattr(player, role)
                if pin is not None:
                    yield ("players", number, role), pin
