"""Seats: one numbering for players, buttons and table zones, from 1.

Seat ``n`` is where the ``n``-th player of the start event sits; the player's button is
button ``n`` of the pin map (``[hardware.players.n]``, keys ``q``/``a`` etc. off the Pi)
and the table zone in front of them is ``seat-n``. A start event may say otherwise with
``seats`` (a list of ``{"seat": 2, "player": "ben", "button": 3, "zone": "seat-3"}``),
for a table whose buttons are wired in another order; vision, hardware and the screen all
read the same :class:`Seating`.

>>> seating = Seating.of(["ann", "ben"])
>>> seating.by_player("ben")
Seat(number=2, player='ben', button=2, zone='seat-2')
>>> seating.by_button(1).player, seating.by_zone("seat-2").player
('ann', 'ben')
>>> Seating.of(["ann", "ben"], [{"seat": 1, "player": "ann", "button": 2},
...                            {"seat": 2, "player": "ben", "button": 2}])
Traceback (most recent call last):
companion.errors.IllegalMove: seats: button 2 is given to two seats
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalMove

ZONE_PREFIX = "seat-"


def seat_zone(number: int) -> str:
    """The table zone in front of seat ``number`` (``seat-1``)."""
    return f"{ZONE_PREFIX}{number}"


@dataclass(frozen=True)
class Seat:
    """Seat ``number``: who sits there, which button they press, which zone they play into."""

    number: int
    player: str
    button: int
    zone: str

    def to_json(self) -> dict[str, Any]:
        """The JSON form, as in a start event's ``seats``."""
        return {"seat": self.number, "player": self.player, "button": self.button,
                "zone": self.zone}


@dataclass(frozen=True)
class Seating:
    """Every seat of one game, found by number, player, button or zone."""

    seats: tuple[Seat, ...]

    @classmethod
    def of(cls, players: Sequence[str], seats: Sequence[Mapping[str, Any]] = ()) -> Seating:
        """The seating of a start event's ``players`` and optional ``seats``."""
        given = {_number(entry, "seat", len(players)): entry for entry in seats}
        if len(given) != len(seats):
            raise IllegalMove("seats: a seat number is given twice")
        chosen = []
        for number, player in enumerate(players, start=1):
            entry = given.pop(number, {})
            if entry.get("player", player) != player:
                raise IllegalMove(f"seats: seat {number} is {player!r}, not {entry['player']!r}")
            zone = entry.get("zone", seat_zone(number))
            if not isinstance(zone, str) or not zone:
                raise IllegalMove(f"seats: seat {number} needs a zone name, not {zone!r}")
            button = _number(entry, "button", None) if "button" in entry else number
            chosen.append(Seat(number, player, button, zone))
        for kind in ("button", "zone"):
            values = [getattr(seat, kind) for seat in chosen]
            clash = next((v for v in values if values.count(v) > 1), None)
            if clash is not None:
                raise IllegalMove(f"seats: {kind} {clash} is given to two seats")
        return cls(tuple(chosen))

    @classmethod
    def from_start(cls, data: Mapping[str, Any]) -> Seating:
        """The seating a start event's data declares."""
        players = data.get("players")
        seats = data.get("seats", [])
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise IllegalMove("the start event needs 'players', a list of names")
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise IllegalMove("'seats' must be a list of objects")
        return cls.of(players, seats)

    def by_number(self, number: int) -> Seat:
        """Seat ``number``; ``IllegalMove`` if the table has none."""
        return self._find("number", number, f"there is no seat {number}")

    def by_player(self, player: str) -> Seat:
        """The seat of ``player``."""
        return self._find("player", player, f"{player!r} has no seat")

    def by_button(self, button: int) -> Seat:
        """The seat whose player presses button ``button``."""
        return self._find("button", button, f"button {button} belongs to no seat")

    def by_zone(self, zone: str) -> Seat:
        """The seat in front of table zone ``zone``."""
        return self._find("zone", zone, f"zone {zone!r} is in front of no seat")

    def zone_seat(self, zone: str | None) -> Seat | None:
        """The seat in front of ``zone``, or None for a zone no seat owns."""
        return next((seat for seat in self.seats if seat.zone == zone), None)

    def to_json(self) -> list[dict[str, Any]]:
        """The JSON form of every seat."""
        return [seat.to_json() for seat in self.seats]

    def _find(self, key: str, value: object, message: str) -> Seat:
        for seat in self.seats:
            if getattr(seat, key) == value:
                return seat
        raise IllegalMove(message)


def _number(entry: Mapping[str, Any], key: str, most: int | None) -> int:
    value = entry.get(key)
    if (isinstance(value, bool) or not isinstance(value, int) or value < 1
            or (most is not None and value > most)):
        upto = f" to {most}" if most is not None else " up"
        raise IllegalMove(f"seats: {key!r} must be a whole number from 1{upto}, not {value!r}")
    return value
