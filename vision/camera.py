"""Camera sources behind one interface, chosen at run time, and a feed that survives a lost camera.

:func:`open_camera` takes a spec string:

* ``"auto"``: the Pi camera (picamera2) when the module imports and a camera is present,
  else the first OpenCV camera (index 0);
* ``"picamera2"``: the Pi camera only;
* ``"0"``, ``"1"``, ... or ``"/dev/video2"``: an OpenCV (V4L2/USB) camera by index or device;
* a path to an image, a folder of images or a video file: a replay, for the simulator and tests.

Every source is a context manager whose :meth:`Camera.read` returns one fresh BGR frame::

    with open_camera("auto") as camera:
        frame = camera.read()

A missing camera raises :class:`~companion.errors.DeviceError` with a one-line message.
:class:`CameraFeed` wraps a source for a whole game: it yields frames, and when the
camera fails it yields a ``camera_lost`` event, reopens it with growing pauses (on an
injected clock and sleep) and yields ``camera_back`` once frames flow again.

>>> import numpy as np
>>> with ReplayCamera.of_frames([np.zeros((2, 3, 3), np.uint8)], loop=True) as camera:
...     camera.read().shape, camera.read().shape
((2, 3, 3), (2, 3, 3))
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import time
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from companion.closing import Closing
from companion.engine.clock import Clock
from companion.engine.events import Event
from companion.errors import DeviceError

LOG = logging.getLogger(__name__)
Image = npt.NDArray[Any]
"""A frame: height x width x 3, BGR, uint8 (OpenCV's order)."""

Sleep = Callable[[float], None]

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mkv", ".mov", ".m4v", ".webm", ".mjpeg", ".mjpg"})
DEFAULT_SIZE = (640, 480)
#: The picamera2 controls that automatic exposure and white balance set, locked for a game.
LOCKED_CONTROLS = ("ExposureTime", "AnalogueGain", "ColourGains")
#: Seconds the Pi camera's automatic exposure and white balance run after it opens (or after
#: :meth:`Camera.recalibrate`) before they are locked: libcamera settles in well under a second
#: of frames at a steady light.
SETTLE_SECONDS = 2.0


class EndOfReplay(DeviceError):
    """A replay that is not looping has no more frames."""


class Camera(Closing):
    """A source of BGR frames; use it as a context manager so it is always released."""

    description: str = "camera"

    @abstractmethod
    def read(self) -> Image:
        """The next fresh frame; raises :class:`DeviceError` if the source failed."""

    @abstractmethod
    def close(self) -> None:
        """Release the device (safe to call twice)."""

    def lock_exposure(self) -> dict[str, object]:
        """Fix exposure and white balance at what the camera's automatic control settled on,
        so the picture does not drift during a game; returns the locked settings. Sources
        without automatic control (replays, OpenCV cameras here) have none to lock: ``{}``."""
        return {}

    def recalibrate(self) -> None:
        """Let automatic exposure and white balance run again (a new game, a lamp switched on,
        zone calibration); a camera that locks them does so again once they have settled."""

    @property
    def locked(self) -> dict[str, object]:
        """The exposure and white balance settings locked for the game: ``{}`` while they
        are automatic, and for a source without automatic control."""
        return {}

    @property
    def settling(self) -> bool:
        """Whether automatic exposure and white balance are still settling, so that a frame
        read now may be darker, brighter or more tinted than the game's will be. Sources
        without automatic control never are."""
        return False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.description}>"


def as_bgr(frame: Image) -> Image:
    """A 3-channel contiguous uint8 frame: drops a padding/alpha channel (XBGR8888 gives four).

    >>> as_bgr(np.zeros((2, 2, 4), np.uint8)).shape
    (2, 2, 3)
    """
    if frame.ndim == 2:
        frame = np.repeat(frame[:, :, None], 3, axis=2)
    elif frame.shape[2] == 4:
        frame = frame[:, :, :3]
    return np.ascontiguousarray(frame, dtype=np.uint8)


def read_settled(camera: Camera) -> Image:
    """The first frame read once the camera's automatic exposure and white balance have
    settled (at once for a source without them), the frame a check should judge: a Pi camera
    locks them :data:`SETTLE_SECONDS` after it opens, and its first frames come before that."""
    frame = camera.read()
    while camera.settling:
        frame = camera.read()
    return frame


