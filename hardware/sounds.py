"""Sound patterns as data, played in the background; a new pattern cuts the old one off.

A pattern is a tuple of :class:`Beep` (seconds on, seconds off, tone in Hz). An active
buzzer plays the rhythm only; a passive one on PWM (:class:`gpiozero.TonalBuzzer`) also
plays the tones. The rhythms alone tell every pattern apart.

>>> total_seconds(PATTERNS["call"])
0.2
>>> announcement(2, "call"), announcement(3, "stand")
('Player two calls twenty-one', 'Player three stands')
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gpiozero.tones import Tone

from companion.closing import Closing

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Beep:
    """Sound for ``on`` seconds (at ``tone`` Hz on a tonal buzzer), then silence ``off`` s."""

    on: float
    off: float = 0.0
    tone: float = 880.0


Pattern = tuple[Beep, ...]

#: Every sound the companion makes. Tones stay within 220-1760 Hz (A4 +/- 2 octaves).
PATTERNS: Mapping[str, Pattern] = {
    # two quick rising pips: somebody called 21
    "call": (Beep(0.06, 0.04, 880.0), Beep(0.1, 0.0, 1319.0)),
    # one long low tone: somebody stands
    "stand": (Beep(0.4, 0.0, 440.0),),
    # one short tick for each of the last 10 seconds of a timer
    "countdown": (Beep(0.05, 0.0, 1047.0),),
    # three long beeps: time is up
    "timer_end": (Beep(0.3, 0.15, 784.0), Beep(0.3, 0.15, 784.0), Beep(0.6, 0.0, 784.0)),
    # rising arpeggio: a win
    "win": (
        Beep(0.12, 0.03, 523.0),
        Beep(0.12, 0.03, 659.0),
        Beep(0.12, 0.03, 784.0),
        Beep(0.45, 0.0, 1047.0),
    ),
    # falling pair, second long: a wrong call
    "wrong_call": (Beep(0.25, 0.05, 392.0), Beep(0.5, 0.0, 262.0)),
    # five fast low pips: something is wrong (device, input)
    "error": (*(Beep(0.05, 0.05, 220.0) for _ in range(4)), Beep(0.05, 0.0, 220.0)),
}


def total_seconds(pattern: Pattern) -> float:
    """How long ``pattern`` lasts."""
    return round(sum(beep.on + beep.off for beep in pattern), 6)


class SoundOutput(Protocol):
    """Something that can sound (at a tone, if it can) and fall silent."""

    def on(self, tone: float) -> None: ...

    def off(self) -> None: ...


class SoundPlayer(Closing):
    """Plays patterns on a worker thread; :meth:`play` never blocks and pre-empts.

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, output: SoundOutput, patterns: Mapping[str, Pattern] = PATTERNS) -> None:
        self.output = output
        self.patterns = patterns
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._wanted: Pattern | None = None
        self._closed = False
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._run, name="sound-player", daemon=True)
        self._thread.start()

    def play(self, name: str) -> None:
        """Start pattern ``name`` now, cutting off any pattern still playing."""
        try:
            pattern = self.patterns[name]
        except KeyError:
            known = ", ".join(self.patterns)
            raise ValueError(f"unknown sound {name!r} (known: {known})") from None
        with self._lock:
            self._wanted = pattern
            self._idle.clear()
            self._wake.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until nothing is playing; False if ``timeout`` ran out first."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        """Silence the output and stop the worker."""
        with self._lock:
            self._closed = True
            self._wake.set()
        self._thread.join()

    def _take(self) -> Pattern | None:
        with self._lock:
            pattern, self._wanted = self._wanted, None
            self._wake.clear()
            if pattern is None:
                self._idle.set()
            return pattern

    def _run(self) -> None:
        while True:
            self._wake.wait()
            if self._closed:
                self.output.off()
                self._idle.set()
                return
            pattern = self._take()
            if pattern is None:
                continue
            try:
                self._sound(pattern)
            except Exception:  # a failing buzzer must not end the player
                log.exception("the buzzer failed playing %s", pattern)
                self._idle.set()

    def _sound(self, pattern: Pattern) -> None:
        """Play ``pattern``; stop early (silent) when woken by a new request."""
        for beep in pattern:
            self.output.on(beep.tone)
            interrupted = self._wake.wait(beep.on)
            self.output.off()
            if interrupted or (beep.off and self._wake.wait(beep.off)):
                return
        with self._lock:
            if self._wanted is None:
                self._idle.set()


class BuzzerOutput:
    """An active buzzer (:class:`gpiozero.Buzzer`): rhythm only."""

    def __init__(self, buzzer: _Switch) -> None:
        self.buzzer = buzzer

    def on(self, tone: float) -> None:
        self.buzzer.on()

    def off(self) -> None:
        self.buzzer.off()


class TonalOutput:
    """A passive buzzer on PWM (:class:`gpiozero.TonalBuzzer`): rhythm and tones."""

    def __init__(self, buzzer: _Tonal) -> None:
        self.buzzer = buzzer

    def on(self, tone: float) -> None:
        from gpiozero.tones import Tone  # gpiozero only where a buzzer is wired

        self.buzzer.play(Tone(frequency=tone))

    def off(self) -> None:
        self.buzzer.stop()


class _Switch(Protocol):
    def on(self) -> None: ...

    def off(self) -> None: ...


class _Tonal(Protocol):
    def play(self, tone: Tone) -> None: ...

    def stop(self) -> None: ...


_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")


def announcement(player: int, action: str) -> str:
    """What to say when ``player`` calls or stands."""
    who = f"Player {_NUMBERS[player] if 0 <= player < len(_NUMBERS) else player}"
    return f"{who} calls twenty-one" if action == "call" else f"{who} stands"


def _spawn(argv: Sequence[str]) -> object:
    return subprocess.Popen(
        list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


class Announcer:
    """Says things through espeak-ng, without waiting for it, when espeak-ng is installed.

    ``runner`` starts a command line without blocking (tests pass a recorder).

    >>> said = []
    >>> Announcer(runner=said.append, program="espeak-ng").say("Player one stands")
    >>> said
    [['espeak-ng', 'Player one stands']]
    """

    def __init__(
        self,
        runner: Callable[[list[str]], object] = _spawn,
        program: str | None = shutil.which("espeak-ng"),
    ) -> None:
        self.runner = runner
        self.program = program

    def say(self, text: str) -> None:
        """Start saying ``text``; a failure to start is logged, never raised."""
        if self.program is None:
            return
        try:
            self.runner([self.program, text])
        except OSError as error:
            log.warning("cannot run %s: %s", self.program, error)
