"""ui.kiosk: the Pi is recognised, and real Kivy, configured by it, reads each touchscreen once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.kiosk import kivy_config_overrides, kivy_environment, on_raspberry_pi

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (b"Raspberry Pi 4 Model B Rev 1.5\0", True),
        (b"Raspberry Pi 5 Model B Rev 1.0\0", True),
        (b"Raspberry Pi Compute Module 4 Rev 1.1\0", True),
        (b"Pine64 RockPro64 v2.1\0", False),
        (b"\xff\xfe", False),
    ],
)
def test_on_raspberry_pi_reads_the_device_tree_model(
    tmp_path: Path, model: bytes, expected: bool
) -> None:
    (tmp_path / "model").write_bytes(model)
    assert on_raspberry_pi(tmp_path / "model") is expected


def test_no_device_tree_is_not_a_pi(tmp_path: Path) -> None:
    assert on_raspberry_pi(tmp_path / "missing") is False


def test_on_the_pi_kivy_draws_on_kms_drm_without_touch_mouse_emulation() -> None:
    assert kivy_environment(True, environ={}) == {
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_LOG_MODE": "PYTHON",
        "KIVY_NO_CONFIG": "1",
        "SDL_TOUCH_MOUSE_EVENTS": "0",
        "KIVY_WINDOW": "sdl2",
        "KIVY_GL_BACKEND": "sdl2",
        "SDL_VIDEODRIVER": "kmsdrm",
    }


@pytest.mark.parametrize("session", ["WAYLAND_DISPLAY", "DISPLAY"])
def test_on_the_pi_desktop_kivy_opens_a_window_there(session: str) -> None:
    environment = kivy_environment(True, environ={session: ":0"})
    assert "SDL_VIDEODRIVER" not in environment and "KIVY_WINDOW" not in environment
    assert environment["SDL_TOUCH_MOUSE_EVENTS"] == "0"


def test_off_the_pi_only_the_portable_settings() -> None:
    assert set(kivy_environment(False, environ={})) == {
        "KIVY_NO_ARGS", "KIVY_NO_FILELOG", "KIVY_LOG_MODE"
    }
    assert kivy_config_overrides(False) == [("graphics", "allow_screensaver", "0")]


def test_what_is_already_set_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIVY_LOG_MODE", "MIXED")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    environment = kivy_environment(True)
    assert "KIVY_LOG_MODE" not in environment
    assert environment["SDL_VIDEODRIVER"] == "kmsdrm"


# Runs in a fresh interpreter: Kivy reads its environment and config once, at import.
# The sysfs tree given in argv[1] stands for /sys/class/input with a touchscreen and a keyboard.
KIVY_PROBE = """
import json, os, sys
from pathlib import Path
from ui import kiosk
env = kiosk.kivy_environment(True, environ={})
del env["SDL_VIDEODRIVER"]  # no window is opened here: only the input set-up is looked at
os.environ.update(env)
from kivy.config import Config
for section, key, value in kiosk.kivy_config_overrides(True):
    Config.set(section, key, value)
from kivy.base import EventLoop
from kivy.input import MotionEventFactory
import kivy.input.providers.probesysfs as probesysfs
real_inputs = probesysfs.get_inputs
probesysfs.get_inputs = lambda path: real_inputs(sys.argv[1])
for key, value in Config.items("input"):  # as kivy.base.runTouchApp does
    provider_id, _, args = value.partition(",")
    provider = MotionEventFactory.get(provider_id)(key, args)
    if provider is not None:  # probesysfs adds one provider per touch device it finds instead
        EventLoop.add_input_provider(provider)
made = EventLoop.input_providers
print(json.dumps({
    "providers": [[type(p).__name__, p.device] for p in made],
    "touch_devices": [getattr(p, "input_fn", None) for p in made],
    "mouse": [[p.disable_on_activity, p.disable_multitouch] for p in made
              if type(p).__name__ == "MouseMotionEventProvider"],
    "graphics": [Config.get("graphics", k) for k in ("fullscreen", "show_cursor",
                 "allow_screensaver")],
    "exit_on_escape": Config.get("kivy", "exit_on_escape"),
}))
"""


def fake_input_device(sysfs: Path, event: str, name: str, abs_capabilities: str) -> None:
    device = sysfs / event / "device"
    (device / "capabilities").mkdir(parents=True)
    (device / "name").write_text(name + "\n")
    (device / "capabilities" / "abs").write_text(abs_capabilities + "\n")


def test_real_kivy_reads_the_touchscreen_with_exactly_one_provider(tmp_path: Path) -> None:
    sysfs = tmp_path / "class-input"
    fake_input_device(sysfs, "event0", "Logitech USB Keyboard", "0")
    # ABS_MT_POSITION_X is bit 0x35: the official 7-inch display's multi-touch controller.
    fake_input_device(sysfs, "event4", "generic ft5x06 (79)", f"{1 << 0x35 | 3:x}")
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY", "SDL"))}
    done = subprocess.run(
        [sys.executable, "-c", KIVY_PROBE, str(sysfs)],
        capture_output=True, text=True, cwd=REPO, timeout=120, check=False,
        env={**environment, "KIVY_HOME": str(tmp_path / "kivy")},
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    # One reader of the touchscreen. Making the HID provider opens Kivy's window, which adds
    # its SDL2 provider; on Linux Kivy drops SDL's finger events, and SDL_TOUCH_MOUSE_EVENTS=0
    # stops SDL turning them into clicks for the mouse provider.
    assert sorted(map(tuple, found["providers"])) == [
        ("HIDInputMotionEventProvider", "event4"),
        ("MouseMotionEventProvider", "mouse"),
        ("SDL2MotionEventProvider", "sdl"),
    ]
    assert [device for device in found["touch_devices"] if device] == ["/dev/input/event4"]
    assert found["mouse"] == [[True, True]]
    assert found["graphics"] == ["auto", "0", "0"]
    assert found["exit_on_escape"] == "0"
