"""Temporal smoothing: flicker never reaches the log; appear/vanish delays; moves; dice rolls;
and the whole path from a camera replay to dice rolls."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.clock import ManualClock
from tests.image_files import image_at
from vision.camera import CameraFeed, Frame, ReplayCamera
from vision.dice import find_dice
from vision.layout import Calibration, TableLayout, Zone
from vision.observations import CardObservation, DieObservation
from vision.smoothing import Smoother, TableChange

FRAME = 0.1  # seconds between frames: 10 fps


def card(
    name: str, zone: str | None = "trick", at: tuple[float, float] = (100.0, 100.0)
) -> CardObservation:
    return CardObservation(name, at, at, 0.9, zone=zone)


def die(value: int, at: tuple[float, float] = (300.0, 200.0), zone: str = "dice") -> DieObservation:
    return DieObservation(value, at, 0.9, zone=zone)


def pips(change: TableChange) -> int:
    """The value of a change of a die (which always has one)."""
    assert change.value is not None
    return change.value


def run(
    smoother: Smoother,
    frames: Sequence[Sequence[CardObservation | DieObservation]],
    start: float = 0.0,
) -> list[tuple[float, TableChange]]:
    """Feed frames at 10 fps; the changes with the frame time at which each was reported."""
    reported: list[tuple[float, TableChange]] = []
    for number, frame in enumerate(frames):
        now = round(start + number * FRAME, 6)
        reported.extend((now, change) for change in smoother.update(frame, now))
    return reported


def test_a_card_is_placed_after_appear_after_with_its_true_time() -> None:
    reported = run(Smoother(0.3, 0.7), [[card("Kd")]] * 5)
    assert [(now, c.kind, c.card, c.zone, c.t) for now, c in reported] == [
        (0.3, "placed", "Kd", "trick", 0.0)
    ]


def test_a_card_is_removed_after_vanish_after_with_the_time_it_went() -> None:
    frames = [[card("Kd")]] * 5 + [[]] * 10
    reported = run(Smoother(0.3, 0.7), frames)
    assert [(now, c.kind, c.zone, c.t) for now, c in reported] == [
        (0.3, "placed", "trick", 0.0),
        (1.2, "removed", "trick", 0.5),
    ]


def test_one_frame_ghosts_and_dropouts_are_suppressed() -> None:
    ghost = [card("Qs", at=(400.0, 50.0))]
    present = [card("Kd")]
    frames = (
        [present] * 6
        + [present + ghost]
        + [present] * 3
        + [[]]
        + [present] * 3
        + [[]] * 2
        + [present] * 5
    )
    reported = run(Smoother(0.3, 0.7), frames)
    assert [(c.kind, c.card) for _, c in reported] == [("placed", "Kd")]


@given(st.lists(st.booleans(), min_size=1, max_size=60))
@settings(max_examples=80, deadline=None)
def test_a_detection_never_held_for_appear_after_is_never_reported(seen: list[bool]) -> None:
    """Any on/off pattern whose runs of 'on' are shorter than 0.3 s and separated by at least
    0.3 s of 'off' produces nothing at all."""
    pattern: list[bool] = []
    for flag in seen:
        pattern += [True, True] if flag else [False, False, False]
    if any(pattern[i] and pattern[i + 1] and pattern[i + 2] for i in range(len(pattern) - 2)):
        return
    frames = [[card("5c")] if on else [] for on in pattern]
    assert run(Smoother(0.3, 0.7), frames) == []


def test_a_card_moving_to_another_zone_is_reported_once_it_settles() -> None:
    frames = [[card("7h", "player-1")]] * 5 + [[card("7h", "trick", at=(200, 200))]] * 5
    reported = run(Smoother(0.3, 0.7), frames)
    assert [(now, c.kind, c.from_zone, c.zone, c.t) for now, c in reported] == [
        (0.3, "placed", None, "player-1", 0.0),
        (0.8, "moved", "player-1", "trick", 0.5),
    ]


def test_a_card_wobbling_on_a_zone_border_does_not_move() -> None:
    zones = ["grid-1-1", "grid-1-1", "grid-1-2", "grid-1-1", "grid-1-2", "grid-1-1"] * 3
    frames = [[card("9d", zone)] for zone in zones]
    reported = run(Smoother(0.3, 0.7), frames)
    assert [(c.kind, c.zone) for _, c in reported] == [("placed", "grid-1-1")]


def test_a_card_lifted_and_put_down_elsewhere_quickly_is_a_move_not_a_removal() -> None:
    frames = [[card("Jc", "player-2")]] * 5 + [[]] * 3 + [[card("Jc", "trick")]] * 5
    reported = run(Smoother(0.3, 0.7), frames)
    assert [(c.kind, c.zone) for _, c in reported] == [("placed", "player-2"), ("moved", "trick")]


def test_two_jokers_are_told_apart_by_position() -> None:
    left, right = (100.0, 100.0), (500.0, 100.0)
    both = [card("JK", "corner-nw", left), card("JK", "corner-ne", right)]
    swapped_order = [both[1], both[0]]
    frames = [both] * 4 + [swapped_order] * 4 + [[both[0]]] * 10
    reported = run(Smoother(0.3, 0.7), frames)
    assert [(c.kind, c.card, c.zone) for _, c in reported] == [
        ("placed", "JK", "corner-nw"),
        ("placed", "JK", "corner-ne"),
        ("removed", "JK", "corner-ne"),
    ]


def test_a_die_is_rolled_when_its_value_holds() -> None:
    tumbling = [[die(v, (300 + 5 * i, 200))] for i, v in enumerate([2, 5, 3, 6])]
    frames = tumbling + [[die(4, (318, 200))]] * 5
    reported = run(Smoother(0.3, 0.7), frames)
    assert [(now, c.kind, c.card, c.value, c.t) for now, c in reported] == [
        (0.7, "rolled", "die", 4, 0.4)
    ]


def test_a_die_rerolled_in_place_reports_the_new_value_only_when_settled() -> None:
    frames = [[die(3), die(5, (500, 200))]] * 5 + [[die(1), die(5, (500, 200))]] * 2
    frames += [[die(6), die(5, (500, 200))]] * 5
    reported = run(Smoother(0.3, 0.7), frames)
    assert [(c.kind, c.value, c.center) for _, c in reported] == [
        ("rolled", 3, (300.0, 200.0)),
        ("rolled", 5, (500.0, 200.0)),
        ("rolled", 6, (300.0, 200.0)),
    ]


def test_changes_become_log_events() -> None:
    reported = run(Smoother(0.3, 0.7), [[card("10h", "column-2")]] * 4)
    event = reported[0][1].to_event()
    assert (event.kind, event.t) == ("placed", 0.0)
    assert event.data == {"card": "10h", "zone": "column-2", "center": [100.0, 100.0]}


def test_on_table_lists_what_is_confirmed() -> None:
    smoother = Smoother(0.3, 0.7)
    steady: list[CardObservation | DieObservation] = [card("Ah"), die(2)]
    run(smoother, [steady] * 4 + [[card("Ah"), die(2), card("3s", at=(9, 9))]])
    assert sorted((c.kind, c.card) for c in smoother.on_table) == [
        ("placed", "Ah"),
        ("rolled", "die"),
    ]


def test_time_must_not_go_backwards() -> None:
    smoother = Smoother()
    smoother.update([], 5.0)
    with pytest.raises(ValueError, match="backwards"):
        smoother.update([], 4.0)


def test_from_camera_replay_to_dice_rolls(shared_data: Path) -> None:
    """Replayed photos through the dice reader, the layout and the smoother, at 10 fps."""
    photos = shared_data / "dice" / "photos"
    three_ones = image_at(photos / "dice_30.jpg")
    five_threes = image_at(photos / "three_45.jpg")
    empty_table = np.full_like(three_ones, 180)
    frames = [three_ones] * 6 + [empty_table] + [three_ones] * 3 + [five_threes] * 10
    clock = ManualClock()
    camera = ReplayCamera.of_frames(frames, fps=10.0, clock=clock, sleep=clock.advance)
    corners = [(0.0, 0.0), (640.0, 0.0), (640.0, 480.0), (0.0, 480.0)]
    tray = TableLayout(
        "tray",
        640.0,
        480.0,
        (Zone.rectangle("dice", 0, 0, 640, 480, "dice"),),
        Calibration.from_points(corners, corners),
    )
    smoother = Smoother(0.3, 0.7)
    changes: list[TableChange] = []
    with CameraFeed(lambda: camera, clock=clock, sleep=clock.advance) as feed:
        for item in feed:
            assert isinstance(item, Frame)
            changes += smoother.update(tray.assign(find_dice(item.image)), item.t)
    rolled = [(pips(c), c.t) for c in changes if c.kind == "rolled"]
    assert rolled[:3] == [(1, 0.0)] * 3  # the empty frame at 0.6 s is no re-roll
    assert sorted(v for v, _ in rolled[3:]) == [3] * 5
    assert all(t == pytest.approx(1.0) for _, t in rolled[3:])
    assert [c.kind for c in changes].count("removed") == 2  # the third 1 was re-rolled in place
    assert all(c.zone == "dice" for c in changes)
    assert sorted(pips(c) for c in smoother.on_table) == [3] * 5
