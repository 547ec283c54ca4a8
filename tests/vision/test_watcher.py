"""The table watcher: simulated frames through the real readers, smoother and zones."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import numpy as np
import pytest

from companion.engine.clock import ManualClock
from companion.engine.observations import CameraStatus, Observation, Sighting
from companion.errors import DeviceError
from vision.camera import Camera
from vision.layout import DEFAULT_LAYOUTS, LayoutError, TableLayout
from vision.simulated import SimulatedTable, builtin_expressions, simulated_deck
from vision.smoothing import Smoother
from vision.watcher import CardReader, TableWatcher, profile_reader, standard_reader


def default_layout(game: str) -> TableLayout:
    make: Callable[[], TableLayout] = DEFAULT_LAYOUTS[game]
    return make()


class TableCamera(Camera):
    """A camera over a simulated table (the watcher's tests give it other behaviours)."""

    description = "camera over a simulated table"

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table

    def read(self) -> np.ndarray:
        return self.table.read()

    def close(self) -> None:
        return None


class Run:
    """A watcher over a simulated table, fed frame by frame on a manual clock."""

    def __init__(
        self,
        game: str,
        reader: CardReader | None = None,
        seed: int = 1,
        hands: Literal["row", "fan"] = "row",
    ) -> None:
        self.table = SimulatedTable(default_layout(game), seed=seed, hands=hands)
        self.clock = ManualClock()
        self.posted: list[Observation] = []
        layout = self.table.layout.calibrated(self.table.calibration())
        self.watcher = TableWatcher(
            self.table, layout, reader or standard_reader(), self.posted.append, self.clock,
            smoother=Smoother(appear_after=0.2, vanish_after=0.4), timer=self.clock,
        )

    def frames(self, count: int = 4) -> list[tuple[str, str, str | None, int | None]]:
        """Feed ``count`` frames 0.1 s apart; the sightings they posted."""
        start = len(self.posted)
        for _ in range(count):
            self.watcher.process(self.table.read(), self.clock())
            self.clock.advance(0.1)
        return [
            (seen.kind, seen.card, seen.zone, seen.value)
            for seen in self.posted[start:]
            if isinstance(seen, Sighting)
        ]


def test_a_card_placed_moved_and_removed_is_posted_once_each() -> None:
    run = Run("trick")
    seat = next(zone.name for zone in run.table.layout.zones if zone.kind == "player")
    run.table.place("9s", seat)
    assert run.frames() == [("placed", "9s", seat, None)]
    assert run.frames() == []
    run.table.move("9s", "trick")
    assert run.frames() == [("moved", "9s", "trick", None)]
    run.table.remove("9s")
    assert run.frames(6) == [("removed", "9s", "trick", None)]
    preview = run.watcher.latest()
    assert preview is not None and preview.frame.shape == (720, 1280, 3)


def test_a_card_covered_in_a_column_is_not_removed() -> None:
    run = Run("solitaire")
    run.table.place("Kd", "column-0")
    assert run.frames() == [("placed", "Kd", "column-0", None)]
    for card in ("7h", "3c", "9s"):
        run.table.place(card, "column-0")
        assert run.frames(6) == [("placed", card, "column-0", None)]
    preview = run.watcher.latest()
    assert preview is not None
    assert {outline.card for outline in preview.outlines} == {"Kd", "7h", "3c", "9s"}


def test_dice_rolled_in_the_tray_are_posted_with_their_values() -> None:
    run = Run("medley")
    run.table.roll([2, 5])
    assert sorted(run.frames()) == [("rolled", "die", "dice", 2), ("rolled", "die", "dice", 5)]
    run.table.roll([])
    assert sorted(run.frames(6)) == [("removed", "die", "dice", 2), ("removed", "die", "dice", 5)]


def test_21x_cards_are_read_through_a_deck_taught_from_the_simulator(tmp_path: Path) -> None:
    expressions = builtin_expressions()
    profile = simulated_deck(expressions, list(expressions), data=tmp_path)
    assert simulated_deck(expressions, list(expressions), data=tmp_path).faces.keys() == \
        profile.faces.keys()  # the second time from the cache
    run = Run("21x", profile_reader(profile))
    seats = [zone.name for zone in run.table.layout.zones if zone.kind == "player"]
    for seat, card in zip(seats, ["6x", "x/2", "prime", "fib"], strict=True):
        run.table.place(card, seat)
    assert sorted(run.frames()) == sorted(
        ("placed", card, seat, None) for seat, card in zip(seats, ["6x", "x/2", "prime", "fib"],
                                                           strict=True)
    )


def test_fanned_21x_hands_are_read_card_by_card_into_their_seats(tmp_path: Path) -> None:
    expressions = builtin_expressions()
    run = Run("21x", profile_reader(simulated_deck(expressions, list(expressions),
                                                   data=tmp_path)), hands="fan")
    seats = [zone.name for zone in run.table.layout.zones if zone.kind == "player"]
    hands = {seats[0]: ["6x", "x/2", "prime"], seats[1]: ["fib", "2x+4", "triangle"]}
    for seat, cards in hands.items():
        for card in cards:
            run.table.place(card, seat)
    assert sorted(run.frames()) == sorted(
        ("placed", card, seat, None) for seat, cards in hands.items() for card in cards
    )
    shown = sorted(round(card.visible_fraction, 1) for card in run.table.truth())
    assert shown == [0.5, 0.5, 0.5, 0.5, 1.0, 1.0]  # two cards of each hand show a strip


def test_the_thread_posts_sightings_and_camera_loss_without_blocking() -> None:
    table = SimulatedTable(default_layout("trick"), seed=3)
    posted: queue.Queue[Observation] = queue.Queue()
    layout = table.layout.calibrated(table.calibration())
    clock = ManualClock()
    with TableWatcher(table, layout, standard_reader(), posted.put, clock,
                      smoother=Smoother(appear_after=0.0, vanish_after=0.0)).start() as watcher:
        table.place("Qs", "trick")
        seen = posted.get(timeout=10)
        assert isinstance(seen, Sighting) and (seen.kind, seen.card) == ("placed", "Qs")
        table.close()  # the camera fails: lost, reopened, back
        statuses = [posted.get(timeout=10) for _ in range(2)]
        assert [s.lost for s in statuses if isinstance(s, CameraStatus)] == [True, False]
        read_before = watcher.frames_read
        deadline = time.monotonic() + 10
        while watcher.frames_read < read_before + 2 and time.monotonic() < deadline:
            time.sleep(0.01)  # frames flow again after the camera is back
        assert watcher.fps > 0
    assert watcher.latest() is not None


def test_an_uncalibrated_layout_is_refused() -> None:
    table = SimulatedTable(default_layout("trick"))
    with pytest.raises(LayoutError, match="not calibrated"):
        TableWatcher(table, table.layout, standard_reader(), print, ManualClock())


def test_a_camera_opener_runs_on_the_watcher_s_thread_and_its_failure_is_posted() -> None:
    table = SimulatedTable(default_layout("trick"), seed=3)
    layout = table.layout.calibrated(table.calibration())
    opened_on: list[str] = []

    def opener() -> Camera:
        opened_on.append(threading.current_thread().name)
        raise DeviceError("no camera found")

    posted: queue.Queue[Observation] = queue.Queue()
    watcher = TableWatcher(opener, layout, standard_reader(), posted.put, ManualClock())
    with watcher.start():
        status = posted.get(timeout=10)
    assert opened_on == ["table-watcher"]
    assert isinstance(status, CameraStatus) and (status.lost, status.reason) == (
        True, "no camera found")
    assert isinstance(watcher.failure, DeviceError)


def test_a_watcher_stopped_without_waiting_releases_its_camera_before_the_next_opens() -> None:
    """The UI stops a watcher whose camera may still be opening without waiting for it;
    the next watcher's thread opens its camera only once the first has let go of its own."""
    table = SimulatedTable(default_layout("trick"), seed=3)
    layout = table.layout.calibrated(table.calibration())
    opening = threading.Event()
    events: list[str] = []

    class Slow(TableCamera):
        def close(self) -> None:
            events.append("first closed")

    def slow_opener() -> Camera:
        opening.wait(10)  # a Pi camera takes about a second to open
        events.append("first opened")
        return Slow(table)

    def second_opener() -> Camera:
        events.append("second opened")
        return table

    first = TableWatcher(slow_opener, layout, standard_reader(), lambda _o: None, ManualClock())
    first.start()
    started = time.perf_counter()
    first.stop(wait=False)
    assert time.perf_counter() - started < 1.0  # did not wait for the camera to open
    second = TableWatcher(second_opener, layout, standard_reader(), lambda _o: None,
                          ManualClock())
    second.start(after=first)
    opening.set()
    second.stop()
    assert events == ["first opened", "first closed", "second opened"]


def test_recalibrating_reaches_the_camera_on_the_watcher_s_thread() -> None:
    """Zone calibration lets the camera's automatic exposure run again; the call reaches the
    camera from the watcher's own thread, and one the camera refuses stops nothing."""
    table = SimulatedTable(default_layout("trick"), seed=3)
    layout = table.layout.calibrated(table.calibration())
    recalibrated_on: list[str] = []

    class Automatic(TableCamera):
        def recalibrate(self) -> None:
            recalibrated_on.append(threading.current_thread().name)
            if len(recalibrated_on) == 2:
                raise DeviceError("camera: cannot restart automatic exposure")

    watcher = TableWatcher(lambda: Automatic(table), layout, standard_reader(), lambda _o: None,
                           ManualClock())
    with watcher.start():
        for expected in (1, 2):
            watcher.recalibrate()
            deadline = time.monotonic() + 10
            while len(recalibrated_on) < expected and time.monotonic() < deadline:
                time.sleep(0.01)
        frames = watcher.frames_read
        deadline = time.monotonic() + 10
        while watcher.frames_read == frames and time.monotonic() < deadline:
            time.sleep(0.01)
        assert watcher.frames_read > frames  # still watching after the refusal
    assert recalibrated_on == ["table-watcher", "table-watcher"]
    assert watcher.failure is None


def test_the_watcher_is_settled_once_a_change_is_voted_on_and_smoothed() -> None:
    run = Run("trick")
    run.frames(4)
    assert run.watcher.settled_at == 4  # an empty table: nothing pending
    run.table.place("Qs", "trick")
    run.frames(1)
    assert run.watcher.settled_at is None  # the change is being voted on
    placed = run.frames(4)
    assert [kind for kind, *_ in placed] == ["placed"] and run.watcher.settled_at == 9


def test_two_cards_of_one_name_are_remembered_apart_on_a_pile() -> None:
    from vision.observations import CardObservation
    from vision.watcher import CoverMemory

    def card(name: str, x: float) -> CardObservation:
        corners = ((x - 30, 0.0), (x + 30, 0.0), (x + 30, 80.0), (x - 30, 80.0))
        return CardObservation(name, (x, 40.0), (x - 25, 5.0), 0.9, corners)

    memory = CoverMemory()

    def shown(*seen: CardObservation) -> list[tuple[str, float]]:
        return sorted((c.card, c.center[0]) for c in memory.update(list(seen)))

    assert shown(card("JK", 100)) == [("JK", 100)]  # a joker on the discard pile
    assert shown(card("Ks", 100)) == [("JK", 100), ("Ks", 100)]  # a king on top of it
    # the other joker laid in a cell: both jokers are on the table
    assert shown(card("Ks", 100), card("JK", 400)) == [("JK", 100), ("JK", 400), ("Ks", 100)]
    # and moved onto the pile: on top of the king and the first joker
    assert shown(card("JK", 101)) == [("JK", 100), ("JK", 101), ("Ks", 100)]
    memory.forget("JK")  # a joker taken away: one not in view
    assert shown(card("JK", 101)) == [("JK", 101), ("Ks", 100)]
