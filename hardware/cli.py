"""``companion hw-test``: the interactive self-test of a wired table.

Lights chase, the buzzer beeps, then each button pressed is named (a player's also beeped
and lit, and its hold shows as a stand) until every button has been seen. Simultaneous presses
show their lockout order. On a machine without GPIO it says so and exits 2, unless
``GPIOZERO_PIN_FACTORY=mock`` is set; mock pins need ``--demo``, which presses them itself
(without it, nobody could press them: it says so and exits 2 at once).
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import DeviceError

if TYPE_CHECKING:
    from hardware.buttons import ButtonEvent
    from hardware.pins import PinMap
    from hardware.table import Table

RELEASE_AFTER = 0.5  # seconds the lockout (and the winner's light) holds in the self-test


def register(subcommands: Any) -> None:
    """Add ``hw-test``."""
    parser = subcommands.add_parser(
        "hw-test",
        help="self-test the wired buttons, buzzer and lights",
        description="Press each button: its name is shown, it beeps and its light comes on.",
    )
    parser.add_argument("--config", type=Path, help="the configuration file with [hardware]")
    parser.add_argument(
        "--demo", action="store_true", help="press the mock pins (needs GPIOZERO_PIN_FACTORY=mock)"
    )
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="seconds to wait for presses (default 120)"
    )
    parser.set_defaults(handler=run_hw_test)


def run_hw_test(args: argparse.Namespace) -> int:
    """The ``hw-test`` handler: 0 when every button was seen, 1 when some were not."""
    from companion.config import load_config
    from companion.paths import config_path
    from hardware.factory import ENV_FACTORY, choose_pin_factory, require_gpio, uses_mock
    from hardware.pins import load_pin_map
    from hardware.table import Table

    if args.demo and not uses_mock():
        raise DeviceError(f"--demo presses mock pins: run it with {ENV_FACTORY}=mock")
    require_gpio()
    if uses_mock() and not args.demo:
        raise DeviceError("nothing can press mock pins: add --demo to have the test press them")
    path = config_path(args.config)
    pin_map = load_pin_map(load_config(path, required=args.config is not None), path=str(path))
    factory = choose_pin_factory()
    with Table(pin_map, factory) as table:
        print(f"pin factory: {type(factory).__name__}")
        for line in describe(pin_map):
            print(line)
        table.lights.chase().join()
        table.play("call")
        print(
            f"Press each button; hold a player's button {pin_map.hold_time:g} s to stand. "
            "Ctrl-C stops."
        )
        with contextlib.ExitStack() as stack:
            if args.demo:
                stop = threading.Event()
                demo = threading.Thread(
                    target=press_demo, args=(pin_map, factory, stop), daemon=True
                )
                demo.start()
                stack.callback(demo.join)
                stack.callback(stop.set)  # runs first: Ctrl-C or the end stops the presses
            elif sys.stdin.isatty():
                stack.enter_context(keyboard_echo(pin_map.hold_time))
            missing = watch(table, args.timeout)
    if missing:
        print(f"not pressed: {', '.join(missing)}")
        return 1
    print(f"all {len(pin_map.buttons())} buttons work")
    return 0


@contextlib.contextmanager
def keyboard_echo(hold_time: float) -> Iterator[None]:
    """Also show the keyboard's button events (the keys of :mod:`hardware.keyboard`)."""
    from hardware.keyboard import KeyboardButtons, TerminalKeys

    keyboard = KeyboardButtons(hold_time=hold_time)

    def echo(event: ButtonEvent) -> None:
        print(f"{event.button} (keyboard): {shown(event)}", flush=True)
        keyboard.clear_lockout()

    keyboard.panel.listeners.append(echo)
    try:
        with TerminalKeys(keyboard.tap):
            yield
    finally:
        keyboard.close()


def describe(pin_map: PinMap) -> list[str]:
    """One line per player, the referee and the buzzer, with BCM and header pins."""
    from hardware.pins import HEADER_PIN

    def pin(n: int) -> str:
        return f"GPIO{n} (header pin {HEADER_PIN[n]})"

    lines = []
    for number, player in sorted(pin_map.players.items()):
        parts = [f"button {pin(player.button)}"]
        if player.stand is not None:
            parts.append(f"stand {pin(player.stand)}")
        if player.led is not None:
            parts.append(f"LED {pin(player.led)}")
        lines.append(f"player {number}: {', '.join(parts)}")
    if pin_map.referee is not None:
        lines.append(f"referee: button {pin(pin_map.referee)}")
    if pin_map.buzzer is not None:
        lines.append(f"buzzer: {pin_map.buzzer.kind} on {pin(pin_map.buzzer.pin)}")
    return lines


def watch(table: Table, timeout: float) -> list[str]:
    """Show each button event until all buttons were seen or ``timeout``; the missing ones."""
    wanted = {spec.name: pin for spec, pin in table.pin_map.buttons().items()}
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    locked_at: float | None = None
    while len(seen) < len(wanted) and time.monotonic() < deadline:
        if locked_at is not None and time.monotonic() - locked_at >= RELEASE_AFTER:
            table.release()
            locked_at = None
        try:
            event = table.events.get(timeout=0.05)
        except queue.Empty:
            continue
        seen.add(event.button)
        print(f"{event.button} (GPIO{wanted[event.button]}): {shown(event)}", flush=True)
        if event.rank == 1:
            locked_at = time.monotonic()
    return [name for name in wanted if name not in seen]


def shown(event: ButtonEvent) -> str:
    """How an event reads on screen: ``call, first`` or ``call, +3.0 ms (rank 2)``."""
    if event.rank is None:
        return event.action
    if event.rank == 1:
        return f"{event.action}, first"
    return f"{event.action}, +{event.late_ms:.1f} ms (rank {event.rank})"


def press_demo(pin_map: PinMap, factory: Any, stop: threading.Event) -> None:
    """Press every mock button: a call each, two near-simultaneous calls, a hold, the referee.

    Returns as soon as ``stop`` is set, with every pin released.
    """

    def press(pins: list[int], seconds: float) -> bool:
        """Press ``pins`` 3 ms apart, release them after ``seconds``, let the lockout clear.

        False once ``stop`` is set.
        """
        factory.pin(pins[0]).drive_low()
        for pin in pins[1:]:
            stop.wait(0.003)
            factory.pin(pin).drive_low()
        stop.wait(seconds)
        for pin in pins:
            factory.pin(pin).drive_high()
        return not stop.wait(RELEASE_AFTER + 0.15)

    players = [pin_map.players[n] for n in sorted(pin_map.players)]
    presses = [([player.button], 0.05) for player in players]
    if len(players) >= 2:
        presses.append(([players[-1].button, players[-2].button], 0.05))
    presses.append(([players[0].button], pin_map.hold_time + 0.1))
    presses += [([player.stand], 0.05) for player in players if player.stand is not None]
    if pin_map.referee is not None:
        presses.append(([pin_map.referee], 0.05))
    for pins, seconds in presses:
        if not press(pins, seconds):
            return
