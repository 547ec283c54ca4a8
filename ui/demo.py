"""Demo mode: a recorded game played by itself on the simulated table, through the real pipeline.

A :class:`DemoDirector` reads a recorded game (``docs/observations/<game>.jsonl``, see
:mod:`companion.engine.observations`) and, at each observation's time, acts it out: a card
sighting becomes a card laid, moved or taken on the :class:`~vision.simulated.SimulatedTable`
(so the camera pipeline, not the director, tells the conductor), a die roll becomes dice in
the tray, and presses and taps are posted to the conductor as the buttons and the screen
would. Time is the recording's, run ``speed`` times faster than real time by a
:class:`DemoClock`; while the pipeline has not yet confirmed a change the clock waits, so a
slow frame never lets a timer run out early. The director never blocks: call
:meth:`DemoDirector.tick` often (the app from its Kivy clock, :func:`play_headless` in a
plain loop).

:func:`simulated_demo` puts the pieces together for one recording: the table laid out for the
game, the conductor on a :class:`DemoClock`, the watcher (21X cards read through a deck taught
from the simulator) and the director; :func:`play_headless` plays it to the end with no
screen, for tests and ``companion play --camera sim``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.engine.clock import Clock
from companion.engine.conductor import Conductor, Update
from companion.engine.observations import (
    DIE,
    Observation,
    Sighting,
    TableStart,
    read_recording,
)
from companion.engine.store import Store
from companion.errors import ObservationError
from vision.layout import TableLayout
from vision.scenes.synthetic import ExpressionCard
from vision.simulated import SimulatedTable, SimulationError, simulated_deck
from vision.smoothing import Smoother
from vision.watcher import CardReader, TableWatcher, profile_reader, standard_reader

log = logging.getLogger(__name__)

Post = Callable[[Observation], None]
Expected = tuple[str, str, str | None]
"""A sighting the pipeline should post: (kind, card, zone)."""

#: How much faster than real time a demo runs unless told.
DEFAULT_SPEED = 10.0
#: Real seconds the director waits for the pipeline to confirm a change before it gives up
#: on it (and posts the recorded sighting itself, so the game goes on).
CONFIRM_TIMEOUT = 8.0
#: Games whose cards are 21X expression cards (read through a taught deck).
EXPRESSION_GAMES = frozenset({"21x", "21x-solo"})
RECORDINGS = Path(__file__).resolve().parent.parent / "docs" / "observations"


class DemoClock:
    """Recorded time: starts at ``start`` and runs ``speed`` times faster than ``timer``,
    never past the time it is held at (:meth:`hold`). Thread-safe.

    >>> real = [0.0]
    >>> clock = DemoClock(5.0, speed=10.0, timer=lambda: real[0])
    >>> clock.hold(6.0)
    >>> real[0] = 0.05
    >>> clock()
    5.5
    >>> real[0] = 1.0
    >>> clock()
    6.0
    >>> clock.hold(None)
    >>> real[0] = 1.5
    >>> clock()
    11.0
    """

    def __init__(self, start: float = 0.0, *, speed: float = DEFAULT_SPEED,
                 timer: Clock = time.monotonic) -> None:
        if speed <= 0:
            raise ValueError(f"a demo's speed must be positive, not {speed}")
        self.speed = speed
        self._timer = timer
        self._now = start
        self._last = timer()
        self._held: float | None = None
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            real = self._timer()
            ahead = self._now + (real - self._last) * self.speed
            self._last = real
            if self._held is not None:
                ahead = min(ahead, max(self._held, self._now))  # held, but never backwards
            self._now = ahead
            return ahead

    def hold(self, until: float | None) -> None:
        """Run no further than ``until`` (None: run free)."""
        self()
        with self._lock:
            self._held = until


@dataclass
class _Waiting:
    """Sightings the pipeline owes for one acted-out change, and since when (real time)."""

    expected: list[Expected]
    recorded: list[Sighting]
    since: float


@dataclass
class DemoReport:
    """How the pipeline did: changes confirmed, changes it missed, sightings nobody acted."""

    confirmed: int = 0
    missed: list[str] = field(default_factory=list)
    surprises: list[str] = field(default_factory=list)


class DemoDirector:
    """Acts out ``observations`` (a recording's, after its start) on ``table``.

    ``post`` is the conductor's; give the watcher :meth:`relay` as its ``post`` so the
    director sees what the pipeline confirms. ``timer`` is real time (for the give-up
    ``confirm_timeout``).
    """

    def __init__(
        self,
        observations: Sequence[Observation],
        table: SimulatedTable,
        post: Post,
        clock: DemoClock,
        *,
        confirm_timeout: float = CONFIRM_TIMEOUT,
        timer: Clock = time.monotonic,
    ) -> None:
        self.observations = list(observations)
        self.table = table
        self.post = post
        self.clock = clock
        self.confirm_timeout = confirm_timeout
        self.report = DemoReport()
        self._timer = timer
        self._next = 0
        self._waiting: _Waiting | None = None
        self._lock = threading.Lock()
        self._hold_next()

    @property
    def done(self) -> bool:
        """Every observation acted out and every change confirmed (or given up on)."""
        with self._lock:
            return self._next >= len(self.observations) and self._waiting is None

    def relay(self, observation: Observation) -> None:
        """Pass a pipeline observation on to the conductor, ticking off what was expected."""
        if isinstance(observation, Sighting):
            seen = (observation.kind, observation.card, observation.zone)
            with self._lock:
                waiting = self._waiting
                if waiting is not None and seen in waiting.expected:
                    waiting.expected.remove(seen)
                    self.report.confirmed += 1
                else:
                    self.report.surprises.append(f"{seen[0]} {seen[1]} in {seen[2]}")
        self.post(observation)

    def tick(self) -> None:
        """Act out whatever is due now; returns at once."""
        with self._lock:
            if self._waiting is not None and not self._settle(self._waiting):
                return
            while self._next < len(self.observations):
                observation = self.observations[self._next]
                if self.clock() < observation.t:
                    return
                if isinstance(observation, Sighting):
                    group = self._group(observation)
                    self._next += len(group)
                    self._act(group)
                    return
                self._next += 1
                self._hold_next()
                self.post(observation)
            self.clock.hold(None)

    def _settle(self, waiting: _Waiting) -> bool:
        """Whether the change waited for is over (confirmed, or given up on)."""
        if waiting.expected and self._timer() - waiting.since < self.confirm_timeout:
            return False
        for kind, card, zone in waiting.expected:
            self.report.missed.append(f"{kind} {card} in {zone}")
            log.warning("the pipeline did not confirm %s %s in %s: posting it", kind, card, zone)
            self.post(next(s for s in waiting.recorded
                           if (s.kind, s.card, s.zone) == (kind, card, zone)))
        self._waiting = None
        self._hold_next()
        return True

    def _group(self, first: Sighting) -> list[Sighting]:
        """``first`` and, for a roll, the other dice rolled at the same time."""
        group = [first]
        if first.card != DIE:
            return group
        for observation in self.observations[self._next + 1:]:
            if (not isinstance(observation, Sighting) or observation.card != DIE
                    or observation.t != first.t or observation.kind != first.kind):
                break
            group.append(observation)
        return group

    def _act(self, group: list[Sighting]) -> None:
        """Make the change on the table, and wait for the pipeline to see it."""
        first = group[0]
        try:
            if first.card == DIE:
                self._act_dice(group)
            elif first.kind == "removed":
                self.table.remove(first.card)
            elif first.kind == "moved" or any(p.card == first.card
                                              for p in self.table.placements):
                self.table.move(first.card, str(first.zone))
            else:
                self.table.place(first.card, str(first.zone))
        except SimulationError as error:
            raise ObservationError(f"cannot act it out: {error}",
                                   where=f"observation at t={first.t}") from None
        expected: list[Expected] = [(s.kind, s.card, s.zone) for s in group]
        self._waiting = _Waiting(expected, list(group), self._timer())
        self.clock.hold(first.t)

    def _act_dice(self, group: list[Sighting]) -> None:
        dice = list(self.table.dice)
        if group[0].kind == "removed":
            for sighting in group:
                if sighting.value in dice:
                    dice.remove(sighting.value)
        else:
            values = [s.value for s in group if s.value is not None]
            dice = values if len(values) >= len(dice) else dice[: len(dice) - len(values)] + values
        self.table.roll(dice)

    def _hold_next(self) -> None:
        """Hold the clock at the next observation's time (free once there is none)."""
        upcoming = self.observations[self._next] if self._next < len(self.observations) else None
        self.clock.hold(None if upcoming is None else upcoming.t)


@dataclass
class SimulatedDemo:
    """Everything one demo game runs on: start, clock, table, conductor, watcher, director."""

    start: TableStart
    clock: DemoClock
    table: SimulatedTable
    conductor: Conductor
    watcher: TableWatcher
    director: DemoDirector

    def close(self) -> None:
        """Stop the watcher."""
        self.watcher.stop()


def recording_path(game: str) -> Path:
    """The shipped recording of ``game`` (``docs/observations/<game>.jsonl``)."""
    return RECORDINGS / f"{game}.jsonl"


def load_recording(path: str | Path) -> tuple[TableStart, list[Observation]]:
    """A recorded game's start and observations; an unreadable file is an ObservationError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ObservationError(f"cannot read the recording ({error})", where=str(path)) from None
    return read_recording(text, path=str(path))


def simulated_demo(
    recording: str | Path,
    store: Store,
    *,
    speed: float = DEFAULT_SPEED,
    seed: int = 0,
    layout: TableLayout | None = None,
    smoother: Smoother | None = None,
    data: str | Path | None = None,
) -> SimulatedDemo:
    """Set up the demo of ``recording`` (not started: :meth:`TableWatcher.start` the watcher).

    ``layout`` defaults to the game's default layout; ``data`` is where the simulator's
    taught 21X deck is kept (the data directory by default).
    """
    start, observations = load_recording(recording)
    table, reader = simulated_table_for(start, layout=layout, seed=seed, data=data)
    layout = table.layout
    clock = DemoClock(start.t, speed=speed)
    conductor = Conductor.start(store, clock, start)
    director = DemoDirector(observations, table, conductor.post, clock)
    watcher = TableWatcher(table, layout.calibrated(table.calibration()), reader,
                           director.relay, clock, smoother=smoother)
    return SimulatedDemo(start, clock, table, conductor, watcher, director)


def simulated_table_for(start: TableStart, *, layout: TableLayout | None = None, seed: int = 0,
                        data: str | Path | None = None) -> tuple[SimulatedTable, CardReader]:
    """The simulated table of ``start``'s game (its default layout, as many solitaire
    columns as it plays, unless given) and the card reader for its cards (21X cards
    through a deck taught from the simulator)."""
    from ui.deck import table_layout

    if layout is None:
        layout = table_layout(start)
    reader: CardReader = standard_reader()
    expressions = None
    if start.game in EXPRESSION_GAMES:
        expressions, deck = _expression_deck(start)
        reader = profile_reader(simulated_deck(expressions, deck, data=data))
    return SimulatedTable(layout, seed=seed, expressions=expressions), reader


def _expression_deck(start: TableStart) -> tuple[dict[str, ExpressionCard], list[str]]:
    """The 21X cards a start knows (catalogue and inline) as drawn, and its deck's ids."""
    from companion.games.x21.table import read_setup

    setup = read_setup(start.start_data())
    cards = {card_id: ExpressionCard.from_catalogue(card)
             for card_id, card in setup.cards.known.items()}
    return cards, list(setup.deck)


def play_headless(demo: SimulatedDemo, *, every: float = 0.02, timeout: float = 120.0,
                  tail: float = 5.0) -> Update:
    """Play ``demo`` to its end with no screen: the watcher on its thread, the director and
    the conductor stepped every ``every`` real seconds. After the recording, the game runs
    on for ``tail`` recorded seconds (a timer may still end it). Gives the last update."""
    demo.watcher.start()
    deadline = time.monotonic() + timeout
    try:
        update = demo.conductor.step()
        ended_at: float | None = None
        while time.monotonic() < deadline:
            demo.director.tick()
            update = demo.conductor.step()
            if demo.director.done:
                ended_at = demo.clock() if ended_at is None else ended_at
                if update.view.outcome.over or demo.clock() >= ended_at + tail:
                    return update
            time.sleep(every)
        raise TimeoutError(f"the demo did not finish in {timeout:g} s")
    finally:
        demo.close()
