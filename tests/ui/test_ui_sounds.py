"""The signals' sounds off the Pi: tones written as WAV files, played through Kivy's audio."""

from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path
from typing import Any

from companion.engine.conductor import Signal
from hardware.sounds import PATTERNS, total_seconds
from ui.loop import default_start
from ui.sounds import AppSounds, write_pattern

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_wrong_call_plays_its_pattern_through_the_app_s_speakers(driver: Any) -> None:
    app = driver.app
    app.start_game(default_start("21x", 2))
    assert app.io is not None
    app.io.play(Signal("wrong", 1, "the cards make 38"))
    assert app.sounds.played[-1] == "wrong_call"
    sound = app.sounds.sounds["wrong_call"]
    assert sound.state == "play"
    assert abs(sound.length - total_seconds(PATTERNS["wrong_call"])) < 0.01
    assert sound.volume == app.sounds.volume / 100
    app.io.play(Signal("right", 2))  # cuts the wrong call's tones off, as the buzzer does
    assert app.sounds.played[-1] == "win" and sound.state == "stop"


def test_every_sound_is_loaded_before_the_first_buzz(driver: Any) -> None:
    """The app prepares its sounds after the first frame, not on the UI thread at a call."""
    assert set(driver.app.sounds.sounds) == set(PATTERNS)
    assert all(sound.length > 0 for sound in driver.app.sounds.sounds.values())


def test_every_pattern_is_written_once_as_a_wav_file(tmp_path: Path) -> None:
    for name, pattern in PATTERNS.items():
        path = write_pattern(tmp_path, name)
        with wave.open(str(path), "rb") as tones:
            assert (tones.getnchannels(), tones.getsampwidth()) == (1, 2)
            assert abs(tones.getnframes() / tones.getframerate() - total_seconds(pattern)) < 0.01
        stamp = path.stat().st_mtime_ns
        assert write_pattern(tmp_path, name).stat().st_mtime_ns == stamp


def test_volume_zero_plays_nothing(tmp_path: Path) -> None:
    sounds = AppSounds(tmp_path, volume=0)
    sounds.prepare()
    sounds.play("call")
    assert sounds.played == [] and sounds.sounds == {}


def test_with_no_audio_device_the_table_is_silent_not_broken(tmp_path: Path) -> None:
    script = ("import sys; from pathlib import Path; from ui.sounds import AppSounds;"
              "sounds = AppSounds(Path(sys.argv[1]), 80); sounds.prepare(); sounds.play('call');"
              "sounds.play('win'); print(sounds.played, sounds.sounds, sounds.silent)")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={"SDL_AUDIODRIVER": "no-such-driver", "KIVY_NO_ARGS": "1",
                               "KIVY_HOME": str(tmp_path / "kivy"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] {'call': None} True"  # one try, then quiet
