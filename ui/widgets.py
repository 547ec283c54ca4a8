"""The app's building blocks: wrapped text, finger-sized buttons, coloured panels, a keypad."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.togglebutton import ToggleButton

from ui import theme
from ui.entry import KEYS, NumberEntry


class Text(Label):  # type: ignore[misc]
    """A label that wraps inside its own width."""

    def __init__(self, text: str = "", size: int = theme.TEXT, **kwargs: Any) -> None:
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        kwargs.setdefault("color", theme.INK)
        super().__init__(text=text, font_size=size, markup=True, **kwargs)
        self.bind(size=self._wrap)

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width, self.height)


class Tile(Button):  # type: ignore[misc]
    """A finger-sized button that calls ``action`` when tapped."""

    def __init__(self, text: str, action: Callable[[], object] | None = None,
                 size: int = theme.TEXT, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", theme.TOUCH)
        kwargs.setdefault("background_normal", "")
        kwargs.setdefault("background_color", theme.BUTTON)
        super().__init__(text=text, font_size=size, halign="center", valign="middle",
                         **kwargs)
        self.bind(size=lambda *_: setattr(self, "text_size", self.size))
        if action is not None:
            self.bind(on_release=lambda *_: action())


class Panel(BoxLayout):  # type: ignore[misc]
    """A box with a plain background colour."""

    def __init__(self, colour: theme.RGBA = theme.PANEL, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", theme.GAP)
        kwargs.setdefault("padding", theme.GAP)
        super().__init__(**kwargs)
        with self.canvas.before:
            self._colour = Color(*colour)
            self._rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._fit, size=self._fit)

    def recolour(self, colour: theme.RGBA) -> None:
        """Change the background colour."""
        self._colour.rgba = colour

    def _fit(self, *_: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size


def row(*children: Any, height: int = theme.TOUCH, **kwargs: Any) -> BoxLayout:
    """A horizontal strip of ``children``, ``height`` pixels high."""
    box = BoxLayout(orientation="horizontal", size_hint_y=None, height=height,
                    spacing=theme.GAP, **kwargs)
    for child in children:
        box.add_widget(child)
    return box


def scrolling_grid(cols: int, **kwargs: Any) -> tuple[ScrollView, GridLayout]:
    """A grid of ``cols`` columns that scrolls when it is taller than its place."""
    grid = GridLayout(cols=cols, spacing=theme.GAP, size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    scroller = ScrollView(do_scroll_x=False, **kwargs)
    scroller.add_widget(grid)
    return scroller, grid


class Keypad(BoxLayout):  # type: ignore[misc]
    """Number fields above a keypad: tap a field to type into it, then the keys.

    ``fields`` are (name, caption) pairs; :attr:`entry` holds what was typed.
    """

    def __init__(self, fields: Sequence[tuple[str, str]],
                 on_change: Callable[[], object] | None = None, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=theme.GAP, **kwargs)
        self.entry = NumberEntry([name for name, _ in fields])
        self.on_change = on_change
        self.field_buttons: dict[str, ToggleButton] = {}
        self.captions = dict(fields)
        strip = row(height=theme.TOUCH + 8)
        for name, _caption in fields:
            button = ToggleButton(group=f"keypad-{id(self)}", font_size=theme.BIG,
                                  background_normal="", background_color=theme.PANEL,
                                  allow_no_selection=False)
            button.bind(on_release=lambda _b, field=name: self.choose(field))
            self.field_buttons[name] = button
            strip.add_widget(button)
        self.add_widget(strip)
        keys = GridLayout(cols=4, spacing=theme.GAP)
        self.key_buttons: dict[str, Tile] = {}
        for key in KEYS:
            tile = Tile(key, partial(self.press, key), size=theme.BIG,
                        size_hint_y=1)
            self.key_buttons[key] = tile
            keys.add_widget(tile)
        self.add_widget(keys)
        self.refresh()

    def choose(self, field: str) -> None:
        """Type into ``field``."""
        self.entry.choose(field)
        self.refresh()

    def press(self, key: str) -> None:
        """Type ``key`` into the active field."""
        self.entry.press(key)
        self.refresh()
        if self.on_change is not None:
            self.on_change()

    def reset(self, fields: Sequence[str] | None = None) -> None:
        """Empty the fields; with ``fields``, show only those of the keypad's fields."""
        self.entry.clear()
        if fields is not None:
            self.entry = NumberEntry([f for f in self.captions if f in fields])
        for name, button in self.field_buttons.items():
            button.disabled = name not in self.entry.fields
            button.opacity = 0 if button.disabled else 1
        self.refresh()

    def refresh(self) -> None:
        """Show each field's caption and text, the active one highlighted."""
        for name, button in self.field_buttons.items():
            if name not in self.entry.fields:
                continue
            active = name == self.entry.active
            button.state = "down" if active else "normal"
            button.background_color = theme.CHOSEN if active else theme.PANEL
            button.text = f"{self.captions[name]} = {self.entry.text(name) or '_'}"
