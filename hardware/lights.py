"""The players' LEDs: steady for the winner of a lockout, blinking for the others."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

from companion.errors import DeviceError
from hardware.factory import reason


class Lights:
    """One gpiozero :class:`~gpiozero.LED` per player; players without one are ignored.

    Nothing here blocks: blinking is gpiozero's background blink, the chase its own thread.
    """

    def __init__(self, leds: Mapping[int, int], pin_factory: Any) -> None:
        from gpiozero import LED

        self.leds: dict[int, Any] = {}
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
        """Light each LED in turn, ``rounds`` times, in the background; returns the thread."""
        order = [self.leds[player] for player in sorted(self.leds)]

        def run() -> None:
            for _ in range(rounds):
                for led in order:
                    led.on()
                    time.sleep(step)
                    led.off()

        thread = threading.Thread(target=run, name="lights-chase", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        """Turn everything off and free the pins."""
        for led in self.leds.values():
            led.close()
        self.leds.clear()

    def __enter__(self) -> Lights:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
