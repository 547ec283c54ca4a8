"""Camera sources: replays of images, folders and videos; OpenCV errors; picamera2; lost cameras."""

from __future__ import annotations

import shutil
import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from companion.engine.clock import ManualClock
from companion.engine.events import Event
from companion.errors import CompanionError, DeviceError
from tests.image_files import image_at
from vision.camera import (
    Camera,
    CameraFeed,
    EndOfReplay,
    Frame,
    OpenCVCamera,
    Picamera2Camera,
    ReplayCamera,
    open_camera,
    read_settled,
)


def coloured(value: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    """A frame whose blue channel says which frame it is."""
    frame = np.zeros((size[1], size[0], 3), np.uint8)
    frame[:, :, 0] = value
    return frame


@pytest.fixture
def dice_photo(shared_data: Path) -> Path:
    return shared_data / "dice" / "photos" / "five_1.jpg"


def test_replay_of_one_photo_gives_the_photo_then_ends(dice_photo: Path) -> None:
    with open_camera(str(dice_photo)) as camera:
        frame = camera.read()
        assert frame.shape == (480, 640, 3)
        assert np.array_equal(frame, image_at(dice_photo))
        with pytest.raises(EndOfReplay):
            camera.read()


def test_replay_of_a_folder_goes_in_name_order_and_loops(tmp_path: Path) -> None:
    for value, name in [(30, "b.png"), (10, "a.png"), (50, "c.jpeg")]:
        cv2.imwrite(str(tmp_path / name), coloured(value))
    (tmp_path / "notes.txt").write_text("not an image")
    with open_camera(str(tmp_path), loop=True) as camera:
        blues = [int(camera.read()[0, 0, 0]) for _ in range(5)]
    assert blues[:2] == [10, 30]
    assert abs(blues[2] - 50) <= 2  # JPEG
    assert blues[3:] == [10, 30]


def test_replay_of_a_video_file_written_with_opencv(tmp_path: Path) -> None:
    video_path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video_path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for value in (0, 100, 200):
        writer.write(coloured(value))
    writer.release()
    with open_camera(str(video_path)) as camera:
        blues = [int(camera.read()[10, 10, 0]) for _ in range(3)]
        with pytest.raises(EndOfReplay):
            camera.read()
    assert [round(b / 100) for b in blues] == [0, 1, 2]
    with open_camera(str(video_path), loop=True) as camera:
        assert len([camera.read() for _ in range(7)]) == 7


def test_replay_paces_frames_on_an_injected_clock() -> None:
    clock = ManualClock(100.0)
    frames = [coloured(v) for v in range(3)]
    replay = ReplayCamera.of_frames(frames, loop=True, fps=10.0, clock=clock, sleep=clock.advance)
    with replay as camera:
        for _ in range(6):
            camera.read()
    assert clock() == pytest.approx(100.5)


def test_replay_does_not_wait_when_the_reader_is_already_late() -> None:
    clock = ManualClock()
    waits: list[float] = []
    camera = ReplayCamera.of_frames(
        [coloured(1)], loop=True, fps=2.0, clock=clock, sleep=waits.append
    )
    camera.read()
    clock.advance(3.0)
    camera.read()
    assert waits == []


@pytest.mark.parametrize(
    ("spec", "named"),
    [("/dev/video97", "/dev/video97"), ("97", "97"), ("no/such/folder", "no/such/folder")],
)
def test_missing_devices_and_files_are_one_line_device_errors(spec: str, named: str) -> None:
    with pytest.raises(DeviceError) as caught:
        open_camera(spec)
    message = str(caught.value)
    assert named in message
    assert "\n" not in message


def test_opencv_camera_names_the_device_it_could_not_open() -> None:
    with pytest.raises(DeviceError, match="no camera at 95"):
        OpenCVCamera(95)


def test_a_folder_without_images_and_a_broken_image_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="no images"):
        open_camera(str(tmp_path))
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png at all")
    with pytest.raises(CompanionError, match=r"broken\.png"):
        open_camera(str(broken))


