"""Buttons to events: debounce on edge times, press or hold, and a fair first-press lockout.

A :class:`ButtonPanel` is fed edges — ``edge(name, t, pressed)`` with ``t`` the edge's own
time in seconds (from the GPIO pin factory's ticks, or a key event's time) — and puts
:class:`ButtonEvent` objects on a thread-safe :class:`queue.Queue`. It never decides rules.

* Debounce: an edge closer than ``bounce_time`` to the last accepted edge of that button is
  chatter. If the contact then rests in the other state, that state is accepted once the
  window has passed, at the time of the edge that led to it.
* A player's button with no separate stand button: released before ``hold_time`` it is a
  *call*, decided on release; held for ``hold_time`` it is a *stand*, emitted at that
  moment, never a call too. Both are timed by the PRESS edge. With a stand button wired,
  the call button calls on press and the stand button stands on press.
* The referee's button gives ``press`` (released before ``hold_time``) or ``hold``.
* Fairness: calls are ordered by press time, not by when they were decided. A call waits
  while another player's button is down since an earlier press (it may yet be a call),
  and until its press is ``grace`` seconds old (5 ms: time for the callback of an
  earlier edge on another pin to arrive), so the earliest press wins the
  :class:`~hardware.lockout.Lockout`; later callers get their rank and ``late_ms``.
  :meth:`ButtonPanel.release` clears it.

>>> panel = ButtonPanel([ButtonSpec("player 1", 1, "call"), ButtonSpec("player 2", 2, "call")])
>>> panel.edge("player 2", 5.000, True)
>>> panel.edge("player 1", 5.003, True)
>>> panel.edge("player 1", 5.200, False)   # player 1 decided first, but pressed later
>>> panel.events.empty()
True
>>> panel.edge("player 2", 5.250, False)
>>> [(e.player, e.rank, e.late_ms) for e in drain(panel.events)]
[(2, 1, 0.0), (1, 2, 3.0)]
"""

from __future__ import annotations

import logging
import math
import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from companion.closing import Closing
from companion.engine.events import Event
from hardware.lockout import Buzz, Lockout, Placing

Role = Literal["call", "stand", "referee"]

#: Seconds a button is held to count as a hold (a stand) unless configured otherwise; the
#: shipped ``default_pins.toml`` says the same.
DEFAULT_HOLD_TIME = 1.0
Listener = Callable[["ButtonEvent"], None]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ButtonSpec:
    """A physical (or keyboard) button: its name, its player (None: the referee's), its role."""

    name: str
    player: int | None
    role: Role


@dataclass(frozen=True)
class ButtonEvent:
    """What a button did: ``call``/``stand`` for players, ``press``/``hold`` for the referee.

    ``t`` is the press edge's time in seconds on the button timeline; ``rank`` and
    ``late_ms`` are set for buzzes that went through the lockout.

    >>> event = ButtonEvent("player 2", 2, "call", 1.5, rank=1, late_ms=0.0).to_event(t=12.0)
    >>> event.kind, event.data["player"], event.data["action"], event.data["tick_us"]
    ('button', 2, 'call', 1500000)
    """

    button: str
    player: int | None
    action: str
    t: float
    rank: int | None = None
    late_ms: float | None = None

    @property
    def tick_us(self) -> int:
        """The press edge time in whole microseconds."""
        return round(self.t * 1_000_000)

    def to_event(self, t: float = 0.0, seq: int = 0) -> Event:
        """A ``button`` :class:`~companion.engine.events.Event` at game-clock time ``t``."""
        data = {
            "player": self.player,
            "action": self.action,
            "tick_us": self.tick_us,
            "late_ms": self.late_ms,
            "rank": self.rank,
            "button": self.button,
        }
        return Event(kind="button", data=data, t=t, seq=seq)


def drain(events: queue.Queue[ButtonEvent]) -> list[ButtonEvent]:
    """Everything waiting in ``events`` now, without blocking."""
    taken: list[ButtonEvent] = []
    while True:
        try:
            taken.append(events.get_nowait())
        except queue.Empty:
            return taken


@dataclass
class _Contact:
    """One button's debounced state."""

    spec: ButtonSpec
    holds: bool  # a long press means something (stand, referee hold)
    pressed: bool = False
    accepted_t: float = -math.inf
    raw: bool = False
    raw_t: float = -math.inf
    press_t: float | None = None
    held: bool = False


