"""Sound patterns as data, played on mock pins; the table's answer to a buzz."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from gpiozero import Buzzer, TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.engine.clock import ManualClock
from hardware.buttons import drain
from hardware.pins import default_pin_map, load_pin_map
from hardware.sounds import (
    PATTERNS,
    Announcer,
    Beep,
    BuzzerOutput,
    SoundPlayer,
    TonalOutput,
    announcement,
    total_seconds,
)
from hardware.table import Table

BUZZER = 13
TOLERANCE = 0.03  # seconds: thread wake-up jitter on a loaded machine


class RecordingPWMPin(MockPWMPin):  # type: ignore[misc]  # gpiozero ships no type hints
    """A PWM mock pin that remembers every frequency it was set to."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.frequencies: list[float] = []

    def _set_frequency(self, value: float | None) -> None:
        super()._set_frequency(value)
        if value is not None:
            self.frequencies.append(value)


def rhythm(pattern: tuple[Beep, ...]) -> list[tuple[float, bool]]:
    """The (seconds since the previous change, new state) a pin should show."""
    changes: list[tuple[float, bool]] = []
    gap = 0.0
    for beep in pattern:
        changes.append((gap, True))
        changes.append((beep.on, False))
        gap = beep.off
    return changes


def played(pin: Any) -> list[tuple[float, bool]]:
    return [(state.timestamp, bool(state.state)) for state in pin.states[1:]]


def assert_rhythm(actual: list[tuple[float, bool]], expected: list[tuple[float, bool]]) -> None:
    assert [state for _, state in actual] == [state for _, state in expected]
    for (got, _), (want, _) in zip(actual[1:], expected[1:], strict=True):
        assert got == pytest.approx(want, abs=TOLERANCE)


def test_every_pattern_has_its_own_rhythm_and_playable_tones() -> None:
    wanted = {"call", "stand", "countdown", "timer_end", "win", "wrong_call", "error"}
    assert set(PATTERNS) == wanted
    rhythms = {tuple((b.on, b.off) for b in pattern) for pattern in PATTERNS.values()}
    assert len(rhythms) == len(PATTERNS)
    for pattern in PATTERNS.values():
        assert all(b.on > 0 and b.off >= 0 and 220 <= b.tone <= 1760 for b in pattern)
        assert pattern[-1].off == 0.0
    assert total_seconds(PATTERNS["countdown"]) < 0.5  # fits in each of the last 10 seconds


def test_an_active_buzzer_plays_the_rhythm(factory: MockFactory) -> None:
    with Buzzer(BUZZER, pin_factory=factory) as buzzer, SoundPlayer(BuzzerOutput(buzzer)) as sound:
        pin = factory.pin(BUZZER)
        pin.clear_states()
        sound.play("call")
        assert sound.wait(2.0)
        assert_rhythm(played(pin), rhythm(PATTERNS["call"]))
        pin.assert_states_and_times([(0.0, False), *rhythm(PATTERNS["call"])])


def test_play_returns_at_once_and_a_new_pattern_cuts_the_old(factory: MockFactory) -> None:
    with Buzzer(BUZZER, pin_factory=factory) as buzzer, SoundPlayer(BuzzerOutput(buzzer)) as sound:
        pin = factory.pin(BUZZER)
        pin.clear_states()
        sound.play("stand")  # 0.4 s
        assert not sound.wait(0.1)  # still playing after play() returned
        sound.play("error")
        assert sound.wait(2.0)
        changes = played(pin)
        assert changes[:2] == [(changes[0][0], True), (changes[1][0], False)]
        assert changes[1][0] == pytest.approx(0.1, abs=TOLERANCE)  # stand cut short
        assert_rhythm(changes[2:], rhythm(PATTERNS["error"]))
        assert not pin.state


def test_a_tonal_buzzer_plays_the_tones(factory: MockFactory) -> None:
    pin = factory.pin(BUZZER, pin_class=RecordingPWMPin)
    with TonalBuzzer(BUZZER, octaves=2, pin_factory=factory) as buzzer:
        pin.frequencies.clear()
        with SoundPlayer(TonalOutput(buzzer)) as sound:
            sound.play("win")
            assert sound.wait(3.0)
        assert pin.frequencies == pytest.approx([b.tone for b in PATTERNS["win"]], rel=1e-6)
        assert pin.state == 0


def test_unknown_sounds_name_the_known_ones(factory: MockFactory) -> None:
    with Buzzer(BUZZER, pin_factory=factory) as buzzer, SoundPlayer(BuzzerOutput(buzzer)) as sound:
        pattern = "unknown sound 'tada' \\(known: call, stand"
        with pytest.raises(ValueError, match=pattern):
            sound.play("tada")


