"""The touchscreen app: screens over a :class:`~ui.loop.TableLoop`, driven by Kivy's clock.

Nothing here knows a game's rules. Every ``1/TICK_HZ`` s the clock calls
:meth:`CompanionApp.tick` on the UI thread: it hands the keyboard's button presses to the
game, runs one conductor step and passes the update to the showing screen, which is
also told the time for its timers. Screens switch by what the referee waits for: a
caller's X opens ``call``, a stated total opens ``stand``, a finished game ``round-end``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.engine.clock import ManualClock
from companion.engine.conductor import Update
from companion.engine.observations import ButtonPress, Observation, TableStart
from companion.engine.store import Store
from companion.errors import CompanionError
from companion.paths import data_dir
from hardware.table import Table
from ui import theme
from ui.format import expected
from ui.loop import TableLoop
from ui.playback import Playback
from ui.preferences import Preferences
from ui.preview import CameraPreview
from ui.screens.base import AppScreen, Screens
from ui.screens.history import HistoryScreen
from ui.screens.home import HomeScreen
from ui.screens.keypads import CallScreen, StandScreen
from ui.screens.round_end import RoundEndScreen
from ui.screens.scoreboard import ScoreboardScreen
from ui.screens.settings import SettingsScreen
from ui.screens.table import TableScreen
from ui.screens.teach import TeachScreen
from ui.screens.touch import LogScreen, PickScreen
from ui.service import ServiceNotifier, watchdog_interval
from ui.sounds import AppSounds
from ui.table_io import TableIO

if TYPE_CHECKING:
    from ui.demo import SimulatedDemo
    from vision.simulated import SimulatedTable
    from vision.watcher import CardReader, TableWatcher

TICK_HZ = 20
SIMULATED = "sim"
"""The camera that is a simulated table (a laptop, CI)."""
EXIT_DELAY = 2.0
"""Seconds the final screen of a demo stays up before ``--exit-when-over`` closes it."""
VERDICTS = ("right", "wrong")
"""Signals of a checked call: the call screen shows them before the game moves on."""
DEMO_CONFIRM_SECONDS = 3.0
"""How long the demo waits for the camera pipeline to confirm a change before it posts the
change itself (someone is watching: the director's default of 8 s drags)."""
SOUND_CACHE = "cache/sounds"
"""Where in the data folder the sounds' WAV files are written (made after the first frame)."""
DEMO_TAIL = 5.0
"""Recorded seconds a demo runs on after its recording ends (a timer may still end it)."""
log = logging.getLogger(__name__)

STORE_TROUBLE = "Nothing is lost, the game waits: "
"""How a store that cannot be written now (a full disk) is shown."""
GAME_SCREENS = ("table", "call", "stand", "pick", "log")
"""Screens that follow the game: the referee's needs switch between them."""
MADE_AT_START = ("home", *GAME_SCREENS, "round-end")
"""Screens made when the app starts (a game's screen opens at once, in the middle of a
call); the others (scores, settings, teach, history) are made when first opened."""
SCREENS: tuple[type[AppScreen], ...] = (
    HomeScreen, TableScreen, CallScreen, StandScreen, PickScreen, LogScreen, RoundEndScreen,
    ScoreboardScreen, SettingsScreen, TeachScreen, HistoryScreen)


class CompanionApp(App):  # type: ignore[misc]
    """The app: one window, the screens, the table loop and the keyboard's buttons."""

    title = "table companion"

    def __init__(self, loop: TableLoop, *, keyboard: bool = True, table: Table | None = None,
                 notifier: ServiceNotifier | None = None, camera: str | None = None,
                 warnings: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.loop = loop
        self.warnings = warnings
        """Problems found before the window opened (a broken config, a read-only data
        folder), shown once it is up."""
        self.shown_warning = ""
        self.warning_popup: Popup | None = None
        self.store: Store = loop.store
        self.data_folder = (data_dir() if str(loop.store.path) == ":memory:"
                            else Path(loop.store.path).resolve().parent)
        self.keyboard = keyboard
        self.io: TableIO | None = None
        self.table = table
        self.notifier = notifier or ServiceNotifier(environ={})
        self.camera = camera
        self.simulated: SimulatedTable | None = None
        self.manager = ScreenManager(transition=NoTransition())
        self.screens = Screens(self, self.manager, SCREENS)
        self.ticker: Any = None
        self.demo: SimulatedDemo | None = None
        self.demo_done_at: float | None = None
        self.exit_when_over = False
        self.watcher: TableWatcher | None = None
        self.preview: CameraPreview | None = None
        self.frame_number = -1
        self.sounds = AppSounds(self.data_folder / SOUND_CACHE, Preferences().sound)
        """The signals' sounds through the speakers (a wired table has its buzzer)."""

    def build(self) -> ScreenManager:
        self.screens.make(MADE_AT_START)
        return self.manager

    def on_start(self) -> None:
        if self.demo is None and self.loop.resume():
            self._game_started()
            self.go("table")
        else:
            self.go("home")
        self.ticker = Clock.schedule_interval(self.tick, 1 / TICK_HZ)
        Clock.schedule_once(lambda _dt: self.notifier.ready(), 0)  # after the first frame
        Clock.schedule_once(lambda _dt: self.sounds.prepare(), 0)  # not at the first buzz
        heartbeat = watchdog_interval()
        if heartbeat is not None:  # on the UI thread: a frozen UI stops the heartbeat
            Clock.schedule_interval(lambda _dt: self.notifier.alive(), heartbeat)
        if self.keyboard:
            Window.bind(on_key_down=self._key_down, on_key_up=self._key_up)
        if self.warnings:
            self.warn("\n".join(self.warnings))

    def warn(self, text: str) -> None:
        """Show a problem the table must know about (a broken config, a full disk) in a
        window over the screen; the same text is shown once until it changes."""
        if text == self.shown_warning:
            return
        self.shown_warning = text
        if self.warning_popup is not None:
            self.warning_popup.dismiss()
            self.warning_popup = None
        if text:
            log.warning("%s", text)
            message = Label(text=text, font_size=theme.TEXT, halign="center", valign="middle")
            message.bind(size=lambda label, size: setattr(label, "text_size", size))
            self.warning_popup = Popup(title="the table companion needs attention",
                                       content=message, size_hint=(0.9, 0.6))
            self.warning_popup.open()

    def on_stop(self) -> None:
        self.notifier.stopping()
        if self.ticker is not None:
            self.ticker.cancel()
        if self.watcher is not None:
            self.watcher.stop()
        if self.io is not None:
            self.io.close()
        self.sounds.stop()

    @property
    def current(self) -> AppScreen:
        """The screen showing now."""
        return self.screens[self.manager.current]

    def now(self) -> float:
        """The referee's clock."""
        return self.loop.clock()

    def later(self, seconds: float, action: Callable[[], object]) -> None:
        """Run ``action`` on the UI thread after ``seconds`` of real time."""
        Clock.schedule_once(lambda _dt: action(), seconds)

    def go(self, screen: str, **options: Any) -> None:
        """Show ``screen``; ``options`` go to its ``enter`` (not called again for the
        screen already showing, which keeps what it shows)."""
        if self.manager.current == screen and not options:
            return
        self.screens[screen].enter(**options)
        self.manager.current = screen

    def start_game(self, start: TableStart) -> None:
        """Start a new game from the home screen and show its table."""
        self.loop.start(start)
        self._game_started()
        self.go("table")

    def tick(self, _dt: float = 0.0) -> Update | None:
        """One clock tick: buttons in, one conductor step, the update out to the screen."""
        self._run_demo()
        if self.io is not None:
            self.io.pump()
        update = self.loop.step()
        if update is not None:
            self.apply(update)
        self._show_frame()
        self.current.tick(self.now())
        return update

    @property
    def table_screen(self) -> TableScreen:
        """The table screen (the live view, the game's layout)."""
        table = self.screens["table"]
        assert isinstance(table, TableScreen)
        return table

    def apply(self, update: Update) -> None:
        """Show one step's update: signals to the hooks, the view to the screen."""
        table = self.table_screen
        if update.trouble:
            self.warn(f"{STORE_TROUBLE}{update.trouble}")
        elif self.shown_warning.startswith(STORE_TROUBLE):
            self.warn("")  # the store took the waiting moves
        for signal in update.signals:
            if self.io is not None:
                self.io.play(signal)
                table.announce(self.io.spoken(signal))
        self.current.update(update)
        self.route(update)
        if update.view.outcome.over:
            self._stop_soon()

    def route(self, update: Update) -> None:
        """Switch to the screen the referee's needs call for: a caller's X first, then a
        total to state, then the round's end (a verdict on ``call`` stays up a moment)."""
        name = self.current.NAME
        if name not in GAME_SCREENS:
            return
        view = update.view
        verdict_now = any(signal.kind in VERDICTS for signal in update.signals)
        if view.outcome.over and not (name == "call" and verdict_now):
            self.go("round-end")
        elif expected(view, "x") and name != "call":
            self.go("call")
        elif expected(view, "total") and name in ("table", "call"):
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
        """Play ``game``'s recorded game by itself on the simulated table, through the
        camera pipeline; ``exit_when_over`` closes the app once it has ended."""
        from ui.demo import recording_path, simulated_demo

        self.demo = simulated_demo(recording_path(game), self.store, data=self.data_folder)
        self.demo.director.confirm_timeout = DEMO_CONFIRM_SECONDS
        self.exit_when_over = exit_when_over

    def _run_demo(self) -> None:
        """One tick of the demo: the director acts, the live view shows the newest frame."""
        demo = self.demo
        if demo is None:
            return
        if not self.loop.playing:
            self.loop.adopt(demo.conductor, demo.start, demo.clock)
            demo.watcher.start(after=self.watch(demo.watcher))
            self._game_started()
            self.go("table")
        demo.director.tick()
        if demo.director.done and self.demo_done_at is None:
            self.demo_done_at = demo.clock()
        finished = self.demo_done_at is not None and demo.clock() >= self.demo_done_at + DEMO_TAIL
        if self.exit_when_over and finished:
            self._stop_soon()

    def watch(self, watcher: TableWatcher) -> TableWatcher | None:
        """Show ``watcher``'s frames in the table screen's live view (one view, reused);
        the watcher it replaces, told to stop (it releases its camera on its own thread:
        start ``watcher`` after it)."""
        previous = self.watcher if self.watcher is not watcher else None
        if previous is not None:
            previous.stop(wait=False)
        self.watcher = watcher
        if self.preview is None:
            self.preview = CameraPreview(size_hint_x=0.42)
            self.screens["table"].set_preview(self.preview)
        return previous

    def recalibrate_camera(self) -> None:
        """Let the watched camera's automatic exposure and white balance run again (the
        settings' zone calibration); a Pi camera locks them again once they have settled."""
        if self.watcher is not None:
            self.watcher.recalibrate()

    def place(self, card: str, zone: str) -> None:
        """A card laid by touch: on the simulated table, for the camera pipeline to see
        (the simulated dealer), or straight to the game when there is no camera."""
        if self.simulated is None:
            self.loop.tap("card", None, {"card": card, "zone": zone})
        elif any(placement.card == card for placement in self.simulated.placements):
            self.simulated.move(card, zone)
        else:
            self.simulated.place(card, zone)

    def _film(self, start: TableStart) -> None:
        """Watch the real camera over the game's layout as calibrated in settings: 21X
        cards read with the owner's taught deck, playing cards with the standard reader."""
        from ui.deck import EXPRESSION_GAMES, owner_deck
        from vision.camera import open_camera
        from vision.layout import TableLayout
        from vision.watcher import TableWatcher, profile_reader, standard_reader

        assert self.camera is not None
        path = self.data_folder / "layouts" / f"{start.game}.toml"
        if not path.exists():
            raise CompanionError(f"the {start.game} table is not calibrated: settings, corners")
        reader = (profile_reader(owner_deck(self.data_folder)) if start.game in EXPRESSION_GAMES
                  else standard_reader())
        spec = self.camera
        # opened on the watcher's thread: a Pi camera takes about a second (estimated)
        watcher = TableWatcher(lambda: open_camera(spec), TableLayout.load(path),
                               reader, self.loop.post, self.loop.clock)
        self.simulated = None
        watcher.start(after=self.watch(watcher))

    def _simulate(self, start: TableStart) -> None:
        """Watch a simulated table of ``start``'s game through the real pipeline."""
        from ui.demo import simulated_table_for
        from vision.watcher import TableWatcher

        table, reader = simulated_table_for(start, data=self.data_folder)
        layout = table.layout.calibrated(table.calibration())
        self.simulated = table
        watcher = TableWatcher(table, layout, reader, self.loop.post, self.loop.clock)
        watcher.start(after=self.watch(watcher))

    def show_still(self, table: SimulatedTable, reader: CardReader) -> None:
        """Show ``table`` in the live view as the watcher reads it, each card outlined and
        named, without watching on (a snapshot: what it reads is not posted to the game)."""
        from vision.watcher import VOTES, TableWatcher

        layout = table.layout.calibrated(table.calibration())
        still = TableWatcher(table, layout, reader, lambda _observation: None, self.loop.clock)
        for number in range(VOTES):  # as many reads as the watcher's vote takes
            still.process(table.read(), self.now(), number)
        self.watch(still)
        self._show_frame()

    def _show_frame(self) -> None:
        if self.watcher is None:
            return
        failure = self.watcher.failure
        if failure is not None and not self.table_screen.notice:  # the game goes on by touch
            self.table_screen.tell(f"camera: {failure}")
        if self.preview is None:
            return
        latest = self.watcher.latest()
        if latest is None or latest.number == self.frame_number:
            return
        self.frame_number = latest.number
        self.preview.show(latest.frame, [(o.card, o.corners) for o in latest.outlines])

    def _stop_soon(self) -> None:
        if self.exit_when_over:
            self.exit_when_over = False
            Clock.schedule_once(lambda _dt: self.stop(), EXIT_DELAY)

    def _game_started(self) -> None:
        start = self.loop.start_line
        if start is not None:
            self.notifier.status(f"playing {start.game}: {', '.join(start.players)}")
        self.table_screen.tell("")
        if start is not None and self.camera is not None and self.demo is None:
            try:
                if self.camera == SIMULATED:
                    self._simulate(start)
                else:
                    self._film(start)
            except CompanionError as error:  # the game goes on by touch
                self.table_screen.tell(f"camera: {error}")
        if self.io is not None:
            self.io.close()
        if self.keyboard:
            preferences = Preferences.load(self.data_folder)
            self.sounds.volume = preferences.sound
            self.io = TableIO(self.loop.game.seating, self.loop.clock, self._press,
                              table=self.table, voice=preferences.voice, sound=self.sounds.play)

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
