"""First-press lockout, as quiz buzzer systems do it: the earliest buzz wins.

The first buzz admitted takes the lockout; later buzzes are kept in order with how many
milliseconds after the winner's press they came, to show on screen. A player is placed
once. The lockout holds until the referee's decision: :meth:`Lockout.release`.

>>> lockout = Lockout()
>>> lockout.admit(Buzz(player=3, action="call", t=10.000))
Placing(buzz=Buzz(player=3, action='call', t=10.0), rank=1, late_ms=0.0)
>>> lockout.admit(Buzz(player=1, action="call", t=10.004)).late_ms
4.0
>>> [p.buzz.player for p in lockout.release()], lockout.locked
([3, 1], False)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Buzz:
    """A player's call or stand, timed by the PRESS edge (seconds on the button timeline)."""

    player: int
    action: str
    t: float


@dataclass(frozen=True)
class Placing:
    """A buzz's place in the lockout: rank 1 is the winner; late_ms is behind the winner."""

    buzz: Buzz
    rank: int
    late_ms: float


class Lockout:
    """The order of buzzes since the last release. Not thread-safe on its own.

    :class:`~hardware.buttons.ButtonPanel` feeds it in press order under its lock.
    """

    def __init__(self) -> None:
        self._order: list[Placing] = []

    @property
    def locked(self) -> bool:
        """True once someone has buzzed and until :meth:`release`."""
        return bool(self._order)

    def admit(self, buzz: Buzz) -> Placing | None:
        """Place ``buzz``; None when its player is already placed (a second press)."""
        if any(placing.buzz.player == buzz.player for placing in self._order):
            return None
        late_ms = 0.0 if not self._order else round((buzz.t - self._order[0].buzz.t) * 1000, 3)
        placing = Placing(buzz, rank=len(self._order) + 1, late_ms=late_ms)
        self._order.append(placing)
        return placing

    def release(self) -> tuple[Placing, ...]:
        """Clear the lockout for the next round; returns the order it held."""
        order = tuple(self._order)
        self._order.clear()
        return order
