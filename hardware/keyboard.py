"""The same button events from a keyboard, for a table without wired buttons.

Any front end feeds :class:`KeyboardButtons` with ``press(key, t)`` and ``release(key, t)``
(Kivy's key down and up), or ``tap(key, t)`` where only key presses are known (a
terminal: :class:`TerminalKeys`). Each player has a call key and a separate stand key,
so a key calls or stands on press:

======  ====  =====
player  call  stand
======  ====  =====
1       q     a
2       p     l
3       z     x
4       m     n
======  ====  =====

The referee's key is the space bar (a press; held for ``hold_time`` with a key-up aware
front end, a hold).

>>> from hardware.buttons import drain
>>> keys = KeyboardButtons(clock=lambda: 0.0)
>>> keys.tap("p", 2.0), keys.tap("Q", 2.001), keys.tap("?", 2.002)
(True, True, False)
>>> keys.panel.poll(2.01)  # the hold timer does this on the clock, after the 5 ms grace
>>> [(e.player, e.action, e.rank, e.late_ms) for e in drain(keys.events)]
[(2, 'call', 1, 0.0), (1, 'call', 2, 1.0)]
>>> keys.close()
"""

from __future__ import annotations

import os
import queue
import select
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable, Mapping
from typing import TextIO

from companion.closing import Closing
from companion.engine.clock import Clock
from hardware.buttons import DEFAULT_HOLD_TIME, ButtonEvent, ButtonPanel, ButtonSpec, HoldTimer
from hardware.lockout import Placing

#: Player number to (call key, stand key).
PLAYER_KEYS: Mapping[int, tuple[str, str]] = {
    1: ("q", "a"),
    2: ("p", "l"),
    3: ("z", "x"),
    4: ("m", "n"),
}
REFEREE_KEY = " "
_KEY_NAMES = {"space": " ", "spacebar": " "}


class KeyboardButtons(Closing):
    """Keys as buttons: the same :class:`ButtonPanel` debouncing, holds and lockout.

    ``t`` is the key event's time in seconds on ``clock`` (default: now on ``clock``),
    which also drives the hold timer. A context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        player_keys: Mapping[int, tuple[str, str]] = PLAYER_KEYS,
        referee_key: str | None = REFEREE_KEY,
        *,
        hold_time: float = DEFAULT_HOLD_TIME,
        bounce_time: float = 0.0,
        clock: Clock = time.monotonic,
    ) -> None:
        self.keys: dict[str, str] = {}
        specs: list[ButtonSpec] = []
        for player, (call_key, stand_key) in sorted(player_keys.items()):
            specs.append(ButtonSpec(f"player {player}", player, "call"))
            specs.append(ButtonSpec(f"player {player} stand", player, "stand"))
            self.keys[call_key.lower()] = f"player {player}"
            self.keys[stand_key.lower()] = f"player {player} stand"
        if referee_key is not None:
            specs.append(ButtonSpec("referee", None, "referee"))
            self.keys[referee_key.lower()] = "referee"
        self.clock = clock
        self.panel = ButtonPanel(specs, hold_time=hold_time, bounce_time=bounce_time)
        self.timer = HoldTimer(self.panel, clock).start()

    @property
    def events(self) -> queue.Queue[ButtonEvent]:
        """The button events, in the order they were decided."""
        return self.panel.events

    def button(self, key: str) -> str | None:
        """The button name ``key`` stands for, or None."""
        return self.keys.get(_KEY_NAMES.get(key.lower(), key.lower()))

    def press(self, key: str, t: float | None = None) -> bool:
        """Key ``key`` went down; False if it is not a button key."""
        return self._edge(key, t, True)

    def release(self, key: str, t: float | None = None) -> bool:
        """Key ``key`` came up; False if it is not a button key."""
        return self._edge(key, t, False)

    def tap(self, key: str, t: float | None = None) -> bool:
        """A key press whose release is not reported (terminals)."""
        when = self.clock() if t is None else t
        return self._edge(key, when, True) and self._edge(key, when, False)

    def clear_lockout(self) -> tuple[Placing, ...]:
        """The referee decided: clear the lockout; returns the order it held."""
        return self.panel.release()

    def close(self) -> None:
        """Stop the hold timer."""
        self.timer.close()

    def _edge(self, key: str, t: float | None, pressed: bool) -> bool:
        name = self.button(key)
        if name is None:
            return False
        self.panel.edge(name, self.clock() if t is None else t, pressed)
        return True


class TerminalKeys(Closing):
    """Reads single keys from a terminal on a thread and passes each to ``on_key``.

    The terminal is put in cbreak mode (termios: no echo, no line buffering; Ctrl-C still
    interrupts) and restored by :meth:`close`. ``stream`` must be a terminal.
    """

    def __init__(self, on_key: Callable[[str], object], stream: TextIO = sys.stdin) -> None:
        self.on_key = on_key
        self.fd = stream.fileno()
        self._saved = termios.tcgetattr(self.fd)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="terminal-keys", daemon=True)

    def start(self) -> TerminalKeys:
        """Enter cbreak mode and start reading; returns self."""
        tty.setcbreak(self.fd)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop reading and restore the terminal."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)

    def __enter__(self) -> TerminalKeys:
        return self.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            data = os.read(self.fd, 1)
            if not data:
                return
            self.on_key(data.decode("latin-1"))
