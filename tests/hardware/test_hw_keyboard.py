"""The keyboard as buttons, and the terminal key reader on a real pseudo-terminal."""

from __future__ import annotations

import os
import termios
import threading

from companion.engine.clock import ManualClock
from hardware.buttons import drain
from hardware.keyboard import PLAYER_KEYS, KeyboardButtons, TerminalKeys


def test_every_player_has_its_own_call_and_stand_keys() -> None:
    keys = [key for pair in PLAYER_KEYS.values() for key in pair]
    assert len(set(keys)) == len(keys) == 8 and " " not in keys
    assert PLAYER_KEYS[1] == ("q", "a") and PLAYER_KEYS[2] == ("p", "l")


def test_keys_call_and_stand_on_press_and_repeat_is_ignored() -> None:
    with KeyboardButtons(clock=ManualClock(0.0)) as keys:
        assert keys.press("l", 1.0)  # player 2 stands
        assert keys.press("z", 1.2) and keys.press("z", 1.25)  # auto-repeat
        assert keys.release("z", 1.4)
        assert keys.press("q", 1.3) and keys.release("q", 1.35)
        events = drain(keys.events)
        assert [(e.player, e.action, e.t, e.rank) for e in events] == [
            (2, "stand", 1.0, None),
            (3, "call", 1.2, 1),
            (1, "call", 1.3, 2),
        ]
        assert [p.buzz.player for p in keys.clear_lockout()] == [3, 1]


def test_the_space_bar_is_the_referee_and_a_long_press_is_a_hold() -> None:
    clock = ManualClock(10.0)
    keys = KeyboardButtons(clock=clock, hold_time=0.5)
    try:
        assert keys.tap("space")
        assert keys.press("Spacebar", 11.0)
        clock.advance(1.6)
        keys.panel.poll(clock())
        assert [(e.action, e.t) for e in drain(keys.events)] == [("press", 10.0), ("hold", 11.0)]
        assert keys.button(" ") == "referee" and keys.button("x") == "player 3 stand"
        assert not keys.tap("?") and not keys.press("F1")
    finally:
        keys.close()


def test_the_terminal_reader_passes_each_key_and_restores_the_terminal() -> None:
    master, slave = os.openpty()
    received: list[str] = []
    got_three = threading.Event()

    def on_key(key: str) -> None:
        received.append(key)
        if len(received) == 3:
            got_three.set()

    with os.fdopen(slave, "r") as stream:
        before = termios.tcgetattr(slave)
        with TerminalKeys(on_key, stream):
            assert not termios.tcgetattr(slave)[3] & termios.ICANON  # no line buffering
            os.write(master, b"p l")
            assert got_three.wait(2.0)
        assert termios.tcgetattr(slave) == before
    os.close(master)
    assert received == list("p l")
