"""companion doctor: each check on tmp folders and fakes, then the command itself for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

import hardware.factory
from companion.cli import main
from companion.errors import DeviceError
from companion.findings import good
from tests.pi.test_pi_kiosk import fake_input_device
from ui import doctor, health
from ui.health import (
    check_camera,
    check_config,
    check_data_dir,
    check_display,
    check_gpio,
    check_service,
    check_touch,
)

REPO = Path(__file__).resolve().parents[2]
PHOTO = Path("cards") / "photos-single" / "Qh.jpg"
MULTI_TOUCH = f"{1 << 0x35 | 3:x}"


def test_camera_gives_a_frame_from_a_replayed_photo_checked_as_camera_check_does(
        shared_data: Path) -> None:
    camera, *measures = check_camera(str(shared_data / PHOTO))
    assert camera.ok
    assert camera.detail.startswith(f"replay of {shared_data / PHOTO} gave a ")
    assert [(m.check, m.ok) for m in measures] == [
        ("colour cast", True), ("exposure", True), ("sharpness", True), ("camera height", True)]
    assert measures[-1].detail.startswith("about ")


def test_a_dark_camera_frame_with_no_card_is_each_measure_s_problem() -> None:
    class Blank:
        description = "blank camera"
        settling = False

        def __enter__(self) -> Blank:
            return self

        def __exit__(self, *_: object) -> None:
            return None

        def read(self) -> np.ndarray:
            return np.full((120, 160, 3), 90, np.uint8)

    findings = check_camera("blank", open_camera=lambda spec: Blank())
    assert [(f.check, f.ok) for f in findings] == [
        ("camera", True), ("colour cast", True), ("exposure", False), ("sharpness", False),
        ("camera height", False)]
    assert findings[2].fix.startswith("too dark: more light on the table")
    assert findings[-1].fix == "lay a card face up under the camera and check again"


def test_a_missing_camera_is_a_problem_with_a_fix() -> None:
    [finding] = check_camera("no/such/camera")
    assert (finding.ok, finding.detail) == (False, "no camera or replay file 'no/such/camera'")
    assert "rpicam-hello --list-cameras" in finding.fix


def test_a_busy_camera_says_to_stop_the_service() -> None:
    def busy(spec: str) -> None:
        raise DeviceError("cannot open Pi camera 0 (Device or resource busy)")

    [finding] = check_camera("picamera2", open_camera=busy)
    assert not finding.ok
    assert finding.fix.startswith("the running app holds the camera: sudo systemctl stop")


def test_mock_pins_are_a_problem_on_the_table() -> None:
    finding = check_gpio({"GPIOZERO_PIN_FACTORY": "mock"}, present=True)
    assert (finding.ok, finding.detail) == (
        False, "GPIOZERO_PIN_FACTORY=mock is set: the buttons are not read"
    )


def test_no_gpio_is_a_problem() -> None:
    finding = check_gpio({}, present=False)
    assert not finding.ok
    assert finding.detail == "no GPIO on this machine (no /dev/gpiochip*, not a Raspberry Pi)"


def test_gpio_that_will_not_open_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(environ: object, present: bool) -> None:
        raise DeviceError("cannot open the GPIO pins: no module named 'lgpio'")

    monkeypatch.setattr(hardware.factory, "choose_pin_factory", refuse)
    finding = check_gpio({}, present=True)
    assert (finding.ok, finding.detail) == (
        False, "cannot open the GPIO pins: no module named 'lgpio'"
    )
    assert finding.fix.startswith("sudo apt install python3-lgpio")


def test_gpio_that_opens_is_fine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hardware.factory, "choose_pin_factory", lambda env, present: MockFactory())
    assert check_gpio({}, present=True) == good("gpio", "GPIO pins open (MockFactory)")


def kms(tmp_path: Path, status: str) -> tuple[Path, Path]:
    """A /dev with dri/card1 and a /sys/class/drm whose DSI connector has ``status``."""
    dev, drm = tmp_path / "dev", tmp_path / "drm"
    (dev / "dri").mkdir(parents=True)
    (dev / "dri" / "card1").touch()
    (drm / "card1-DSI-1").mkdir(parents=True)
    (drm / "card1-DSI-1" / "status").write_text(status + "\n")
    return dev, drm


def test_display_on_kms_with_the_screen_connected(tmp_path: Path) -> None:
    dev, drm = kms(tmp_path, "connected")
    finding = check_display(dev, environ={}, drm=drm)
    assert finding == good("display", f"KMS/DRM {dev}/dri/card1, screen on card1-DSI-1")


def test_display_with_no_screen_connected(tmp_path: Path) -> None:
    dev, drm = kms(tmp_path, "disconnected")
    finding = check_display(dev, environ={}, drm=drm)
    assert (finding.ok, finding.detail) == (
        False, f"{dev}/dri/card1: no screen connected ({drm}/*/status)"
    )


def test_display_without_access(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dev, drm = kms(tmp_path, "connected")
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    finding = check_display(dev, environ={}, drm=drm)
    assert (finding.ok, finding.detail) == (False, f"no access to {dev}/dri/card1")
    assert "video,render" in finding.fix


def test_no_display_at_all(tmp_path: Path) -> None:
    finding = check_display(tmp_path, environ={}, drm=tmp_path)
    assert not finding.ok
    assert "dtoverlay=vc4-kms-v3d" in finding.fix


def test_touchscreen_found(tmp_path: Path) -> None:
    sysfs = tmp_path / "input"
    fake_input_device(sysfs, "event0", "Logitech USB Keyboard", "0")
    fake_input_device(sysfs, "event4", "generic ft5x06 (79)", MULTI_TOUCH)
    (tmp_path / "event4").touch()
    assert check_touch(sysfs, dev=tmp_path) == good(
        "touch", f"touchscreen 'generic ft5x06 (79)' at {tmp_path}/event4"
    )


def test_no_touchscreen(tmp_path: Path) -> None:
    fake_input_device(tmp_path, "event0", "Logitech USB Keyboard", "0")
    finding = check_touch(tmp_path)
    assert (finding.ok, finding.detail) == (
        False, f"no touchscreen in {tmp_path} (no device reports multi-touch positions)"
    )


def test_an_unreadable_touchscreen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_input_device(tmp_path, "event4", "generic ft5x06 (79)", MULTI_TOUCH)
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    finding = check_touch(tmp_path, dev=tmp_path)
    assert not finding.ok and "input group" in finding.fix


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("[hardware\n", "{path}:1: invalid TOML: Expected ']' at the end of a table declaration"
                        " (column 10)"),
        ("[hardware.players.1]\nbuton = 17\n",
         "{path}:2: hardware.players.1.buton: unknown key (known: button, stand, led)"),
    ],
)
def test_a_broken_config_is_named_with_its_fix(tmp_path: Path, text: str, detail: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    finding = check_config(path)
    assert (finding.ok, finding.detail) == (False, detail.format(path=path))
    assert "until then the app runs on the defaults" in finding.fix


def test_a_good_or_missing_config_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert check_config(path) == good("config", f"no {path}: the defaults apply")
    path.write_text((REPO / "systemd" / "config.toml").read_text())
    assert check_config(path) == good(
        "config", f"{path}: valid; 4 players, referee on GPIO26, buzzer on GPIO13"
    )


def filesystem(free_blocks: int, flags: int = 0) -> os.statvfs_result:
    """A statvfs answer: 4 KiB blocks, ``free_blocks`` of them free, mount ``flags``."""
    return os.statvfs_result((4096, 4096, 1_000_000, free_blocks, free_blocks, 0, 0, 0, flags, 255))


def test_data_dir_fine(tmp_path: Path) -> None:
    finding = check_data_dir(tmp_path, statvfs=lambda path: filesystem(2_500_000))
    assert finding == good("data", f"{tmp_path}: writable, 10.2 GB free")
    assert list(tmp_path.iterdir()) == []  # the write probe cleaned up


def test_data_dir_missing(tmp_path: Path) -> None:
    finding = check_data_dir(tmp_path / "gone")
    assert (finding.ok, finding.detail) == (False, f"{tmp_path / 'gone'} does not exist")


def test_data_dir_read_only(tmp_path: Path) -> None:
    finding = check_data_dir(tmp_path, statvfs=lambda path: filesystem(9_000, os.ST_RDONLY))
    assert (finding.ok, finding.detail) == (False, f"{tmp_path} is on a read-only file system")


def test_data_dir_full(tmp_path: Path) -> None:
    finding = check_data_dir(tmp_path, statvfs=lambda path: filesystem(2_000))
    assert (finding.ok, finding.detail) == (False, f"only 8 MB free on {tmp_path}")
    assert "journalctl --vacuum-size" in finding.fix


def test_data_dir_not_writable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**options: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", refuse)
    finding = check_data_dir(tmp_path, statvfs=lambda path: filesystem(2_500_000))
    assert (finding.ok, finding.detail) == (
        False, f"cannot write in {tmp_path} (Permission denied)"
    )


def systemctl_saying(desktop: str = "disabled", **answers: str) -> health.Systemctl:
    """A ``systemctl`` answering is-enabled/is-active for the companion and the desktop."""
    def systemctl(arguments: Sequence[str]) -> str:
        if arguments[1] == "display-manager.service":
            return desktop
        return answers[arguments[0].replace("-", "_")]

    return systemctl


@pytest.mark.parametrize(
    ("enabled", "active", "ok", "detail"),
    [
        ("enabled", "active", True, "companion.service enabled, active"),
        ("disabled", "inactive", False, "companion.service is installed but disabled"),
        ("enabled", "failed", False, "companion.service failed"),
    ],
)
def test_service_state(
    tmp_path: Path, enabled: str, active: str, ok: bool, detail: str
) -> None:
    unit = tmp_path / "companion.service"
    unit.touch()
    finding = check_service(unit, systemctl_saying(is_enabled=enabled, is_active=active))
    assert (finding.ok, finding.detail) == (ok, detail)


def test_service_not_installed(tmp_path: Path) -> None:
    finding = check_service(tmp_path / "companion.service", systemctl_saying())
    assert not finding.ok and finding.fix == "sudo systemd/install.sh (from the project checkout)"


def test_on_a_good_pi_every_check_passes_and_json_says_so(
    tmp_path: Path, shared_data: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(health, "check_gpio", lambda: good("gpio", "GPIO pins open"))
    monkeypatch.setattr(health, "check_touch", lambda: good("touch", "touchscreen"))
    monkeypatch.setattr(health, "check_service", lambda: good("service", "enabled, active"))
    monkeypatch.setattr("ui.kiosk.on_raspberry_pi", lambda: True)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    code = main(["doctor", "--json", "--camera", str(shared_data / PHOTO),
                 "--config", str(tmp_path / "config.toml"), "--data-dir", str(tmp_path)])
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["ok"] is True
    assert [c["check"] for c in result["checks"]] == [
        "camera", "colour cast", "exposure", "sharpness", "camera height", "gpio", "display",
        "config", "data", "touch", "service"
    ]


def test_a_check_whose_system_call_fails_is_a_problem_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(path: Path) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(health, "check_data_dir", broken)
    monkeypatch.setattr(doctor, "report", lambda findings: [f.detail for f in findings])
    assert main(["doctor", "--camera", "none", "--data-dir", str(tmp_path)]) == 1
    assert (
        f"the check could not run: [Errno 13] Permission denied: '{tmp_path}'"
        in capsys.readouterr().out.splitlines()
    )


def test_the_real_command_on_this_machine(tmp_path: Path, shared_data: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[hardware]\nhold_time = 60\n")
    environment = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "doctor", "--camera", str(shared_data / PHOTO),
         "--config", str(config), "--data-dir", str(tmp_path)],
        capture_output=True, text=True, cwd=REPO, env=environment, timeout=120, check=False,
    )
    lines = done.stdout.splitlines()
    assert done.stderr == ""
    assert lines[0].startswith(f"ok      camera: replay of {shared_data / PHOTO} gave a ")
    assert lines[4].startswith("ok      camera height: about ")
    assert lines[7] == (
        f"PROBLEM config: {config}:2: hardware.hold_time: must be a number of seconds from 0.1"
        f" to 10.0, not 60. Fix: correct it (docs/hardware.md lists the keys) or remove {config}"
        " to use the defaults; until then the app runs on the defaults"
    )
    assert lines[8].startswith(f"ok      data: {tmp_path}: writable, ")
    problems = sum(line.startswith("PROBLEM") for line in lines)
    assert lines[-1] == f"{problems} of {len(lines) - 1} checks found " + (
        "a problem" if problems == 1 else "problems"
    )
    assert done.returncode == 1


def test_the_app_gets_the_defaults_and_a_warning_for_a_broken_config(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[hardware.referee]\nbutton = 17\n")
    config, warning = health.config_or_defaults(path)
    message = (f"{path}:2: hardware.players.1.button: 17 clashes with hardware.referee.button;"
               " using the defaults")
    assert (config, warning) == ({}, message)
    assert [r.getMessage() for r in caplog.records] == [message]


def test_the_app_gets_a_good_or_missing_config_without_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert health.config_or_defaults(path) == ({}, None)
    path.write_text("[hardware]\nhold_time = 0.8\n")
    assert health.config_or_defaults(path) == ({"hardware": {"hold_time": 0.8}}, None)


def test_a_desktop_holding_the_screen_is_a_problem(tmp_path: Path) -> None:
    unit = tmp_path / "companion.service"
    unit.touch()
    answers = systemctl_saying(desktop="enabled", is_enabled="enabled", is_active="activating")
    finding = check_service(unit, answers)
    assert (finding.ok, finding.detail) == (
        False, "a desktop starts at boot and holds the screen the app draws on"
    )
    assert finding.fix.startswith("sudo systemctl set-default multi-user.target")
