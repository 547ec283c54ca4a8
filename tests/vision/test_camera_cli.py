"""``companion camera --check``: colour cast, exposure, sharpness and height, with the fix.

Run on the shared photos (a replay of one photo) and on a replayed folder, as a camera
would deliver frames; the bad cases are the photos with a cast, darkened or blurred.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.image_files import image_at
from vision.camera_check import check_frame, edge_blur

FELT = Path("cards") / "photos-webcam-felt"


def test_check_passes_a_good_webcam_photo(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["camera", str(shared_data / FELT / "club1.jpg"), "--check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("1 frame, 1280x800, " + out[0].rsplit(", ", 1)[1])
    assert [line.split(":")[0] for line in out[1:]] == [
        "colour cast",
        "exposure",
        "sharpness",
        "camera height",
    ]
    assert all(line.endswith("- ok") for line in out[1:])
    height = int(out[4].split("about ")[1].split(" cm")[0])
    assert 30 <= height <= 90  # a webcam at the table's edge, looking down at the cloth


def test_check_of_a_replayed_folder_names_cast_darkness_and_blur(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = image_at(shared_data / FELT / "surface1.jpg")
    blue = np.clip(photo * np.array([1.45, 1.0, 0.6]), 0, 255).astype(np.uint8)
    dark = (blue * 0.4).astype(np.uint8)
    blurred = cv2.GaussianBlur(dark, (0, 0), 2.5)
    for number, frame in enumerate((photo, blue, dark, blurred)):
        cv2.imwrite(str(tmp_path / f"frame-{number}.png"), frame)
    assert main(["camera", str(tmp_path), "--frames", "4", "--check"]) == 1
    out = capsys.readouterr().out
    assert "4 frames, 1280x800" in out
    assert "colour cast: blue cast" in out
    assert "exposure: card white" in out and "FIX: too dark" in out
    assert "sharpness: edge blur" in out and "FIX: focus the lens" in out


def test_check_asks_for_a_card_on_an_empty_table(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    felt = image_at(shared_data / FELT / "club1.jpg")[700:800, 100:400]
    cv2.imwrite(str(tmp_path / "felt.png"), felt)
    assert main(["camera", str(tmp_path / "felt.png"), "--check"]) == 1
    assert "camera height: no card index found - FIX: lay a card face up" in capsys.readouterr().out


def test_blur_estimate_follows_the_blur_applied() -> None:
    step = np.zeros((64, 64, 3), np.uint8)
    step[:, 32:] = 220
    sigmas = [edge_blur(cv2.GaussianBlur(step, (0, 0), sigma)) for sigma in (1.0, 2.0, 3.0)]
    assert sigmas == sorted(sigmas)
    assert abs(sigmas[1] - 2.0) < 0.4


def test_far_camera_is_told_to_come_lower(shared_data: Path) -> None:
    photo = image_at(shared_data / FELT / "club1.jpg")
    small = cv2.resize(photo, None, fx=0.45, fy=0.45, interpolation=cv2.INTER_AREA)
    height = check_frame(small)[-1]
    assert not height.ok and "lower the camera" in height.fix


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--fov", "5"], "field of view must be 10-170 degrees, not 5"),
        (["--frames", "0"], "must be at least 1, not 0"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["camera", "x.png", *arguments])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error
