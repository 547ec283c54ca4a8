"""The wired table as one object: buttons in, sound, speech and lights out.

>>> from gpiozero.pins.mock import MockFactory, MockPWMPin
>>> from hardware.pins import default_pin_map
>>> with Table(default_pin_map(), MockFactory(pin_class=MockPWMPin)) as table:
...     table.events.empty()
True

The referee's side reads :attr:`Table.events` (a :class:`queue.Queue` of
:class:`~hardware.buttons.ButtonEvent`), decides, then calls :meth:`Table.release`, and
plays the game's sounds (:meth:`Table.play`: ``countdown``, ``timer_end``, ``win``,
``wrong_call``, ``error``). The table answers each buzz itself on its own thread (the
GPIO callbacks only queue the buzz): the winner's LED lights and the ``call`` pattern
sounds (later callers' LEDs blink); a stand sounds ``stand``; espeak-ng, where installed,
says who it was.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from companion.closing import Closing
from companion.errors import DeviceError
from hardware.buttons import ButtonEvent
from hardware.factory import reason
from hardware.gpio import GpioButtons
from hardware.lights import Lights
from hardware.lockout import Placing
from hardware.pins import BuzzerPins, PinMap
from hardware.sounds import (
    Announcer,
    BuzzerOutput,
    SoundOutput,
    SoundPlayer,
    TonalOutput,
    announcement,
)

log = logging.getLogger(__name__)


def open_sound_output(buzzer: BuzzerPins, pin_factory: Any) -> tuple[SoundOutput, Any]:
    """The sound output for ``buzzer`` and the gpiozero device behind it (to close)."""
    from gpiozero import Buzzer, TonalBuzzer

    try:
        if buzzer.kind == "tonal":
            tonal = TonalBuzzer(buzzer.pin, octaves=2, pin_factory=pin_factory)
            return TonalOutput(tonal), tonal
        active = Buzzer(buzzer.pin, pin_factory=pin_factory)
        return BuzzerOutput(active), active
    except Exception as error:  # each GPIO backend raises its own kinds
        raise DeviceError(
            f"cannot use GPIO{buzzer.pin} for the {buzzer.kind} buzzer: {reason(error)}"
            " (a tonal buzzer needs PWM; with mock pins set GPIOZERO_MOCK_PIN_CLASS=mockpwmpin)"
        ) from None


class Table(Closing):
    """Buttons, lights, buzzer and voice of a wired table. A context manager."""

    def __init__(
        self, pin_map: PinMap, pin_factory: Any, *, announcer: Announcer | None = None
    ) -> None:
        self.pin_map = pin_map
        self.announcer = announcer if announcer is not None else Announcer()
        self._buzzes: queue.Queue[ButtonEvent | None] = queue.Queue()
        self._answerer = threading.Thread(
            target=self._answer_all, name="table-answers", daemon=True
        )
        self.buttons = GpioButtons(pin_map, pin_factory)
        self._closers: list[Any] = [self.buttons]
        try:
            self.lights = Lights(pin_map.leds(), pin_factory)
            self._closers.append(self.lights)
            self.sounds: SoundPlayer | None = None
            if pin_map.buzzer is not None:
                output, device = open_sound_output(pin_map.buzzer, pin_factory)
                self._closers.append(device)
                self.sounds = SoundPlayer(output)
                self._closers.insert(0, self.sounds)
        except Exception:
            self.close()
            raise
        self._answerer.start()
        self.buttons.panel.listeners.append(self._buzzes.put)

    @property
    def events(self) -> queue.Queue[ButtonEvent]:
        """Button events for the referee, in the order they were decided."""
        return self.buttons.events

    def play(self, name: str) -> None:
        """Start sound pattern ``name`` (see :data:`hardware.sounds.PATTERNS`)."""
        if self.sounds is not None:
            self.sounds.play(name)

    def release(self) -> tuple[Placing, ...]:
        """The referee decided: clear the lockout and the lights; returns the order held."""
        order = self.buttons.release()
        self.wait_answered()  # no answer still queued may light an LED after this
        self.lights.all_off()
        return order

    def wait_answered(self) -> None:
        """Block until every buzz so far has had its light, sound and voice."""
        self._buzzes.join()

    def answer(self, event: ButtonEvent) -> None:
        """Sound and light for a player's buzz (done on the table's answer thread)."""
        if event.player is None:
            return
        if event.action == "call" and event.rank not in (None, 1):
            self.lights.blink(event.player)
            return
        if event.action == "call":
            self.lights.on(event.player)
        else:
            self.lights.blink(event.player, times=2)
        self.play(event.action)
        self.announcer.say(announcement(event.player, event.action))

    def _answer_all(self) -> None:
        while (event := self._buzzes.get()) is not None:
            try:
                self.answer(event)
            except Exception:  # a failing LED or buzzer must not stop the answers
                log.exception("the table failed to answer %s", event)
            finally:
                self._buzzes.task_done()
        self._buzzes.task_done()

    def close(self) -> None:
        """Stop answering, silence everything and free the pins."""
        self.buttons.close()  # first: no buzz may be queued behind the answerer's stop
        if self._answerer.is_alive():
            self._buzzes.put(None)
            self._answerer.join()
        while self._closers:
            self._closers.pop(0).close()
