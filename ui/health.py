"""The checks behind ``companion doctor``: each looks at one part of the set-up and says what is
wrong and how to fix it.

Every check returns a :class:`~companion.findings.Finding` (the camera's, one per measure of
its frame, as ``companion camera --check`` finds them). Anything a check touches (device
folders, the environment, the camera opener, the ``systemctl`` runner) is a parameter with the
real thing as its default, so the tests give it tmp folders and fakes. Heavy modules (numpy,
OpenCV, gpiozero) are imported inside the checks that need them.

>>> check_display(dev=Path("/nonexistent"), environ={"WAYLAND_DISPLAY": "wayland-0"})
Finding(check='display', ok=True, detail='desktop session (WAYLAND_DISPLAY=wayland-0)', fix='')
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.findings import Finding, good, problem

SERVICE = "companion.service"
SERVICE_UNIT = Path("/etc/systemd/system") / SERVICE
SERVICE_DATA_DIR = Path("/var/lib/table-companion")
SERVICE_CONFIG = Path("/etc/table-companion/config.toml")
SYSFS_INPUT = Path("/sys/class/input")
SYSFS_DRM = Path("/sys/class/drm")
MIN_FREE_BYTES = 50 * 1024 * 1024
ABS_MT_POSITION_X = 0x35  # linux/input-event-codes.h: the mark of a multi-touch screen

Systemctl = Callable[[Sequence[str]], str]

log = logging.getLogger(__name__)


def check_camera(spec: str, open_camera: Callable[[str], Any] | None = None) -> list[Finding]:
    """Open the camera ``spec`` (as ``companion camera`` does), read a frame once its
    automatic exposure has settled, and check it as ``companion camera --check`` does
    (colour cast, exposure, sharpness, height: a card face up on the table)."""
    from vision.camera import open_camera as real_open
    from vision.camera import read_settled
    from vision.camera_check import check_frame

    opener = real_open if open_camera is None else open_camera
    try:
        with opener(spec) as camera:
            frame = read_settled(camera)
            name = camera.description
    except CompanionError as error:
        text = str(error)
        if "picamera2 is not installed" in text:
            fix = ("sudo apt install python3-picamera2, and make the venv with"
                   " --system-site-packages (systemd/install.sh does both)")
        elif "busy" in text.lower() or "resource" in text.lower():
            fix = "the running app holds the camera: sudo systemctl stop companion, then retry"
        else:
            fix = ("check the camera's ribbon cable (rpicam-hello --list-cameras lists it) or"
                   " plug in the USB camera; --camera SPEC tries another source")
        return [problem("camera", text, fix)]
    height, width = frame.shape[:2]
    return [good("camera", f"{name} gave a {width}x{height} frame"), *check_frame(frame)]


def check_gpio(environ: Mapping[str, str] | None = None, present: bool | None = None) -> Finding:
    """Whether the real GPIO pins can be opened (mock pins are a problem on the table)."""
    from hardware.factory import ENV_FACTORY, choose_pin_factory, gpio_present, reason, uses_mock

    env = os.environ if environ is None else environ
    if uses_mock(env):
        return problem("gpio", f"{ENV_FACTORY}=mock is set: the buttons are not read",
                       f"unset {ENV_FACTORY} (the service never sets it)")
    if not (gpio_present() if present is None else present):
        return problem(
            "gpio", "no GPIO on this machine (no /dev/gpiochip*, not a Raspberry Pi)",
            "run on the Pi; elsewhere the keyboard stands in for the buttons",
        )
    try:
        factory = choose_pin_factory(env, present=True)
    except CompanionError as error:
        return problem("gpio", reason(error),
                       "sudo apt install python3-lgpio, and add the user to the gpio group")
    name = type(factory).__name__
    factory.close()
    return good("gpio", f"GPIO pins open ({name})")


def check_display(dev: Path = Path("/dev"), environ: Mapping[str, str] | None = None,
                  drm: Path = SYSFS_DRM) -> Finding:
    """A desktop session, or a KMS/DRM device the user may open with a screen connected."""
    env = os.environ if environ is None else environ
    for variable in ("WAYLAND_DISPLAY", "DISPLAY"):
        if env.get(variable):
            return good("display", f"desktop session ({variable}={env[variable]})")
    cards = sorted((dev / "dri").glob("card*"))
    if not cards:
        return problem(
            "display", f"no {dev}/dri/card* (KMS/DRM) and no DISPLAY or WAYLAND_DISPLAY",
            "keep dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt (the default) and reboot;"
            " off the Pi, run inside a desktop session",
        )
    usable = [card for card in cards if os.access(card, os.R_OK | os.W_OK)]
    if not usable:
        return problem("display", f"no access to {', '.join(map(str, cards))}",
                       "add the user to the video and render groups (sudo usermod -aG"
                       " video,render USER) and log in again")
    connected = sorted(status.parent.name for status in drm.glob("card*-*/status")
                       if _read(status) == "connected")
    if not connected:
        return problem("display", f"{usable[0]}: no screen connected ({drm}/*/status)",
                       "check the display's ribbon cable (DSI) or HDMI cable, then reboot")
    return good("display", f"KMS/DRM {usable[0]}, screen on {', '.join(connected)}")


def check_touch(sysfs: Path = SYSFS_INPUT, dev: Path = Path("/dev/input")) -> Finding:
    """A multi-touch input device (the touchscreen) that the user may read."""
    screens = [event for event in sorted(sysfs.glob("event*")) if _is_touchscreen(event)]
    if not screens:
        return problem(
            "touch", f"no touchscreen in {sysfs} (no device reports multi-touch positions)",
            "check the display's ribbon cable and its power; dmesg | grep -i -e ft5x06 -e"
            " goodix shows whether the kernel found the touch controller",
        )
    names = ", ".join(f"'{_read(e / 'device' / 'name')}' at {dev / e.name}" for e in screens)
    if not all(os.access(dev / e.name, os.R_OK) for e in screens):
        return problem("touch", f"cannot read {names}",
                       "add the user to the input group (sudo usermod -aG input USER)")
    return good("touch", f"touchscreen {names}")


def _is_touchscreen(event: Path) -> bool:
    """The device's ``capabilities/abs`` bitmap (hex words, most significant first) has
    ABS_MT_POSITION_X.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "device" / "capabilities").mkdir(parents=True)
    >>> _ = (folder / "device" / "capabilities" / "abs").write_text("260800000000003 0\\n")
    >>> _is_touchscreen(folder)
    False
    >>> _ = (folder / "device" / "capabilities" / "abs").write_text("660800000000003\\n")
    >>> _is_touchscreen(folder)
    True
    """
    words = _read(event / "device" / "capabilities" / "abs").split()
    try:
        bits = 0
        for word in words:
            bits = (bits << 64) | int(word, 16)
    except ValueError:
        return False
    return bool(bits >> ABS_MT_POSITION_X & 1)


def check_config(path: Path) -> Finding:
    """The configuration file reads, is valid TOML, and its [hardware] pin map is valid."""
    if not path.exists():
        return good("config", f"no {path}: the defaults apply")
    try:
        _config, pins = _load_config(path)
    except CompanionError as error:
        return problem("config", str(error),
                       f"correct it (docs/hardware.md lists the keys) or remove {path} to use the"
                       " defaults; until then the app runs on the defaults")
    buzzer = f"buzzer on GPIO{pins.buzzer.pin}" if pins.buzzer else "no buzzer"
    return good("config", f"{path}: valid; {len(pins.players)} players, referee on"
                          f" GPIO{pins.referee}, {buzzer}")


def config_or_defaults(path: Path) -> tuple[dict[str, Any], str | None]:
    """For the app at start-up: the configuration at ``path``, or, when it cannot be used,
    ``{}`` (every default) and the warning to show on the screen (also logged).

    >>> config_or_defaults(Path("/nonexistent/config.toml"))
    ({}, None)
    """
    try:
        config, _pins = _load_config(path)
    except CompanionError as error:
        warning = f"{error}; using the defaults"
        log.warning("%s", warning)
        return {}, warning
    return config, None


def _load_config(path: Path) -> tuple[dict[str, Any], Any]:
    """The configuration and its pin map; a :class:`CompanionError` names what is wrong."""
    from companion.config import load_config
    from hardware.pins import load_pin_map

    config = load_config(path)
    return config, load_pin_map(config, path=str(path))


def check_data_dir(path: Path, statvfs: Callable[[Path], os.statvfs_result] = os.statvfs,
                   min_free: int = MIN_FREE_BYTES) -> Finding:
    """The data folder exists, is on a writable file system, takes a file, and has room."""
    if not path.is_dir():
        return problem("data", f"{path} does not exist",
                       "it is made when the service first starts (sudo systemctl start"
                       f" companion); by hand: mkdir -p {path}")
    info = statvfs(path)
    if info.f_flag & os.ST_RDONLY:
        return problem("data", f"{path} is on a read-only file system",
                       "the SD card may be failing or full of errors: sudo fsck at boot"
                       " (sudo touch /forcefsck; sudo reboot), or a new card")
    try:
        with tempfile.NamedTemporaryFile(dir=path, prefix=".doctor-"):
            pass
    except OSError as error:
        return problem("data", f"cannot write in {path} ({error.strerror})",
                       "check as the user who writes there (sudo -u companion companion doctor);"
                       f" if it fails as that user too: sudo chown -R companion:companion {path}")
    free = info.f_bavail * info.f_frsize
    if free < min_free:
        return problem("data", f"only {free / 1e6:.0f} MB free on {path}",
                       "free some space: sudo apt clean; sudo journalctl --vacuum-size=50M")
    return good("data", f"{path}: writable, {free / 1e9:.1f} GB free")


def run_systemctl(arguments: Sequence[str]) -> str:
    """``systemctl ARGUMENTS`` and its first output line ("" when systemctl is missing)."""
    if shutil.which("systemctl") is None:
        return ""
    done = subprocess.run(["systemctl", *arguments], capture_output=True, text=True,
                          check=False, timeout=10)
    return (done.stdout.strip().splitlines() or [""])[0]


def check_service(unit: Path = SERVICE_UNIT, systemctl: Systemctl = run_systemctl) -> Finding:
    """The unit is installed, enabled for boot, no desktop takes the screen, and it has not
    failed."""
    if not unit.is_file():
        return problem("service", f"{SERVICE} is not installed ({unit})",
                       "sudo systemd/install.sh (from the project checkout)")
    enabled = systemctl(["is-enabled", SERVICE])
    if enabled != "enabled":
        return problem("service", f"{SERVICE} is installed but {enabled or 'not enabled'}",
                       f"sudo systemctl enable --now {SERVICE}")
    if systemctl(["is-enabled", "display-manager.service"]) == "enabled":
        return problem("service", "a desktop starts at boot and holds the screen the app draws on",
                       "sudo systemctl set-default multi-user.target && sudo systemctl disable"
                       " display-manager, then reboot")
    active = systemctl(["is-active", SERVICE])
    if active == "failed":
        return problem("service", f"{SERVICE} failed",
                       f"journalctl -u {SERVICE} -b shows why; sudo systemctl restart {SERVICE}")
    return good("service", f"{SERVICE} enabled, {active or 'state unknown'}")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
