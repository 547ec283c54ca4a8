"""Between the wired table and the conductor: button events in, signals out.

:class:`ButtonBridge` turns the :class:`~hardware.buttons.ButtonEvent` queue of a wired
:class:`~hardware.table.Table` (or of :class:`~hardware.keyboard.KeyboardButtons`) into
:class:`~companion.engine.observations.ButtonPress` observations: the seat is the one whose
player presses that button, a ``call`` is a ``press``, a ``stand`` a ``hold``, and the
referee's button gives seat None. Each press is stamped with the referee's clock when it
arrives (the button timeline is the GPIO ticks, not the game clock).

:class:`SignalPlayer` plays the conductor's :class:`~companion.engine.conductor.Signal`
objects: the sound of each, the voice where there is one, and the release of the
first-press lockout once the referee has decided (a checked call, a refusal, time up).
The table itself already lights and sounds every buzz as it happens.

>>> import queue
>>> from companion.engine.clock import ManualClock
>>> from companion.engine.seats import Seating
>>> events: queue.Queue[ButtonEvent] = queue.Queue()
>>> posted = []
>>> bridge = ButtonBridge(events, Seating.of(["ann", "ben"]), posted.append, ManualClock(7.0))
>>> events.put(ButtonEvent("player 2", 2, "call", 0.25, rank=1, late_ms=0.0))
>>> events.put(ButtonEvent("referee", None, "hold", 0.5))
>>> bridge.pump()
2
>>> [(press.seat, press.kind, press.t, press.late_ms) for press in posted]
[(2, 'press', 7.0, 0.0), (None, 'hold', 7.0, None)]
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Mapping

from companion.closing import Closing
from companion.engine.clock import Clock
from companion.engine.conductor import Signal, Update
from companion.engine.observations import ButtonPress, Observation, PressKind
from companion.engine.seats import Seating
from companion.errors import IllegalMove
from hardware.buttons import ButtonEvent
from hardware.keyboard import KeyboardButtons
from hardware.lights import Lights
from hardware.table import Table

log = logging.getLogger(__name__)

#: A button's action as the conductor's press kind.
PRESS_KINDS: Mapping[str, PressKind] = {
    "call": "press",
    "stand": "hold",
    "press": "press",
    "hold": "hold",
}
#: The sound pattern (:data:`hardware.sounds.PATTERNS`) of each signal kind that has one.
SOUNDS: Mapping[str, str] = {
    "right": "win",
    "wrong": "wrong_call",
    "warning": "countdown",
    "expired": "timer_end",
    "over": "win",
    "refused": "error",
    "attention": "countdown",
    "camera_lost": "error",
}
#: Signals after which the referee has decided about any buzz: the lockout is released.
DECIDED = frozenset({"right", "wrong", "refused", "expired", "over"})


class ButtonBridge(Closing):
    """Posts a :class:`ButtonPress` for each event of ``events``: by :meth:`pump` (now,
    without waiting) or on a thread of its own (:meth:`start`; :meth:`close` joins it)."""

    def __init__(
        self,
        events: queue.Queue[ButtonEvent],
        seating: Seating,
        post: Callable[[Observation], None],
        clock: Clock,
    ) -> None:
        self.events = events
        self.seating = seating
        self.post = post
        self.clock = clock
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def press_of(self, event: ButtonEvent) -> ButtonPress | None:
        """The observation of one button event (None: a button no seat of this game uses)."""
        kind = PRESS_KINDS.get(event.action)
        if kind is None:
            log.warning("button %s did %r, which is no press", event.button, event.action)
            return None
        seat: int | None = None
        if event.player is not None:
            try:
                seat = self.seating.by_button(event.player).number
            except IllegalMove:
                return None  # a player button of an empty seat
        return ButtonPress(seat=seat, kind=kind, t=self.clock(), late_ms=event.late_ms)

    def pump(self) -> int:
        """Post every event waiting now; how many were posted."""
        posted = 0
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return posted
            posted += self._forward(event)

    def start(self) -> ButtonBridge:
        """Forward events as they come, on a thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="button-bridge", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread (if started) and wait for it."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _forward(self, event: ButtonEvent) -> int:
        press = self.press_of(event)
        if press is None:
            return 0
        self.post(press)
        return 1

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                event = self.events.get(timeout=0.05)
            except queue.Empty:
                continue
            self._forward(event)


class SignalPlayer:
    """Plays signals: ``sound`` a pattern name, ``release`` the lockout, ``say`` a line
    (optional), ``lights`` the seats' LEDs by button (optional)."""

    def __init__(
        self,
        seating: Seating,
        sound: Callable[[str], None],
        release: Callable[[], object],
        *,
        say: Callable[[str], None] | None = None,
        lights: Lights | None = None,
    ) -> None:
        self.seating = seating
        self.sound = sound
        self.release = release
        self.say = say
        self.lights = lights

    @classmethod
    def for_table(cls, table: Table, seating: Seating) -> SignalPlayer:
        """Signals on a wired table: its buzzer, voice, LEDs and lockout."""
        return cls(seating, table.play, table.release, say=table.announcer.say,
                   lights=table.lights)

    @classmethod
    def for_keyboard(cls, keys: KeyboardButtons, seating: Seating,
                     sound: Callable[[str], None] = lambda name: None) -> SignalPlayer:
        """Signals for keyboard buttons: the keys' lockout, and ``sound`` (the app's)."""
        return cls(seating, sound, keys.clear_lockout)

    def listen(self, update: Update) -> None:
        """Play every signal of a conductor update (pass this to ``Conductor.listen``)."""
        for signal in update.signals:
            self.play(signal)

    def play(self, signal: Signal) -> None:
        """Sound, voice and lights of one signal; release the lockout once decided."""
        if signal.kind in DECIDED:
            self.release()
        sound = SOUNDS.get(signal.kind)
        if sound is not None:
            self.sound(sound)
        line = self.spoken(signal)
        if line and self.say is not None:
            self.say(line)
        if signal.kind == "over" and self.lights is not None:
            self.lights.chase()

    def spoken(self, signal: Signal) -> str:
        """What the voice says for ``signal`` ("" for nothing).

        >>> from companion.engine.seats import Seating
        >>> player = SignalPlayer(Seating.of(["ann"]), print, lambda: None)
        >>> player.spoken(Signal("wrong", 1, "the cards make 38"))
        'ann is wrong: the cards make 38'
        """
        name = self._name(signal.seat)
        if signal.kind == "right":
            return f"{name} is right"
        if signal.kind == "wrong":
            return f"{name} is wrong: {signal.detail}" if signal.detail else f"{name} is wrong"
        if signal.kind == "expired":
            return "time is up"
        if signal.kind == "warning":
            return f"{signal.detail} seconds left" if signal.detail else ""
        return "game over" if signal.kind == "over" else ""

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "the player"
        try:
            return self.seating.by_number(seat).player
        except IllegalMove:
            return f"seat {seat}"
