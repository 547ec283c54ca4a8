"""Temporal smoothing: turn flickering per-frame observations into a few trustworthy table changes.

A card is reported ``placed`` only after it has been seen for ``appear_after`` seconds,
``removed`` only after it has been missing for ``vanish_after`` seconds, and ``moved`` only
when it has sat in a new zone for ``appear_after`` seconds. A die is reported ``rolled``
once its value has held for ``appear_after`` seconds (a new die, or a new value on a die
already there), and ``removed`` like a card. A detection that comes and goes faster than
that never reaches the event log.

Observations are matched across frames by card name; when the same name is seen more
than once (two jokers, two decks) the nearest track wins, and dice are matched by
position. Each change carries the time it really happened (when the card first showed,
when it was first missed), not the later moment it was confirmed.

>>> from vision.observations import CardObservation
>>> smoother = Smoother(appear_after=0.3, vanish_after=0.7)
>>> seven = CardObservation("7h", (100.0, 80.0), (90.0, 60.0), 0.9, zone="trick")
>>> smoother.update([seven], now=0.0)
[]
>>> [(c.kind, c.card, c.zone, c.t) for c in smoother.update([seven], now=0.4)]
[('placed', '7h', 'trick', 0.0)]
>>> smoother.update([], now=0.8)
[]
>>> [(c.kind, c.card, c.t) for c in smoother.update([], now=1.5)]
[('removed', '7h', 0.8)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from companion.engine.events import Event
from vision.observations import CardObservation, DieObservation

ChangeKind = Literal["placed", "moved", "removed", "rolled"]
DIE = "die"
KIND_ORDER: dict[str, int] = {"removed": 0, "moved": 1, "placed": 2, "rolled": 3}


@dataclass(frozen=True)
class TableChange:
    """A confirmed change on the table.

    ``card`` is the card name, or ``"die"`` for a die (whose pips are in ``value``);
    ``zone`` is where it is now (for ``removed``: where it was), ``from_zone`` where a
    moved card came from; ``t`` is when the change happened on the injected clock.
    """

    kind: ChangeKind
    card: str
    zone: str | None
    t: float
    center: tuple[float, float]
    from_zone: str | None = None
    value: int | None = None

    def to_event(self) -> Event:
        """The change as an event for the log (``seq`` is set by the log)."""
        data: dict[str, object] = {"card": self.card, "zone": self.zone}
        if self.kind == "moved":
            data["from_zone"] = self.from_zone
        if self.value is not None:
            data["value"] = self.value
        data["center"] = [round(self.center[0], 1), round(self.center[1], 1)]
        return Event(kind=self.kind, data=data, t=self.t)


@dataclass
class _Track:
    """One thing followed across frames; ``stable_since`` is when its current reading began."""

    card: str
    center: tuple[float, float]
    zone: str | None
    value: int | None
    stable_since: float
    confirmed: bool = False
    confirmed_zone: str | None = None
    confirmed_value: int | None = None
    change_since: float | None = None
    missing_since: float | None = None


Observation = CardObservation | DieObservation


class Smoother:
    """Keeps tracks of what is on the table and reports only stable changes.

    ``appear_after``/``vanish_after`` are in seconds of the clock passed as ``now``. A new
    sighting must hold for ``appear_after`` with no gap of ``appear_after / 2`` or more
    (so one missed frame at 10 fps is forgiven). ``die_reach`` is how far (pixels) a die
    may drift between frames and still be the same die; one found further away is new.
    """

    def __init__(
        self, appear_after: float = 0.3, vanish_after: float = 0.7, *, die_reach: float = 60.0
    ) -> None:
        if appear_after < 0 or vanish_after < 0:
            raise ValueError("appear_after and vanish_after must not be negative")
        self.appear_after = appear_after
        self.vanish_after = vanish_after
        self.die_reach = die_reach
        self._tracks: list[_Track] = []
        self._last_now: float | None = None

    @property
    def pending(self) -> bool:
        """Whether a change is being held back: something seen not yet long enough, or a
        card missing or in another zone not yet long enough."""
        return any(not track.confirmed or track.missing_since is not None
                   or track.change_since is not None for track in self._tracks)

    @property
    def on_table(self) -> list[TableChange]:
        """What is confirmed on the table now, as ``placed``/``rolled`` changes."""
        return [
            _change(_arrival(track), track, track.stable_since, track.confirmed_zone)
            for track in self._tracks
            if track.confirmed
        ]

    def update(self, observations: Sequence[Observation], now: float) -> list[TableChange]:
        """Take one frame's observations seen at ``now``; return the changes now confirmed."""
        if self._last_now is not None and now < self._last_now:
            raise ValueError(f"time went backwards: {now} after {self._last_now}")
        self._last_now = now
        self._match(observations, now)
        changes: list[TableChange] = []
        for track in list(self._tracks):
            changes.extend(self._settle(track, now))
        return sorted(changes, key=lambda c: (KIND_ORDER[c.kind], c.card, c.center))

    def _match(self, observations: Sequence[Observation], now: float) -> None:
        """Pair observations with tracks of the same name, nearest first; start new tracks."""
        by_name: dict[str, list[Observation]] = {}
        for observation in observations:
            name = observation.card if isinstance(observation, CardObservation) else DIE
            by_name.setdefault(name, []).append(observation)
        tracks_by_name: dict[str, list[_Track]] = {}
        for track in self._tracks:
            tracks_by_name.setdefault(track.card, []).append(track)
        seen: set[int] = set()
        for name, group in by_name.items():
            tracks = tracks_by_name.get(name, [])
            reach = self.die_reach if name == DIE else math.inf
            pairs = sorted(
                (math.dist(track.center, obs.center), ti, oi)
                for ti, track in enumerate(tracks)
                for oi, obs in enumerate(group)
            )
            used_tracks: set[int] = set()
            used_observations: set[int] = set()
            for distance, ti, oi in pairs:
                if ti in used_tracks or oi in used_observations or distance > reach:
                    continue
                used_tracks.add(ti)
                used_observations.add(oi)
                self._see(tracks[ti], group[oi], now)
                seen.add(id(tracks[ti]))
            for oi, obs in enumerate(group):
                if oi not in used_observations:
                    track = _Track(name, obs.center, obs.zone, _value(obs), stable_since=now)
                    self._tracks.append(track)
                    seen.add(id(track))
        for track in self._tracks:
            if id(track) not in seen and track.missing_since is None:
                track.missing_since = now

    def _see(self, track: _Track, observation: Observation, now: float) -> None:
        value = _value(observation)
        gap_too_long = track.missing_since is not None and _held(
            now, track.missing_since, self.appear_after / 2
        )
        if not track.confirmed and (value != track.value or gap_too_long):
            track.stable_since = now  # a new reading: the wait starts again
        track.center = observation.center
        track.zone = observation.zone
        track.value = value
        track.missing_since = None

    def _settle(self, track: _Track, now: float) -> list[TableChange]:
        if track.missing_since is not None:
            return self._settle_missing(track, now)
        if not track.confirmed:
            if not _held(now, track.stable_since, self.appear_after):
                return []
            track.confirmed = True
            track.confirmed_zone = track.zone
            track.confirmed_value = track.value
            return [_change(_arrival(track), track, track.stable_since, track.zone)]
        if track.zone == track.confirmed_zone and track.value == track.confirmed_value:
            track.change_since = None
            return []
        if track.change_since is None:
            track.change_since = now
        if not _held(now, track.change_since, self.appear_after):
            return []
        since, previous_zone = track.change_since, track.confirmed_zone
        value_changed = track.value != track.confirmed_value
        track.change_since = None
        track.confirmed_zone = track.zone
        track.confirmed_value = track.value
        if value_changed:
            return [_change("rolled", track, since, track.zone)]
        return [_change("moved", track, since, track.zone, from_zone=previous_zone)]

    def _settle_missing(self, track: _Track, now: float) -> list[TableChange]:
        missing_since = track.missing_since if track.missing_since is not None else now
        if not track.confirmed:
            if _held(now, missing_since, self.appear_after / 2):
                self._tracks.remove(track)  # a flicker that never held: forget it
            return []
        if not _held(now, missing_since, self.vanish_after):
            return []
        self._tracks.remove(track)
        return [_change("removed", track, missing_since, track.confirmed_zone)]


def _held(now: float, since: float, duration: float) -> bool:
    """Whether ``duration`` has passed since ``since`` (a nanosecond early counts: float clocks)."""
    return now - since >= duration - 1e-9


def _arrival(track: _Track) -> ChangeKind:
    return "rolled" if track.card == DIE else "placed"


def _change(
    kind: ChangeKind, track: _Track, t: float, zone: str | None, *, from_zone: str | None = None
) -> TableChange:
    return TableChange(
        kind=kind,
        card=track.card,
        zone=zone,
        t=t,
        center=track.center,
        from_zone=from_zone,
        value=track.confirmed_value,
    )


def _value(observation: Observation) -> int | None:
    return observation.value if isinstance(observation, DieObservation) else None
