"""One real Kivy app for all UI tests (a Kivy app cannot be restarted in one process).

The window is real (Mesa's software renderer here, no display needed); the referee's
clock is a :class:`ManualClock`, so a minute runs out at once; the store is a real
SQLite file. Each test starts the game it needs on the shared app.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine.clock import ManualClock


@pytest.fixture(scope="session")
def ui_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Kivy's home and the game store, in a scratch directory."""
    return tmp_path_factory.mktemp("ui")


@pytest.fixture(scope="session")
def clock() -> ManualClock:
    """The referee's clock for every UI test."""
    return ManualClock(1_000.0)


@pytest.fixture(scope="session")
def driver(ui_home: Path, clock: ManualClock) -> Iterator[object]:
    """The running app, driven frame by frame."""
    os.environ["KIVY_HOME"] = str(ui_home / "kivy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # sounds load and play, silently
    from ui.window import configure_kivy

    configure_kivy(fullscreen=False, home=str(ui_home / "kivy"))
    from companion.engine.store import Store
    from ui.app import CompanionApp
    from ui.headless import Driver
    from ui.loop import TableLoop

    with Store(ui_home / "games.sqlite3") as store:
        app = CompanionApp(TableLoop(store, clock))
        running = Driver(app).start()
        yield running
        running.stop()
