"""The live camera view: one texture, reused for every frame, with each card outlined.

A frame (an OpenCV BGR image) is copied into the same :class:`~kivy.graphics.Texture`
with ``blit_buffer`` straight from the array's memory: nothing is allocated per frame.
The texture is only remade when the frame size changes. Outlines are drawn in image
pixels, scaled to where the picture sits in the widget, with the card's name beside.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui import theme

Outline = tuple[str, Sequence[tuple[float, float]]]
"""A recognised card: its name and its corners in image pixels."""
MAX_OUTLINES = 24


class CameraPreview(Widget):  # type: ignore[misc]
    """The camera's picture with the recognised cards outlined and named."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.texture: Texture | None = None
        self.frame_size = (0, 0)
        self.frames_shown = 0
        with self.canvas:
            Color(1, 1, 1, 1)
            self.picture = Rectangle(pos=self.pos, size=self.size)
            Color(*theme.WARN)
            self.lines = [Line(points=[], width=1.6, close=True) for _ in range(MAX_OUTLINES)]
        self.names = [Label(font_size=theme.SMALL, color=theme.WARN, bold=True,
                            size_hint=(None, None)) for _ in range(MAX_OUTLINES)]
        for label in self.names:
            self.add_widget(label)
        self.bind(pos=self._place, size=self._place)

    def show(self, frame: np.ndarray, outlines: Sequence[Outline] = ()) -> None:
        """Show ``frame`` (H x W x 3 BGR, uint8) and ``outlines``."""
        height, width = frame.shape[:2]
        if self.texture is None or self.frame_size != (width, height):
            self.texture = Texture.create(size=(width, height), colorfmt="bgr")
            self.texture.flip_vertical()
            self.frame_size = (width, height)
            self.picture.texture = self.texture
            self._place()
        data = frame if frame.flags.c_contiguous else np.ascontiguousarray(frame)
        self.texture.blit_buffer(data.reshape(-1).data, colorfmt="bgr", bufferfmt="ubyte")
        self.canvas.ask_update()
        self.frames_shown += 1
        self._outline(outlines)

    def to_widget_point(self, point: tuple[float, float]) -> tuple[float, float]:
        """Where image pixel ``point`` (origin top left) shows in the window."""
        x0, y0 = self.picture.pos
        width, height = self.picture.size
        fw, fh = self.frame_size
        return (x0 + point[0] * width / fw, y0 + height - point[1] * height / fh)

    def to_image_point(self, point: tuple[float, float]) -> tuple[float, float]:
        """The image pixel shown at window ``point``."""
        x0, y0 = self.picture.pos
        width, height = self.picture.size
        fw, fh = self.frame_size
        return ((point[0] - x0) * fw / width, (y0 + height - point[1]) * fh / height)

    def _outline(self, outlines: Sequence[Outline]) -> None:
        for index, (line, label) in enumerate(zip(self.lines, self.names, strict=True)):
            if index >= len(outlines):
                line.points = []
                label.text = ""
                continue
            name, corners = outlines[index]
            points = [self.to_widget_point(corner) for corner in corners]
            line.points = [value for point in points for value in point]
            label.text = name
            label.texture_update()
            label.size = label.texture_size
            label.pos = (min(p[0] for p in points), max(p[1] for p in points))

    def _place(self, *_: Any) -> None:
        """Fit the picture inside the widget, keeping the frame's proportions."""
        fw, fh = self.frame_size if self.frame_size[0] else (4, 3)
        scale = min(self.width / fw, self.height / fh)
        size = (fw * scale, fh * scale)
        self.picture.size = size
        self.picture.pos = (self.x + (self.width - size[0]) / 2,
                            self.y + (self.height - size[1]) / 2)
