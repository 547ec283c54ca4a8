"""``companion run`` (the touchscreen app) and ``companion snapshot`` (a screen as a PNG).

``run`` opens the app full screen on the Pi (``--fullscreen``) and in an 800x480 window
elsewhere; it resumes an unfinished game, and the referee's clock is wall time, so a
running timer survives a restart. ``--demo GAME`` plays the game's recorded game by
itself; ``--exit-when-over`` closes the app when it ends. ``snapshot SCREEN OUT.png``
renders one screen headless at 800x480, for a fresh game of ``--game`` or a recorded
game ``--state FILE`` played up to ``--at`` seconds. Kivy is imported in the handlers.
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.engine.store import Store
    from ui.app import CompanionApp
    from ui.playback import Playback

SCREEN_NAMES = ("home", "table", "call", "stand", "round-end", "scoreboard", "settings",
                "teach", "history")
GAME_NAMES = ("21x", "21x-solo", "trick", "solitaire", "medley")


def register(subcommands: Any) -> None:
    """Add ``run`` and ``snapshot``."""
    run = subcommands.add_parser("run", help="the touchscreen app",
                                 description="Run the table companion's touchscreen app.")
    run.add_argument("--data-dir", help="where the game store is (default: user data dir)")
    run.add_argument("--fullscreen", action="store_true", help="fill the screen (the Pi)")
    run.add_argument("--camera", default="sim",
                     help="sim (a simulated table, the default), none (touch only), or a "
                          "camera: auto, picamera2, a USB number, a replay file")
    run.add_argument("--demo", choices=GAME_NAMES, help="play a whole game by itself")
    run.add_argument("--exit-when-over", action="store_true",
                     help="close the app when the game is over (with --demo)")
    run.set_defaults(handler=run_app)
    snapshot = subcommands.add_parser(
        "snapshot", help="render a screen to a PNG",
        description="Render one screen of the app headless at 800x480.")
    snapshot.add_argument("screen", choices=SCREEN_NAMES)
    snapshot.add_argument("out", help="the PNG file to write")
    snapshot.add_argument("--game", choices=GAME_NAMES, help="a fresh game of GAME")
    snapshot.add_argument("--state", help="a recorded game (.jsonl observations) to play")
    snapshot.add_argument("--at", type=float, default=None,
                          help="play the recording up to this many seconds (default: all)")
    snapshot.add_argument("--data-dir", help="a game store to show (scores, history)")
    snapshot.set_defaults(handler=run_snapshot)


def run_app(args: argparse.Namespace) -> int:
    """Run the app until its window closes."""
    if args.exit_when_over and args.demo is None:
        raise CompanionError("--exit-when-over needs --demo GAME")
    from ui.service import ServiceNotifier, configure_logging
    from ui.window import configure_kivy

    on_pi = configure_kivy(fullscreen=args.fullscreen)  # Kivy's import-time lines unlogged
    configure_logging("INFO")
    from companion.paths import config_path
    from ui.app import CompanionApp
    from ui.health import config_or_defaults
    from ui.loop import TableLoop

    config, config_warning = config_or_defaults(config_path())
    store, store_warning = open_store(args.data_dir)
    warnings = tuple(w for w in (config_warning, store_warning) if w)
    with store, wired_table(on_pi, config) as table:
        app = CompanionApp(TableLoop(store, time.time), table=table,
                           notifier=ServiceNotifier(),
                           camera=None if args.camera == "none" else args.camera,
                           warnings=warnings)
        if args.demo is not None:
            app.play_demo(args.demo, exit_when_over=args.exit_when_over)
        app.run()
    return 0


def open_store(data: str | None) -> tuple[Store, str | None]:
    """The game store in the data folder, or, when that folder cannot be used (read-only,
    full, damaged), a store in memory and the warning to show: the table still plays, but
    its games are not kept."""
    from companion.engine.store import Store
    from companion.paths import data_dir
    from ui.health import check_data_dir

    try:
        folder = data_dir(data)
        finding = check_data_dir(folder)
        store = Store.open(folder)
    except (CompanionError, OSError) as error:
        return Store(":memory:"), f"{error}: games are not kept until this is fixed"
    return store, None if finding.ok else f"{finding.detail}: {finding.fix}"


@contextlib.contextmanager
def wired_table(on_pi: bool, config: dict[str, Any]) -> Iterator[Any]:
    """The wired buttons, buzzer and lights on the Pi (its pin map from ``config``), or
    None elsewhere: the keyboard stands in."""
    if not on_pi:
        yield None
        return
    from companion.paths import config_path
    from hardware.factory import choose_pin_factory
    from hardware.pins import load_pin_map
    from hardware.table import Table

    pin_map = load_pin_map(config, path=str(config_path()))
    with Table(pin_map, choose_pin_factory()) as table:
        yield table


def run_snapshot(args: argparse.Namespace) -> int:
    """Render ``args.screen`` to ``args.out``."""
    if not args.out.lower().endswith(".png"):
        raise CompanionError(f"{args.out}: the snapshot is a PNG: name it ....png")
    if args.state is not None and args.game is not None:
        raise CompanionError("give --game or --state, not both")
    if args.at is not None and args.state is None:
        raise CompanionError("--at needs --state FILE")
    from ui.window import configure_kivy

    with tempfile.TemporaryDirectory(prefix="companion-snapshot-") as scratch:
        configure_kivy(fullscreen=False, home=scratch)
        from companion.engine.clock import ManualClock
        from companion.engine.store import Store
        from ui.app import CompanionApp
        from ui.headless import Driver
        from ui.loop import TableLoop, default_start
        from ui.playback import Playback

        clock = ManualClock(0.0)
        playback = Playback.read(args.state, began=0.0) if args.state else None
        store = Store.open(args.data_dir) if args.data_dir else Store(
            Path(scratch) / "games.sqlite3")
        with store:
            app = CompanionApp(TableLoop(store, clock), keyboard=False)
            driver = Driver(app).start()
            if playback is not None:
                app.play_to(playback, clock, until=args.at)
            elif args.game is not None:
                app.start_game(default_start(args.game))
                app.tick()
            app.ticker.cancel()  # the screen asked for stays, whatever the game needs next
            if args.screen == "table" and app.loop.start_line is not None:
                show_camera(app, playback, args.at, scratch)
            app.go(args.screen)
            driver.snapshot(args.out)
            driver.stop()
    print(args.out)
    return 0


def show_camera(app: CompanionApp, playback: Playback | None, at: float | None,
                data: str) -> None:
    """The table screen's live view as the app shows it: the simulated table with the
    recording's cards laid as they lie ``at`` seconds in (none for a fresh game), read by
    the real pipeline; a table that cannot be laid is named where the camera's trouble is."""
    from ui.demo import laid_table

    start = app.loop.start_line
    assert start is not None
    observations = playback.observations if playback is not None else []
    until = None if at is None else start.t + at
    try:
        app.show_still(*laid_table(start, observations, until=until, data=data))
    except CompanionError as error:
        app.table_screen.tell(f"camera: {error}")
