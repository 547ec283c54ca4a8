"""Kivy's settings for this app, made before Kivy is first imported.

The window is 800x480 (the official 7-inch touchscreen); full screen where asked or on
the Pi, a plain window elsewhere. :mod:`ui.kiosk` gives the environment and config of
a kiosk on the Pi (one touch provider, no blanking) and ``KIVY_NO_ARGS`` everywhere.
Kivy logs through Python's logging; its start-up complaints about optional parts this
app does not use (libmtdev, an X11 clipboard tool, logged as critical) stay quiet unless
``COMPANION_DEBUG`` is set. Images are loaded by SDL2 only (``KIVY_IMAGE``): Kivy would
otherwise also import its PIL, DDS and .tex loaders at start (Pillow alone is about 3 MB of
the resident set) for formats the app never loads; SDL2 reads and writes its PNGs. The
window has no multisampling (Kivy asks for 2 samples a pixel by default): the screens are
flat rectangles and text, and the multisampled colour and depth buffers cost about 9 MB
here (Mesa's software GL keeps them in the process) and video memory on the Pi.
"""

from __future__ import annotations

import logging
import os

from ui import kiosk
from ui.theme import HEIGHT, WIDTH

DEBUG_ENV = "COMPANION_DEBUG"


def configure_kivy(*, fullscreen: bool, home: str | None = None) -> bool:
    """Set Kivy's environment and window config (before importing ``kivy.app``); returns
    whether this is a Raspberry Pi."""
    on_pi = kiosk.on_raspberry_pi()
    os.environ.update(kiosk.kivy_environment(on_pi))
    if home is not None:
        os.environ["KIVY_HOME"] = home
    os.environ.setdefault("KIVY_NO_CONFIG", "1")  # this app sets every option it needs
    os.environ.setdefault("KIVY_IMAGE", "sdl2")
    from kivy.config import Config

    if not os.environ.get(DEBUG_ENV):  # after kivy.config, which sets Kivy's own level
        Config.set("kivy", "log_level", "critical")
        logging.getLogger("kivy").setLevel(logging.CRITICAL + 1)

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "multisamples", "0")  # see the module's docstring
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    for section, key, value in kiosk.kivy_config_overrides(on_pi):
        Config.set(section, key, value)
    return on_pi