def test_auto_without_any_camera_explains_both_attempts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as if not installed
    monkeypatch.setattr("vision.camera.OpenCVCamera", _no_usb_camera)
    with pytest.raises(DeviceError) as caught:
        open_camera("auto")
    assert str(caught.value) == (
        "no camera found: picamera2 is not installed (install it on the Pi); no camera at 0"
    )


def _no_usb_camera(device: int | str, size: Any = None) -> Camera:
    raise DeviceError(f"no camera at {device}")


class FakePicamera2:
    """The part of picamera2's ``Picamera2`` class the backend uses, recording the calls."""

    cameras: ClassVar[list[dict[str, Any]]] = [{"Model": "imx708"}]
    instances: ClassVar[list[FakePicamera2]] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.calls: list[str] = []
        self.configured: dict[str, Any] = {}
        self.fail_capture: bool | str = False
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return FakePicamera2.cameras

    def create_preview_configuration(self, **options: Any) -> dict[str, Any]:
        return {"use_case": "preview", **options}

    def configure(self, configuration: dict[str, Any]) -> None:
        if configuration["main"]["size"] == (1, 1):
            raise RuntimeError("Failed to configure")
        self.configured = configuration
        self.calls.append("configure")

    def start(self) -> None:
        self.calls.append("start")

    def capture_array(self, stream: str, wait: bool | None = None) -> str:
        self.calls.append(f"capture_array {stream} wait={wait}")
        return "job"

    def wait(self, job: str, timeout: float | None = None) -> np.ndarray:
        self.calls.append(f"wait {job} timeout={timeout}")
        if self.fail_capture == "stall":
            raise TimeoutError
        if self.fail_capture:
            raise RuntimeError("camera unplugged")
        width, height = self.configured["main"]["size"]
        frame = np.zeros((height, width, 3), np.uint8)
        frame[0, 0] = (1, 2, 3)  # RGB888 is B, G, R in memory
        return frame

    def capture_metadata(self) -> dict[str, Any]:
        self.calls.append("capture_metadata")
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "Lux": 300}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(f"set_controls {sorted(controls.items())}")

    def stop(self) -> None:
        self.calls.append("stop")
        if self.fail_capture:
            raise RuntimeError("camera is gone")

    def close(self) -> None:
        self.calls.append("close")


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.instances = []
    FakePicamera2.cameras = [{"Model": "imx708"}]
    return FakePicamera2


def test_picamera2_is_imported_only_when_asked_for() -> None:
    import vision.camera  # noqa: F401

    assert "picamera2" not in sys.modules


def test_picamera2_backend_configures_fresh_bgr_frames(fake_picamera2: type[FakePicamera2]) -> None:
    with open_camera("picamera2", size=(320, 240)) as camera:
        frame = camera.read()
    pi = fake_picamera2.instances[0]
    assert pi.configured["main"] == {"format": "RGB888", "size": (320, 240)}
    assert pi.configured["buffer_count"] == 2
    assert pi.configured["queue"] is False
    assert pi.calls == [
        "configure",
        "start",
        "capture_array main wait=False",
        "wait job timeout=2.0",
        "stop",
        "close",
    ]
    assert frame.shape == (240, 320, 3)
    assert frame.dtype == np.uint8
    assert frame[0, 0].tolist() == [1, 2, 3]  # passed through: already OpenCV's order


def test_picamera2_locks_what_automatic_exposure_settled_on(
    fake_picamera2: type[FakePicamera2],
) -> None:
    with open_camera("picamera2") as camera:
        locked = camera.lock_exposure()
    assert locked == {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}
    controls = {"AeEnable": False, "AwbEnable": False, **locked}
    assert f"set_controls {sorted(controls.items())}" in fake_picamera2.instances[0].calls


