"""A table with no screen: the camera, the wired buttons and a terminal, through the conductor.

``companion play GAME --players A,B --camera SPEC`` runs this. The camera (a Pi camera, a
USB camera, or a replayed video or folder) is watched on its own thread over a calibrated
layout; the wired buttons (when the Pi has GPIO) are bridged on theirs; what a screen would
take by touch is typed, one line each (:func:`parse_entry`); the conductor is stepped on
the calling thread and every logged event, attention item and refusal is printed.

>>> parse_entry("press 2", t=1.0)
ButtonPress(seat=2, kind='press', t=1.0, late_ms=None)
>>> parse_entry("total 1 x=3 total=17", t=2.0)
Tap(action='total', t=2.0, seat=1, data={'x': 3, 'total': 17})
>>> parse_entry("card Kd seat-2", t=3.0)
Tap(action='card', t=3.0, seat=None, data={'card': 'Kd', 'zone': 'seat-2'})
>>> parse_entry("choose 4 0", t=4.0)
Tap(action='choose', t=4.0, seat=None, data={'item': 4, 'choice': 0})
>>> parse_entry("x two", t=5.0)
Traceback (most recent call last):
companion.errors.ObservationError: 'x two': a seat number comes after the action, not 'two'
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from companion.engine.clock import Clock
from companion.engine.conductor import Conductor, Update
from companion.engine.observations import ButtonPress, Observation, TableStart, Tap
from companion.engine.store import Store
from companion.errors import ObservationError
from companion.paths import data_dir

STEP_SECONDS = 0.05
"""How often the conductor is stepped (the timer's resolution at the table)."""

HELP = """\
type one entry a line (what the touchscreen would take):
  press SEAT | hold SEAT | referee         a button, when none is wired
  x SEAT x=4 [y=2]                         the X of a call
  total SEAT x=3 total=17 [y=2]            a stand, or a best total
  pass SEAT | close                        at the end of the 21X minute
  card CARD ZONE                           a card placed, entered by hand
  choose ITEM CHOICE                       answer an attention item
  ACTION [SEAT] key=value ...              any other entry of the game
  quit"""


def parse_entry(line: str, *, t: float) -> Observation | None:
    """One typed entry as an observation (None for a blank line)."""
    words = line.split()
    if not words:
        return None
    action, rest = words[0].lower(), words[1:]
    if action in ("press", "hold") and len(rest) == 1:
        return ButtonPress(_seat(rest[0], line), "press" if action == "press" else "hold", t)
    if action == "referee" and not rest:
        return ButtonPress(None, "press", t)
    if action == "card" and len(rest) == 2:
        return Tap("card", t, data={"card": rest[0], "zone": rest[1]})
    if action == "choose" and len(rest) == 2:
        return Tap("choose", t, data={"item": _whole(rest[0], line),
                                      "choice": _whole(rest[1], line)})
    seat = None
    if rest and "=" not in rest[0]:
        seat, rest = _seat(rest[0], line), rest[1:]
    data: dict[str, Any] = {}
    for word in rest:
        key, equals, value = word.partition("=")
        if not equals or not key:
            raise ObservationError(f"{line!r}: {word!r} is not key=value")
        data[key] = int(value) if value.lstrip("-").isdigit() else value
    return Tap(action, t, seat=seat, data=data)


def _whole(word: str, line: str) -> int:
    if not word.isdigit():
        raise ObservationError(f"{line!r}: {word!r} is not a whole number")
    return int(word)


def _seat(word: str, line: str) -> int:
    if not word.isdigit() or int(word) < 1:
        raise ObservationError(f"{line!r}: a seat number comes after the action, not {word!r}")
    return int(word)


def layout_path(game: str, data: str | None = None) -> Path:
    """Where the app's calibration keeps a game's layout: ``<data dir>/layouts/GAME.toml``."""
    return data_dir(data) / "layouts" / f"{game}.toml"


def run_live(start: TableStart, *, camera: str, layout: str | None, deck: str | None,
             data: str | None, show_from: Callable[[float], Callable[[Update], None]],
             entries: TextIO | None = None, clock: Clock = time.time) -> Update:
    """Referee a real table until the game is over, the entries end or ``quit``, telling
    ``show_from(start time)`` every update (times since the start are its to print); the game
    is kept in the store (so ``companion scores`` counts it) and the clock is wall time,
    so it resumes after a restart like the app's."""
    from vision.camera import open_camera
    from vision.layout import TableLayout
    from vision.profile import load_deck
    from vision.watcher import TableWatcher, profile_reader, standard_reader

    table_layout = TableLayout.load(layout or layout_path(start.game, data))
    reader = profile_reader(load_deck(deck, data)) if deck else standard_reader()
    with ExitStack() as stack:
        store = stack.enter_context(Store.open(data))
        conductor = Conductor.start(store, clock, start)
        conductor.listen(show_from(conductor.referee.events[0].t))
        watcher = TableWatcher(open_camera(camera), table_layout, reader, conductor.post, clock)
        stack.enter_context(watcher.start())
        stack.enter_context(_wired_buttons(conductor, clock))
        lines = _reader(sys.stdin if entries is None else entries)
        print(HELP, flush=True)
        update = conductor.step()
        ended = False
        while not (update.view.outcome.over or ended):
            for line in _ready(lines):
                ended = line is None or line.strip().lower() == "quit"
                if ended:
                    break
                _post_entry(conductor, str(line), clock())
            if watcher.failure is not None:
                raise watcher.failure
            update = conductor.step()
            time.sleep(0 if ended else STEP_SECONDS)
        return update


def _post_entry(conductor: Conductor, line: str, t: float) -> None:
    try:
        entry = parse_entry(line.strip(), t=t)
    except ObservationError as error:
        print(f"     not understood: {error}", flush=True)
        return
    if entry is not None:
        conductor.post(entry)


def _reader(entries: TextIO) -> queue.SimpleQueue[str | None]:
    """Lines typed, read on a thread so the loop never waits (None: the input ended)."""
    lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()

    def read() -> None:
        for line in entries:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, name="entries", daemon=True).start()
    return lines


def _ready(lines: queue.SimpleQueue[str | None]) -> Iterator[str | None]:
    while True:
        try:
            yield lines.get_nowait()
        except queue.Empty:
            return


def _wired_buttons(conductor: Conductor, clock: Clock) -> ExitStack:
    """The Pi's wired buttons, bridged to the conductor (nothing off the Pi: type them)."""
    from companion.config import load_config
    from companion.paths import config_path
    from hardware.bridge import ButtonBridge, SignalPlayer
    from hardware.factory import choose_pin_factory, gpio_present
    from hardware.pins import load_pin_map
    from hardware.table import Table

    stack = ExitStack()
    if not gpio_present():
        return stack
    path = config_path()
    pins = load_pin_map(load_config(path), path=str(path))
    table = stack.enter_context(Table(pins, choose_pin_factory()))
    conductor.listen(SignalPlayer.for_table(table, conductor.seating).listen)
    stack.enter_context(ButtonBridge(table.events, conductor.seating, conductor.post,
                                     clock).start())
    return stack
