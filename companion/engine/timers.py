"""Timers as plain data: a game's countdowns and stopwatches live in its state.

Nothing here reads a clock. A :class:`Countdown` knows when it started and how long it
runs; :meth:`Countdown.due` lists the timer events (warnings in the last seconds, then
the expiry) that fall due by a given time, stamped with their exact due time, so the
referee logs them like any other event and a replay reproduces them. After applying
one of those events, a game keeps ``countdown.logged(event)`` in its state.

>>> timer = Countdown(started_at=100.0, duration=60.0, warnings=3)
>>> [(e.kind, e.t, e.data["remaining"]) for e in timer.due("stand", 158.5)]
[('timer_warning', 157.0, 3), ('timer_warning', 158.0, 2)]
>>> timer = timer.logged(timer.due("stand", 158.5)[-1])
>>> [(e.kind, e.t) for e in timer.due("stand", 200.0)]
[('timer_warning', 159.0), ('timer_expired', 160.0)]
>>> timer.remaining(130.0), timer.expired(160.0)
(30.0, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.engine.events import Event
from companion.errors import IllegalMove

WARNING = "timer_warning"
EXPIRED = "timer_expired"
TIMER_KINDS = (WARNING, EXPIRED)


@dataclass(frozen=True)
class Countdown:
    """A countdown of ``duration`` seconds from ``started_at``.

    ``warnings`` is how many whole seconds before the end get a ``timer_warning`` event
    (10 gives one each second of the last ten); ``logged_until`` is the time of the last
    timer event already logged, so :meth:`due` never repeats one.
    """

    started_at: float
    duration: float
    warnings: int = 0
    logged_until: float | None = None

    @property
    def ends_at(self) -> float:
        """The time the countdown reaches zero."""
        return self.started_at + self.duration

    def remaining(self, now: float) -> float:
        """Seconds left at ``now`` (never negative)."""
        return max(0.0, self.ends_at - now)

    def expired(self, now: float) -> bool:
        """True from the moment the countdown reaches zero."""
        return now >= self.ends_at

    def marks(self) -> list[tuple[float, int]]:
        """Every ``(time, seconds remaining)`` the countdown announces; 0 is the expiry."""
        seconds = range(min(self.warnings, int(self.duration)), 0, -1)
        points = [(self.ends_at - s, s) for s in seconds if self.ends_at - s > self.started_at]
        return [*points, (self.ends_at, 0)]

    def due(self, name: str, now: float) -> list[Event]:
        """The timer events of countdown ``name`` due at or before ``now``, not yet logged."""
        done = self.started_at if self.logged_until is None else self.logged_until
        first = self.logged_until is None
        return [
            Event(
                kind=EXPIRED if left == 0 else WARNING,
                data={"timer": name, "remaining": left},
                t=at,
            )
            for at, left in self.marks()
            if at <= now and (at > done or (first and at == done))
        ]

    def is_next(self, event: Event) -> bool:
        """True if ``event`` is the next timer event this countdown owes (for ``apply``)."""
        upcoming = self.due(str(event.data.get("timer", "")), event.t)
        return bool(upcoming) and upcoming[0].kind == event.kind and upcoming[0].t == event.t

    def logged(self, event: Event) -> Countdown:
        """This countdown once ``event`` (one of its timer events) is in the log."""
        return replace(self, logged_until=event.t)

    def restarted(self, at: float) -> Countdown:
        """The same countdown started afresh at ``at``."""
        return replace(self, started_at=at, logged_until=None)


def logged_timer_event(countdown: Countdown | None, event: Event) -> Countdown:
    """``countdown`` once ``event`` is logged; ``IllegalMove`` unless it is the next event
    the countdown owes (for a game's ``apply``)."""
    if countdown is None or not countdown.is_next(event):
        raise IllegalMove(f"{event.kind!r} at t={event.t:g} is not the countdown's next event")
    return countdown.logged(event)


def refuse_after_time(countdown: Countdown | None, event: Event) -> None:
    """``IllegalMove`` for a player's move made once ``countdown`` has run out."""
    if countdown is not None and countdown.expired(event.t):
        raise IllegalMove(f"time is up at t={countdown.ends_at:g}: no more moves")


@dataclass(frozen=True)
class Stopwatch:
    """A stopwatch started at ``started_at`` and, once stopped, stopped at ``stopped_at``.

    >>> watch = Stopwatch(started_at=10.0)
    >>> watch.elapsed(25.5)
    15.5
    >>> watch.stop(40.0).elapsed(99.0)
    30.0
    """

    started_at: float
    stopped_at: float | None = None

    @property
    def running(self) -> bool:
        """True until stopped."""
        return self.stopped_at is None

    def elapsed(self, now: float) -> float:
        """Seconds measured at ``now`` (frozen once stopped)."""
        end = now if self.stopped_at is None else self.stopped_at
        return max(0.0, end - self.started_at)

    def stop(self, at: float) -> Stopwatch:
        """The stopwatch stopped at ``at``."""
        return replace(self, stopped_at=at)
