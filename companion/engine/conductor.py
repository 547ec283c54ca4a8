"""The conductor: the one way in from the table to the referee.

Cameras, buttons and the screen :meth:`~Conductor.post` typed observations from any
thread; one thread (the app's UI loop, or ``companion play``) calls :meth:`~Conductor.step`,
which ticks the timers, drains the queue, has the game's translator turn each observation
into moves, submits them to the referee, and tells every listener what changed: the new
events, the new :class:`~companion.engine.view.GameView`, the open attention items and the
signals for lights, sounds and voice. Nothing else calls the referee. When the log cannot be
written (a full disk), nothing is lost: the observation waits for the next step, and the
update says why (``trouble``) so the screen can show it.

>>> from companion.engine.clock import ManualClock
>>> from companion.engine.observations import ButtonPress, TableStart
>>> from companion.engine.store import Store
>>> clock = ManualClock(0.0)
>>> start = TableStart("21x", ("ann", "ben"), extra={"deck": ["6x", "2x+4", "x/2", "prime"]})
>>> conductor = Conductor.start(Store(":memory:"), clock, start)
>>> conductor.post(Sighting("placed", "6x", "seat-1", 1.0))
>>> conductor.post(Sighting("placed", "9h", "seat-2", 1.5))
>>> update = conductor.step()
>>> [(e.kind, dict(e.data)) for e in update.events]
[('deal', {'player': 'ann', 'card': '6x'})]
>>> [item.message for item in update.attention]
["9h in seat-2 was refused: card '9h' is not in the declared deck"]
"""

from __future__ import annotations

import collections
import itertools
import queue
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.clock import Clock, ManualClock
from companion.engine.events import Event
from companion.engine.observations import (
    ButtonPress,
    CameraStatus,
    Observation,
    Sighting,
    TableStart,
    Tap,
)
from companion.engine.referee import Referee
from companion.engine.seats import Seating
from companion.engine.store import Store
from companion.engine.timers import EXPIRED
from companion.engine.view import GameView
from companion.errors import CompanionError, IllegalMove, MalformedMove, StoreWriteError
from companion.games.registry import translator_for
from companion.games.translate import Ask, Choice, Submit, Table, Translator, dismiss


@dataclass(frozen=True)
class Attention:
    """An open item for a person to resolve by touch: one line and its choices."""

    id: int
    message: str
    seat: int | None
    choices: tuple[Choice, ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"id": self.id, "message": self.message, "seat": self.seat,
                "choices": [choice.label for choice in self.choices]}


@dataclass(frozen=True)
class Signal:
    """What the lights, sounds and voice should do.

    Kinds: ``buzz`` (the seat won the lockout), ``late`` (the seat buzzed ``detail`` ms
    later), ``right`` and ``wrong`` (a checked call or stand), ``warning`` (``detail``
    seconds left), ``expired``, ``over``, ``attention``, ``refused`` (``detail`` says why),
    ``camera_lost``, ``camera_back``.
    """

    kind: str
    seat: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class Update:
    """What one :meth:`Conductor.step` changed."""

    events: tuple[Event, ...]
    view: GameView
    attention: tuple[Attention, ...]
    signals: tuple[Signal, ...]
    trouble: str = ""
    """Why the log cannot be written now (a full disk): the game waits, nothing is lost."""


Listener = Callable[[Update], None]


