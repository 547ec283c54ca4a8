"""The button panel on explicit edge times: press, hold, chatter, fair lockout, release."""

from __future__ import annotations

import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.buttons import ButtonEvent, ButtonPanel, ButtonSpec, HoldTimer, drain

P1, P2, P3 = (ButtonSpec(f"player {n}", n, "call") for n in (1, 2, 3))
REFEREE = ButtonSpec("referee", None, "referee")


def panel(*specs: ButtonSpec, hold: float = 1.0, bounce: float = 0.03) -> ButtonPanel:
    return ButtonPanel(specs or (P1, P2, P3, REFEREE), hold_time=hold, bounce_time=bounce)


def summary(events: list[ButtonEvent]) -> list[tuple[object, ...]]:
    return [(e.button, e.action, e.t, e.rank, e.late_ms) for e in events]


def test_a_short_press_is_a_call_decided_on_release_timed_by_the_press() -> None:
    buttons = panel()
    buttons.edge("player 1", 10.0, True)
    buttons.poll(10.5)
    assert buttons.events.empty()
    buttons.edge("player 1", 10.6, False)
    assert summary(drain(buttons.events)) == [("player 1", "call", 10.0, 1, 0.0)]
    assert buttons.lockout.locked


def test_a_hold_is_one_stand_at_hold_time_and_never_a_call() -> None:
    buttons = panel()
    buttons.edge("player 2", 3.0, True)
    buttons.poll(3.999)
    assert buttons.next_deadline() == 4.0 and buttons.events.empty()
    buttons.poll(4.0)
    assert summary(drain(buttons.events)) == [("player 2", "stand", 3.0, None, None)]
    buttons.poll(6.0)
    buttons.edge("player 2", 7.0, False)
    assert buttons.events.empty() and not buttons.lockout.locked


def test_a_hold_noticed_only_at_release_is_still_a_stand() -> None:
    buttons = panel()
    buttons.edge("player 2", 3.0, True)
    buttons.edge("player 2", 4.2, False)
    assert summary(drain(buttons.events)) == [("player 2", "stand", 3.0, None, None)]


def test_contact_chatter_gives_one_press() -> None:
    buttons = panel()
    t = 1.0
    for level in [True, False, True, False, True, False, True]:  # bounces over 6 ms
        buttons.edge("player 1", t, level)
        t += 0.001
    buttons.edge("player 1", 1.2, False)
    for level in [True, False]:  # release bounce
        buttons.edge("player 1", 1.201, level)
    buttons.poll(2.5)
    assert summary(drain(buttons.events)) == [("player 1", "call", 1.0, 1, 0.0)]


def test_a_tap_shorter_than_the_bounce_window_settles_to_a_call() -> None:
    buttons = panel()
    buttons.edge("player 3", 5.0, True)
    buttons.edge("player 3", 5.01, False)  # inside the 30 ms window: held back
    assert buttons.events.empty() and buttons.next_deadline() == 5.03
    buttons.poll(5.03)
    assert summary(drain(buttons.events)) == [("player 3", "call", 5.0, 1, 0.0)]


def test_the_earliest_press_wins_even_when_decided_last() -> None:
    buttons = panel()
    buttons.edge("player 3", 2.000, True)
    buttons.edge("player 1", 2.004, True)
    buttons.edge("player 2", 2.0015, True)
    buttons.edge("player 1", 2.1, False)
    buttons.edge("player 2", 2.2, False)
    assert buttons.events.empty()  # player 3 pressed first and may still call
    buttons.edge("player 3", 2.3, False)
    assert summary(drain(buttons.events)) == [
        ("player 3", "call", 2.0, 1, 0.0),
        ("player 2", "call", 2.0015, 2, 1.5),
        ("player 1", "call", 2.004, 3, 4.0),
    ]


def test_an_earlier_press_that_becomes_a_stand_lets_the_call_through() -> None:
    buttons = panel()
    buttons.edge("player 1", 0.0, True)
    buttons.edge("player 2", 0.5, True)
    buttons.edge("player 2", 0.6, False)
    assert buttons.events.empty()
    buttons.poll(1.0)
    assert summary(drain(buttons.events)) == [
        ("player 1", "stand", 0.0, None, None),
        ("player 2", "call", 0.5, 1, 0.0),
    ]


def test_lockout_holds_until_release_and_places_each_player_once() -> None:
    buttons = panel()
    for t, name in [(1.0, "player 1"), (1.5, "player 2"), (2.0, "player 1")]:
        buttons.edge(name, t, True)
        buttons.edge(name, t + 0.1, False)
    assert summary(drain(buttons.events)) == [
        ("player 1", "call", 1.0, 1, 0.0),
        ("player 2", "call", 1.5, 2, 500.0),
    ]
    order = buttons.release()
    assert [p.buzz.player for p in order] == [1, 2] and not buttons.lockout.locked
    buttons.edge("player 2", 3.0, True)
    buttons.edge("player 2", 3.1, False)
    assert summary(drain(buttons.events)) == [("player 2", "call", 3.0, 1, 0.0)]