def test_picamera2_locks_itself_once_automatic_control_has_settled(
    fake_picamera2: type[FakePicamera2],
) -> None:
    clock = ManualClock()
    with Picamera2Camera(settle_seconds=2.0, clock=clock) as camera:
        pi = fake_picamera2.instances[0]
        camera.read()
        clock.advance(1.9)
        camera.read()
        assert "capture_metadata" not in pi.calls  # still automatic while it settles
        clock.advance(0.2)
        camera.read()
        assert pi.calls.count("capture_metadata") == 1
        camera.read()
        assert pi.calls.count("capture_metadata") == 1  # locked once, not at every frame
        camera.recalibrate()
        assert pi.calls[-1] == "set_controls [('AeEnable', True), ('AwbEnable', True)]"
        clock.advance(2.0)
        camera.read()
        assert pi.calls.count("capture_metadata") == 2  # locked again after settling


def test_a_settled_read_waits_until_the_pi_camera_has_locked(
    fake_picamera2: type[FakePicamera2],
) -> None:
    ticks = iter(range(100))  # one second passes at every look at the clock
    with Picamera2Camera(settle_seconds=2.0, clock=lambda: float(next(ticks))) as camera:
        assert camera.settling
        assert read_settled(camera).shape == (480, 640, 3)
        assert not camera.settling
    calls = fake_picamera2.instances[0].calls
    assert calls.count("capture_array main wait=False") == 2  # 1 s: still settling; 2 s: locked
    assert calls.count("capture_metadata") == 1


def test_a_replay_is_settled_at_its_first_frame(dice_photo: Path) -> None:
    with open_camera(str(dice_photo)) as camera:
        assert not camera.settling
        assert read_settled(camera).ndim == 3


