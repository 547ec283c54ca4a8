"""The players' LEDs on gpiozero mock pins: the chase and closing in the middle of it."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.lights import Lights

LEDS = {1: 27, 2: 23, 3: 25}


def test_a_chase_lights_each_led_in_player_order_and_ends_dark(factory: MockFactory) -> None:
    with Lights(LEDS, factory) as lights:
        lights.chase(step=0.01).join()
        for pin in LEDS.values():
            states = [state for _, state in factory.pin(pin).states]
            assert states == [False, True, False]
        firsts = [factory.pin(pin).states[1].timestamp for pin in LEDS.values()]
        assert firsts == sorted(firsts)


def test_closing_during_a_chase_stops_it_without_a_thread_traceback(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    failures: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    lights = Lights(LEDS, factory)
    chase = lights.chase(step=30.0, rounds=2)  # a minute of chasing, were it not stopped
    closer = threading.Thread(target=lights.close)
    closer.start()
    closer.join(timeout=10.0)
    assert not closer.is_alive() and not chase.is_alive()
    assert failures == []
    assert [factory.pin(pin).state for pin in LEDS.values()] == [False, False, False]
    assert [state for _, state in factory.pin(LEDS[3]).states] == [False]  # never reached