class ButtonPanel:
    """Debounced, fair buttons; thread-safe (edges may come from any thread).

    ``listeners`` are called with each event on the thread that fed the edge (a GPIO
    callback), under the panel's lock, after it is queued: they must not block, so hand
    any real work to another thread (as :class:`~hardware.table.Table` does).
    """

    def __init__(
        self,
        buttons: Iterable[ButtonSpec],
        *,
        hold_time: float = DEFAULT_HOLD_TIME,
        bounce_time: float = 0.03,
        grace: float = 0.005,
    ) -> None:
        specs = list(buttons)
        with_stand = {s.player for s in specs if s.role == "stand"}
        self._contacts = {
            s.name: _Contact(
                s, holds=s.role == "referee" or (s.role == "call" and s.player not in with_stand)
            )
            for s in specs
        }
        self.hold_time = hold_time
        self.bounce_time = bounce_time
        self.grace = grace
        self._now = -math.inf  # the latest time seen in an edge or a poll
        self.lockout = Lockout()
        self.events: queue.Queue[ButtonEvent] = queue.Queue()
        self.listeners: list[Listener] = []
        self._lock = threading.Condition(threading.RLock())
        self._waiting: list[tuple[Buzz, str]] = []

    def edge(self, name: str, t: float, pressed: bool) -> None:
        """Button ``name`` went down (``pressed``) or up at time ``t`` (seconds)."""
        with self._lock:
            try:
                contact = self._contacts[name]
            except KeyError:
                raise ValueError(f"unknown button {name!r}") from None
            self._now = max(self._now, t)
            self._settle(contact, t)
            contact.raw, contact.raw_t = pressed, t
            if pressed != contact.pressed and t - contact.accepted_t >= self.bounce_time:
                self._accept(contact, pressed, t)
            self._check_holds(t)
            self._flush()
            self._lock.notify_all()

    def poll(self, now: float) -> None:
        """Let time pass to ``now``: settle chatter and emit the holds that are due."""
        with self._lock:
            self._now = max(self._now, now)
            for contact in self._contacts.values():
                self._settle(contact, now)
            self._check_holds(now)
            self._flush()

    def next_deadline(self) -> float | None:
        """The earliest time :meth:`poll` will have something to do, or None."""
        with self._lock:
            deadlines = [
                c.accepted_t + self.bounce_time
                for c in self._contacts.values()
                if c.raw != c.pressed
            ]
            deadlines += [
                c.press_t + self.hold_time
                for c in self._contacts.values()
                if c.holds and c.press_t is not None and not c.held
            ]
            deadlines += [buzz.t + self.grace for buzz, _ in self._waiting[:1]]
            return min(deadlines, default=None)

    def wait_for_deadline(
        self, now: Callable[[], float], idle: float, stop: threading.Event
    ) -> None:
        """Sleep until the next deadline (at most ``idle`` s, an edge or :meth:`wake`), then poll.

        Returns at once when ``stop`` is set (checked under the lock :meth:`wake` takes).
        """
        with self._lock:
            if stop.is_set():
                return
            deadline = self.next_deadline()
            timeout = idle if deadline is None else min(idle, deadline - now())
            if timeout > 0:
                self._lock.wait(timeout)
            self.poll(now())

    def wake(self) -> None:
        """Wake any :meth:`wait_for_deadline` sleeper."""
        with self._lock:
            self._lock.notify_all()

    def release(self) -> tuple[Placing, ...]:
        """The referee decided: clear the lockout; returns the order it held."""
        with self._lock:
            return self.lockout.release()

    def _settle(self, contact: _Contact, now: float) -> None:
        if contact.raw != contact.pressed and now - contact.accepted_t >= self.bounce_time:
            self._accept(contact, contact.raw, max(contact.raw_t, contact.accepted_t))

    def _accept(self, contact: _Contact, pressed: bool, t: float) -> None:
        contact.pressed, contact.accepted_t = pressed, t
        role = contact.spec.role
        if pressed:
            contact.press_t, contact.held = t, False
            if not contact.holds:
                self._decide(contact, role, t)
            return
        press_t, contact.press_t = contact.press_t, None
        if press_t is None or contact.held or not contact.holds:
            return
        if t - press_t >= self.hold_time:  # the hold deadline passed unpolled
            self._decide(contact, "hold", press_t)
        else:
            self._decide(contact, "press", press_t)

    def _check_holds(self, now: float) -> None:
        for contact in self._contacts.values():
            press_t = contact.press_t
            if press_t is None or contact.held or not contact.holds:
                continue
            if now - press_t >= self.hold_time:
                contact.held = True
                self._decide(contact, "hold", press_t)

    def _decide(self, contact: _Contact, gesture: str, press_t: float) -> None:
        spec = contact.spec
        if spec.player is None:
            self._emit(ButtonEvent(spec.name, None, gesture, press_t))
            return
        action = {"press": "call", "hold": "stand"}.get(gesture, gesture)
        buzz = Buzz(spec.player, action, press_t)
        if action == "call":
            self._waiting.append((buzz, spec.name))
        else:
            self._emit(ButtonEvent(spec.name, spec.player, action, press_t))

    def _flush(self) -> None:
        """Pass waiting buzzes to the lockout in press order: once ``grace`` old and no
        earlier press is still open."""
        open_presses = [
            c.press_t
            for c in self._contacts.values()
            if c.holds and c.spec.player is not None and c.press_t is not None and not c.held
        ]
        earliest_open = min(open_presses, default=math.inf)
        self._waiting.sort(key=lambda item: item[0].t)
        while self._waiting and self._ready(self._waiting[0][0], earliest_open):
            buzz, name = self._waiting.pop(0)
            placing = self.lockout.admit(buzz)
            if placing is not None:
                event = ButtonEvent(
                    name, buzz.player, buzz.action, buzz.t, placing.rank, placing.late_ms
                )
                self._emit(event)

    def _ready(self, buzz: Buzz, earliest_open: float) -> bool:
        return buzz.t <= earliest_open and buzz.t + self.grace <= self._now

    def _emit(self, event: ButtonEvent) -> None:
        self.events.put(event)
        for listener in self.listeners:
            try:
                listener(event)
            except Exception:
                log.exception("button listener %r failed on %s", listener, event)


class HoldTimer(Closing):
    """A daemon thread that polls a panel at its deadlines, so holds fire while still held.

    ``now`` gives the current time on the panel's timeline (seconds).
    """

    def __init__(self, panel: ButtonPanel, now: Callable[[], float], *, idle: float = 30.0):
        self.panel = panel
        self.now = now
        self.idle = idle
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="button-hold-timer", daemon=True)

    def start(self) -> HoldTimer:
        """Start the thread; returns self."""
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and wait for it."""
        self._stop.set()
        self.panel.wake()
        if self._thread.is_alive():
            self._thread.join()

    def __enter__(self) -> HoldTimer:
        return self.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.panel.wait_for_deadline(self.now, self.idle, self._stop)
