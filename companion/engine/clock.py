"""Clocks are passed in, never read from the wall: tests run instantly on a :class:`ManualClock`.

A clock is any zero-argument callable returning seconds as a float. The app passes
``time.monotonic`` (or ``time.time`` for stamps that must survive a restart).
"""

from __future__ import annotations

from collections.abc import Callable

Clock = Callable[[], float]


class ManualClock:
    """A clock that only moves when told to.

    >>> clock = ManualClock(100.0)
    >>> clock.advance(2.5)
    >>> clock()
    102.5
    """

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (never backwards)."""
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        self.now += seconds