def test_a_stand_button_makes_both_buttons_act_on_press() -> None:
    stand = ButtonSpec("player 1 stand", 1, "stand")
    buttons = panel(P1, stand)
    buttons.edge("player 1 stand", 1.0, True)
    buttons.edge("player 1", 2.0, True)
    assert buttons.next_deadline() == 2.005
    buttons.poll(2.005)
    assert summary(drain(buttons.events)) == [
        ("player 1 stand", "stand", 1.0, None, None),
        ("player 1", "call", 2.0, 1, 0.0),
    ]
    buttons.poll(10.0)  # holding the call button is no stand
    assert buttons.events.empty()


def test_on_press_calls_are_ordered_by_edge_time_within_the_grace() -> None:
    specs = [ButtonSpec(f"player {n}", n, "call") for n in (1, 2)]
    specs += [ButtonSpec(f"player {n} stand", n, "stand") for n in (1, 2)]
    buttons = panel(*specs)
    buttons.edge("player 1", 4.003, True)  # decided on press, its callback first ...
    buttons.edge("player 2", 4.001, True)  # ... this edge was earlier
    assert buttons.events.empty()
    buttons.poll(4.01)
    assert summary(drain(buttons.events)) == [
        ("player 2", "call", 4.001, 1, 0.0),
        ("player 1", "call", 4.003, 2, 2.0),
    ]


def test_the_referee_presses_or_holds_and_is_never_locked_out() -> None:
    buttons = panel()
    buttons.edge("player 1", 0.0, True)
    buttons.edge("player 1", 0.1, False)
    buttons.edge("referee", 1.0, True)
    buttons.edge("referee", 1.2, False)
    buttons.edge("referee", 2.0, True)
    buttons.poll(3.0)
    events = drain(buttons.events)
    assert summary(events)[1:] == [
        ("referee", "press", 1.0, None, None),
        ("referee", "hold", 2.0, None, None),
    ]
    assert events[1].player is None


def test_listeners_hear_every_event_and_a_failing_one_does_not_stop_the_rest() -> None:
    buttons = panel()
    heard: list[str] = []

    def broken(event: ButtonEvent) -> None:
        raise RuntimeError("speaker on fire")

    buttons.listeners += [broken, lambda event: heard.append(event.action)]
    buttons.edge("player 1", 0.0, True)
    buttons.edge("player 1", 0.1, False)
    assert heard == ["call"] and buttons.events.qsize() == 1


def test_unknown_buttons_are_refused() -> None:
    buttons = panel()
    try:
        buttons.edge("player 9", 0.0, True)
    except ValueError as error:
        assert "unknown button 'player 9'" in str(error)
    else:
        raise AssertionError("an unknown button was accepted")


def test_the_hold_timer_fires_a_stand_while_the_button_is_still_down() -> None:
    clock = {"now": 0.0}
    buttons = panel(hold=0.2)
    with HoldTimer(buttons, lambda: clock["now"], idle=0.01):
        buttons.edge("player 1", 0.0, True)
        clock["now"] = 0.25
        event = buttons.events.get(timeout=2.0)
    assert (event.action, event.t) == ("stand", 0.0)


def test_edges_from_many_threads_keep_one_consistent_order() -> None:
    specs = [ButtonSpec(f"player {n}", n, "call") for n in range(1, 9)]
    buttons = panel(*specs)

    def edge(n: int, pressed: bool) -> None:
        t = 1.0 + (9 - n) * 0.001 + (0.0 if pressed else 0.1)  # player 8 pressed first
        buttons.edge(f"player {n}", t, pressed)

    for pressed in (True, False):
        threads = [threading.Thread(target=edge, args=(n, pressed)) for n in range(1, 9)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    events = drain(buttons.events)
    assert [e.player for e in events] == list(range(8, 0, -1))
    assert [e.rank for e in events] == list(range(1, 9))


@st.composite
def bouncy_presses(draw: st.DrawFn) -> tuple[list[tuple[float, bool]], list[float]]:
    """Real presses 80-400 ms long and 80 ms or more apart, each edge with chatter."""
    edges: list[tuple[float, bool]] = []
    presses: list[float] = []
    t = 0.0
    for _ in range(draw(st.integers(1, 5))):
        t += draw(st.floats(0.08, 0.5))
        presses.append(t)
        for start, level in ((t, True), (t + draw(st.floats(0.08, 0.4)), False)):
            chatter = draw(st.lists(st.floats(0.0001, 0.004), max_size=6))
            when = start
            flip = level
            for gap in chatter:
                edges.append((when, flip))
                when += gap
                flip = not flip
            edges.append((when, level))
            t = when
    return edges, presses


@settings(max_examples=80, deadline=None)
@given(bouncy_presses())
def test_any_chatter_gives_exactly_one_call_per_real_press(
    case: tuple[list[tuple[float, bool]], list[float]],
) -> None:
    edges, presses = case
    buttons = panel(hold=1.0, bounce=0.03)
    for t, level in edges:
        buttons.edge("player 1", t, level)
        buttons.release()
    buttons.poll(edges[-1][0] + 1.0)
    events = drain(buttons.events)
    assert [e.action for e in events] == ["call"] * len(presses)
    assert [e.t for e in events] == presses