def test_a_pi_camera_that_cannot_lock_keeps_delivering_frames(
    fake_picamera2: type[FakePicamera2], caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    with Picamera2Camera(settle_seconds=0.0, clock=clock) as camera:
        pi = fake_picamera2.instances[0]
        pi.capture_metadata = lambda: {}  # type: ignore[method-assign]  # no settled values
        assert camera.read().shape == (480, 640, 3)
        assert camera.read().shape == (480, 640, 3)
    assert caplog.messages == [
        "picamera2 camera 0 at 640x480: cannot lock exposure "
        "(no ExposureTime, AnalogueGain, ColourGains reported); exposure stays automatic"
    ]


def test_replays_have_no_exposure_to_lock(dice_photo: Path) -> None:
    with open_camera(str(dice_photo)) as camera:
        assert camera.lock_exposure() == {}


def test_picamera2_padding_channel_is_dropped(fake_picamera2: type[FakePicamera2]) -> None:
    camera = Picamera2Camera((4, 2))
    pi = fake_picamera2.instances[0]
    pi.wait = lambda job, timeout=None: np.full((2, 4, 4), 7, np.uint8)  # type: ignore[method-assign]
    frame = camera.read()
    camera.close()
    assert frame.shape == (2, 4, 3)
    assert frame.flags["C_CONTIGUOUS"]


def test_auto_prefers_the_pi_camera(fake_picamera2: type[FakePicamera2]) -> None:
    with open_camera("auto") as camera:
        assert isinstance(camera, Picamera2Camera)


def test_picamera2_without_a_connected_camera(fake_picamera2: type[FakePicamera2]) -> None:
    fake_picamera2.cameras = []
    with pytest.raises(DeviceError, match="no Pi camera 0 connected"):
        open_camera("picamera2")


def test_picamera2_that_fails_to_start_is_released(fake_picamera2: type[FakePicamera2]) -> None:
    with pytest.raises(DeviceError, match=r"cannot start Pi camera 0 \(Failed to configure\)"):
        Picamera2Camera((1, 1))
    assert fake_picamera2.instances[0].calls == ["close"]


def test_picamera2_capture_failure_is_a_device_error(fake_picamera2: type[FakePicamera2]) -> None:
    camera = Picamera2Camera()
    fake_picamera2.instances[0].fail_capture = True
    with pytest.raises(DeviceError, match=r"stopped delivering frames \(camera unplugged\)"):
        camera.read()
    camera.close()


def test_a_feed_survives_a_pi_camera_that_fails_even_to_stop(
    fake_picamera2: type[FakePicamera2],
) -> None:
    clock = ManualClock()
    feed = CameraFeed(lambda: open_camera("picamera2"), clock=clock, sleep=clock.advance)
    items = iter(feed)
    assert isinstance(next(items), Frame)
    fake_picamera2.instances[0].fail_capture = True
    lost = next(items)
    assert isinstance(lost, Event) and lost.kind == "camera_lost"
    assert fake_picamera2.instances[0].calls[-2:] == ["stop", "close"]
    back = next(items)
    assert isinstance(back, Event) and back.kind == "camera_back"
    assert isinstance(next(items), Frame)
    feed.close()


def test_a_stalled_picamera2_times_out_instead_of_hanging(
    fake_picamera2: type[FakePicamera2],
) -> None:
    camera = Picamera2Camera(frame_timeout=0.5)
    fake_picamera2.instances[0].fail_capture = "stall"
    with pytest.raises(DeviceError, match=r"sent no frame in 0\.5 s"):
        camera.read()
    assert fake_picamera2.instances[0].calls[-1] == "wait job timeout=0.5"
    camera.close()


class Flaky(Camera):
    """A camera that delivers ``good`` frames and then fails, as an unplugged USB camera does."""

    def __init__(self, good: int) -> None:
        self.description = "flaky"
        self.good = good
        self.closed = False

    def read(self) -> np.ndarray:
        if self.good == 0:
            raise DeviceError("flaky stopped delivering frames")
        self.good -= 1
        return coloured(self.good)

    def close(self) -> None:
        self.closed = True


def test_feed_reports_a_lost_camera_and_reconnects_with_backoff() -> None:
    clock = ManualClock()
    pauses: list[float] = []

    def sleep(seconds: float) -> None:
        pauses.append(seconds)
        clock.advance(seconds)

    cameras = [Flaky(2), Flaky(3)]
    attempts = iter([cameras[0], None, None, None, cameras[1]])

    def connect() -> Camera:
        camera = next(attempts)
        if camera is None:
            raise DeviceError("no camera at 0")
        return camera

    items: list[Frame | Event] = []
    with CameraFeed(connect, clock=clock, sleep=sleep, first_retry=0.5, max_retry=1.5) as feed:
        for item in feed:
            items.append(item)
            if len(items) == 6:
                break
    kinds = [item.kind if isinstance(item, Event) else "frame" for item in items]
    assert kinds == ["frame", "frame", "camera_lost", "camera_back", "frame", "frame"]
    lost = items[2]
    assert isinstance(lost, Event)
    assert lost.data == {"source": "flaky", "reason": "flaky stopped delivering frames"}
    assert cameras[0].closed
    assert pauses == [0.5, 1.0, 1.5, 1.5]
    back = items[3]
    assert isinstance(back, Event)
    assert back.t == pytest.approx(4.5)
    numbers = [item.number for item in items if isinstance(item, Frame)]
    assert numbers == [1, 2, 3, 4]
    assert cameras[1].closed


def test_feed_ends_with_a_finished_replay(tmp_path: Path, dice_photo: Path) -> None:
    shutil.copy(dice_photo, tmp_path / "one.jpg")
    feed = CameraFeed(lambda: open_camera(str(tmp_path)), clock=ManualClock(), sleep=lambda s: None)
    items = list(feed)
    assert len(items) == 1
    assert isinstance(items[0], Frame)


def test_feed_reports_a_missing_camera_at_once() -> None:
    with pytest.raises(DeviceError, match="no camera or replay file"):
        CameraFeed(lambda: open_camera("no/such/camera"))


def test_replayed_frames_are_fresh_arrays_safe_to_draw_on() -> None:
    with ReplayCamera.of_frames([coloured(5)], loop=True) as camera:
        first = camera.read()
        first[:] = 255
        assert int(camera.read()[0, 0, 0]) == 5


def test_a_broken_image_inside_a_replayed_folder_is_named_when_reached(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), coloured(1))
    (tmp_path / "b.png").write_bytes(b"broken")
    with open_camera(str(tmp_path)) as camera:
        camera.read()
        with pytest.raises(DeviceError, match=r"b\.png"):
            camera.read()
