"""Observations: what the table loop is told, before any rule has looked at it.

Three rooms feed the loop, each with its own typed observation:

- the camera: a confirmed :class:`Sighting` (a card ``placed``, ``moved`` or ``removed``,
  a die ``rolled``) once the smoother has seen it hold still, and :class:`CameraStatus`
  when the camera is lost or back;
- the buttons: a :class:`ButtonPress`, a short ``press`` or a ``hold``, from a seat's
  button or the referee's (``seat`` None);
- the screen: a :class:`Tap`, a person entering or choosing something (an X, a total, a
  card placed by touch, the answer to an attention item, a correction).

A per-game translator (``companion.games.<game>.translator``) turns them into moves.
A recorded game is a JSON-lines file: the first line is the :class:`TableStart` (game,
players, seats, options), then one observation per line with its time ``t``; see
``docs/observations.md``.

>>> line = '{"t": 2.5, "type": "sighting", "kind": "placed", "card": "Kd", "zone": "seat-1"}'
>>> observation = parse_observation(json.loads(line), where="game.jsonl:2")
>>> observation
Sighting(kind='placed', card='Kd', zone='seat-1', t=2.5, from_zone=None, value=None, unsure=False)
>>> observation_json(observation) == json.loads(line)
True
>>> parse_observation({"t": 1, "type": "button", "seat": 0, "kind": "press"}, where="f:3")
Traceback (most recent call last):
companion.errors.ObservationError: f:3: 'seat' must be a seat number from 1, or null for the referee
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from companion.errors import ObservationError

SightingKind = Literal["placed", "moved", "removed", "rolled"]
PressKind = Literal["press", "hold"]
DIE = "die"
"""The ``card`` of a die's sighting (its pips are the ``value``)."""


@dataclass(frozen=True)
class Sighting:
    """A confirmed change on the table: ``card`` (a card name, or ``"die"``) is now in
    ``zone`` (for ``removed``: was there); ``unsure`` when the reader doubts its read."""

    kind: SightingKind
    card: str
    zone: str | None
    t: float
    from_zone: str | None = None
    value: int | None = None
    unsure: bool = False


@dataclass(frozen=True)
class ButtonPress:
    """A button was pressed briefly (``press``) or held (``hold``); ``late_ms`` is how long
    after the first buzz of a lockout it came (0 for the first, None outside a lockout)."""

    seat: int | None
    kind: PressKind
    t: float
    late_ms: float | None = None


@dataclass(frozen=True)
class Tap:
    """A person told the screen something: ``action`` with its ``data``, for ``seat``.

    Actions: ``x`` (x[, y]), ``total`` (x[, y], total), ``pass``, ``card`` (card, zone: a
    sighting entered by touch), ``choose`` (item, choice: answers an attention item),
    ``correct`` (target[, replacement]), ``close``, and the game's own (``swap``, ``keep``,
    ``start``, ``stop``...).
    """

    action: str
    t: float
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CameraStatus:
    """The camera was lost (``lost`` True) or is back."""

    lost: bool
    t: float
    reason: str = ""


Observation = Sighting | ButtonPress | Tap | CameraStatus


