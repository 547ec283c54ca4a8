"""The pin map's buttons on real (or mock) GPIO pins through gpiozero.

Each button is a gpiozero :class:`~gpiozero.InputDevice` with the internal pull-up (wired
to GND, so pressed reads low). Its pin's ``when_changed`` callback gets the edge's own
``ticks`` from the pin factory; those, not the order callbacks happen to run in, time
the press. Callbacks run on gpiozero's threads and only feed the
:class:`~hardware.buttons.ButtonPanel`, whose events cross to the core through
``events`` (a :class:`queue.Queue`).
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from companion.closing import Closing
from companion.errors import DeviceError
from hardware.buttons import ButtonEvent, ButtonPanel, HoldTimer
from hardware.factory import reason
from hardware.lockout import Placing
from hardware.pins import PinMap


class TickTimeline:
    """A pin factory's ticks as seconds since the timeline began, safe across tick wrap.

    Each tick is placed relative to the latest one seen, in whichever direction is
    shorter, so ticks that wrap (pigpio's 32-bit microseconds) still order correctly.

    >>> class Wrapping:  # microsecond ticks that wrap at 2**32, as pigpio's do
    ...     def ticks(self): return 2**32 - 1000
    ...     def ticks_diff(self, later, earlier): return ((later - earlier) % 2**32) / 1e6
    >>> timeline = TickTimeline(Wrapping())
    >>> round(timeline.seconds(500), 6)  # 1.5 ms later, across the wrap
    0.0015
    >>> round(timeline.seconds(2**32 - 2000), 6)  # 1 ms before the start
    -0.001
    """

    def __init__(self, factory: Any) -> None:
        self._factory = factory
        self._lock = threading.Lock()
        self._anchor_tick = factory.ticks()
        self._anchor_seconds = 0.0

    def seconds(self, tick: Any) -> float:
        """Where ``tick`` falls on the timeline, in seconds."""
        with self._lock:
            ahead = self._factory.ticks_diff(tick, self._anchor_tick)
            behind = self._factory.ticks_diff(self._anchor_tick, tick)
            offset = float(ahead if ahead <= behind else -behind)
            seconds = self._anchor_seconds + offset
            if offset > 0:
                self._anchor_tick, self._anchor_seconds = tick, seconds
            return seconds

    def now(self) -> float:
        """The factory's current ticks on the timeline."""
        return self.seconds(self._factory.ticks())


class _EdgeHandler:
    """The ``when_changed`` callback of one button's pin (kept alive by its owner)."""

    def __init__(self, panel: ButtonPanel, name: str, timeline: TickTimeline) -> None:
        self.panel, self.name, self.timeline = panel, name, timeline

    def __call__(self, ticks: Any, state: Any) -> None:
        self.panel.edge(self.name, self.timeline.seconds(ticks), not state)


class GpioButtons(Closing):
    """Every button of ``pin_map`` on ``pin_factory``, debounced and hold-timed.

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, pin_map: PinMap, pin_factory: Any) -> None:
        from gpiozero import InputDevice

        self.timeline = TickTimeline(pin_factory)
        wired = pin_map.buttons()
        self.panel = ButtonPanel(
            wired, hold_time=pin_map.hold_time, bounce_time=pin_map.bounce_time
        )
        self.devices: dict[str, Any] = {}
        self._handlers: list[_EdgeHandler] = []
        self.timer: HoldTimer | None = None
        for spec, pin in wired.items():
            try:
                device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
            except Exception as error:  # each GPIO backend raises its own kinds
                self.close()
                raise DeviceError(
                    f"cannot use GPIO{pin} for the {spec.name} button: {reason(error)}"
                ) from None
            self.devices[spec.name] = device
            handler = _EdgeHandler(self.panel, spec.name, self.timeline)
            self._handlers.append(handler)
            device.pin.edges = "both"
            device.pin.when_changed = handler
        self.timer = HoldTimer(self.panel, self.timeline.now).start()

    @property
    def events(self) -> queue.Queue[ButtonEvent]:
        """The button events, in the order they were decided."""
        return self.panel.events

    def release(self) -> tuple[Placing, ...]:
        """Clear the lockout (the referee decided); returns the order it held."""
        return self.panel.release()

    def close(self) -> None:
        """Stop the hold timer and free the pins."""
        if self.timer is not None:
            self.timer.close()
            self.timer = None
        for device in self.devices.values():
            device.close()
        self.devices.clear()