class Picamera2Camera(Camera):
    """The Raspberry Pi camera through picamera2, imported only when this class is used.

    The main stream is configured as ``RGB888``, which picamera2 delivers as a numpy array
    in B, G, R order, OpenCV's order, so frames need no conversion. Two buffers and
    ``queue=False`` make every :meth:`read` wait for a frame that started after the call,
    never hand back one that sat in a queue. A camera that stalls (a loose ribbon cable)
    raises :class:`DeviceError` after ``frame_timeout`` seconds instead of hanging.

    Exposure and white balance are automatic for ``settle_seconds`` (on ``clock``) after the
    camera opens or :meth:`recalibrate` is called, then locked at what they settled on
    (:meth:`lock_exposure`), so the picture does not drift during a game.
    """

    def __init__(
        self,
        size: tuple[int, int] = DEFAULT_SIZE,
        camera_num: int = 0,
        frame_timeout: float = 2.0,
        *,
        settle_seconds: float = SETTLE_SECONDS,
        clock: Clock = time.monotonic,
    ) -> None:
        self.description = f"picamera2 camera {camera_num} at {size[0]}x{size[1]}"
        self._frame_timeout = frame_timeout
        self._settle_seconds, self._clock = settle_seconds, clock
        try:
            module = importlib.import_module("picamera2")
        except ImportError:
            raise DeviceError("picamera2 is not installed (install it on the Pi)") from None
        try:
            cameras = module.Picamera2.global_camera_info()
        except Exception as error:
            raise DeviceError(f"picamera2 cannot list cameras ({_one_line(error)})") from None
        if len(cameras) <= camera_num:
            raise DeviceError(f"no Pi camera {camera_num} connected ({len(cameras)} found)")
        try:
            self._camera = module.Picamera2(camera_num)
        except Exception as error:
            raise DeviceError(f"cannot open Pi camera {camera_num} ({_one_line(error)})") from None
        try:
            configuration = self._camera.create_preview_configuration(
                main={"format": "RGB888", "size": size}, buffer_count=2, queue=False
            )
            self._camera.configure(configuration)
            self._camera.start()
        except Exception as error:
            self._camera.close()  # release it, or the next attempt finds the camera busy
            raise DeviceError(f"cannot start Pi camera {camera_num} ({_one_line(error)})") from None
        self._open = True
        self._lock_due: float | None = clock() + settle_seconds
        self._locked: dict[str, object] = {}

    def read(self) -> Image:
        if not self._open:
            raise DeviceError(f"{self.description} is closed")
        try:
            job = self._camera.capture_array("main", wait=False)
            frame = self._camera.wait(job, timeout=self._frame_timeout)
        except TimeoutError:
            raise DeviceError(
                f"{self.description} sent no frame in {self._frame_timeout:g} s"
            ) from None
        except Exception as error:
            raise DeviceError(
                f"{self.description} stopped delivering frames ({_one_line(error)})"
            ) from None
        if self._lock_due is not None and self._clock() >= self._lock_due:
            try:
                self.lock_exposure()
            except DeviceError as error:  # frames still flow: play on with automatic control
                LOG.warning("%s; exposure stays automatic", error)
        return as_bgr(frame)

    def lock_exposure(self) -> dict[str, object]:
        """Turn automatic exposure and white balance off at the values they settled on
        (picamera2's frame metadata: ExposureTime, AnalogueGain, ColourGains)."""
        self._lock_due = None
        try:
            metadata = self._camera.capture_metadata()
        except Exception as error:
            raise DeviceError(
                f"{self.description}: cannot lock exposure ({_one_line(error)})"
            ) from None
        missing = [name for name in LOCKED_CONTROLS if name not in metadata]
        if missing:
            raise DeviceError(
                f"{self.description}: cannot lock exposure (no {', '.join(missing)} reported)"
            )
        locked = {name: metadata[name] for name in LOCKED_CONTROLS}
        try:
            self._camera.set_controls({"AeEnable": False, "AwbEnable": False, **locked})
        except Exception as error:
            raise DeviceError(
                f"{self.description}: cannot lock exposure ({_one_line(error)})"
            ) from None
        self._locked = locked
        return locked

    @property
    def settling(self) -> bool:
        return self._lock_due is not None

    @property
    def locked(self) -> dict[str, object]:
        return self._locked

    def recalibrate(self) -> None:
        """Turn automatic exposure and white balance back on; they are locked again
        ``settle_seconds`` later, at the first frame read after that."""
        try:
            self._camera.set_controls({"AeEnable": True, "AwbEnable": True})
        except Exception as error:
            raise DeviceError(
                f"{self.description}: cannot restart automatic exposure ({_one_line(error)})"
            ) from None
        self._lock_due = self._clock() + self._settle_seconds
        self._locked = {}

    def close(self) -> None:
        """Stop and release the camera; a camera already gone cannot refuse."""
        if self._open:
            self._open = False
            with contextlib.suppress(Exception):  # unplugged: stopping it may fail
                self._camera.stop()
            with contextlib.suppress(Exception):
                self._camera.close()