@dataclass(frozen=True)
class TableStart:
    """The first line of a recorded game: what the referee's start event needs."""

    game: str
    players: tuple[str, ...]
    t: float = 0.0
    seats: tuple[Mapping[str, Any], ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Other start data the game reads (a 21X deck and its inline cards)."""

    def start_data(self) -> dict[str, Any]:
        """The ``data`` of the referee's start event (without ``game``)."""
        data: dict[str, Any] = {**self.extra, "players": list(self.players)}
        if self.seats:
            data["seats"] = [dict(seat) for seat in self.seats]
        if self.options:
            data["options"] = dict(self.options)
        return data


def _time(obj: Mapping[str, Any], where: str) -> float:
    t = obj.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0:
        raise ObservationError("'t' must be a finite number of seconds >= 0", where=where)
    return float(t)


def _text(obj: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise ObservationError(f"{key!r} must be a non-empty string", where=where)
    return value


def _seat(obj: Mapping[str, Any], where: str) -> int | None:
    seat = obj.get("seat")
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
        raise ObservationError("'seat' must be a seat number from 1, or null for the referee",
                               where=where)
    return seat


def _choice(obj: Mapping[str, Any], key: str, allowed: tuple[str, ...], where: str) -> Any:
    value = obj.get(key)
    if value not in allowed:
        raise ObservationError(f"{key!r} must be one of {', '.join(allowed)}, not {value!r}",
                               where=where)
    return value


def parse_observation(obj: Any, *, where: str) -> Observation:
    """Build one observation from its JSON object; ``where`` names it in any error."""
    if not isinstance(obj, dict):
        raise ObservationError("an observation must be a JSON object", where=where)
    kind = obj.get("type")
    t = _time(obj, where)
    if kind == "sighting":
        value = obj.get("value")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= 6):
            raise ObservationError("a die's 'value' must be 1 to 6", where=where)
        unsure = obj.get("unsure", False)
        if not isinstance(unsure, bool):
            raise ObservationError("'unsure' must be true or false", where=where)
        return Sighting(kind=_choice(obj, "kind", get_args(SightingKind), where),
                        card=_text(obj, "card", where), zone=_text(obj, "zone", where,
                                                                   optional=True),
                        t=t, from_zone=_text(obj, "from_zone", where, optional=True),
                        value=value, unsure=unsure)
    if kind == "button":
        late = obj.get("late_ms")
        if late is not None and (isinstance(late, bool) or not isinstance(late, int | float)
                                 or not math.isfinite(late) or late < 0):
            raise ObservationError("'late_ms' must be a number >= 0", where=where)
        return ButtonPress(seat=_seat(obj, where),
                           kind=_choice(obj, "kind", get_args(PressKind), where), t=t,
                           late_ms=None if late is None else float(late))
    if kind == "tap":
        data = obj.get("data", {})
        if not isinstance(data, dict):
            raise ObservationError("a tap's 'data' must be an object", where=where)
        return Tap(action=_text(obj, "action", where), t=t, seat=_seat(obj, where), data=data)
    if kind == "camera":
        state = _choice(obj, "kind", ("lost", "back"), where)
        reason = obj.get("reason", "")
        if not isinstance(reason, str):
            raise ObservationError("'reason' must be a string", where=where)
        return CameraStatus(lost=state == "lost", t=t, reason=reason)
    raise ObservationError(
        f"'type' must be sighting, button, tap or camera, not {kind!r}", where=where)


def observation_json(observation: Observation) -> dict[str, Any]:
    """The JSON object of an observation (what :func:`parse_observation` reads back)."""
    if isinstance(observation, Sighting):
        out: dict[str, Any] = {"t": observation.t, "type": "sighting", "kind": observation.kind,
                               "card": observation.card, "zone": observation.zone}
        for key in ("from_zone", "value"):
            if getattr(observation, key) is not None:
                out[key] = getattr(observation, key)
        if observation.unsure:
            out["unsure"] = True
        return out
    if isinstance(observation, ButtonPress):
        out = {"t": observation.t, "type": "button", "seat": observation.seat,
               "kind": observation.kind}
        if observation.late_ms is not None:
            out["late_ms"] = observation.late_ms
        return out
    if isinstance(observation, Tap):
        out = {"t": observation.t, "type": "tap", "action": observation.action}
        if observation.seat is not None:
            out["seat"] = observation.seat
        if observation.data:
            out["data"] = dict(observation.data)
        return out
    out = {"t": observation.t, "type": "camera", "kind": "lost" if observation.lost else "back"}
    if observation.reason:
        out["reason"] = observation.reason
    return out


def parse_table_start(obj: Any, *, where: str) -> TableStart:
    """The first line of a recorded game."""
    if not isinstance(obj, dict) or obj.get("type") != "start":
        raise ObservationError("a recorded game begins with a line of type 'start'", where=where)
    players = obj.get("players")
    if (not isinstance(players, list) or not players
            or not all(isinstance(p, str) and p for p in players)):
        raise ObservationError("'players' must be a non-empty list of names", where=where)
    seats, options = obj.get("seats", []), obj.get("options", {})
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise ObservationError("'seats' must be a list of objects", where=where)
    if not isinstance(options, dict):
        raise ObservationError("'options' must be an object", where=where)
    known = {"type", "t", "game", "players", "seats", "options"}
    return TableStart(game=_text(obj, "game", where), players=tuple(players),
                      t=_time({"t": obj.get("t", 0.0)}, where), seats=tuple(seats),
                      options=options, extra={k: v for k, v in obj.items() if k not in known})


MAX_LINE = 64 * 1024
"""The longest observation line read (a recorded game is small; a huge line is damage)."""


def read_recording(text: str, *, path: str) -> tuple[TableStart, list[Observation]]:
    """A recorded game's start and observations, in order of time; errors name ``path:line``."""
    start: TableStart | None = None
    observations: list[Observation] = []
    last_t = 0.0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        if len(line) > MAX_LINE:
            raise ObservationError(f"line longer than {MAX_LINE} characters", where=where)
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as error:
            message = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deep"
            raise ObservationError(f"not JSON: {message}", where=where) from None
        if start is None:
            start = parse_table_start(obj, where=where)
            last_t = start.t
            continue
        observation = parse_observation(obj, where=where)
        if observation.t < last_t:
            raise ObservationError(f"'t' {observation.t} goes back before {last_t}", where=where)
        last_t = observation.t
        observations.append(observation)
    if start is None:
        raise ObservationError("no start line: the file is empty", where=path)
    return start, observations