def test_speech_runs_espeak_only_where_it_exists() -> None:
    said: list[list[str]] = []
    Announcer(runner=said.append, program="/usr/bin/espeak-ng").say(announcement(4, "call"))
    Announcer(runner=said.append, program=None).say("nobody hears this")
    assert said == [["/usr/bin/espeak-ng", "Player four calls twenty-one"]]
    assert announcement(12, "stand") == "Player 12 stands"


def test_speech_that_cannot_start_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    def broken(argv: list[str]) -> None:
        raise FileNotFoundError(argv[0])

    Announcer(runner=broken, program="espeak-ng").say("hello")
    assert "cannot run espeak-ng" in caplog.text


def test_the_table_answers_a_buzz_with_light_sound_and_voice(
    ticks: ManualClock, factory: MockFactory
) -> None:
    said: list[list[str]] = []
    announcer = Announcer(runner=said.append, program="espeak-ng")
    with Table(default_pin_map(), factory, announcer=announcer) as table:
        table.play("countdown")
        for pin in (22, 17):  # player 2 then player 1
            factory.pin(pin).drive_low()
            ticks.advance(0.05)
        factory.pin(22).drive_high()
        factory.pin(17).drive_high()
        events = [table.events.get(timeout=1.0) for _ in range(2)]
        assert [(e.player, e.rank) for e in events] == [(2, 1), (1, 2)]
        table.wait_answered()
        assert factory.pin(23).state == 1  # player 2's LED steady
        assert said == [["espeak-ng", "Player two calls twenty-one"]]
        assert table.sounds is not None and not table.sounds.wait(0)  # the call pattern plays
        table.release()
        assert factory.pin(23).state == 0 and factory.pin(27).state == 0


def test_a_slow_answer_never_holds_up_the_gpio_callbacks(
    ticks: ManualClock, factory: MockFactory
) -> None:
    started, go_on = threading.Event(), threading.Event()
    gave_up: list[bool] = []

    def slow_espeak(argv: list[str]) -> None:
        started.set()
        gave_up.append(not go_on.wait(5.0))

    with Table(default_pin_map(), factory, announcer=Announcer(slow_espeak, "espeak-ng")) as table:
        for pin in (22, 17):  # two calls one after the other, each pressed and released
            factory.pin(pin).drive_low()
            ticks.advance(0.05)
            factory.pin(pin).drive_high()
            ticks.advance(0.05)
        assert started.wait(2.0)  # the voice for player 2 is still starting ...
        assert [e.player for e in drain(table.events)] == [2, 1]  # ... yet both were queued
        go_on.set()
        table.wait_answered()
        assert factory.pin(23).state == 1 and gave_up == [False]


def test_a_table_with_a_tonal_buzzer_on_pins_without_pwm_says_so() -> None:
    from companion.errors import DeviceError

    pins = load_pin_map({"hardware": {"buzzer": {"pin": 13, "type": "tonal"}}})
    message = "cannot use GPIO13 for the tonal buzzer: PinPWMUnsupported "
    with pytest.raises(DeviceError, match=message):
        Table(pins, MockFactory())


def test_a_late_callers_light_blinks(factory: MockFactory) -> None:
    with Table(default_pin_map(), factory, announcer=Announcer(program=None)) as table:
        factory.pin(22).drive_low()
        factory.pin(17).drive_low()
        time.sleep(0.05)
        factory.pin(22).drive_high()
        factory.pin(17).drive_high()
        time.sleep(0.5)
        assert [e.rank for e in (table.events.get_nowait(), table.events.get_nowait())] == [1, 2]
        assert len(factory.pin(27).states) >= 3  # player 1's LED went on, off, on...
        assert len(factory.pin(23).states) == 2  # player 2's just came on


class FlakyOutput:
    """A sound output whose first beep fails, as a disconnected buzzer might."""

    def __init__(self) -> None:
        self.tones: list[float] = []

    def on(self, tone: float) -> None:
        if not self.tones:
            self.tones.append(0.0)
            raise OSError("GPIO busy")
        self.tones.append(tone)

    def off(self) -> None:
        pass


def test_a_failing_buzzer_is_logged_and_the_player_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    output = FlakyOutput()
    with SoundPlayer(output) as sound:
        sound.play("countdown")
        assert sound.wait(2.0)
        sound.play("stand")
        assert sound.wait(2.0)
    assert "the buzzer failed" in caplog.text
    assert output.tones == [0.0, 440.0]


def test_an_led_pin_in_use_is_a_device_error(factory: MockFactory) -> None:
    from gpiozero import LED

    from companion.errors import DeviceError
    from hardware.lights import Lights

    with LED(23, pin_factory=factory), pytest.raises(DeviceError) as caught:
        Lights({1: 27, 2: 23}, factory)
    assert str(caught.value).startswith("cannot use GPIO23 for player 2's LED:")
    with Lights({1: 27}, factory) as lights:  # player 1's LED was freed again
        lights.on(1)
        assert factory.pin(27).state == 1
