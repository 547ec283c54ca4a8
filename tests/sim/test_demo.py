"""Demo mode: recorded games acted out on the simulated table, read back by the real pipeline."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine.clock import ManualClock
from companion.engine.conductor import Conductor, play_recorded
from companion.engine.observations import ButtonPress, Observation, Sighting, Tap
from companion.engine.store import Store
from companion.engine.view import Outcome
from companion.errors import ObservationError
from ui.demo import (
    CONFIRM_FRAMES,
    SETTLED_FRAMES,
    DemoClock,
    DemoDirector,
    load_recording,
    play_headless,
    simulated_demo,
)
from vision.layout import DEFAULT_LAYOUTS, TableLayout
from vision.simulated import SimulatedTable
from vision.smoothing import Smoother
from vision.watcher import TableWatcher, standard_reader

RECORDINGS = Path(__file__).parent / "recordings"
SHIPPED = Path(__file__).parent.parent.parent / "docs" / "observations"


def default_layout(game: str) -> TableLayout:
    make: Callable[[], TableLayout] = DEFAULT_LAYOUTS[game]
    return make()


class Timer:
    """Real time as the test says."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def director_of(observations: Sequence[Observation], timer: Timer,
                posted: list[Observation]) -> tuple[DemoDirector, DemoClock, SimulatedTable]:
    table = SimulatedTable(default_layout("medley"))
    clock = DemoClock(0.0, speed=10.0, timer=timer)
    director = DemoDirector(observations, table, posted.append, clock, confirm_timeout=5.0,
                            strict=True, timer=timer)
    return director, clock, table


def test_sightings_become_cards_and_the_clock_waits_for_the_pipeline() -> None:
    timer, posted = Timer(), list[Observation]()
    placed = Sighting("placed", "7h", "cell-4", 1.0)
    press = ButtonPress(None, "press", 2.0)
    director, clock, table = director_of([placed, press], timer, posted)
    timer.now = 0.05  # recorded time 0.5
    director.tick()
    assert not table.placements and clock() == 0.5
    timer.now = 0.2  # recorded 2.0, but held at the card's time until it is seen
    director.tick()
    assert [(seen.card, seen.zone) for seen in table.placements] == [("7h", "cell-4")]
    assert clock() == 1.0 and posted == [] and not director.done
    timer.now = 0.3
    director.relay(replace(placed, t=1.0))  # the watcher confirms the card
    director.tick()  # the wait ends; the time stays for the conductor to take the sighting
    assert posted == [replace(placed, t=1.0)] and clock() == 1.0
    timer.now = 0.4
    director.tick()  # the time runs again from here: the wait is not counted
    assert clock() == 1.0
    timer.now = 0.5
    director.tick()
    assert posted[-1] == press and clock() == pytest.approx(2.0)
    assert director.done and director.report.confirmed == 1


def test_a_change_the_pipeline_misses_is_posted_as_recorded_after_the_timeout() -> None:
    timer, posted = Timer(), list[Observation]()
    placed = Sighting("placed", "Qs", "cell-0", 0.0)
    director, _, _ = director_of([placed, Tap("close", 0.5)], timer, posted)
    director.tick()
    director.relay(Sighting("placed", "Qd", "cell-1", 0.0))  # elsewhere: not the change
    timer.now = 6.0
    director.tick()
    for real in (6.1, 6.2):
        timer.now = real
        director.tick()
    assert posted == [Sighting("placed", "Qd", "cell-1", 0.0), placed, Tap("close", 0.5)]
    assert director.report.missed == ["placed Qs in cell-0"]
    assert director.report.surprises == ["placed Qd in cell-1"]


def test_a_change_seen_under_another_name_is_a_misread_that_ends_the_wait() -> None:
    timer, posted = Timer(), list[Observation]()
    placed = Sighting("placed", "Qs", "cell-0", 0.0)
    misread = Sighting("placed", "Qd", "cell-0", 0.0)
    table = SimulatedTable(default_layout("medley"))
    clock = DemoClock(0.0, speed=10.0, timer=timer)
    director = DemoDirector([placed], table, posted.append, clock, timer=timer)
    director.tick()
    director.relay(misread)
    director.tick()
    assert director.done and posted == [placed]  # the recorded card goes on, at once
    assert director.report.misread == ["placed Qs in cell-0 read as Qd"]
    assert director.report.missed == [] and director.report.confirmed == 0


