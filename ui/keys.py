"""Keyboard keys as the table's buttons, for a laptop: q/a, p/l, z/x, m/n and space.

The keys go through :class:`hardware.keyboard.KeyboardButtons` (the same debouncing,
holds and first-press lockout as the wired buttons); each decided button event becomes a
:class:`ButtonPress` observation for the seat whose button it is. A call is a ``press``,
a stand a ``hold``; the lockout is cleared once the referee stops waiting for the
winner's X (:meth:`KeyButtons.release`).

>>> from companion.engine.seats import Seating
>>> keys = KeyButtons(Seating.of(["ann", "ben"]), clock=lambda: 5.0)
>>> keys.down("p"); keys.up("p"); keys.down("q"); keys.up("q")
>>> keys.buttons.panel.poll(5.1)
>>> [(p.seat, p.kind, p.late_ms) for p in keys.drain()]
[(2, 'press', 0.0), (1, 'press', 0.0)]
>>> keys.close()
"""

from __future__ import annotations

from companion.closing import Closing
from companion.engine.clock import Clock
from companion.engine.observations import ButtonPress, PressKind
from companion.engine.seats import Seating
from hardware.buttons import ButtonEvent, drain
from hardware.keyboard import KeyboardButtons

KINDS: dict[str, PressKind] = {"call": "press", "stand": "hold", "press": "press",
                               "hold": "hold"}


class KeyButtons(Closing):
    """Key downs and ups in, :class:`ButtonPress` observations out."""

    def __init__(self, seating: Seating, clock: Clock) -> None:
        self.seating = seating
        self.clock = clock
        self.buttons = KeyboardButtons(clock=clock)

    def down(self, key: str) -> None:
        """Key ``key`` went down (ignored unless it is a button key)."""
        self.buttons.press(key)

    def up(self, key: str) -> None:
        """Key ``key`` came up."""
        self.buttons.release(key)

    def drain(self) -> list[ButtonPress]:
        """The button presses decided since the last call, as observations."""
        return [press for event in drain(self.buttons.events)
                if (press := self.observation(event)) is not None]

    def observation(self, event: ButtonEvent) -> ButtonPress | None:
        """The observation of one button event (None for a button no seat owns)."""
        seat: int | None = None
        if event.player is not None:
            found = [s for s in self.seating.seats if s.button == event.player]
            if not found:
                return None
            seat = found[0].number
        return ButtonPress(seat=seat, kind=KINDS[event.action], t=self.clock(),
                           late_ms=event.late_ms)

    def release(self) -> None:
        """The referee decided: the next press starts a new lockout."""
        self.buttons.clear_lockout()

    def close(self) -> None:
        """Stop the hold timer."""
        self.buttons.close()
