"""Crash test: every game, fed with no pauses, killed with SIGKILL at random moments and
inside its commits, resumes to exactly the uninterrupted log, its file intact each time."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.engine.replay import read_jsonl, replay
from companion.engine.store import FILE_NAME, Store

ROOT = Path(__file__).resolve().parents[2]
FEEDER = Path(__file__).with_name("feed_game.py")
LOGS = sorted((ROOT / "docs" / "logs").glob("*.jsonl"))
KILLS_PER_GAME = 12


def run_once(data_dir: Path, log: Path, rng: random.Random, inside_commit: bool) -> bool:
    """Run the feeder once, killed inside a commit or from outside; True if it finished."""
    command = [sys.executable, str(FEEDER), str(data_dir), str(log)]
    if inside_commit:
        command.append(str(rng.randint(1, 1500)))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert process.stdout is not None
    if not inside_commit:
        for _ in range(rng.randint(1, 6)):
            if process.stdout.readline().strip() in ("done", ""):
                break
        time.sleep(rng.uniform(0.0, 0.01))
        process.send_signal(signal.SIGKILL)
    output = process.stdout.read()
    process.wait(timeout=60)
    process.stdout.close()
    return process.returncode == 0 and output.rstrip().endswith("done")


def integrity(data_dir: Path) -> str:
    """``PRAGMA integrity_check`` of the store file (``ok`` when intact)."""
    db = sqlite3.connect(data_dir / FILE_NAME)
    try:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        db.close()


@pytest.mark.parametrize("log", LOGS, ids=[log.stem for log in LOGS])
def test_killed_referee_resumes_to_the_uninterrupted_state(tmp_path: Path, log: Path) -> None:
    rng = random.Random(f"2121-{log.stem}")
    expected = read_jsonl(log)
    kills = rounds = 0
    while kills < KILLS_PER_GAME:
        data_dir = tmp_path / f"round{rounds}"
        while not run_once(data_dir, log, rng, inside_commit=kills % 2 == 0):
            kills += 1
            if (data_dir / FILE_NAME).exists():
                assert integrity(data_dir) == "ok"
        assert integrity(data_dir) == "ok"
        with Store.open(data_dir) as store:
            games = [g for g in store.games() if store.events(g.id)]
            assert len(games) == 1
            stored = store.events(games[0].id)
            assert stored == expected
            assert replay(stored).summary() == replay(expected).summary()
            assert games[0].finished and store.unfinished() == []
        rounds += 1
