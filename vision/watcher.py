"""The camera side of the table loop: frames in, confirmed :class:`Sighting` observations out.

A :class:`TableWatcher` runs on its own thread: it reads frames from a camera (through a
:class:`~vision.camera.CameraFeed`, so a lost camera is retried, never a crash), reads the
cards in each frame, the dice in the layout's dice zone, puts each in its zone, smooths
them (:class:`~vision.smoothing.Smoother`) and posts every confirmed change as a
:class:`~companion.engine.observations.Sighting`, and a
:class:`~companion.engine.observations.CameraStatus` when the camera is lost or back.
The caller never waits for it: :meth:`TableWatcher.latest` hands over the newest frame
with the outline and name of each card read in it, for the live view.

A card under another (a solitaire column, a pile) is often not readable: once read, it
is remembered where it lay while a card read since covers it, so it is not reported
removed just because it is hidden.

Cards are read by a :data:`CardReader`: :func:`standard_reader` for playing cards,
:func:`profile_reader` for a taught deck (21X cards); both read only where the picture
changed, and let three reads vote (:class:`ChangeReader`).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.closing import Closing
from companion.engine.clock import Clock
from companion.engine.events import Event
from companion.engine.observations import CameraStatus, Observation, Sighting
from companion.errors import DeviceError
from vision.camera import Camera, CameraFeed, Frame, Image
from vision.cards import CardRecognizer
from vision.dice import find_dice
from vision.layout import Point, TableLayout
from vision.observations import CardObservation, DieObservation
from vision.partial import OverlapRecognizer
from vision.profile import DeckProfile
from vision.smoothing import Smoother, TableChange

log = logging.getLogger(__name__)

CardReader = Callable[[Image], list[CardObservation]]
"""Reads the cards of one frame (pixel positions, no zones yet)."""
CameraOpener = Callable[[], Camera]
"""Opens a camera (``lambda: open_camera(spec)``); the watcher calls it on its own thread,
again to reconnect after a loss."""
Post = Callable[[Observation], None]

#: A hidden card is still there while this share of its last outline lies under a card
#: laid since; a card whose centre moves further than ``MOVED_PIXELS`` was laid again.
COVERED_SHARE = 0.5
MOVED_PIXELS = 20.0
#: Grey thumbnails (1/``CHANGE_CELL`` size) that differ by more than ``CHANGE_LEVEL``
#: somewhere are a changed picture (sensor noise stays well below).
CHANGE_CELL = 8
CHANGE_LEVEL = 18
#: Reads of a changed picture that vote on what it shows.
VOTES = 3
#: Cards whose centre lies up to ``REACH`` pixels past a change are read again, in a crop
#: reaching ``MARGIN`` pixels (more than half a card's diagonal at 1280x720) further, so
#: they are read whole; a change over more than ``FULL_SHARE`` of the frame is read whole.
REACH = 30
MARGIN = 100
FULL_SHARE = 0.4
#: Frames kept for the frames-per-second figure.
FPS_WINDOW = 20


@dataclass(frozen=True)
class Outline:
    """A card read in a frame: its name, its outline in pixels, and its zone."""

    card: str
    corners: tuple[Point, ...]
    zone: str | None


@dataclass(frozen=True)
class Preview:
    """The newest frame the watcher read, with every card it read in it."""

    frame: Image
    outlines: tuple[Outline, ...]
    t: float
    number: int


def standard_reader(recognizer: CardRecognizer | None = None) -> CardReader:
    """Playing cards, read again where the picture changed (see :class:`ChangeReader`)."""
    return ChangeReader((recognizer if recognizer is not None else CardRecognizer()).recognize)


def profile_reader(profile: DeckProfile) -> CardReader:
    """The cards of a taught deck (21X), whole or overlapped (a fanned hand), read again
    where the picture changed."""
    return ChangeReader(OverlapRecognizer(profile).recognize)


Box = tuple[int, int, int, int]
"""A part of a frame: x0, y0, x1, y1 (pixels, end excluded)."""


class ChangeReader:
    """Reads a frame's cards with ``recognize`` only where the picture changed.

    Each frame is compared, in grey at 1/``CHANGE_CELL`` size, with the last one (sensor
    noise stays below ``CHANGE_LEVEL``). The cards whose centre lies within ``reach``
    pixels of a change are read again, by ``recognize`` on a crop reaching ``margin``
    pixels (more than half a card's diagonal) further, so they are read whole; cards
    elsewhere keep their last reading. A change over more than ``full_share`` of the
    frame is read whole. A changed part is read on ``votes`` frames in a row and then
    holds the cards a majority of those reads agree on: one read can miss a card or
    see one that is not there, a majority seldom does.

    >>> reads = iter([["7h", "Kd"], ["7h"], ["7h", "Kd", "2c"]])
    >>> reader = ChangeReader(lambda frame: [CardObservation(c, (5, 5), (0, 0), 1.0)
    ...                                      for c in next(reads)], votes=3)
    >>> frame = np.zeros((16, 16, 3), np.uint8)
    >>> [[card.card for card in reader(frame)] for _ in range(4)], reader.reads
    ([['7h', 'Kd'], ['7h'], ['7h', 'Kd'], ['7h', 'Kd']], 3)
    """

    def __init__(self, recognize: CardReader, *, votes: int = VOTES, reach: int = REACH,
                 margin: int = MARGIN, full_share: float = FULL_SHARE) -> None:
        self.recognize = recognize
        self.votes = votes
        self.reach = reach
        self.margin = margin
        self.full_share = full_share
        self.cards: list[CardObservation] = []
        self.reads = 0
        self._reference: np.ndarray | None = None
        self._changed: list[Box] = []
        self._ballots: list[list[CardObservation]] = []

    def __call__(self, frame: Image) -> list[CardObservation]:
        thumbnail = _thumbnail(frame)
        height, width = frame.shape[:2]
        reference, self._reference = self._reference, thumbnail
        if reference is None or reference.shape != thumbnail.shape:
            self._restart([(0, 0, width, height)])
        else:
            changed = cv2.absdiff(thumbnail, reference) > CHANGE_LEVEL
            if changed.any():
                self._restart(_change_boxes(changed))
        if not self._changed:
            return self.cards
        accepts = [_grown(box, self.reach, width, height) for box in self._changed]
        crops = [_grown(box, self.margin, width, height) for box in accepts]
        if sum(_area(crop) for crop in crops) > self.full_share * width * height:
            crops = accepts = [(0, 0, width, height)]
        ballot = [card for crop, accept in zip(crops, accepts, strict=True)
                  for card in self._read(frame, crop) if _inside(card.center, accept)]
        self._ballots.append(ballot)
        kept = [card for card in self.cards
                if not any(_inside(card.center, accept) for accept in accepts)]
        if len(self._ballots) < self.votes:
            return kept + ballot
        self.cards = kept + _majority(self._ballots)
        self._changed = []
        return self.cards

    @property
    def voting(self) -> bool:
        """Whether a changed part is still being voted on (read again on the next frames)."""
        return bool(self._changed)

    def _restart(self, boxes: list[Box]) -> None:
        """A (new) change in ``boxes``: joined to any still being voted on, voted afresh."""
        self._changed = _merged(self._changed + boxes, self.reach + self.margin)
        self._ballots = []

    def _read(self, frame: Image, crop: Box) -> list[CardObservation]:
        self.reads += 1
        x0, y0, x1, y1 = crop
        if crop == (0, 0, frame.shape[1], frame.shape[0]):
            return self.recognize(frame)
        return [_shifted(card, x0, y0)
                for card in self.recognize(np.ascontiguousarray(frame[y0:y1, x0:x1]))]


def _change_boxes(changed: np.ndarray) -> list[Box]:
    """The boxes (frame pixels) around each patch of changed thumbnail cells."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8))
    cell = CHANGE_CELL
    return [(int(x) * cell, int(y) * cell, int(x + w) * cell, int(y + h) * cell)
            for x, y, w, h, _ in stats[1:count]]


def _merged(boxes: list[Box], reach: int) -> list[Box]:
    """``boxes`` with any two that come within ``2 * reach`` of each other joined (their
    crops would overlap)."""
    merged: list[Box] = []
    for box in sorted(boxes):
        for number, other in enumerate(merged):
            if (box[0] < other[2] + 2 * reach and other[0] < box[2] + 2 * reach
                    and box[1] < other[3] + 2 * reach and other[1] < box[3] + 2 * reach):
                merged[number] = (min(box[0], other[0]), min(box[1], other[1]),
                                  max(box[2], other[2]), max(box[3], other[3]))
                break
        else:
            merged.append(box)
    return merged


def _grown(box: Box, by: int, width: int, height: int) -> Box:
    return (max(0, box[0] - by), max(0, box[1] - by), min(width, box[2] + by),
            min(height, box[3] + by))


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def _inside(point: tuple[float, float], box: Box) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def _shifted(card: CardObservation, dx: float, dy: float) -> CardObservation:
    def moved(point: tuple[float, float]) -> tuple[float, float]:
        return (point[0] + dx, point[1] + dy)

    return replace(card, center=moved(card.center), index=moved(card.index),
                   corners=tuple(moved(corner) for corner in card.corners))


def _majority(ballots: list[list[CardObservation]]) -> list[CardObservation]:
    """The cards read in more than half the ballots (each as its latest read found it).

    Cards of one name (two jokers) are told apart by their order from left to right.
    """
    latest: dict[tuple[str, int], CardObservation] = {}
    counts: dict[tuple[str, int], int] = {}
    for ballot in ballots:
        order: dict[str, int] = {}
        for card in sorted(ballot, key=lambda seen: seen.center):
            key = (card.card, order.setdefault(card.card, 0))
            order[card.card] += 1
            latest[key] = card
            counts[key] = counts.get(key, 0) + 1
    return [card for key, card in latest.items() if 2 * counts[key] > len(ballots)]


def _thumbnail(frame: Image) -> np.ndarray:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    height, width = grey.shape
    size = (max(1, width // CHANGE_CELL), max(1, height // CHANGE_CELL))
    return np.asarray(cv2.resize(grey, size, interpolation=cv2.INTER_AREA))


class _Stopped(Exception):
    """The watcher was stopped while waiting to reconnect the camera."""


@dataclass(eq=False)
class _Remembered:
    """A card once read: where it was read last, and when it came there (an arrival number).
    Two memories are equal only if they are the same one (``in`` tests identity)."""

    seen: CardObservation
    came: int


class CoverMemory:
    """Cards once read that now lie under a card laid since: still on the table.

    A card read is remembered where it was last read, with when it came there (a card
    that moved is newer). One not read now is still reported while a card that came
    later covers ``share`` of its last outline; neighbours that merely touch (outlines
    estimated from an index can reach past the card) hide nothing.

    Two cards of one name (the two jokers) are remembered apart. A card read is the one of
    its name read last time within ``MOVED_PIXELS``, else one hidden there (read again, or,
    if one of its name was in view last time and is not now, that one laid on top of it),
    else one of its name in view or gone from view since (it moved), else another card.

    >>> memory = CoverMemory()
    >>> low = CardObservation("7h", (5, 5), (1, 1), 0.9, ((0, 0), (10, 0), (10, 10), (0, 10)))
    >>> high = CardObservation("Kd", (7, 5), (3, 1), 0.9, ((3, 0), (13, 0), (13, 10), (3, 10)))
    >>> [seen.card for seen in memory.update([low])]
    ['7h']
    >>> [seen.card for seen in memory.update([high])]
    ['Kd', '7h']
    >>> memory.forget("7h")
    >>> [seen.card for seen in memory.update([high])]
    ['Kd']
    """

    def __init__(self, share: float = COVERED_SHARE) -> None:
        self.share = share
        self._cards: list[_Remembered] = []
        self._arrivals = 0
        self._read: list[_Remembered] = []
        self._hidden: list[_Remembered] = []

    def update(self, seen: list[CardObservation]) -> list[CardObservation]:
        """``seen`` plus the remembered cards hidden under one of them."""
        read: list[_Remembered] = []
        for card in seen:
            read.append(self._remember(card, read))
        unread = [card for card in self._cards if card not in read]
        self._read = read
        self._hidden = [card for card in unread if any(self._covers(top, card) for top in read)]
        return seen + [card.seen for card in self._hidden]

    def forget(self, card: str) -> None:
        """``card`` left the table (of two of its name, one not reported now if there is)."""
        named = [kept for kept in self._cards if kept.seen.card == card]
        reported = self._read + self._hidden
        gone = [kept for kept in named if kept not in reported] or named
        if gone:
            self._cards.remove(gone[0])

    def _remember(self, card: CardObservation, taken: list[_Remembered]) -> _Remembered:
        """The memory of ``card``, read now (``taken``: the memories of the cards read
        before it in this frame)."""
        same = [kept for kept in self._cards
                if kept.seen.card == card.card and kept not in taken]
        in_view = [kept for kept in same if kept in self._read]
        here = [kept for kept in same if math.dist(kept.seen.center, card.center) <= MOVED_PIXELS]
        stayed = [kept for kept in here if kept in self._read]
        if stayed:
            stayed[0].seen = card
            return stayed[0]
        under = [kept for kept in here if kept in self._hidden]
        if under and not in_view:  # read again where it lay hidden
            under[0].seen = card
            return under[0]
        movers = in_view or [kept for kept in same if kept not in self._hidden]
        self._arrivals += 1
        if movers:
            mover = min(movers, key=lambda kept: math.dist(kept.seen.center, card.center))
            mover.seen, mover.came = card, self._arrivals
            return mover
        fresh = _Remembered(card, self._arrivals)
        self._cards.append(fresh)
        return fresh

    def _covers(self, top: _Remembered, below: _Remembered) -> bool:
        if top.came < below.came:
            return False
        if len(top.seen.corners) < 3 or len(below.seen.corners) < 3:
            return False
        under = np.array(below.seen.corners, np.float32)
        area, _ = cv2.intersectConvexConvex(np.array(top.seen.corners, np.float32), under)
        return float(area) >= self.share * max(float(cv2.contourArea(under)), 1.0)


class TableWatcher(Closing):
    """Watches ``camera`` over a calibrated ``layout`` and posts what changes to ``post``.

    ``camera`` is a camera, a feed, or a :data:`CameraOpener`: then the camera is opened on
    the watcher's thread, so opening it (a Pi camera takes about a second, estimated) never
    holds up the caller, and one that cannot open is :attr:`failure` and a lost
    :class:`~companion.engine.observations.CameraStatus` posted.
    ``clock`` stamps frames (the referee's clock, so sightings carry its times), ``timer``
    paces the smoothing and the frame rate (a steady clock); ``max_fps`` keeps a camera
    that never waits (the simulated table) from taking a whole core. :meth:`start` the
    thread, :meth:`stop` (or ``with``) to join it; :meth:`process` does one frame on the
    caller's thread (tests, a headless loop).
    """

    def __init__(
        self,
        camera: Camera | CameraFeed | CameraOpener,
        layout: TableLayout,
        read_cards: CardReader,
        post: Post,
        clock: Clock,
        *,
        smoother: Smoother | None = None,
        max_fps: float = 20.0,
        timer: Clock = time.perf_counter,
    ) -> None:
        if layout.calibration is None:
            layout.assign([])  # raises the layout's "not calibrated" error
        self.layout = layout
        self.read_cards = read_cards
        self.post = post
        self.clock = clock
        self.smoother = smoother if smoother is not None else Smoother()
        self.max_fps = max_fps
        self._timer = timer
        self._stopping = threading.Event()
        self._recalibrating = threading.Event()
        self._source = camera
        self._feed: CameraFeed | None = None
        self._thread: threading.Thread | None = None
        self._latest: Preview | None = None
        self._times: deque[float] = deque(maxlen=FPS_WINDOW)
        self._memory = CoverMemory()
        self._dice_box = _dice_box(layout)
        self.failure: BaseException | None = None
        self.frames_read = 0
        """Frames read so far (a slow machine reads fewer a second)."""
        self.settled_at: int | None = None
        """:attr:`frames_read` after the last frame when it left nothing pending (no change
        being voted on or smoothed), else None: what the pipeline has not posted by then, it
        will not post until the picture changes again."""

    # --- the caller's side ------------------------------------------------------------

    def start(self, after: TableWatcher | None = None) -> TableWatcher:
        """Start watching on a thread of its own; with ``after`` (a watcher told to stop
        without waiting), that thread first waits for it to release its camera."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, args=(after,), name="table-watcher", daemon=True
            )
            self._thread.start()
        return self

    def latest(self) -> Preview | None:
        """The newest frame read and its cards (None before the first frame); never waits."""
        return self._latest

    @property
    def fps(self) -> float:
        """Frames per second over the last few frames (0 before two frames)."""
        times = list(self._times)
        if len(times) < 2 or times[-1] <= times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])

    def recalibrate(self) -> None:
        """Have the camera's automatic exposure and white balance run again, from the
        watcher's thread at its next frame (zone calibration: the light may have changed);
        a Pi camera locks them again once they have settled."""
        self._recalibrating.set()

    def stop(self, wait: bool = True) -> None:
        """Stop the thread; it releases the camera as it ends. ``wait``: until it has ended
        (the UI does not: a camera still opening would hold it up for a second)."""
        self._stopping.set()
        if self._thread is not None and wait:
            self._thread.join()

    close = stop

    # --- the watcher's side -------------------------------------------------------------

    def process(self, image: Image, t: float, number: int = 0) -> list[Sighting]:
        """Read one frame seen at ``t`` (on ``clock``): post (and return) the sightings it
        confirms. Smoothing runs on ``timer`` (steady frame time, whatever the game clock
        does); a sighting is stamped on ``clock`` when its change began."""
        cards = self.layout.assign(self._memory.update(self.read_cards(image)))
        dice = self._read_dice(image)
        self._latest = Preview(
            image,
            tuple(Outline(card.card, card.corners, card.zone) for card in cards),
            t,
            number,
        )
        now = self._timer()
        self._times.append(now)
        self.frames_read += 1
        changes = self.smoother.update([*cards, *dice], now)
        voting = isinstance(self.read_cards, ChangeReader) and self.read_cards.voting
        self.settled_at = None if voting or self.smoother.pending else self.frames_read
        sightings = [_sighting(change, max(0.0, t - (now - change.t))) for change in changes]
        for sighting in sightings:
            if sighting.kind == "removed":
                self._memory.forget(sighting.card)
            self.post(sighting)
        return sightings

    def _read_dice(self, image: Image) -> list[DieObservation]:
        if self._dice_box is None:
            return []
        x0, y0, x1, y1 = self._dice_box
        found = find_dice(image[y0:y1, x0:x1])
        shifted = [replace(die, center=(die.center[0] + x0, die.center[1] + y0)) for die in found]
        return self.layout.assign(shifted)

    def _run(self, after: TableWatcher | None) -> None:
        if after is not None and after._thread is not None:
            after._thread.join()  # its camera released before this one opens
        try:
            self._feed = self._open_feed()
            for item in self._feed:
                if self._stopping.is_set():
                    break
                if self._recalibrating.is_set():
                    self._recalibrating.clear()
                    self._recalibrate(self._feed)
                if isinstance(item, Frame):
                    started = self._timer()
                    self.process(item.image, item.t, item.number)
                    self._pause(1.0 / self.max_fps - (self._timer() - started))
                else:
                    self.post(_camera_status(item))
        except _Stopped:
            pass
        except DeviceError as error:  # the camera cannot be opened (or reopened): no bug
            log.warning("the table watcher stopped: %s", error)
            self._fail(error)
        except Exception as error:  # the watcher must say why it stopped, not vanish
            log.exception("the table watcher stopped")
            self._fail(error)
        finally:
            if self._feed is not None:
                self._feed.close()

    @staticmethod
    def _recalibrate(feed: CameraFeed) -> None:
        try:
            feed.recalibrate()
        except DeviceError as error:  # frames still flow: play on with the locked exposure
            log.warning("%s; exposure stays as it was", error)

    def _fail(self, error: Exception) -> None:
        self.failure = error
        self.post(CameraStatus(lost=True, t=self.clock(), reason=str(error)))

    def _open_feed(self) -> CameraFeed:
        source = self._source
        if isinstance(source, CameraFeed):
            return source
        if not isinstance(source, Camera):
            return CameraFeed(source, clock=self.clock, sleep=self._wait)
        opened: list[Camera] = []

        def connect() -> Camera:
            """The camera at first; after a loss the same camera reopened, if it can be."""
            if not opened:
                opened.append(source)
                return source
            reopen: Callable[[], Camera] | None = getattr(source, "reopen", None)
            if reopen is None:
                raise DeviceError(f"{source.description} cannot be reopened: pass a CameraFeed")
            return reopen()

        return CameraFeed(connect, clock=self.clock, sleep=self._wait)

    def _wait(self, seconds: float) -> None:
        if self._stopping.wait(seconds):
            raise _Stopped

    def _pause(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


def _dice_box(layout: TableLayout) -> tuple[int, int, int, int] | None:
    """The image box (x0, y0, x1, y1) around the layout's dice zone, if it has one."""
    zone = next((zone for zone in layout.zones if zone.kind == "dice"), None)
    if zone is None or layout.calibration is None:
        return None
    points = np.array([layout.calibration.to_image(point) for point in zone.polygon])
    x0, y0 = (max(0, int(v) - 8) for v in points.min(axis=0))
    x1, y1 = (int(v) + 8 for v in points.max(axis=0))
    return x0, y0, x1, y1


def _sighting(change: TableChange, t: float) -> Sighting:
    return Sighting(kind=change.kind, card=change.card, zone=change.zone, t=t,
                    from_zone=change.from_zone, value=change.value)


def _camera_status(event: Event) -> CameraStatus:
    return CameraStatus(lost=event.kind == "camera_lost", t=event.t,
                        reason=str(event.data.get("reason", "")))
