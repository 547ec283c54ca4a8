"""What the app sets before Kivy is imported, so that on the Pi it runs as a kiosk.

On the Pi (no X, no Wayland) Kivy draws through SDL2 straight on KMS/DRM. The touchscreen is
read by exactly one input provider, so each touch arrives once. By default Kivy would read it
twice: SDL2 turns touches into mouse clicks for Kivy's ``mouse`` provider while ``probesysfs``
reads the same ``/dev/input/event*`` device (kivy/kivy#3801, #1903). So SDL's touch-to-mouse
emulation is turned off (``SDL_TOUCH_MOUSE_EVENTS=0``), the touchscreen is read by
``probesysfs`` with the ``hidinput`` provider only, and the ``mouse`` provider, kept for a USB
mouse plugged in to service the unit, ignores the mouse while a finger is down and never makes
multi-touch dots. ``KIVY_NO_CONFIG=1`` keeps a stray ``~/.kivy/config.ini`` from adding more
providers. The screen never blanks: ``allow_screensaver = 0`` (SDL) here, ``consoleblank=0``
on the kernel command line (``systemd/install.sh``).

The app, before its first Kivy import::

    from ui import kiosk

    on_pi = kiosk.on_raspberry_pi()
    os.environ.update(kiosk.kivy_environment(on_pi))
    from kivy.config import Config          # reads nothing else yet
    for section, key, value in kiosk.kivy_config_overrides(on_pi):
        Config.set(section, key, value)
    from kivy.app import App                 # the window is made with these settings

``systemd/companion.service`` sets the same variables (a test checks that they agree), and a
variable already in the environment is never overridden, so the unit or the person at the
shell has the last word.

>>> kivy_environment(False, environ={})
{'KIVY_NO_ARGS': '1', 'KIVY_NO_FILELOG': '1', 'KIVY_LOG_MODE': 'PYTHON'}
>>> kivy_environment(True, environ={"SDL_VIDEODRIVER": "x11"})["KIVY_WINDOW"]
'sdl2'
>>> "SDL_VIDEODRIVER" in kivy_environment(True, environ={"SDL_VIDEODRIVER": "x11"})
False
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

DEVICE_TREE_MODEL: Final = Path("/proc/device-tree/model")

#: Everywhere: Kivy leaves ``companion run --demo``'s arguments alone, and logs through Python's
#: logging (so ``ui.service.configure_logging`` puts its lines on stderr for journald), not
#: into files of its own.
COMMON_ENVIRONMENT: Final = {
    "KIVY_NO_ARGS": "1",
    "KIVY_NO_FILELOG": "1",
    "KIVY_LOG_MODE": "PYTHON",
}

#: On the Pi: no config.ini of Kivy's own, and touches never become SDL mouse clicks as well.
PI_ENVIRONMENT: Final = {
    "KIVY_NO_CONFIG": "1",
    "SDL_TOUCH_MOUSE_EVENTS": "0",
}

#: On the Pi without a desktop session: SDL2 on KMS/DRM, with its own GL.
KMSDRM_ENVIRONMENT: Final = {
    "KIVY_WINDOW": "sdl2",
    "KIVY_GL_BACKEND": "sdl2",
    "SDL_VIDEODRIVER": "kmsdrm",
}

#: The input providers on the Pi: the touchscreen(s) read once, by hidinput; a service mouse.
PI_INPUT: Final = (
    ("input", "%(name)s", "probesysfs,provider=hidinput"),
    ("input", "mouse", "mouse,disable_on_activity,disable_multitouch"),
)


def on_raspberry_pi(model: Path = DEVICE_TREE_MODEL) -> bool:
    """True when the device tree says this is a Raspberry Pi.

    >>> on_raspberry_pi(Path("/nonexistent/model"))
    False
    """
    try:
        return model.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def kivy_environment(on_pi: bool, *, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment variables to set before importing Kivy (those not set in ``environ``).

    KMS/DRM is chosen only on the Pi and only when no desktop session is running
    (``WAYLAND_DISPLAY``/``DISPLAY`` unset): started from a terminal on the Pi's desktop, the
    app opens a window there instead.
    """
    env = os.environ if environ is None else environ
    wanted = dict(COMMON_ENVIRONMENT)
    if on_pi:
        wanted |= PI_ENVIRONMENT
        if not env.get("WAYLAND_DISPLAY") and not env.get("DISPLAY"):
            wanted |= KMSDRM_ENVIRONMENT
    return {key: value for key, value in wanted.items() if key not in env}


def kivy_config_overrides(on_pi: bool) -> list[tuple[str, str, str]]:
    """``(section, key, value)`` for ``kivy.config.Config.set`` before the window is made.

    Everywhere the screen saver stays off during a game; on the Pi also full screen, no
    cursor, Escape does not quit, and the input providers of :data:`PI_INPUT`.

    >>> kivy_config_overrides(False)
    [('graphics', 'allow_screensaver', '0')]
    """
    overrides = [("graphics", "allow_screensaver", "0")]
    if on_pi:
        overrides += [
            ("graphics", "fullscreen", "auto"),
            ("graphics", "show_cursor", "0"),
            ("kivy", "exit_on_escape", "0"),
            *PI_INPUT,
        ]
    return overrides
