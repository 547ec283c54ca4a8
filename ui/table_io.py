"""The app's buttons and signals for one game: keys (and a wired table's buttons) in,
sounds, voice and the lockout's release out.

The keyboard's keys (q/a, p/l, z/x, m/n, space) always work; on the Pi the wired
:class:`~hardware.table.Table` works beside them. Button events become observations
through :class:`~hardware.bridge.ButtonBridge`; the conductor's signals are played by
:class:`~hardware.bridge.SignalPlayer`, which also releases each lockout once the
referee has decided. With no wired table the sounds are ``sound``'s (the app's
speakers, :mod:`ui.sounds`) and the voice is espeak-ng where installed, at the chosen
volume (0 is silent); a wired table plays both itself.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable

from companion.closing import Closing
from companion.engine.clock import Clock
from companion.engine.conductor import Signal
from companion.engine.observations import Observation
from companion.engine.seats import Seating
from hardware.bridge import ButtonBridge, SignalPlayer
from hardware.keyboard import KeyboardButtons
from hardware.table import Table

ESPEAK = "espeak-ng"
MAX_AMPLITUDE = 200
"""espeak-ng's loudest amplitude (its default is 100)."""


class TableIO(Closing):
    """Buttons in and signals out for one game's ``seating``."""

    def __init__(self, seating: Seating, clock: Clock, post: Callable[[Observation], None],
                 *, table: Table | None = None, voice: int = 0,
                 sound: Callable[[str], None] = lambda _name: None) -> None:
        self.keys = KeyboardButtons(clock=clock)
        self.bridges = [ButtonBridge(self.keys.events, seating, post, clock)]
        self.players = [SignalPlayer(seating, sound if table is None else lambda _name: None,
                                     self.keys.clear_lockout,
                                     say=None if table is not None else speaker(voice))]
        if table is not None:
            self.bridges.append(ButtonBridge(table.events, seating, post, clock))
            self.players.append(SignalPlayer.for_table(table, seating))

    def pump(self) -> None:
        """Post every button press decided since the last pump."""
        for bridge in self.bridges:
            bridge.pump()

    def play(self, signal: Signal) -> None:
        """Sound, say and release as ``signal`` calls for."""
        for player in self.players:
            player.play(signal)

    def spoken(self, signal: Signal) -> str:
        """The line the voice says for ``signal`` (the screen shows it too)."""
        return self.players[0].spoken(signal)

    def close(self) -> None:
        """Stop the keys' hold timer."""
        self.keys.close()


def speaker(volume: int, program: str | None = None) -> Callable[[str], None] | None:
    """A voice at ``volume`` (0..100) through espeak-ng, or None (muted, or not installed)."""
    found = program or shutil.which(ESPEAK)
    if volume <= 0 or found is None:
        return None
    amplitude = str(volume * MAX_AMPLITUDE // 100)

    def say(text: str) -> None:
        subprocess.Popen([found, "-a", amplitude, text], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    return say
