"""Kivy's settings for this app, made before Kivy is first imported.

The window is 800x480 (the official 7-inch touchscreen); full screen where asked (the
Pi), a plain window elsewhere. ``KIVY_NO_ARGS`` keeps Kivy away from our command line;
Kivy's own console log stays off unless ``COMPANION_DEBUG`` is set.

Hook for the Pi helper: ``ui.kiosk`` (``kivy_environment(on_pi)``,
``kivy_config_overrides(on_pi)``, ``on_raspberry_pi()``) is applied here when present.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from typing import Any

from ui.theme import HEIGHT, WIDTH

DEBUG_ENV = "COMPANION_DEBUG"


def configure_kivy(*, fullscreen: bool, home: str | None = None) -> None:
    """Set Kivy's environment and window config (call before importing ``kivy.app``)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    if not os.environ.get(DEBUG_ENV):
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    if home is not None:
        os.environ["KIVY_HOME"] = home
    overrides: Mapping[str, Mapping[str, Any]] = {}
    if importlib.util.find_spec("ui.kiosk") is not None:  # the Pi helper's module
        kiosk: Any = importlib.import_module("ui.kiosk")
        on_pi = kiosk.on_raspberry_pi()
        os.environ.update(kiosk.kivy_environment(on_pi))
        overrides = kiosk.kivy_config_overrides(on_pi)
        fullscreen = fullscreen or on_pi
    from kivy.config import Config

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0" if fullscreen else "1")
    for section, values in overrides.items():
        for key, value in values.items():
            Config.set(section, key, str(value))
