"""What every screen shares: its host (the app) and a background."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from kivy.graphics import Color, Rectangle
from kivy.uix.screenmanager import Screen, ScreenManager

from companion.engine.conductor import Update
from companion.engine.observations import ButtonPress, TableStart
from companion.engine.store import Store
from ui import theme
from ui.loop import TableLoop
from ui.sounds import AppSounds


class Host(Protocol):
    """What a screen may ask of the app."""

    loop: TableLoop
    store: Store
    data_folder: Path
    """Where the app keeps its files (the store's directory): decks, layouts, settings."""
    sounds: AppSounds
    """The signals' sounds through the speakers (their volume is the settings')."""

    def go(self, screen: str, **options: Any) -> None:
        """Show ``screen`` with ``options`` for its :meth:`AppScreen.enter`."""

    def start_game(self, start: TableStart) -> None:
        """Start a new game and show its table."""

    def place(self, card: str, zone: str) -> None:
        """A card laid by touch in ``zone``."""

    def later(self, seconds: float, action: Callable[[], object]) -> None:
        """Run ``action`` on the UI thread after ``seconds`` of real time."""

    def now(self) -> float:
        """The referee's clock."""
        ...

    def recalibrate_camera(self) -> None:
        """Let the camera's automatic exposure and white balance run again (calibrating)."""


class AppScreen(Screen):  # type: ignore[misc]
    """A screen of the app; ``NAME`` is how ``go`` and ``snapshot`` name it."""

    NAME = ""

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(name=self.NAME, **kwargs)
        self.host = host
        with self.canvas.before:
            Color(*theme.FELT)
            self._background = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._fit, size=self._fit)

    def enter(self, **options: Any) -> None:
        """Called by ``go`` before the screen shows, with its options."""

    def update(self, update: Update) -> None:
        """Called with each step's update while the screen is showing."""

    def tick(self, now: float) -> None:
        """Called on every clock tick while the screen is showing (timers)."""

    def pressed(self, press: ButtonPress) -> None:
        """Called with each press of a button or key while the screen is showing."""

    def _fit(self, *_: Any) -> None:
        self._background.pos, self._background.size = self.pos, self.size


class Screens(Mapping[str, AppScreen]):
    """The app's screens by name, each made (and added to ``manager``) when first asked
    for or :meth:`make` d: a screen seldom opened (teach, settings) costs no memory until
    it is."""

    def __init__(self, host: Host, manager: ScreenManager,
                 classes: Sequence[type[AppScreen]]) -> None:
        self._host = host
        self._manager = manager
        self._classes = {screen_class.NAME: screen_class for screen_class in classes}
        self._made: dict[str, AppScreen] = {}

    def make(self, names: Sequence[str]) -> None:
        """Make the screens ``names`` now."""
        for name in names:
            self[name]

    def __getitem__(self, name: str) -> AppScreen:
        screen = self._made.get(name)
        if screen is None:
            screen = self._classes[name](self._host)
            self._made[name] = screen
            self._manager.add_widget(screen)
        return screen

    def __contains__(self, name: object) -> bool:
        """Whether the app has a screen ``name`` (made or not; asking makes none)."""
        return name in self._classes

    def __iter__(self) -> Iterator[str]:
        return iter(self._classes)

    def __len__(self) -> int:
        return len(self._classes)

    @property
    def made(self) -> tuple[str, ...]:
        """The screens made so far."""
        return tuple(self._made)
