"""``companion camera [SPEC] [--frames N] [--save DIR] [--check] [--fov DEGREES]``.

Opens a camera source and reports its resolution and frame rate, a quick check after
installing on a Pi. With ``--check`` it also measures the last frame read with a card
face up on the table (:mod:`vision.camera_check`): colour cast, exposure, sharpness and
the camera's height, each with the fix; the exit code is 1 when something needs fixing.
On a Pi camera the automatic exposure and white balance run while the frames are read
(with ``--check``, until they have settled) and are locked afterwards, as during a game.
OpenCV is imported inside the handler so that building the command parser stays light.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from companion.errors import DeviceError


def register(subcommands: Any) -> None:
    """Add the ``camera`` command."""
    camera = subcommands.add_parser(
        "camera",
        help="check a camera: resolution, frame rate and (--check) picture quality",
        description=(
            "Open a camera source and report its resolution and frame rate. SPEC is 'auto'"
            " (Pi camera, else OpenCV camera 0), 'picamera2', an OpenCV index or device"
            " ('0', '/dev/video2'), or an image, folder or video to replay. --check also"
            " measures colour cast, exposure, sharpness and camera height on the last frame"
            " (lay a card face up under the camera) and says how to fix what is off."
        ),
    )
    camera.add_argument("spec", nargs="?", default="auto", help="camera source (default: auto)")
    camera.add_argument("--frames", type=positive, default=30, help="frames to read (default: 30)")
    camera.add_argument("--save", metavar="DIR", help="save each frame as a PNG in DIR")
    camera.add_argument(
        "--check", action="store_true", help="measure the picture and say what to fix"
    )
    camera.add_argument(
        "--fov",
        type=field_of_view,
        default=None,
        metavar="DEGREES",
        help="horizontal field of view for the height estimate (default: Pi camera 2, 62.2)",
    )
    camera.set_defaults(handler=run_camera)


def positive(text: str) -> int:
    """A whole number of at least 1.

    >>> positive("3")
    3
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def field_of_view(text: str) -> float:
    """An angle in degrees between 10 and 170.

    >>> field_of_view("78")
    78.0
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of degrees: {text!r}") from None
    if not 10.0 <= value <= 170.0:
        raise argparse.ArgumentTypeError(f"field of view must be 10-170 degrees, not {value:g}")
    return value


def run_camera(args: argparse.Namespace) -> int:
    """Read ``args.frames`` frames from the source, report size and rate, and check the
    last frame if asked."""
    from vision.camera import EndOfReplay, open_camera
    from vision.imageio import write_image

    save_dir = Path(args.save) if args.save else None
    if save_dir is not None:
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DeviceError(f"{save_dir}: cannot create the folder ({error.strerror})") from None
    last = None
    with open_camera(args.spec) as camera:
        shapes: set[tuple[int, ...]] = set()
        started = time.monotonic()
        count = 0
        for count in range(1, args.frames + 1):
            try:
                last = camera.read()
            except EndOfReplay:
                count -= 1
                break
            shapes.add(last.shape)
            if save_dir is not None:
                write_image(save_dir / f"frame-{count:04d}.png", last)
        while args.check and camera.settling:  # judge the picture the game will see
            last = camera.read()
            count += 1
        elapsed = time.monotonic() - started
        locked = camera.locked if args.check else {}  # a Pi camera locked itself as it settled
    sizes = ", ".join(f"{shape[1]}x{shape[0]}" for shape in sorted(shapes))
    rate = f"{count / elapsed:.1f} fps" if elapsed > 0 and count else "no timing"
    frames = f"{count} frame" + ("" if count == 1 else "s")
    print(f"{camera.description}: {frames}, {sizes or 'no image'}, {rate}")
    if save_dir is not None and count:
        print(f"saved {count} frames in {save_dir}")
    if not args.check:
        return 0
    if last is None:
        raise DeviceError(f"{camera.description}: no frame to check")
    return report_check(last, locked, args.fov)


def report_check(frame: Any, locked: dict[str, object], fov: float | None) -> int:
    """Print the findings for ``frame``; 1 if any needs fixing, else 0."""
    from vision.camera_check import PI_CAMERA_FOV, check_frame

    if locked:
        print("locked for the game: " + ", ".join(f"{k} {v}" for k, v in locked.items()))
    findings = check_frame(frame, fov_degrees=fov if fov is not None else PI_CAMERA_FOV)
    for finding in findings:
        print(finding.line())
    return 0 if all(finding.ok for finding in findings) else 1
