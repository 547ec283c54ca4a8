"""``settings``: a button test, zone calibration by dragging corners, sound and voice volume.

Button test: every press or hold of a wired button or key shows which seat and player
it belongs to. Calibration: drag the four marks onto the table's corners in the live
view and save; the game's layout file (``<data dir>/layouts/<game>.toml``) gets the
homography from image pixels to table millimetres.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.graphics import Color, Ellipse
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.slider import Slider

from companion.engine.observations import ButtonPress, TableStart
from companion.errors import CompanionError
from ui import theme
from ui.preferences import Preferences
from ui.preview import CameraPreview
from ui.screens.base import AppScreen, Host
from ui.widgets import Panel, Text, Tile, row

HANDLE = 28
"""The diameter of a corner mark, in pixels."""


class CornerView(CameraPreview):
    """The live view with four corner marks to drag onto the table's corners."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.frame_size = (640, 480)
        self.corners: list[tuple[float, float]] = [(80, 60), (560, 60), (560, 420),
                                                    (80, 420)]
        with self.canvas.after:
            Color(*theme.CHOSEN)
            self.marks = [Ellipse(size=(HANDLE, HANDLE)) for _ in self.corners]
        self.dragging: int | None = None
        self.bind(pos=self._draw_marks, size=self._draw_marks)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        reach = [abs(m.pos[0] + HANDLE / 2 - touch.x) + abs(m.pos[1] + HANDLE / 2 - touch.y)
                 for m in self.marks]
        self.dragging = reach.index(min(reach))
        touch.grab(self)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self or self.dragging is None:
            return False
        self.corners[self.dragging] = self.to_image_point(touch.pos)
        self._draw_marks()
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        self.dragging = None
        return True

    def _draw_marks(self, *_: Any) -> None:
        self._place()
        for mark, corner in zip(self.marks, self.corners, strict=True):
            x, y = self.to_widget_point(corner)
            mark.pos = (x - HANDLE / 2, y - HANDLE / 2)


class SettingsScreen(AppScreen):
    """The table's set-up."""

    NAME = "settings"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="horizontal", spacing=theme.GAP, padding=theme.GAP)
        left = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.55)
        self.corners = CornerView()
        left.add_widget(Text("drag the marks onto the table's corners", size=theme.SMALL,
                             size_hint_y=None, height=22))
        left.add_widget(self.corners)
        left.add_widget(row(Tile("save corners", self.save_corners)))
        right = BoxLayout(orientation="vertical", spacing=theme.GAP)
        tester = Panel(orientation="vertical")
        tester.add_widget(Text("[b]button test[/b]: press any button or key", size=theme.TEXT,
                               size_hint_y=None, height=30))
        self.pressed_text = Text("", size=theme.BIG - 6)
        tester.add_widget(self.pressed_text)
        right.add_widget(tester)
        self.sound = Slider(min=0, max=100, step=5, size_hint_y=None, height=theme.TOUCH)
        self.voice = Slider(min=0, max=100, step=5, size_hint_y=None, height=theme.TOUCH)
        for caption, slider in (("sound volume", self.sound), ("voice volume", self.voice)):
            right.add_widget(Text(caption, size=theme.SMALL, size_hint_y=None, height=20))
            right.add_widget(slider)
        self.message = Text(size=theme.SMALL, size_hint_y=None, height=40, color=theme.WARN)
        right.add_widget(self.message)
        right.add_widget(row(Tile("home", lambda: host.go("home")),
                             Tile("save", self.save, background_color=theme.CHOSEN)))
        root.add_widget(left)
        root.add_widget(right)
        self.add_widget(root)

    def enter(self, **options: Any) -> None:
        self.host.recalibrate_camera()  # the light may have changed since the game began
        preferences = Preferences.load(self.host.data_folder)
        self.sound.value, self.voice.value = preferences.sound, preferences.voice
        self.pressed_text.text = ""
        self.message.text = ""

    def pressed(self, press: ButtonPress) -> None:
        """Show which seat a button press belongs to."""
        seat = press.seat
        who = "referee" if seat is None else f"seat {seat}"
        if seat is not None and self.host.loop.playing:
            who += f" ({self.host.loop.game.seating.by_number(seat).player})"
        self.pressed_text.text = f"{who}: {'call' if press.kind == 'press' else 'stand'}"

    def save(self) -> None:
        """Keep the volumes (the sounds' at once, the voice's from the next game)."""
        Preferences(sound=int(self.sound.value), voice=int(self.voice.value)).save(
            self.host.data_folder)
        self.host.sounds.volume = int(self.sound.value)
        self.message.text = "saved"

    def save_corners(self) -> None:
        """Calibrate the game's layout from the four marks and save it."""
        from ui.demo import demo_layout
        from vision.layout import Calibration

        start = self.host.loop.start_line or TableStart("21x", ("ann", "ben"))
        game = start.game
        layout = demo_layout(start)
        table = [(0.0, 0.0), (layout.width, 0.0), (layout.width, layout.height),
                 (0.0, layout.height)]
        try:
            calibrated = layout.calibrated(Calibration.from_points(self.corners.corners, table))
        except CompanionError as error:
            self.message.text = str(error)
            return
        path = Path(self.host.data_folder) / "layouts" / f"{game}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        calibrated.save(path)
        self.message.text = f"saved {path.name}"
