"""The live camera view: one texture, reused for every frame, with each card outlined.

A frame (an OpenCV BGR image) is scaled down with ``cv2.resize`` into a reused buffer the
size the picture is shown at (at most :data:`MAX_WIDTH` wide), turned to RGB into a
second one (Kivy converts BGR itself, slowly, where GL has no BGR upload), a numpy view
of a ``bytearray`` that ``blit_buffer`` copies into the same
:class:`~kivy.graphics.Texture` (a bytearray uploads in 0.04 ms here, a numpy
memoryview takes 7 ms): nothing is allocated per frame. Buffer and texture are only remade when the
frame or the widget changes size. Outlines are drawn in image
pixels, scaled to where the picture sits in the widget, with the card's name beside.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui import theme

Outline = tuple[str, Sequence[tuple[float, float]]]
"""A recognised card: its name and its corners in image pixels."""
MAX_OUTLINES = 24
MAX_WIDTH = 640
"""The widest the picture is uploaded (the 7-inch screen shows it smaller)."""


class CameraPreview(Widget):  # type: ignore[misc]
    """The camera's picture with the recognised cards outlined and named."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.texture: Texture | None = None
        self.scaled: np.ndarray | None = None
        self.upload = bytearray()
        """The texture's upload buffer; :attr:`buffer` is a numpy view of it."""
        self.buffer: np.ndarray | None = None
        self.frame_size = (0, 0)
        self.frames_shown = 0
        self.last: tuple[np.ndarray, Sequence[Outline]] | None = None
        """The frame shown last and its outlines, shown again when the widget is laid out."""
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
        self._draw(frame, outlines)
        self.frames_shown += 1

    def _draw(self, frame: np.ndarray, outlines: Sequence[Outline]) -> None:
        height, width = frame.shape[:2]
        self.last = (frame, outlines)
        if self.frame_size != (width, height):
            self.frame_size = (width, height)
            self._fit()
        shown = self._shown_size()
        if self.buffer is None or self.buffer.shape[:2] != (shown[1], shown[0]):
            self.scaled = np.empty((shown[1], shown[0], 3), np.uint8)
            self.upload = bytearray(shown[0] * shown[1] * 3)
            self.buffer = np.frombuffer(self.upload, np.uint8).reshape(shown[1], shown[0], 3)
            self.texture = Texture.create(size=shown, colorfmt="rgb")
            self.texture.flip_vertical()
            self.picture.texture = self.texture
        assert self.texture is not None and self.scaled is not None
        cv2.resize(frame, shown, dst=self.scaled, interpolation=cv2.INTER_NEAREST)
        cv2.cvtColor(self.scaled, cv2.COLOR_BGR2RGB, dst=self.buffer)
        self.texture.blit_buffer(self.upload, colorfmt="rgb", bufferfmt="ubyte")
        self.canvas.ask_update()
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

    def _shown_size(self) -> tuple[int, int]:
        """The upload size: the picture's size on screen, at most MAX_WIDTH wide."""
        fw, fh = self.frame_size
        width = max(1, min(MAX_WIDTH, int(self.picture.size[0]) or fw))
        return width, max(1, round(width * fh / fw))

    def _outline(self, outlines: Sequence[Outline]) -> None:
        for index, (line, label) in enumerate(zip(self.lines, self.names, strict=True)):
            if index >= len(outlines):
                line.points = []
                label.text = ""
                continue
            name, corners = outlines[index]
            points = [self.to_widget_point(corner) for corner in corners]
            line.points = [value for point in points for value in point]
            if label.text != name:  # a name's texture is drawn once, not every frame
                label.text = name
                label.texture_update()
                label.size = label.texture_size
            label.pos = (min(p[0] for p in points), max(p[1] for p in points))

    def _place(self, *_: Any) -> None:
        """The widget moved or changed size: fit the picture, show the last frame again."""
        self._fit()
        if self.last is not None:
            self._draw(*self.last)

    def _fit(self) -> None:
        """Fit the picture inside the widget, keeping the frame's proportions."""
        fw, fh = self.frame_size if self.frame_size[0] else (4, 3)
        scale = min(self.width / fw, self.height / fh)
        size = (fw * scale, fh * scale)
        self.picture.size = size
        self.picture.pos = (self.x + (self.width - size[0]) / 2,
                            self.y + (self.height - size[1]) / 2)
