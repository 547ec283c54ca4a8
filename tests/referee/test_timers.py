"""Timers as data: countdown warnings and expiry, stopwatch, on a manual clock."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.timers import EXPIRED, WARNING, Countdown, Stopwatch


def test_stand_timer_warns_each_of_the_last_ten_seconds_then_expires() -> None:
    timer = Countdown(started_at=5.0, duration=60.0, warnings=10)
    events = timer.due("stand", 1000.0)
    assert [e.kind for e in events] == [WARNING] * 10 + [EXPIRED]
    assert [e.t for e in events] == [55.0 + k for k in range(11)]
    assert [e.data["remaining"] for e in events] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert all(e.data["timer"] == "stand" for e in events)


def test_nothing_is_due_before_the_warnings() -> None:
    timer = Countdown(started_at=0.0, duration=60.0, warnings=10)
    assert timer.due("stand", 49.99) == []
    assert [e.t for e in timer.due("stand", 50.0)] == [50.0]


def test_logged_events_are_not_due_again() -> None:
    timer = Countdown(started_at=0.0, duration=60.0, warnings=10)
    first = timer.due("stand", 52.5)
    timer = timer.logged(first[-1])
    assert [e.t for e in timer.due("stand", 52.5)] == []
    assert [e.t for e in timer.due("stand", 53.0)] == [53.0]


def test_restart_starts_the_full_minute_again() -> None:
    timer = Countdown(started_at=0.0, duration=60.0, warnings=10)
    timer = timer.logged(timer.due("stand", 55.0)[-1]).restarted(55.5)
    assert timer.ends_at == 115.5
    assert timer.due("stand", 100.0) == []
    assert timer.due("stand", 115.5)[-1].kind == EXPIRED


def test_is_next_accepts_only_the_next_owed_event() -> None:
    timer = Countdown(started_at=0.0, duration=60.0, warnings=2)
    warning, *_ = timer.due("stand", 100.0)
    assert timer.is_next(warning)
    late = timer.due("stand", 100.0)[-1]
    assert not timer.is_next(late)


def test_short_countdown_warns_only_inside_its_span() -> None:
    timer = Countdown(started_at=0.0, duration=3.0, warnings=10)
    assert [e.data["remaining"] for e in timer.due("t", 3.0)] == [2, 1, 0]


def test_remaining_and_expired() -> None:
    timer = Countdown(started_at=10.0, duration=60.0)
    assert timer.remaining(40.0) == 30.0
    assert timer.remaining(100.0) == 0.0
    assert not timer.expired(69.9)
    assert timer.expired(70.0)


def test_stopwatch_runs_then_freezes() -> None:
    watch = Stopwatch(started_at=3.0)
    assert watch.running
    assert watch.elapsed(10.0) == 7.0
    stopped = watch.stop(20.0)
    assert not stopped.running
    assert stopped.elapsed(500.0) == 17.0


@settings(max_examples=60, deadline=None)
@given(start=st.floats(0, 1e6), duration=st.integers(1, 300), warnings=st.integers(0, 15),
       steps=st.lists(st.floats(0.01, 30), min_size=1, max_size=40))
def test_ticking_in_any_steps_logs_each_mark_once_in_order(
        start: float, duration: int, warnings: int, steps: list[float]) -> None:
    timer = Countdown(started_at=start, duration=float(duration), warnings=warnings)
    now, seen = start, []
    for step in [*steps, float(duration) + 1]:
        now += step
        for event in timer.due("t", now):
            assert timer.is_next(event)
            seen.append(event)
            timer = timer.logged(event)
    expected = timer.marks()
    assert [(e.t, e.data["remaining"]) for e in seen] == expected
    assert seen[-1].kind == EXPIRED