class OpenCVCamera(Camera):
    """A USB/V4L2 camera through OpenCV, by index (``0``) or device path (``/dev/video2``).

    The driver queue is cut to one buffer so :meth:`read` returns a recent frame; where the
    backend ignores that setting, one queued frame is grabbed and dropped before each read.
    """

    def __init__(self, device: int | str, size: tuple[int, int] | None = DEFAULT_SIZE) -> None:
        import cv2

        self.description = f"OpenCV camera {device}"
        if isinstance(device, str):  # a device path: V4L2 opens it, FFmpeg would not
            self._capture = _quietly(lambda: cv2.VideoCapture(device, cv2.CAP_V4L2))
        else:
            self._capture = _quietly(lambda: cv2.VideoCapture(device))
        if not self._capture.isOpened():
            self._capture.release()
            raise DeviceError(f"no camera at {device} (OpenCV could not open it)")
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._drop_stale = not self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._open = True

    def read(self) -> Image:
        if not self._open:
            raise DeviceError(f"{self.description} is closed")
        try:
            if self._drop_stale:
                self._capture.grab()
            ok, frame = self._capture.read()
        except _cv2().error as error:
            raise DeviceError(f"{self.description} failed ({_one_line(error)})") from None
        if not ok or frame is None:
            raise DeviceError(f"{self.description} stopped delivering frames")
        return as_bgr(frame)

    def close(self) -> None:
        if self._open:
            self._open = False
            self._capture.release()


class ReplayCamera(Camera):
    """Frames from an image, a folder of images (in name order) or a video file.

    ``loop=True`` starts again after the last frame; otherwise reading past the end raises
    :class:`EndOfReplay`. With ``fps``, :meth:`read` paces itself on ``clock``/``sleep``
    (pass a :class:`~companion.engine.clock.ManualClock` and its ``advance`` in tests).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        loop: bool = False,
        fps: float | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        source = Path(path)
        self.description = f"replay of {source}"
        self._video: Any = None
        self._frames: list[Path | Image] = []
        if source.is_dir():
            files = sorted(f for f in source.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES)
            if not files:
                raise DeviceError(f"{source}: folder has no images to replay")
            _read_image(files[0])  # a broken first image is reported at once
            self._frames = list(files)  # the rest are read as they are replayed
        elif source.suffix.lower() in VIDEO_SUFFIXES:
            self._video = _open_video(source)
        elif source.is_file():
            self._frames = [_read_image(source)]
        else:
            raise DeviceError(f"{source}: no such image, folder or video to replay")
        self._setup(loop, fps, clock, sleep)

    @classmethod
    def of_frames(
        cls,
        frames: Sequence[Image],
        *,
        loop: bool = False,
        fps: float | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> ReplayCamera:
        """A replay of frames already in memory."""
        if not frames:
            raise DeviceError("a replay needs at least one frame")
        replay = cls.__new__(cls)
        replay.description = f"replay of {len(frames)} frames"
        replay._video = None
        replay._frames = [as_bgr(frame) for frame in frames]
        replay._setup(loop, fps, clock, sleep)
        return replay

    def _setup(self, loop: bool, fps: float | None, clock: Clock, sleep: Sleep) -> None:
        if fps is not None and fps <= 0:
            raise DeviceError(f"replay fps must be positive, not {fps}")
        self._loop, self._fps, self._clock, self._sleep = loop, fps, clock, sleep
        self._position = 0
        self._served = 0
        self._started: float | None = None
        self._open = True

    def read(self) -> Image:
        if not self._open:
            raise DeviceError(f"{self.description} is closed")
        frame = self._next_frame()
        self._pace()
        self._served += 1
        return frame

    def _next_frame(self) -> Image:
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok and self._loop and self._served:
                self._video.set(_cv2().CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._video.read()
            if not ok:
                raise EndOfReplay(f"{self.description}: no more frames")
            return as_bgr(frame)
        if self._position >= len(self._frames):
            if not self._loop:
                raise EndOfReplay(f"{self.description}: no more frames")
            self._position = 0
        frame = self._frames[self._position]
        self._position += 1
        if isinstance(frame, Path):
            return _read_image(frame)
        return frame.copy()  # like a camera: a new array each time, safe to draw on

    def _pace(self) -> None:
        """With an fps, wait until this frame is due (frame n at start + n / fps)."""
        if self._fps is None:
            return
        now = self._clock()
        if self._started is None:
            self._started = now
            return
        due = self._started + self._served / self._fps
        if due > now:
            self._sleep(due - now)

    def close(self) -> None:
        if self._open:
            self._open = False
            if self._video is not None:
                self._video.release()


def _one_line(error: BaseException) -> str:
    r"""An error's text on one line (OpenCV's messages span several).

    >>> _one_line(RuntimeError("OpenCV(4.9) error:\n  (-215) size > 0"))
    'OpenCV(4.9) error: (-215) size > 0'
    """
    return " ".join(str(error).split()) or type(error).__name__


def _cv2() -> Any:
    return importlib.import_module("cv2")


def _quietly(open_capture: Callable[[], Any]) -> Any:
    """Run ``open_capture`` with OpenCV's own warnings off: our error is the one line shown."""
    cv_logging = _cv2().utils.logging
    level = cv_logging.getLogLevel()
    cv_logging.setLogLevel(cv_logging.LOG_LEVEL_ERROR)
    try:
        return open_capture()
    finally:
        cv_logging.setLogLevel(level)


