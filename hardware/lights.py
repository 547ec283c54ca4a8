"""The players' LEDs: steady for the winner of a lockout, blinking for the others."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from companion.closing import Closing
from companion.errors import DeviceError
from hardware.factory import reason


class Lights(Closing):
    """One gpiozero :class:`~gpiozero.LED` per player; players without one are ignored.

    Nothing here blocks: blinking is gpiozero's background blink, the chase its own thread,
    which :meth:`close` stops (between steps) before it frees the pins.
    """

    def __init__(self, leds: Mapping[int, int], pin_factory: Any) -> None:
        from gpiozero import LED

        self.leds: dict[int, Any] = {}
        self._closing = threading.Event()
        self._chases: list[threading.Thread] = []
        for player, pin in leds.items():
            try:
                self.leds[player] = LED(pin, pin_factory=pin_factory)
            except Exception as error:  # each GPIO backend raises its own kinds
                self.close()
                message = f"cannot use GPIO{pin} for player {player}'s LED: {reason(error)}"
                raise DeviceError(message) from None

    def on(self, player: int) -> None:
        """Light ``player``'s LED steadily."""
        if player in self.leds:
            self.leds[player].on()

    def blink(self, player: int, times: int | None = None, period: float = 0.4) -> None:
        """Blink ``player``'s LED (``times`` times, or until told otherwise)."""
        if player in self.leds:
            self.leds[player].blink(on_time=period / 2, off_time=period / 2, n=times)

    def off(self, player: int) -> None:
        """Turn ``player``'s LED off."""
        if player in self.leds:
            self.leds[player].off()

    def all_off(self) -> None:
        """Every LED off."""
        for led in self.leds.values():
            led.off()

    def chase(self, step: float = 0.15, rounds: int = 1) -> threading.Thread:
        """Light each LED in turn, ``rounds`` times, in the background; returns the thread.

        :meth:`close` ends the chase early.
        """
        order = [self.leds[player] for player in sorted(self.leds)]

        def run() -> None:
            for _ in range(rounds):
                for led in order:
                    led.on()
                    stopped = self._closing.wait(step)
                    led.off()
                    if stopped:
                        return

        thread = threading.Thread(target=run, name="lights-chase", daemon=True)
        self._chases = [t for t in self._chases if t.is_alive()] + [thread]
        thread.start()
        return thread

    def close(self) -> None:
        """Stop any chase, turn everything off and free the pins."""
        self._closing.set()
        for thread in self._chases:
            thread.join()
        self._chases.clear()
        for led in self.leds.values():
            led.close()
        self.leds.clear()
