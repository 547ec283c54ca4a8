"""Recovery through the real entry point: ``companion run --demo`` killed and started again.

The app is killed with SIGKILL (as a power cut or the watchdog would) at random moments and
started again, as systemd's ``Restart=on-failure`` does; the store must pass SQLite's
integrity check after every kill, and the game, resumed each time from its log, must end
exactly as the recorded game does uninterrupted.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from companion.engine.store import Store
from tests.games.recordings import play

KILLS = 2
FINISH_SECONDS = 240.0


def start_app(data: Path) -> subprocess.Popen[bytes]:
    """``companion run --demo 21x --exit-when-over`` on ``data``, as the service starts it."""
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--demo", "21x", "--exit-when-over",
         "--data-dir", str(data)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "KIVY_HOME": str(data / "kivy")})


def events_logged(data: Path) -> int:
    with Store.open(data) as store:
        games = store.unfinished()
        return len(store.events(games[-1])) if games else 0


def test_a_killed_demo_resumes_and_ends_as_if_never_killed(tmp_path: Path) -> None:
    chance = random.Random(21)
    data = tmp_path / "data"
    data.mkdir()
    for _ in range(KILLS):
        app = start_app(data)
        logged = events_logged(data)
        deadline = time.monotonic() + 60.0
        while events_logged(data) <= logged and time.monotonic() < deadline:
            time.sleep(0.2)  # kill once this run has logged something of its own
        time.sleep(chance.uniform(0.0, 3.0))
        app.send_signal(signal.SIGKILL)
        app.wait()
        with sqlite3.connect(data / "companion.sqlite3") as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    app = start_app(data)
    assert app.wait(timeout=FINISH_SECONDS) == 0
    with Store.open(data) as store:
        assert store.unfinished() == []
        (game,) = [store.game(game_id) for game_id in (1,)]
        assert game.finished
        resumed = [(e.kind, dict(e.data)) for e in store.events(1)[1:]]
    assert resumed == play("21x", tmp_path / "straight").logged()