def _read_image(path: Path) -> Image:
    from vision.imageio import ImageError, read_image

    try:
        return read_image(path)
    except ImageError as error:
        raise DeviceError(str(error)) from None


def _open_video(path: Path) -> Any:
    if not path.is_file():
        raise DeviceError(f"{path}: no such video file to replay")
    video = _quietly(lambda: _cv2().VideoCapture(str(path)))
    if not video.isOpened():
        video.release()
        raise DeviceError(f"{path}: OpenCV cannot read this video")
    return video


def open_camera(
    spec: str = "auto",
    *,
    size: tuple[int, int] = DEFAULT_SIZE,
    loop: bool = False,
    fps: float | None = None,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
) -> Camera:
    """Open the source named by ``spec`` (see the module text); ``loop``, ``fps``: replays only.

    >>> open_camera("no/such/place")
    Traceback (most recent call last):
    ...
    companion.errors.DeviceError: no camera or replay file 'no/such/place'
    """
    spec = spec.strip()
    if spec == "auto":
        try:
            return Picamera2Camera(size, clock=clock)
        except DeviceError as pi_error:
            try:
                return OpenCVCamera(0, size)
            except DeviceError as usb_error:
                raise DeviceError(f"no camera found: {pi_error}; {usb_error}") from None
    if spec == "picamera2":
        return Picamera2Camera(size, clock=clock)
    if spec.isdigit():
        return OpenCVCamera(int(spec), size)
    if spec.startswith("/dev/"):
        return OpenCVCamera(spec, size)
    if Path(spec).exists():
        return ReplayCamera(spec, loop=loop, fps=fps, clock=clock, sleep=sleep)
    raise DeviceError(f"no camera or replay file {spec!r}")


@dataclass(frozen=True)
class Frame:
    """One frame from a :class:`CameraFeed`: the image, when it was read, and its number."""

    image: Image
    t: float
    number: int


class CameraFeed(Closing):
    """Frames for a whole game, with ``camera_lost``/``camera_back`` events instead of crashes.

    ``connect`` opens the source (for example ``lambda: open_camera(spec)``); it is called
    once at once, so a missing camera is reported straight away, and again after a loss,
    pausing ``first_retry`` seconds, doubling up to ``max_retry``, between attempts.
    A replay that ends (:class:`EndOfReplay`) ends the feed.
    """

    def __init__(
        self,
        connect: Callable[[], Camera],
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
        first_retry: float = 0.5,
        max_retry: float = 8.0,
    ) -> None:
        self._connect = connect
        self._clock = clock
        self._sleep = sleep
        self._first_retry = first_retry
        self._max_retry = max_retry
        self._camera: Camera | None = connect()
        self._frames = 0

    def recalibrate(self) -> None:
        """Let the camera's automatic exposure and white balance run again (zone calibration,
        a lamp switched on); :class:`DeviceError` if the camera refuses."""
        if self._camera is not None:
            self._camera.recalibrate()

    def __iter__(self) -> Iterator[Frame | Event]:
        while True:
            camera = self._camera
            if camera is None:
                camera = self._reconnect()
                self._camera = camera
                yield Event("camera_back", {"source": camera.description}, t=self._clock())
            try:
                image = camera.read()
            except EndOfReplay:
                self.close()
                return
            except DeviceError as error:
                camera.close()
                self._camera = None
                data = {"source": camera.description, "reason": str(error)}
                yield Event("camera_lost", data, t=self._clock())
                continue
            self._frames += 1
            yield Frame(image, self._clock(), self._frames)

    def _reconnect(self) -> Camera:
        pause = self._first_retry
        while True:
            self._sleep(pause)
            try:
                return self._connect()
            except DeviceError:
                pause = min(pause * 2.0, self._max_retry)

    def close(self) -> None:
        """Release the camera."""
        if self._camera is not None:
            self._camera.close()
            self._camera = None
