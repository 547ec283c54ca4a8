"""The table's sounds off the Pi: the buzzer's patterns as tones through Kivy's SoundLoader.

On the Pi the wired buzzer plays :data:`hardware.sounds.PATTERNS`; elsewhere the app plays
the same patterns through the speakers. Each pattern is written once by this module as a
small WAV file (sine tones with soft edges, 16-bit mono) into a cache folder, so no sound
files ship with the project. :class:`AppSounds` loads them with Kivy's ``SoundLoader``
(:meth:`AppSounds.prepare`, right after the app's first frame) and plays them at the
settings' sound volume. With no audio device (a CI machine, an
SDL with no audio driver) or no audio provider, a sound does not load and is skipped:
the table is silent, never broken.

>>> import tempfile, wave
>>> folder = Path(tempfile.mkdtemp())
>>> with wave.open(str(write_pattern(folder, "call")), "rb") as tones:
...     tones.getframerate(), round(tones.getnframes() / tones.getframerate(), 2)
(22050, 0.2)
"""

from __future__ import annotations

import logging
import math
import wave
from array import array
from pathlib import Path
from typing import Any

from hardware.sounds import PATTERNS, Pattern

log = logging.getLogger(__name__)

RATE = 22050
"""Samples per second of the written tones."""
LOUDNESS = 0.6
"""The tones' peak, as a share of full scale (the volume slider scales it further)."""
EDGE_SECONDS = 0.005
"""Each tone fades in and out over this long, so it starts and stops without a click."""


def pattern_samples(pattern: Pattern) -> array[int]:
    """``pattern``'s tones and pauses as 16-bit samples at :data:`RATE`.

    >>> from hardware.sounds import Beep
    >>> samples = pattern_samples((Beep(0.01, 0.01, 440.0),))
    >>> len(samples), max(samples) > 0, samples[-1]
    (440, True, 0)
    """
    samples = array("h")
    peak = LOUDNESS * 32767
    edge = max(1, round(EDGE_SECONDS * RATE))
    for beep in pattern:
        count = round(beep.on * RATE)
        for n in range(count):
            fade = min(1.0, n / edge, (count - 1 - n) / edge)
            samples.append(round(peak * fade * math.sin(2 * math.pi * beep.tone * n / RATE)))
        samples.extend([0] * round(beep.off * RATE))
    return samples


def write_pattern(folder: Path, name: str) -> Path:
    """The WAV file of pattern ``name`` in ``folder`` (written if it is not there yet)."""
    path = folder / f"{name}.wav"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        with wave.open(str(partial), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(pattern_samples(PATTERNS[name]).tobytes())
        partial.replace(path)  # another app starting at once never reads half a file
    return path


class AppSounds:
    """Plays the buzzer's patterns through the speakers at ``volume`` (0 is silent).

    ``folder`` is where the WAV files are kept. :attr:`played` names every pattern
    actually started, in order (the screen's tests and the log read it).
    """

    def __init__(self, folder: Path, volume: int) -> None:
        self.folder = folder
        self.volume = volume
        self.sounds: dict[str, Any] = {}
        """The loaded Kivy sounds by pattern name (None: it cannot be played here)."""
        self.played: list[str] = []
        self.silent = False
        """True once a sound found no audio output: the rest are not tried (each try has
        the audio library complain on the terminal)."""

    def play(self, name: str) -> None:
        """Start pattern ``name`` (one playing already is cut off, as on the buzzer)."""
        if self.volume <= 0 or self.silent or name not in PATTERNS:
            return
        sound = self.sound(name)
        if sound is None:
            return
        for other in self.sounds.values():
            if other is not None and other.state == "play":
                other.stop()
        sound.volume = self.volume / 100
        sound.play()
        self.played.append(name)

    def prepare(self) -> None:
        """Write and load every pattern now (the app does it after its first frame), so that
        the first call or stand of a game sounds at once instead of after writing and loading
        its file on the UI thread (about 80 ms here); nothing with the volume at 0."""
        for name in PATTERNS:
            if self.volume <= 0 or self.silent:
                return
            self.sound(name)

    def sound(self, name: str) -> Any:
        """Pattern ``name`` as a loaded Kivy sound, or None where there is no audio."""
        if name not in self.sounds:
            self.sounds[name] = self._load(name)
        return self.sounds[name]

    def stop(self) -> None:
        """Stop and unload every sound."""
        for sound in self.sounds.values():
            if sound is not None:
                sound.stop()
                sound.unload()
        self.sounds.clear()

    def _load(self, name: str) -> Any:
        try:
            path = write_pattern(self.folder, name)
            from kivy.core.audio import SoundLoader

            sound = SoundLoader.load(str(path))
        except (OSError, ImportError) as error:  # a full disk, Kivy without audio
            log.info("no %s sound: %s", name, error)
            return None
        if sound is None or not sound.length:  # no provider, or no audio device to open
            log.info("no sounds: no audio output here")
            self.silent = True
            return None
        return sound
