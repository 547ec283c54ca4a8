"""Drive the app without its main loop: start it, run frames, touch widgets, save PNGs.

``companion snapshot``, the tests and the benchmarks use this, as Kivy's own unit tests
do (``kivy.tests.common``): the window is real (Mesa's software renderer where there is
no display), frames run by :meth:`Driver.frames`, touches go through the window's
event dispatch with :class:`~kivy.tests.common.UnitTestTouch`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.tests.common import UnitTestTouch
from kivy.uix.button import Button

from ui.app import CompanionApp


class Driver:
    """One app, run frame by frame."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app

    def start(self) -> Driver:
        """Open the window, build the screens and run ``on_start`` (as ``App.run`` does)."""
        self.app._run_prepare()
        self.frames()
        return self

    def frames(self, count: int = 2) -> None:
        """Run ``count`` frames of the event loop (clock callbacks, layout, drawing)."""
        for _ in range(count):
            EventLoop.idle()

    def tick(self) -> None:
        """One app tick (buttons, a conductor step, the screen) and a frame to show it."""
        self.app.tick()
        self.frames(1)

    def tap(self, widget: Any) -> None:
        """Touch ``widget`` at its centre and let go (after a frame lays the screen out)."""
        self.frames(1)
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.frames(1)

    def button(self, text: str, screen: str | None = None) -> Any:
        """The button showing ``text`` on ``screen`` (default: the screen showing)."""
        root = self.app.screens[screen] if screen else self.app.current
        for widget in root.walk():
            if isinstance(widget, Button) and widget.text == text and widget.opacity:
                return widget
        raise LookupError(f"no button {text!r} on the {root.NAME} screen")

    def press(self, text: str) -> None:
        """Tap the button showing ``text`` on the screen showing."""
        self.tap(self.button(text))

    def snapshot(self, path: str | Path) -> Path:
        """Save the window as it shows now to ``path`` (PNG, 800x480)."""
        self.frames(3)
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        self.app.root.export_to_png(str(out))
        return out

    def stop(self) -> None:
        """Stop the app (its on_stop runs)."""
        self.app.stop()
        self.frames(1)
