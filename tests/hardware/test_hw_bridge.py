"""The bridge on gpiozero mock pins: wired buttons to presses, conductor signals to the table."""

from __future__ import annotations

import queue
import time

from gpiozero.pins.mock import MockFactory

from companion.engine.clock import ManualClock
from companion.engine.conductor import Signal, Update
from companion.engine.observations import ButtonPress, Observation
from companion.engine.seats import Seating
from companion.engine.view import GameView
from hardware.bridge import ButtonBridge, SignalPlayer
from hardware.buttons import ButtonEvent
from hardware.keyboard import KeyboardButtons
from hardware.pins import default_pin_map
from hardware.sounds import Announcer
from hardware.table import Table

P1, P2, P3, REFEREE = 17, 22, 24, 26
LED2 = 23


class Said(Announcer):
    """An announcer that writes down what it would say."""

    def __init__(self) -> None:
        super().__init__(program=None)
        self.lines: list[str] = []

    def say(self, text: str) -> None:
        self.lines.append(text)


def press(factory: MockFactory, pin: int, seconds: float) -> None:
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()


def test_wired_buttons_reach_the_conductor_as_seat_presses(
    ticks: ManualClock, factory: MockFactory
) -> None:
    # Button 3 is wired to seat 1 and button 1 to seat 3 (a table wired in another order).
    seating = Seating.of(["ann", "ben", "cy"], [{"seat": 1, "button": 3}, {"seat": 3, "button": 1}])
    posted: queue.Queue[Observation] = queue.Queue()
    clock = ManualClock(50.0)
    with Table(default_pin_map(), factory, announcer=Said()) as table, \
            ButtonBridge(table.events, seating, posted.put, clock).start():
        for pin, at in ((P2, 1000.002), (P3, 1000.005)):
            ticks.now = at
            factory.pin(pin).drive_low()
        ticks.now = 1000.1
        factory.pin(P2).drive_high()
        factory.pin(P3).drive_high()
        ticks.now = 1000.2
        factory.pin(REFEREE).drive_low()
        ticks.now = 1001.5  # held past the hold time
        table.buttons.panel.poll(table.buttons.timeline.now())
        presses = [posted.get(timeout=5) for _ in range(3)]
    assert presses == [
        ButtonPress(seat=2, kind="press", t=50.0, late_ms=0.0),
        ButtonPress(seat=1, kind="press", t=50.0, late_ms=3.0),
        ButtonPress(seat=None, kind="hold", t=50.0, late_ms=None),
    ]


def test_keyboard_stand_keys_are_holds_and_unused_seats_are_ignored() -> None:
    seating = Seating.of(["ann", "ben"])
    posted: list[Observation] = []
    with KeyboardButtons(clock=lambda: 3.0) as keys:
        bridge = ButtonBridge(keys.events, seating, posted.append, ManualClock(9.0))
        keys.tap("l", 3.0)  # player 2 stands
        keys.tap("z", 3.1)  # player 3's key: nobody sits there
        keys.panel.poll(3.2)
        assert bridge.pump() == 1
    assert posted == [ButtonPress(seat=2, kind="hold", t=9.0, late_ms=None)]
    assert bridge.press_of(ButtonEvent("odd", 1, "wave", 0.0)) is None


def update_of(*signals: Signal) -> Update:
    return Update((), GameView(game="21x", phase="play"), (), signals)


def test_a_checked_call_sounds_speaks_and_releases_the_lockout(
    ticks: ManualClock, factory: MockFactory
) -> None:
    seating = Seating.of(["ann", "ben"])
    said = Said()
    with Table(default_pin_map(), factory, announcer=said) as table:
        ticks.now = 1000.0
        factory.pin(P2).drive_low()
        ticks.now = 1000.1
        factory.pin(P2).drive_high()
        table.events.get(timeout=5)
        table.wait_answered()
        assert factory.pin(LED2).state  # the table lit the winner's LED itself
        played: list[str] = []
        player = SignalPlayer.for_table(table, seating)
        player.sound = played.append
        player.listen(update_of(Signal("buzz", 2), Signal("wrong", 2, "the cards make 38")))
        assert played == ["wrong_call"]
        assert said.lines[-1] == "ben is wrong: the cards make 38"
        assert not factory.pin(LED2).state  # released: lights off, buttons free
        assert not table.buttons.panel.lockout.locked


def test_timer_and_camera_signals_have_their_sounds() -> None:
    played: list[str] = []
    released: list[bool] = []
    player = SignalPlayer(Seating.of(["ann"]), played.append, lambda: released.append(True))
    player.listen(update_of(Signal("warning", detail="10"), Signal("expired"),
                            Signal("camera_lost"), Signal("camera_back"), Signal("late", 1)))
    assert played == ["countdown", "timer_end", "error"]
    assert released == [True]
