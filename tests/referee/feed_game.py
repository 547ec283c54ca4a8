"""Feed a logged game into the referee on a SQLite store, as the table would.

``python feed_game.py DATA_DIR LOG DELAY`` resumes the store's unfinished game (or
starts the log's game if the store has none), then submits the log's remaining events
one by one at their logged times, printing each ``seq`` once it is committed and
sleeping ``DELAY`` seconds between events. It prints ``done`` when the log is used up.
The crash test kills it at random moments and runs it again.
"""

from __future__ import annotations

import sys
import time

from companion.engine.clock import ManualClock
from companion.engine.referee import Referee
from companion.engine.replay import read_jsonl
from companion.engine.store import Store
from companion.engine.timers import TIMER_KINDS


def feed(data_dir: str, log_path: str, delay: float) -> None:
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
        time.sleep(delay)
    print("done", flush=True)


if __name__ == "__main__":
    feed(sys.argv[1], sys.argv[2], float(sys.argv[3]))
