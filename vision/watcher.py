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

Cards are read by a :data:`CardReader`: :func:`standard_reader` for playing cards (the
tracker re-reads only where the picture changed), :func:`profile_reader` for a taught
deck (21X cards).
"""

from __future__ import annotations

import logging
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
from vision.cards import CardRecognizer, CardTracker
from vision.dice import find_dice
from vision.layout import Point, TableLayout
from vision.observations import CardObservation, DieObservation
from vision.partial import OverlapRecognizer
from vision.profile import DeckProfile
from vision.smoothing import Smoother, TableChange

log = logging.getLogger(__name__)

CardReader = Callable[[Image], list[CardObservation]]
"""Reads the cards of one frame (pixel positions, no zones yet)."""
Post = Callable[[Observation], None]

#: A hidden card is still there while this share of its last outline lies under a card
#: read since.
COVERED_SHARE = 0.15
#: Grey thumbnails (1/``CHANGE_CELL`` size) that differ by more than ``CHANGE_LEVEL``
#: somewhere are a changed picture (sensor noise stays well below).
CHANGE_CELL = 8
CHANGE_LEVEL = 18
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
    """Playing cards, re-read only where the picture changed."""
    return CardTracker(recognizer if recognizer is not None else CardRecognizer()).update


def profile_reader(profile: DeckProfile) -> CardReader:
    """The cards of a taught deck (21X), whole or overlapped (a fanned hand), read again
    only when the picture changed."""
    recognizer = OverlapRecognizer(profile)
    last: list[np.ndarray] = []
    cards: list[CardObservation] = []

    def read(frame: Image) -> list[CardObservation]:
        nonlocal cards
        thumbnail = _thumbnail(frame)
        if not last or last[0].shape != thumbnail.shape or _changed(thumbnail, last[0]):
            last[:] = [thumbnail]
            cards = recognizer.recognize(frame)
        return cards

    return read


def _thumbnail(frame: Image) -> np.ndarray:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    height, width = grey.shape
    size = (max(1, width // CHANGE_CELL), max(1, height // CHANGE_CELL))
    return np.asarray(cv2.resize(grey, size, interpolation=cv2.INTER_AREA))


def _changed(thumbnail: np.ndarray, reference: np.ndarray) -> bool:
    return bool((cv2.absdiff(thumbnail, reference) > CHANGE_LEVEL).any())


class _Stopped(Exception):
    """The watcher was stopped while waiting to reconnect the camera."""


class CoverMemory:
    """Cards once read that now lie under a card read since: still on the table.

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
        self._last: dict[str, CardObservation] = {}

    def update(self, seen: list[CardObservation]) -> list[CardObservation]:
        """``seen`` plus the remembered cards hidden under one of them."""
        names = {card.card for card in seen}
        hidden = [
            card
            for name, card in self._last.items()
            if name not in names and any(self._covers(top, card) for top in seen)
        ]
        for card in seen:
            self._last[card.card] = card
        return seen + hidden

    def forget(self, card: str) -> None:
        """``card`` left the table."""
        self._last.pop(card, None)

    def _covers(self, top: CardObservation, below: CardObservation) -> bool:
        if len(top.corners) < 3 or len(below.corners) < 3:
            return False
        under = np.array(below.corners, np.float32)
        area, _ = cv2.intersectConvexConvex(np.array(top.corners, np.float32), under)
        return float(area) >= self.share * max(float(cv2.contourArea(under)), 1.0)


class TableWatcher(Closing):
    """Watches ``camera`` over a calibrated ``layout`` and posts what changes to ``post``.

    ``clock`` stamps frames (the referee's clock, so sightings carry its times), ``timer``
    paces the smoothing and the frame rate (a steady clock); ``max_fps`` keeps a camera
    that never waits (the simulated table) from taking a whole core. :meth:`start` the
    thread, :meth:`stop` (or ``with``) to join it; :meth:`process` does one frame on the
    caller's thread (tests, a headless loop).
    """

    def __init__(
        self,
        camera: Camera | CameraFeed,
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
        self._source = camera
        self._feed: CameraFeed | None = None
        self._thread: threading.Thread | None = None
        self._latest: Preview | None = None
        self._times: deque[float] = deque(maxlen=FPS_WINDOW)
        self._memory = CoverMemory()
        self._dice_box = _dice_box(layout)
        self.failure: BaseException | None = None

    # --- the caller's side ------------------------------------------------------------

    def start(self) -> TableWatcher:
        """Start watching on a thread of its own."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="table-watcher", daemon=True)
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

    def stop(self) -> None:
        """Stop the thread and wait for it; release the camera."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._feed is not None:
            self._feed.close()

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
        changes = self.smoother.update([*cards, *dice], now)
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

    def _run(self) -> None:
        try:
            self._feed = self._open_feed()
            for item in self._feed:
                if self._stopping.is_set():
                    break
                if isinstance(item, Frame):
                    started = self._timer()
                    self.process(item.image, item.t, item.number)
                    self._pause(1.0 / self.max_fps - (self._timer() - started))
                else:
                    self.post(_camera_status(item))
        except _Stopped:
            pass
        except Exception as error:  # the watcher must say why it stopped, not vanish
            self.failure = error
            log.exception("the table watcher stopped")
            self.post(CameraStatus(lost=True, t=self.clock(), reason=str(error)))

    def _open_feed(self) -> CameraFeed:
        source = self._source
        if isinstance(source, CameraFeed):
            return source
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
