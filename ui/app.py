"""The touchscreen app: screens over a :class:`~ui.loop.TableLoop`, driven by Kivy's clock.

Nothing here knows a game's rules. Every ``1/TICK_HZ`` s the clock calls
:meth:`CompanionApp.tick` on the UI thread: it hands the keyboard's button presses to the
game, runs one conductor step and passes the update to the showing screen, which is
also told the time for its timers. Screens switch by what the referee waits for: a
caller's X opens ``call``, a stated total opens ``stand``, a finished game ``round-end``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.engine.clock import ManualClock
from companion.engine.conductor import Signal, Update
from companion.engine.observations import ButtonPress, Observation, TableStart
from companion.engine.store import Store
from hardware.table import Table
from ui.format import expected
from ui.loop import TableLoop
from ui.playback import Playback
from ui.preferences import Preferences
from ui.screens.base import AppScreen
from ui.screens.history import HistoryScreen
from ui.screens.home import HomeScreen
from ui.screens.keypads import CallScreen, StandScreen
from ui.screens.round_end import RoundEndScreen
from ui.screens.scoreboard import ScoreboardScreen
from ui.screens.settings import SettingsScreen
from ui.screens.table import TableScreen
from ui.screens.teach import TeachScreen
from ui.screens.touch import LogScreen, PickScreen
from ui.table_io import TableIO

TICK_HZ = 20
EXIT_DELAY = 2.0
"""Seconds the final screen of a demo stays up before ``--exit-when-over`` closes it."""
RECORDINGS = Path(__file__).resolve().parents[1] / "docs" / "observations"
"""One recorded game per game: what ``--demo GAME`` plays."""
GAME_SCREENS = ("table", "call", "stand", "pick", "log")
"""Screens that follow the game: the referee's needs switch between them."""
SCREENS: tuple[type[AppScreen], ...] = (
    HomeScreen, TableScreen, CallScreen, StandScreen, PickScreen, LogScreen, RoundEndScreen,
    ScoreboardScreen, SettingsScreen, TeachScreen, HistoryScreen)


class CompanionApp(App):  # type: ignore[misc]
    """The app: one window, the screens, the table loop and the keyboard's buttons."""

    title = "table companion"

    def __init__(self, loop: TableLoop, *, keyboard: bool = True, table: Table | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.loop = loop
        self.store: Store = loop.store
        self.data_folder = Path(loop.store.path).resolve().parent
        self.keyboard = keyboard
        self.io: TableIO | None = None
        self.table = table
        self.screens: dict[str, AppScreen] = {}
        self.manager: ScreenManager | None = None
        self.signal_hooks: list[Callable[[Signal], None]] = []
        self.ticker: Any = None
        self.demo: Playback | None = None
        self.exit_when_over = False

    def build(self) -> ScreenManager:
        self.manager = ScreenManager(transition=NoTransition())
        for screen_class in SCREENS:
            screen = screen_class(self)
            self.screens[screen.NAME] = screen
            self.manager.add_widget(screen)
        return self.manager

    def on_start(self) -> None:
        if self.loop.resume():
            self._game_started()
            self.go("table")
        else:
            self.go("home")
        self.ticker = Clock.schedule_interval(self.tick, 1 / TICK_HZ)
        if self.keyboard:
            Window.bind(on_key_down=self._key_down, on_key_up=self._key_up)

    def on_stop(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        if self.io is not None:
            self.io.close()

    @property
    def current(self) -> AppScreen:
        """The screen showing now."""
        assert self.manager is not None
        return self.screens[self.manager.current]

    def now(self) -> float:
        """The referee's clock."""
        return self.loop.clock()

    def go(self, screen: str, **options: Any) -> None:
        """Show ``screen``; ``options`` go to its ``enter``."""
        assert self.manager is not None
        target = self.screens[screen]
        target.enter(**options)
        self.manager.current = screen

    def start_game(self, start: TableStart) -> None:
        """Start a new game from the home screen and show its table."""
        self.loop.start(start)
        self._game_started()
        self.go("table")

    def tick(self, _dt: float = 0.0) -> Update | None:
        """One clock tick: buttons in, one conductor step, the update out to the screen."""
        self._play_demo()
        if self.io is not None:
            self.io.pump()
        update = self.loop.step()
        if update is not None:
            self.apply(update)
        self.current.tick(self.now())
        return update

    def apply(self, update: Update) -> None:
        """Show one step's update: signals to the hooks, the view to the screen."""
        for signal in update.signals:
            if self.io is not None:
                self.io.play(signal)
            for hook in self.signal_hooks:
                hook(signal)
        self.current.update(update)
        self.route(update)
        if self.exit_when_over and update.view.outcome.over:
            Clock.schedule_once(lambda _dt: self.stop(), EXIT_DELAY)
            self.exit_when_over = False

    def route(self, update: Update) -> None:
        """Switch to the screen the referee's needs call for."""
        name = self.current.NAME
        if name not in GAME_SCREENS:
            return
        view = update.view
        if view.outcome.over and name == "table":
            self.go("round-end")
        elif expected(view, "x") and name != "call":
            self.go("call")
        elif expected(view, "total") and name == "table":
            self.go("stand")

    def play_to(self, playback: Playback, clock: ManualClock, until: float | None) -> None:
        """Play a recording on a manual clock up to ``until`` s after its start (all of it
        if None), one step per observation, as the table would have seen it."""
        self.start_game(playback.start)
        end = math.inf if until is None else playback.began + until
        while (when := playback.next_time) is not None and when <= end:
            clock.now = max(clock.now, when)
            for observation in playback.due(when):
                self.loop.post(observation)
            self.tick()
        if until is not None:
            clock.now = max(clock.now, end)
            self.tick()

    def play_demo(self, game: str, *, exit_when_over: bool) -> None:
        """Play ``game``'s recorded game by itself once the app starts."""
        self.demo = Playback.read(RECORDINGS / f"{game}.jsonl", began=self.now())
        self.exit_when_over = exit_when_over

    def _play_demo(self) -> None:
        if self.demo is None:
            return
        if not self.loop.playing:
            self.demo.began = self.now()
            self.start_game(self.demo.start)
        for observation in self.demo.due(self.now()):
            self.loop.post(observation)

    def _game_started(self) -> None:
        if self.io is not None:
            self.io.close()
        if self.keyboard:
            voice = Preferences.load(self.data_folder).voice
            self.io = TableIO(self.loop.game.seating, self.loop.clock, self._press,
                              table=self.table, voice=voice)

    def _press(self, observation: Observation) -> None:
        """A button press: the screen showing sees it (the button test), the game gets it."""
        if isinstance(observation, ButtonPress):
            self.current.pressed(observation)
        self.loop.post(observation)

    def _key_down(self, _window: Any, key: int, _scancode: int, codepoint: str | None,
                  _modifiers: Any) -> bool:
        name = codepoint or _key_name(key)
        if self.io is not None and name:
            self.io.keys.press(name)
        return False

    def _key_up(self, _window: Any, key: int, _scancode: int) -> bool:
        name = _key_name(key)
        if self.io is not None and name:
            self.io.keys.release(name)
        return False


def _key_name(key: int) -> str:
    """The character of a Kivy key code ('' for keys without one)."""
    return chr(key) if 32 <= key < 127 else ""