def test_a_card_seen_leaving_for_where_it_is_misread_is_a_misread() -> None:
    timer, posted = Timer(), list[Observation]()
    steps = [Sighting("placed", "Ks", "cell-5", 0.0),
             Sighting("moved", "Ks", "discard", 1.0, from_zone="cell-5")]
    director, _, _ = director_of(steps, timer, posted)
    director.tick()
    director.relay(steps[0])
    director.tick()
    for real in (0.1, 0.2):
        timer.now = real
        director.tick()
    director.relay(Sighting("removed", "Ks", "cell-5", 1.0))  # gone; read as another card
    director.tick()
    assert director.done and director.report.misread == [
        "moved Ks in discard seen leaving cell-5"]


def test_a_trick_swept_at_once_is_one_wait_and_a_card_laid_where_it_lies_is_no_change() -> None:
    timer, posted = Timer(), list[Observation]()
    steps = [Sighting("placed", "Kd", "trick", 0.0), Sighting("placed", "7h", "trick", 0.0),
             Sighting("placed", "7h", "trick", 0.0), Sighting("removed", "Kd", "trick", 0.0),
             Sighting("removed", "7h", "trick", 0.1)]
    table = SimulatedTable(default_layout("trick"))
    director = DemoDirector(steps, table, posted.append, DemoClock(0.0, speed=10.0, timer=timer),
                            timer=timer)
    for step in steps[:2]:
        director.tick()
        director.relay(step)
        director.tick()
    director.tick()  # laid again where it lies: posted at once, nothing awaited
    assert posted == steps[:3] and director.report.unseen == ["placed 7h in trick"]
    timer.now = 0.1
    director.tick()  # both cards go in one sweep
    assert table.placements == () and not director.done
    director.relay(steps[4])
    director.relay(steps[3])
    director.tick()
    assert director.done and posted[3:] == [steps[4], steps[3]]
    assert director.report.confirmed == 4 and director.report.missed == []


def test_a_card_taken_from_under_another_is_posted_at_once() -> None:
    timer, posted = Timer(), list[Observation]()
    steps = [Sighting("placed", "Kd", "cell-4", 0.0), Sighting("placed", "7h", "cell-4", 0.0),
             Sighting("removed", "Kd", "cell-4", 0.0)]
    director, _, table = director_of(steps, timer, posted)
    for step in steps[:2]:
        director.tick()
        director.relay(step)
        director.tick()
    director.tick()
    assert [p.card for p in table.placements] == ["7h"] and posted == steps
    assert director.done and director.report.unseen == ["removed Kd in cell-4"]


def test_a_card_seen_moving_into_its_zone_confirms_its_placing() -> None:
    timer, posted = Timer(), list[Observation]()
    placed = Sighting("placed", "Qd", "cell-0", 0.0)
    table = SimulatedTable(default_layout("medley"))
    clock = DemoClock(0.0, speed=10.0, timer=timer)
    director = DemoDirector([placed], table, posted.append, clock, timer=timer)
    director.tick()
    director.relay(Sighting("moved", "Qd", "cell-0", 0.0, from_zone="cell-1"))
    assert posted == [placed] and director.report.confirmed == 1


def test_dice_seen_together_are_one_throw_and_a_reroll_replaces_one_die() -> None:
    timer, posted = Timer(), list[Observation]()
    rolls = [Sighting("rolled", "die", "dice", t, value=value) for t, value in ((1.0, 2), (1.3, 6))]
    reroll = Sighting("rolled", "die", "dice", 3.0, value=4)
    director, _, table = director_of([*rolls, reroll], timer, posted)
    timer.now = 0.1
    director.tick()
    assert table.dice == (2, 6)
    for roll in rolls:
        director.relay(roll)
    for real in (0.1, 0.2, 0.3, 0.4):
        timer.now = real
        director.tick()
    assert table.dice == (2, 4)


def test_a_recording_that_cannot_be_read_is_an_observation_error(tmp_path: Path) -> None:
    with pytest.raises(ObservationError, match="cannot read the recording"):
        load_recording(tmp_path / "absent.jsonl")


def test_a_sighting_the_table_cannot_show_names_its_time() -> None:
    timer, posted = Timer(), list[Observation]()
    director, _, _ = director_of([Sighting("removed", "Kd", "cell-1", 0.0)], timer, posted)
    with pytest.raises(ObservationError, match=r"t=0.0: cannot act it out: card 'Kd' is not"):
        director.tick()