class Conductor:
    """Drains the table's observations into the referee (see the module docstring)."""

    def __init__(self, referee: Referee, seating: Seating, translator: Translator[Any]) -> None:
        self.referee = referee
        self.seating = seating
        self.translator = translator
        self.memory: Any = translator.initial()
        self._inbox: queue.SimpleQueue[Observation] = queue.SimpleQueue()
        self._listeners: list[Listener] = []
        self._attention: dict[int, Attention] = {}
        self._ids = itertools.count(1)
        self._signals: list[Signal] = []
        self._retry: collections.deque[Observation] = collections.deque()
        self._view: tuple[object, object, GameView] | None = None

    @classmethod
    def start(cls, store: Store, clock: Clock, start: TableStart,
              session_id: int | None = None) -> Conductor:
        """A new game from a recorded or chosen start (game, players, seats, options)."""
        data = start.start_data()
        seating = Seating.from_start(data)
        translator = translator_for(start.game)
        return cls(Referee.start(store, clock, start.game, data, session_id), seating,
                   translator)

    @classmethod
    def resume(cls, referee: Referee) -> Conductor:
        """The conductor of a resumed game (``Referee.resume_unfinished`` at start-up)."""
        start = referee.events[0].data
        return cls(referee, Seating.from_start(start), translator_for(str(start["game"])))

    @property
    def view(self) -> GameView:
        """The game as a screen shows it, with the translator's own expectations; built
        once per state (states and memories are immutable, so they key it by identity)."""
        state, memory = self.referee.state, self.memory
        cached = self._view
        if cached is not None and cached[0] is state and cached[1] is memory:
            return cached[2]
        view = self.referee.rules.view(state)
        extra = self.translator.expecting(self._table(), memory)
        if extra:
            view = replace(view, expecting=(*extra, *view.expecting))
        self._view = (state, memory, view)
        return view

    @property
    def attention(self) -> tuple[Attention, ...]:
        """The open attention items, oldest first."""
        return tuple(self._attention.values())

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every :class:`Update` (on the stepping thread)."""
        self._listeners.append(listener)

    def post(self, observation: Observation) -> None:
        """Queue one observation; safe from any thread."""
        self._inbox.put(observation)

    def resolve(self, item: int, choice: int) -> None:
        """Answer attention item ``item`` with its choice number ``choice``."""
        self.post(Tap("choose", self.referee.clock(), data={"item": item, "choice": choice}))

    def step(self) -> Update:
        """Tick the timers, handle every queued observation, and tell the listeners."""
        first_new = len(self.referee.events)
        was_over = self.view.outcome.over
        self._signals = []
        trouble = ""
        try:
            self._timers(self.referee.tick())
            while observation := self._next():
                memory = self.memory
                try:
                    self._handle(observation)
                except StoreWriteError:
                    self.memory = memory
                    self._retry.appendleft(observation)
                    raise
                self._timers(self.referee.tick())
        except StoreWriteError as error:
            trouble = str(error)
        new = tuple(self.referee.events[first_new:])
        view = self.view
        if view.outcome.over and not was_over:
            self._signals.append(Signal("over"))
        update = Update(new, view, self.attention, tuple(self._signals), trouble)
        for listener in self._listeners:
            listener(update)
        return update

    def _next(self) -> Observation | None:
        """The next observation: one the store could not take yet, else a new one."""
        if self._retry:
            return self._retry.popleft()
        try:
            return self._inbox.get_nowait()
        except queue.Empty:
            return None

    def _table(self) -> Table:
        return Table(self.referee.rules, self.referee.state, self.seating,
                     float(self.referee.clock()))

    def _handle(self, observation: Observation) -> None:
        if isinstance(observation, Tap) and observation.action == "choose":
            self._choose(observation)
        elif isinstance(observation, Tap) and observation.action == "correct":
            self._correct(observation)
        elif isinstance(observation, CameraStatus):
            self._signals.append(Signal("camera_lost" if observation.lost else "camera_back",
                                        detail=observation.reason))
        else:
            if isinstance(observation, ButtonPress) and observation.late_ms:
                self._signals.append(Signal("late", observation.seat,
                                            f"{observation.late_ms:.0f}"))
            self._translate(as_sighting(observation))

    def _translate(self, observation: Observation) -> None:
        translation = self.translator.translate(self._table(), self.memory, observation)
        self.memory = translation.memory
        for ask in translation.asks:
            self._ask(ask)
        for move in translation.moves:
            self._submit(move, observation)

    def _submit(self, move: Submit, cause: Observation) -> None:
        try:
            event = self.referee.submit(move.kind, move.data)
        except (IllegalMove, MalformedMove) as error:
            seat = self._seat_of(move)
            if isinstance(cause, Sighting):
                where = f" in {cause.zone}" if cause.zone else ""
                self._ask(Ask(f"{cause.card}{where} was refused: {error}", seat,
                              (dismiss(),)))
            else:
                self._signals.append(Signal("refused", seat, str(error)))
            return
        self._signals.extend(signals_of(event, self._seat_of(move), self.view))

    def _seat_of(self, move: Submit) -> int | None:
        player = move.data.get("player")
        seat = next((s for s in self.seating.seats if s.player == player), None)
        return None if seat is None else seat.number

    def _ask(self, ask: Ask) -> None:
        item = next(self._ids)
        choices = ask.choices or (dismiss(),)
        self._attention[item] = Attention(item, ask.message, ask.seat, choices)
        self._signals.append(Signal("attention", ask.seat, ask.message))

    def _choose(self, tap: Tap) -> None:
        item, choice = tap.data.get("item"), tap.data.get("choice")
        attention = self._attention.get(item) if isinstance(item, int) else None
        if attention is None or not isinstance(choice, int) or not (
                0 <= choice < len(attention.choices)):
            self._signals.append(Signal("refused", detail=f"no choice {choice!r} of item"
                                                          f" {item!r}"))
            return
        for follow_up in attention.choices[choice].taps:
            self._handle(follow_up)
        del self._attention[attention.id]  # only once its taps are in (a full disk: retried)

    def _correct(self, tap: Tap) -> None:
        target, replacement = tap.data.get("target"), tap.data.get("replacement")
        try:
            if isinstance(target, bool) or not isinstance(target, int):
                raise IllegalMove("a correction names the seq of the event it corrects")
            if replacement is not None and not isinstance(replacement, dict):
                raise IllegalMove("a correction's replacement must be an object")
            self.referee.correct(target, replacement, str(tap.data.get("reason", "")))
        except StoreWriteError:
            raise
        except CompanionError as error:
            self._signals.append(Signal("refused", detail=str(error)))

    def _timers(self, events: list[Event]) -> None:
        for event in events:
            remaining = event.data.get("remaining")
            kind = "expired" if event.kind == EXPIRED else "warning"
            self._signals.append(Signal(kind, detail=str(remaining)))


def as_sighting(observation: Observation) -> Observation:
    """A card entered by touch (``Tap("card")``) is a sighting like the camera's."""
    if isinstance(observation, Tap) and observation.action == "card":
        card, zone = observation.data.get("card"), observation.data.get("zone")
        if isinstance(card, str) and (zone is None or isinstance(zone, str)):
            return Sighting("placed", card, zone, observation.t)
    return observation


def signals_of(event: Event, seat: int | None, view: GameView) -> list[Signal]:
    """The lights and sounds a logged move calls for: a buzz for the call button, and a
    checked call (or single-player make-21) is right unless it left a note on the seat."""
    if event.kind == "call" and "x" not in event.data:
        return [Signal("buzz", seat)]
    if event.kind in ("call", "make21"):
        seat = seat if seat is not None or len(view.seats) != 1 else view.seats[0].seat
        note = next((s.note for s in view.seats if s.seat == seat), "")
        return [Signal("wrong" if note else "right", seat, note)]
    return []


def play_recorded(
    conductor: Conductor, clock: ManualClock, observations: Iterable[Observation]
) -> Iterator[Update]:
    """Play recorded ``observations`` through ``conductor`` as the table would: ``clock`` (the
    one the conductor was started on) moved to each observation's time, then post and step;
    each step's update in turn (``companion play``, the demo's benchmark, the tests)."""
    for observation in observations:
        clock.advance(max(0.0, observation.t - clock()))
        conductor.post(observation)
        yield conductor.step()
