"""Kivy's settings before pytest imports ``ui`` modules for their doctests (scratch home)."""

import tempfile

from ui.window import configure_kivy

configure_kivy(fullscreen=False, home=tempfile.mkdtemp(prefix="companion-kivy-"))
