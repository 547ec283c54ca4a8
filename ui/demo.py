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
screen (the tests; the app's ``companion run --demo GAME`` ticks the director itself).
"""

from __future__ import annotations

import logging
import math
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
from companion.engine.referee import Referee
from companion.engine.store import Store
from companion.errors import ObservationError
from ui.deck import EXPRESSION_GAMES
from vision.layout import DEFAULT_LAYOUTS, TableLayout, solitaire_layout
from vision.scenes.synthetic import ExpressionCard
from vision.simulated import SimulatedTable, SimulationError, simulated_deck
from vision.smoothing import Smoother
from vision.watcher import VOTES, CardReader, TableWatcher, profile_reader, standard_reader

log = logging.getLogger(__name__)

Post = Callable[[Observation], None]
Expected = tuple[str, str, str | None]
"""A sighting the pipeline should post: (kind, card, zone)."""

#: How much faster than real time a demo runs unless told.
DEFAULT_SPEED = 10.0
#: Real seconds the director waits for the pipeline to confirm a change before it gives up
#: on it (and posts the recorded sighting itself, so the game goes on).
CONFIRM_TIMEOUT = 8.0
#: ... and not before the pipeline has read this many frames since the change (a loaded
#: machine reads few a second: a change it had no time to look at is not missed).
CONFIRM_FRAMES = 20
#: A pipeline that holds nothing pending this many frames after a change (the frame being
#: read when it was made, then the vote's) has looked at it and will not look again.
SETTLED_FRAMES = 1 + VOTES
#: A card showing less than this share of itself cannot be seen to go.
HIDDEN_SHARE = 0.3
#: Dice sightings this close (recorded seconds) after the first of a throw are the same throw;
#: cards taken from one zone this close after the first are one sweep (a trick gathered).
ROLL_SECONDS = 1.0
#: The demo's smoothing (s): a card is placed once seen this long, gone once missed this long
#: (the watcher's three-read vote already steadies what it sees; the table waits for each).
DEMO_APPEAR = 0.15
DEMO_VANISH = 0.35
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
    frames: int
    """The pipeline's frame count when the change was made."""
    left: dict[str, str] = field(default_factory=dict)
    """The zone each card moved lay in before (a card seen to go from there has moved)."""

    def take(self, expected: Expected, value: int | None = None) -> Sighting:
        """Tick off ``expected``: the recorded sighting it stands for (of the dice of one
        throw, the one showing ``value`` if there is one, else the first left)."""
        self.expected.remove(expected)
        left = [s for s in self.recorded if (s.kind, s.card, s.zone) == expected]
        recorded = next((s for s in left if s.value == value), left[0])
        self.recorded.remove(recorded)
        return recorded


@dataclass
class DemoReport:
    """How the pipeline did: changes confirmed, changes seen with another card's name
    (``misread``: the change itself was seen, where and when it was made), changes it
    missed (waited out), changes no camera could see (a card taken from under another),
    and sightings the recording did not call for."""

    confirmed: int = 0
    misread: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)
    surprises: list[str] = field(default_factory=list)


