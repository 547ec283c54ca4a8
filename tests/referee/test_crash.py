"""Crash test: a referee process killed with SIGKILL at 100+ random points resumes exactly."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.engine.replay import read_jsonl, replay
from companion.engine.store import Store

ROOT = Path(__file__).resolve().parents[2]
FEEDER = Path(__file__).with_name("feed_game.py")
LOGS = [ROOT / "docs" / "logs" / "21x.jsonl", ROOT / "docs" / "logs" / "21x-solo.jsonl"]
KILLS = 100


def run_until_killed(data_dir: Path, log: Path, rng: random.Random) -> bool:
    """Run the feeder, kill it after a random number of commits; True if it finished first."""
    process = subprocess.Popen([sys.executable, str(FEEDER), str(data_dir), str(log), "0.002"],
                               stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert process.stdout is not None
    for _ in range(rng.randint(0, 5)):
        line = process.stdout.readline()
        if line.strip() in ("done", ""):
            process.wait(timeout=30)
            return True
    time.sleep(rng.uniform(0.0, 0.004))
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    finished = process.returncode == 0
    process.stdout.close()
    return finished


def test_killed_referee_resumes_to_the_uninterrupted_state(tmp_path: Path) -> None:
    rng = random.Random(2121)
    kills = rounds = 0
    while kills < KILLS:
        log = LOGS[rounds % len(LOGS)]
        data_dir = tmp_path / f"round{rounds}"
        while not run_until_killed(data_dir, log, rng):
            kills += 1
        expected = read_jsonl(log)
        with Store.open(data_dir) as store:
            games = [g for g in store.games() if store.events(g.id)]
            assert len(games) == 1
            stored = store.events(games[0].id)
            assert stored == expected
            assert replay(stored).summary() == replay(expected).summary()
            assert games[0].finished and store.unfinished() == []
        rounds += 1
    assert kills >= KILLS
