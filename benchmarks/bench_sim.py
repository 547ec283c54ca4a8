"""The simulated table and the watcher: rendering cost, recognition throughput, read accuracy.

Figures, all at 1280x720 on this machine (nothing here ran on a Pi):

- rendering: ms for a frame after a change (the table drawn again) and for an unchanged
  frame (only fresh sensor noise on the cached render), with 10 cards on the table;
- the watcher's throughput with recognition on, 10 playing cards on a trick table: frames
  per second while nothing changes (the usual case), and ms per whole-frame read (what each
  change costs, three times over for the vote);
- the same for the 21X cards (the 9 built-in ones) read through the deck taught from the simulator;
- read accuracy: how many of 52 cards laid one at a time on each kind of zone are read
  right, alone in view;
- demo mode on every shipped recording (``docs/observations/``, at 40 times real time):
  how long it took, how many recorded changes the pipeline confirmed, saw under another
  card's name (misread), missed (each waits out the director's timeout), could not see (a
  card taken from under others), or added, and whether the game ended as the recording
  played straight to the conductor does.

``python -m benchmarks sim`` runs them all; ``python -m benchmarks.bench_sim demo``
only the demos.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable

from companion.engine.clock import ManualClock
from companion.playing_cards import standard_deck
from vision.cards import CardRecognizer
from vision.layout import DEFAULT_LAYOUTS, TableLayout
from vision.profile import ProfileRecognizer
from vision.simulated import SimulatedTable, builtin_expressions, simulated_deck
from vision.watcher import CardReader, TableWatcher, profile_reader, standard_reader

CARDS = ["Kd", "7h", "10c", "As", "Qs", "3d", "9s", "5h", "2c", "Jh"]
GOAL_FPS = 15.0
ROUNDS = 5


def layout_of(game: str) -> TableLayout:
    make: Callable[[], TableLayout] = DEFAULT_LAYOUTS[game]
    return make()


def deal(table: SimulatedTable, cards: list[str]) -> None:
    seats = [zone.name for zone in table.layout.zones if zone.kind == "player"]
    for number, card in enumerate(cards):
        table.place(card, seats[number % len(seats)])


def ms(action: Callable[[], object], rounds: int = ROUNDS) -> float:
    """Median milliseconds of ``action``."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def rendering() -> None:
    table = SimulatedTable(layout_of("trick"), seed=1)
    deal(table, CARDS)
    table.read()

    zones = iter(["trick", "seat-1"] * ROUNDS)

    def changed() -> None:
        table.move("Kd", next(zones))
        table.read()

    per_change = ms(changed)
    unchanged = ms(table.read, 20)
    print(f"sim: rendering 10 cards at 1280x720: {per_change:.1f} ms per changed frame,"
          f" {unchanged:.1f} ms per unchanged frame (sensor noise only)")


def throughput(name: str, table: SimulatedTable, reader: CardReader, read_once: CardReader) -> None:
    layout = table.layout.calibrated(table.calibration())
    watcher = TableWatcher(table, layout, reader, lambda _: None, ManualClock())
    frames = 40
    for number in range(5):  # the change and its three votes
        watcher.process(table.read(), 0.0, number)
    started = time.perf_counter()
    for number in range(frames):
        watcher.process(table.read(), 0.0, number)
    fps = frames / (time.perf_counter() - started)
    frame = table.read()
    read_ms = ms(lambda: read_once(frame), 3)
    seen = len(read_once(frame))
    print(f"sim: watcher, {name}: {fps:.0f} frames/s while nothing changes (goal >= {GOAL_FPS:g});"
          f" {read_ms:.0f} ms per whole-frame read ({seen}/{len(table.placements)} cards read)")


def accuracy() -> None:
    recognizer = CardRecognizer()
    for game, zone in (("trick", "trick"), ("trick", "seat-1"), ("solitaire", "column-1"),
                       ("medley", "cell-4")):
        table = SimulatedTable(layout_of(game), seed=2)
        right = 0
        deck = [str(card) for card in standard_deck()]
        for card in deck:
            table.clear()
            table.place(card, zone)
            right += [seen.card for seen in recognizer.recognize(table.read())] == [card]
        print(f"sim: {right}/{len(deck)} cards read right alone in {game} zone {zone}"
              f" (camera {table.height_cm:.0f} cm up)")


def demos() -> None:
    from companion.engine.clock import ManualClock as Manual
    from companion.engine.conductor import Conductor, play_recorded
    from companion.engine.observations import Sighting
    from companion.engine.store import Store
    from ui.demo import RECORDINGS, load_recording, play_headless, simulated_demo

    for recording in sorted(RECORDINGS.glob("*.jsonl")):
        start, observations = load_recording(recording)
        clock = Manual(start.t)
        straight = Conductor.start(Store(":memory:"), clock, start)
        list(play_recorded(straight, clock, observations))
        with tempfile.TemporaryDirectory() as data:
            started = time.perf_counter()
            demo = simulated_demo(recording, Store(":memory:"), speed=40.0, data=data)
            update = play_headless(demo, timeout=600)
            seconds = time.perf_counter() - started
        report = demo.director.report
        changes = sum(1 for o in observations if isinstance(o, Sighting))
        same = update.view.outcome == straight.view.outcome
        print(f"sim: demo {recording.name}: {seconds:.0f} s for {observations[-1].t:.0f} s of play;"
              f" {report.confirmed}/{changes} changes confirmed by the pipeline,"
              f" {len(report.misread)} seen misread, {len(report.missed)} missed (each waited"
              f" out {demo.director.confirm_timeout:g} s), {len(report.unseen)} no camera sees,"
              f" {len(report.surprises)} sightings not in the recording;"
              f" ends as recorded: {'yes' if same else 'NO'}")


def main() -> None:
    if sys.argv[1:] == ["demo"]:
        demos()
        return
    rendering()
    recognizer = CardRecognizer()
    table = SimulatedTable(layout_of("trick"), seed=1)
    deal(table, CARDS)
    throughput("10 playing cards", table, standard_reader(recognizer), recognizer.recognize)
    expressions = builtin_expressions()
    ids = list(expressions)
    with tempfile.TemporaryDirectory() as data:
        started = time.perf_counter()
        profile = simulated_deck(expressions, ids, data=data)
        taught = (time.perf_counter() - started) * 1000
    print(f"sim: teaching the simulator's {len(ids)} 21X cards: {taught:.0f} ms (then cached)")
    table = SimulatedTable(layout_of("21x"), seed=1)
    deal(table, ids[:10])
    throughput(f"{len(table.placements)} 21X cards", table, profile_reader(profile),
               ProfileRecognizer(profile).recognize)
    accuracy()
    demos()


if __name__ == "__main__":
    main()