@pytest.mark.parametrize("game", ["trick", "solitaire", "medley"])
def test_the_pipeline_reads_back_every_recorded_sighting(game: str) -> None:
    """Each recorded change laid on the table is seen by the real pipeline as recorded."""
    _, observations = load_recording(RECORDINGS / f"{game}.jsonl")
    table = SimulatedTable(default_layout(game), seed=3)
    clock = DemoClock(0.0, speed=40.0)
    posted: list[Observation] = []
    director = DemoDirector(observations, table, posted.append, clock, strict=True)
    layout = table.layout.calibrated(table.calibration())
    with TableWatcher(table, layout, standard_reader(), director.relay, clock,
                      smoother=Smoother()).start():
        deadline = time.monotonic() + 30
        while not director.done and time.monotonic() < deadline:
            director.tick()
            time.sleep(0.01)
    assert director.done
    assert director.report.missed == [] and director.report.surprises == []
    assert director.report.confirmed == len(observations)
    assert [(s.kind, s.card, s.zone) for s in posted if isinstance(s, Sighting)] == [
        (s.kind, s.card, s.zone) for s in observations if isinstance(s, Sighting)
    ]


def recorded_outcome(recording: Path) -> Outcome:
    """The outcome of a recording fed straight to the conductor (as ``companion play``)."""
    start, observations = load_recording(recording)
    clock = ManualClock(start.t)
    conductor = Conductor.start(Store(":memory:"), clock, start)
    list(play_recorded(conductor, clock, observations))
    return conductor.view.outcome


@pytest.mark.parametrize("game", ["21x", "21x-solo"])
def test_a_21x_demo_ends_as_the_recorded_game_does(game: str, tmp_path: Path) -> None:
    recording = SHIPPED / f"{game}.jsonl"
    demo = simulated_demo(recording, Store(":memory:"), speed=40.0, data=tmp_path)
    update = play_headless(demo, timeout=60)
    report = demo.director.report
    assert report.missed == [] and report.surprises == []
    assert update.view.outcome == recorded_outcome(recording)
    assert update.view.outcome.over


def test_a_change_is_missed_only_once_the_pipeline_read_enough_frames_since() -> None:
    timer, posted, frames = Timer(), list[Observation](), [0]
    placed = Sighting("placed", "Qs", "cell-0", 0.0)
    table = SimulatedTable(default_layout("medley"))
    director = DemoDirector([placed], table, posted.append,
                            DemoClock(0.0, speed=10.0, timer=timer), confirm_timeout=3.0,
                            timer=timer, frames=lambda: frames[0])
    director.tick()
    timer.now, frames[0] = 10.0, CONFIRM_FRAMES - 1  # a loaded machine: few frames read
    director.tick()
    assert posted == [] and not director.done
    frames[0] = CONFIRM_FRAMES
    director.tick()
    assert posted == [placed] and director.report.missed == ["placed Qs in cell-0"]


def test_a_change_the_pipeline_settled_without_is_given_up_at_once() -> None:
    timer, posted, settled = Timer(), list[Observation](), list[int | None]([None])
    placed = Sighting("placed", "10h", "corner-1", 0.0)
    director = DemoDirector([placed], SimulatedTable(default_layout("medley")), posted.append,
                            DemoClock(0.0, speed=10.0, timer=timer), confirm_timeout=3.0,
                            timer=timer, frames=lambda: 0, settled=lambda: settled[0])
    director.tick()
    timer.now, settled[0] = 0.1, SETTLED_FRAMES - 1  # a frame read before the vote ended
    director.tick()
    assert posted == [] and not director.done
    timer.now, settled[0] = 0.2, SETTLED_FRAMES  # looked at, voted, nothing pending
    director.tick()
    assert posted == [placed] and director.report.missed == ["placed 10h in corner-1"]


def test_each_die_of_a_throw_is_posted_once_with_its_recorded_value() -> None:
    timer, posted = Timer(), list[Observation]()
    rolls = [Sighting("rolled", "die", "dice", t, value=value) for t, value in ((0.0, 2), (0.3, 6))]
    director = DemoDirector(rolls, SimulatedTable(default_layout("medley")), posted.append,
                            DemoClock(0.0, speed=10.0, timer=timer), timer=timer)
    director.tick()
    director.relay(replace(rolls[1], t=0.0))  # the pipeline confirms the six first
    director.relay(replace(rolls[0], t=0.0))
    director.tick()
    assert posted == [rolls[1], rolls[0]] and director.done