class DemoDirector:
    """Acts out ``observations`` (a recording's, after its start) on ``table``.

    ``post`` is the conductor's; give the watcher :meth:`relay` as its ``post`` so the
    director sees what the pipeline confirms. ``timer`` is real time (for the give-up
    ``confirm_timeout``), ``frames`` counts the frames the pipeline has read (it gives up
    only once ``CONFIRM_FRAMES`` were read since the change as well), ``settled`` is the
    frame count after which the pipeline last held nothing pending (the watcher's
    ``settled_at``): settled ``SETTLED_FRAMES`` after a change it has not confirmed, it never
    will, and the director gives up at once instead of waiting out the timeout. A demo plays the
    recorded game whatever the pipeline gets wrong: a change it does not confirm in time
    is posted as recorded, and a sighting the recording does not call for is held back;
    ``strict`` passes such sightings on too (to see what the pipeline alone would make of
    the game). :attr:`report` counts both.
    """

    def __init__(
        self,
        observations: Sequence[Observation],
        table: SimulatedTable,
        post: Post,
        clock: DemoClock,
        *,
        confirm_timeout: float = CONFIRM_TIMEOUT,
        strict: bool = False,
        timer: Clock = time.monotonic,
        frames: Callable[[], int] | None = None,
        settled: Callable[[], int | None] | None = None,
    ) -> None:
        self.observations = list(observations)
        self.strict = strict
        self.table = table
        self.post = post
        self.clock = clock
        self.confirm_timeout = confirm_timeout
        self.frames = frames
        self.settled = settled
        self.report = DemoReport()
        self._timer = timer
        self._next = 0
        self._waiting: _Waiting | None = None
        self._lock = threading.Lock()

    @property
    def done(self) -> bool:
        """Every observation acted out and every change confirmed (or given up on)."""
        with self._lock:
            return self._next >= len(self.observations) and self._waiting is None

    def relay(self, observation: Observation) -> None:
        """Pass a pipeline observation on to the conductor, ticking off what was expected.

        The awaited change seen with another card's name (the same kind of change in the
        same zone) is a misread: it ends the wait at once, and the recorded sighting goes
        on (the misread one when ``strict``). A sighting the recording does not call for
        (a card briefly missed) is noted in the report, and passed on only when ``strict``.
        """
        if isinstance(observation, Sighting):
            with self._lock:
                waiting, awaited = self._waiting, self._awaited(observation)
                if waiting is not None and awaited is not None:
                    recorded = waiting.take(awaited[0], observation.value)
                    if not awaited[1]:
                        self.report.confirmed += 1
                    else:
                        seen = (f"seen leaving {observation.zone}"
                                if observation.card == recorded.card
                                else f"read as {observation.card}")
                        self.report.misread.append(
                            f"{recorded.kind} {recorded.card} in {recorded.zone} {seen}")
                    if not self.strict:  # what the recording says, e.g. placed for moved
                        observation = recorded
                else:
                    self.report.surprises.append(
                        f"{observation.kind} {observation.card} in {observation.zone}")
                    if not self.strict:
                        return
        self.post(observation)

    def _awaited(self, seen: Sighting) -> tuple[Expected, bool] | None:
        """The awaited change ``seen`` stands for, and whether it was misread: the same
        change, or the card arriving in the same zone either way (``moved`` for ``placed``
        when the smoother still had it elsewhere); failing that, such a change of a card
        (not a die) in the same zone under another card's name, or the card seen to leave
        the zone it moved from (where it went misread)."""
        if self._waiting is None:
            return None
        alike = [(kind, card, zone) for kind, card, zone in self._waiting.expected
                 if zone == seen.zone and (kind == seen.kind
                                           or {kind, seen.kind} <= {"placed", "moved"})]
        named = [expected for expected in alike if expected[1] == seen.card]
        if named:
            return named[0], False
        others = [expected for expected in alike if DIE not in (expected[1], seen.card)]
        gone = [(kind, card, zone) for kind, card, zone in self._waiting.expected
                if seen.kind == "removed" and card == seen.card and kind != "removed"
                and self._waiting.left.get(card) == seen.zone]
        misread = others or gone
        return (misread[0], True) if misread else None

    def tick(self) -> None:
        """Act out what is due now, one observation a tick; returns at once.

        The clock stays at the time of what was just posted (or of the change being
        waited for) until the next tick, so the conductor, stepped between ticks, stamps
        each move with its recorded time. The recorded time starts to run at the first
        tick (until then the clock stays where its maker held it).
        """
        with self._lock:
            if self._waiting is not None:
                self._settle(self._waiting)
                return
            if self._next >= len(self.observations):
                self.clock.hold(None)
                return
            observation = self.observations[self._next]
            self.clock.hold(observation.t)
            if self.clock() < observation.t - 1e-9:  # a nanosecond early counts: float clocks
                return
            if isinstance(observation, Sighting):
                group = self._group(observation)
                self._next += len(group)
                self._act(group)
                return
            self._next += 1
            self.post(observation)

    def fast_forward(self, until: float) -> None:
        """Lay the table as the recording has it at ``until`` (a resumed game's last event),
        without waiting for the pipeline, and go on from the first observation after it.
        What the pipeline then sees of those cards is no news: the director holds it back."""
        with self._lock:
            while self._next < len(self.observations):
                observation = self.observations[self._next]
                if observation.t > until:
                    break
                if isinstance(observation, Sighting):
                    group = self._group(observation)
                    self._next += len(group)
                    self._lay(group)
                else:
                    self._next += 1

    def _settle(self, waiting: _Waiting) -> None:
        """End the wait once the change is confirmed, or given up on (then post it)."""
        if waiting.expected and not self._given_up(waiting):
            return
        for expected in list(waiting.expected):
            self.report.missed.append("{} {} in {}".format(*expected))
            log.warning("the pipeline did not confirm %s %s in %s: posting it", *expected)
            self.post(waiting.take(expected))
        self._waiting = None

    def _group(self, first: Sighting) -> list[Sighting]:
        """``first`` and what goes with it: for a roll, the other dice rolled with it, for
        a card taken, the others taken from its zone straight after (their sightings follow
        within ``ROLL_SECONDS``: the dice of one throw land together, a trick is gathered
        in one sweep)."""
        group = [first]
        if first.card != DIE and first.kind != "removed":
            return group
        for observation in self.observations[self._next + 1:]:
            if (not isinstance(observation, Sighting) or observation.kind != first.kind
                    or (observation.card == DIE) != (first.card == DIE)
                    or (first.card != DIE and observation.zone != first.zone)
                    or observation.t - first.t > ROLL_SECONDS):
                break
            group.append(observation)
        return group

    def _act(self, group: list[Sighting]) -> None:
        """Make the change on the table, and wait for the pipeline to see it. A card taken
        from under others, or laid again in the zone it lies in, is posted as recorded at
        once: no camera could see that change."""
        first = group[0]
        left = {p.card: p.zone for p in self.table.placements}
        hidden = [s for s in group if s.card != DIE and (
            self._hidden(s.card) if s.kind == "removed" else self._already_there(s))]
        self._lay(group)
        self.clock.hold(first.t)
        for sighting in hidden:
            self.report.unseen.append(f"{sighting.kind} {sighting.card} in {sighting.zone}")
            self.post(sighting)
        seen = [s for s in group if s not in hidden]
        if seen:
            expected: list[Expected] = [(s.kind, s.card, s.zone) for s in seen]
            self._waiting = _Waiting(expected, seen, self._timer(), self._frames(),
                                     {s.card: left[s.card] for s in seen if s.card in left})

    def _lay(self, group: list[Sighting]) -> None:
        """The change on the simulated table, nothing else."""
        first = group[0]
        try:
            if first.card == DIE:
                self._act_dice(group)
            elif first.kind == "removed":
                for sighting in group:
                    self.table.remove(sighting.card)
            elif first.kind == "moved" or any(p.card == first.card
                                              for p in self.table.placements):
                self.table.move(first.card, str(first.zone))
            else:
                self.table.place(first.card, str(first.zone))
        except SimulationError as error:
            raise ObservationError(f"cannot act it out: {error}",
                                   where=f"observation at t={first.t}") from None

    def _frames(self) -> int:
        """Frames the pipeline has read (0 with no count)."""
        return self.frames() if self.frames is not None else 0

    def _given_up(self, waiting: _Waiting) -> bool:
        """Whether the wait is over: the pipeline settled (nothing voted on or smoothed) on a
        frame read after the change and its vote, so it will not look again; else
        ``confirm_timeout`` passed, and, with a frame count, ``CONFIRM_FRAMES`` read since
        the change."""
        settled_at = self.settled() if self.settled is not None else None
        if settled_at is not None and settled_at >= waiting.frames + SETTLED_FRAMES:
            return True
        timed_out = self._timer() - waiting.since >= self.confirm_timeout
        if self.frames is None:
            return timed_out
        return timed_out and self._frames() - waiting.frames >= CONFIRM_FRAMES

    def _already_there(self, sighting: Sighting) -> bool:
        """Whether ``sighting``'s card lies in its zone already (a recording may lay a card
        again where it is: the table shows no change)."""
        return any(placement.card == sighting.card and placement.zone == sighting.zone
                   for placement in self.table.placements)

    def _hidden(self, card: str) -> bool:
        """Whether ``card`` lies (mostly) under others on the table now."""
        drawn = [seen for seen in self.table.truth() if seen.name == card]
        return bool(drawn) and max(seen.visible_fraction for seen in drawn) < HIDDEN_SHARE

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

    ``layout`` defaults to :func:`demo_layout`; ``data`` is where the simulator's taught
    21X deck is kept (the data directory by default). When ``store`` holds this demo's
    game unfinished (the app was killed or lost power), that game resumes: the table is
    laid as the recording had it at the last logged event, and the recording goes on from
    there.
    """
    start, observations = load_recording(recording)
    table, reader = simulated_table_for(start, layout=layout, seed=seed, data=data)
    if smoother is None:  # every change waits for it: the watcher's votes already steady it
        smoother = Smoother(appear_after=DEMO_APPEAR, vanish_after=DEMO_VANISH)
    game_id = unfinished_demo(store, start)
    began = start.t if game_id is None else store.events(game_id)[-1].t
    clock = DemoClock(began, speed=speed)
    clock.hold(began)  # the game starts at its recorded time; the director lets it run
    conductor = (Conductor.start(store, clock, start) if game_id is None
                 else Conductor.resume(Referee.resume(store, game_id, clock)))
    director = DemoDirector(observations, table, conductor.post, clock)
    director.fast_forward(began)
    watcher = TableWatcher(table, table.layout.calibrated(table.calibration()), reader,
                           director.relay, clock, smoother=smoother)
    director.frames = lambda: watcher.frames_read
    director.settled = lambda: watcher.settled_at
    return SimulatedDemo(start, clock, table, conductor, watcher, director)


def unfinished_demo(store: Store, start: TableStart) -> int | None:
    """The most recent unfinished game in ``store`` that began as ``start`` does, if any."""
    for game_id in reversed(store.unfinished()):
        data = dict(store.events(game_id)[0].data)
        data.pop("session", None)
        if data == {**start.start_data(), "game": start.game}:
            return game_id
    return None


def simulated_table_for(start: TableStart, *, layout: TableLayout | None = None, seed: int = 0,
                        data: str | Path | None = None) -> tuple[SimulatedTable, CardReader]:
    """The simulated table of ``start``'s game (:func:`demo_layout` unless ``layout`` is
    given) and the card reader for its cards (21X cards through a deck taught from the
    simulator, kept in ``data``, the data directory by default)."""
    expressions = None
    if start.game in EXPRESSION_GAMES:
        expressions, deck = _expression_deck(start)
        reader = profile_reader(simulated_deck(expressions, deck, data=data))
    else:
        reader = standard_reader()
    table = SimulatedTable(layout if layout is not None else demo_layout(start), seed=seed,
                           expressions=expressions)
    return table, reader


def laid_table(start: TableStart, observations: Sequence[Observation], *,
               until: float | None = None,
               data: str | Path | None = None) -> tuple[SimulatedTable, CardReader]:
    """The simulated table of ``start``'s game with the cards of ``observations`` laid as
    they lie at recorded time ``until`` (all of them by default), and its card reader
    (``companion snapshot``'s live view)."""
    table, reader = simulated_table_for(start, data=data)
    director = DemoDirector(observations, table, lambda _observation: None, DemoClock(start.t))
    director.fast_forward(math.inf if until is None else until)
    return table, reader


def demo_layout(start: TableStart) -> TableLayout:
    """The game's default layout, with as many solitaire columns as the start asks for."""
    columns = start.options.get("columns")
    if start.game == "solitaire" and isinstance(columns, int):
        return solitaire_layout(columns)
    default: Callable[[], TableLayout] = DEFAULT_LAYOUTS[start.game]
    return default()


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
