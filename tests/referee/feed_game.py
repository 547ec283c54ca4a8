"""Feed a logged game into the referee on a SQLite store, as the table would.

``python feed_game.py DATA_DIR LOG [DIE_AT_STEP]`` resumes the store's unfinished game
(or starts the log's game if the store has none), then submits the log's remaining
events one by one at their logged times, with no pause between them, printing each
``seq`` once it is committed. It prints ``done`` when the log is used up.

With ``DIE_AT_STEP`` the process kills itself with SIGKILL at that step of SQLite's
virtual machine, counted only inside the store's transactions: the kill lands inside
an INSERT or a COMMIT. The crash test also kills it from outside at random moments.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from companion.engine.clock import ManualClock
from companion.engine.referee import Referee
from companion.engine.replay import read_jsonl
from companion.engine.store import Store
from companion.engine.timers import TIMER_KINDS


def die_inside_transactions(after_steps: int) -> None:
    """Make the process SIGKILL itself at step ``after_steps`` of the store's transactions."""
    remaining = [after_steps]
    real = Store._transaction

    def step() -> int:
        remaining[0] -= 1
        if remaining[0] <= 0:
            os.kill(os.getpid(), signal.SIGKILL)
        return 0

    @contextmanager
    def dying(self: Store) -> Iterator[sqlite3.Connection]:
        self._db.set_progress_handler(step, 1)
        try:
            with real(self) as db:
                yield db
        finally:
            self._db.set_progress_handler(None, 1)

    Store._transaction = dying  # type: ignore[method-assign]


def feed(data_dir: str, log_path: str) -> None:
    """Play the rest of the log into the store in ``data_dir``."""
    log = read_jsonl(log_path)
    clock = ManualClock(log[0].t)
    store = Store.open(data_dir)
    resumed = Referee.resume_unfinished(store, clock)
    if resumed is not None:
        referee = resumed
    elif store.games():
        print("done", flush=True)
        return
    else:
        start = log[0]
        data = {key: value for key, value in start.data.items() if key != "game"}
        referee = Referee.start(store, clock, start.data["game"], data)
    print(referee.events[-1].seq, flush=True)
    for event in log:
        if event.seq <= referee.events[-1].seq:
            continue
        clock.now = event.t
        if event.kind in TIMER_KINDS:
            referee.tick()
        else:
            referee.submit(event.kind, event.data)
        print(referee.events[-1].seq, flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 3:
        die_inside_transactions(int(sys.argv[3]))
    feed(sys.argv[1], sys.argv[2])
