"""Button latency on gpiozero mock pins: from the deciding edge to the event in the queue.

10,000 presses, round-robin over the four players of the default pin map. A call is
decided by the release edge (released before hold_time), so the time runs from just
before the release edge is driven to the event being available:

* ``same thread``: the edge's callback chain (gpiozero -> tick timeline -> debounce,
  lockout -> queue) and a non-blocking ``get``;
* ``core thread``: a second thread blocked in ``queue.get()`` — what the referee's
  thread sees, including the thread hand-over.

The mock pins' tick clock is advanced 50 ms per edge so no edge is taken for chatter;
the wall time of each measurement is ``time.perf_counter``. Goal: median <= 1 ms.

A third figure is for tables with separate stand buttons, where the call is decided by
the press edge: the panel then holds it for its 5 ms grace (so an earlier edge on
another pin can still win) and the hold-timer thread releases it — real time, real
ticks, fewer presses.
"""

from __future__ import annotations

import queue
import statistics
import threading
import time
from typing import Any

import gpiozero.pins.mock
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.engine.clock import ManualClock
from hardware.buttons import ButtonEvent
from hardware.gpio import GpioButtons
from hardware.pins import default_pin_map, load_pin_map

PRESSES = 10_000
ON_PRESS_PRESSES = 300
GOAL_MS = 1.0


def _figures(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    median, p99, worst = statistics.median(ms), ms[int(len(ms) * 0.99)], ms[-1]
    verdict = "ok" if median <= GOAL_MS else "MISSED"
    return (
        f"buttons: edge -> event ({name}), {len(ms)} presses: median {median:.3f} ms, "
        f"p99 {p99:.3f} ms, worst {worst:.3f} ms (goal median <= {GOAL_MS:g} ms: {verdict})"
    )


def measure(cross_thread: bool) -> list[float]:
    """Latency in seconds of each of PRESSES calls."""
    ticks = ManualClock(0.0)
    real_clock = gpiozero.pins.mock.monotonic
    gpiozero.pins.mock.monotonic = ticks
    try:
        factory = MockFactory(pin_class=MockPWMPin)
        pin_map = default_pin_map()
        pins = [factory.pin(pin_map.players[n].button) for n in sorted(pin_map.players)]
        with GpioButtons(pin_map, factory) as buttons:
            return _run(buttons, pins, ticks, cross_thread)
    finally:
        gpiozero.pins.mock.monotonic = real_clock


def _run(buttons: GpioButtons, pins: list[Any], ticks: ManualClock, cross: bool) -> list[float]:
    latencies: list[float] = []
    arrived: queue.Queue[float] = queue.Queue()

    def consume() -> None:
        for _ in range(PRESSES):
            buttons.events.get()
            arrived.put(time.perf_counter())

    consumer = threading.Thread(target=consume, daemon=True) if cross else None
    if consumer is not None:
        consumer.start()
    for i in range(PRESSES):
        pin = pins[i % len(pins)]
        ticks.advance(0.05)
        pin.drive_low()
        ticks.advance(0.05)
        start = time.perf_counter()
        pin.drive_high()
        if consumer is not None:
            latencies.append(arrived.get() - start)
        else:
            event: ButtonEvent = buttons.events.get_nowait()
            latencies.append(time.perf_counter() - start)
            assert event.action == "call"
        buttons.release()
    if consumer is not None:
        consumer.join()
    return latencies


def measure_on_press() -> list[float]:
    """Latency in seconds from press edge to event with stand buttons wired (real ticks)."""
    stands = {1: 4, 2: 12, 3: 16, 4: 20}
    players = {
        str(n): {"button": p.button, "stand": stands[n], "led": p.led}
        for n, p in default_pin_map().players.items()
    }
    pin_map = load_pin_map({"hardware": {"players": players}})
    factory = MockFactory(pin_class=MockPWMPin)
    pins = [factory.pin(pin_map.players[n].button) for n in sorted(pin_map.players)]
    latencies: list[float] = []
    with GpioButtons(pin_map, factory) as buttons:
        for i in range(ON_PRESS_PRESSES):
            pin = pins[i % len(pins)]
            start = time.perf_counter()
            pin.drive_low()
            buttons.events.get(timeout=1.0)
            latencies.append(time.perf_counter() - start)
            pin.drive_high()
            buttons.release()
            time.sleep(0.01)  # each button rests well past the bounce window
    return latencies


def main() -> None:
    """Print the figures."""
    print(_figures("same thread", measure(cross_thread=False)), flush=True)
    print(_figures("core thread", measure(cross_thread=True)), flush=True)
    on_press = sorted(s * 1000 for s in measure_on_press())
    print(
        f"buttons: press edge -> event with stand buttons (5 ms grace), {len(on_press)} presses: "
        f"median {statistics.median(on_press):.3f} ms, worst {on_press[-1]:.3f} ms",
        flush=True,
    )


if __name__ == "__main__":
    main()
