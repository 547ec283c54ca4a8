"""Buttons on gpiozero mock pins: edges timed by the pin factory's ticks."""

from __future__ import annotations

import threading
import time

from gpiozero.pins.mock import MockFactory

from companion.engine.clock import ManualClock
from hardware.buttons import ButtonEvent, drain
from hardware.gpio import GpioButtons, TickTimeline
from hardware.pins import default_pin_map, load_pin_map

P1, P2, P3, REFEREE = 17, 22, 24, 26


def summary(events: list[ButtonEvent]) -> list[tuple[object, ...]]:
    return [(e.player, e.action, e.tick_us, e.rank, e.late_ms) for e in events]


def test_the_earliest_edge_tick_wins_not_the_first_callback(
    ticks: ManualClock, factory: MockFactory
) -> None:
    with GpioButtons(default_pin_map(), factory) as buttons:
        ticks.now = 1000.005
        factory.pin(P1).drive_low()  # its callback runs first ...
        ticks.now = 1000.002
        factory.pin(P2).drive_low()  # ... but this edge happened 3 ms earlier
        ticks.now = 1000.1
        factory.pin(P1).drive_high()
        assert buttons.events.empty()
        ticks.now = 1000.15
        factory.pin(P2).drive_high()
        assert summary(drain(buttons.events)) == [
            (2, "call", 2000, 1, 0.0),
            (1, "call", 5000, 2, 3.0),
        ]


def test_rapid_mock_pin_toggles_give_one_press(ticks: ManualClock, factory: MockFactory) -> None:
    with GpioButtons(default_pin_map(), factory) as buttons:
        pin = factory.pin(P3)
        for _ in range(10):  # 20 edges, 0.5 ms apart
            ticks.advance(0.0005)
            pin.drive_low()
            ticks.advance(0.0005)
            pin.drive_high()
        ticks.advance(0.0005)
        pin.drive_low()
        ticks.advance(0.2)
        pin.drive_high()
        ticks.advance(0.0005)
        pin.drive_low()  # release chatter
        ticks.advance(0.0005)
        pin.drive_high()
        ticks.advance(1.0)
        buttons.panel.poll(buttons.timeline.now())
        assert summary(drain(buttons.events)) == [(3, "call", 500, 1, 0.0)]
        assert factory.pin(P3).state == 1  # pulled up: released reads high


def test_a_hold_is_a_stand_and_the_referee_is_heard(
    ticks: ManualClock, factory: MockFactory
) -> None:
    with GpioButtons(default_pin_map(), factory) as buttons:
        factory.pin(P1).drive_low()
        ticks.advance(1.0)
        buttons.panel.poll(buttons.timeline.now())
        assert summary(drain(buttons.events)) == [(1, "stand", 0, None, None)]
        factory.pin(P1).drive_high()
        factory.pin(REFEREE).drive_low()
        ticks.advance(0.1)
        factory.pin(REFEREE).drive_high()
        assert summary(drain(buttons.events)) == [(None, "press", 1_000_000, None, None)]


def test_release_clears_the_lockout(ticks: ManualClock, factory: MockFactory) -> None:
    with GpioButtons(default_pin_map(), factory) as buttons:
        for pin in (P1, P2, P1):
            factory.pin(pin).drive_low()
            ticks.advance(0.1)
            factory.pin(pin).drive_high()
            ticks.advance(0.1)
        assert [(e.player, e.rank) for e in drain(buttons.events)] == [(1, 1), (2, 2)]
        assert [p.buzz.player for p in buttons.release()] == [1, 2]
        factory.pin(P2).drive_low()
        ticks.advance(0.1)
        factory.pin(P2).drive_high()
        assert [(e.player, e.rank) for e in drain(buttons.events)] == [(2, 1)]


def test_the_hold_timer_fires_on_real_time_and_events_cross_threads(factory: MockFactory) -> None:
    pins = load_pin_map({"hardware": {"hold_time": 0.2}})
    with GpioButtons(pins, factory) as buttons:
        presser = threading.Thread(target=factory.pin(P2).drive_low)
        presser.start()
        presser.join()
        event = buttons.events.get(timeout=2.0)  # no release: the timer thread decided
        assert (event.player, event.action) == (2, "stand")
        factory.pin(P2).drive_high()
        time.sleep(0.05)
        assert buttons.events.empty()


def test_closing_frees_the_pins(factory: MockFactory) -> None:
    with GpioButtons(default_pin_map(), factory):
        pass
    with GpioButtons(default_pin_map(), factory) as again:
        assert set(again.devices) == {"player 1", "player 2", "player 3", "player 4", "referee"}


def test_pins_already_in_use_are_a_device_error(factory: MockFactory) -> None:
    from gpiozero import LED

    from companion.errors import DeviceError

    with LED(P2, pin_factory=factory):
        try:
            GpioButtons(default_pin_map(), factory)
        except DeviceError as error:
            assert str(error).startswith("cannot use GPIO22 for the player 2 button:")
        else:
            raise AssertionError("a pin in use was taken twice")


def test_the_timeline_follows_the_factory_ticks(ticks: ManualClock, factory: MockFactory) -> None:
    timeline = TickTimeline(factory)
    ticks.advance(2.5)
    assert timeline.now() == 2.5
    assert timeline.seconds(999.0) == -1.0
