"""``companion dice IMAGE [--json]`` and ``companion camera [SPEC] [--frames N] [--save DIR]``.

``dice`` reads the dice in one photo; ``camera`` opens a camera source and reports its
resolution and frame rate, a quick check after installing on a Pi. OpenCV is imported
inside the handlers so that building the command parser stays light.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from companion.errors import DeviceError


def register(subcommands: Any) -> None:
    """Add the ``dice`` and ``camera`` commands."""
    dice = subcommands.add_parser(
        "dice",
        help="read the dice in a photo",
        description="Find the dice in a photo and count the pips on their top faces.",
    )
    dice.add_argument("image", help="photo file (JPEG, PNG...)")
    dice.add_argument("--json", action="store_true", help="print JSON instead of text")
    dice.set_defaults(handler=run_dice)

    camera = subcommands.add_parser(
        "camera",
        help="check a camera: resolution and frame rate",
        description=(
            "Open a camera source and report its resolution and frame rate. SPEC is 'auto'"
            " (Pi camera, else OpenCV camera 0), 'picamera2', an OpenCV index or device"
            " ('0', '/dev/video2'), or an image, folder or video to replay."
        ),
    )
    camera.add_argument("spec", nargs="?", default="auto", help="camera source (default: auto)")
    camera.add_argument("--frames", type=_positive, default=30, help="frames to read (default: 30)")
    camera.add_argument("--save", metavar="DIR", help="save each frame as a PNG in DIR")
    camera.set_defaults(handler=run_camera)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def run_dice(args: argparse.Namespace) -> int:
    """Print the dice found in ``args.image``."""
    from vision.dice import find_dice
    from vision.imageio import read_image

    image = read_image(args.image)
    dice = find_dice(image)
    if args.json:
        print(json.dumps({"dice": [die.to_json() for die in dice]}))
        return 0
    if not dice:
        print(f"{args.image}: no dice found")
    for number, die in enumerate(dice, start=1):
        x, y = die.center
        unsure = " (unsure: please check)" if die.unsure else ""
        print(
            f"die {number}: {die.value} at ({x:.0f}, {y:.0f})"
            f" confidence {die.confidence:.2f}{unsure}"
        )
    return 0


def run_camera(args: argparse.Namespace) -> int:
    """Read ``args.frames`` frames from the source and report size and rate."""
    from vision.camera import EndOfReplay, open_camera
    from vision.imageio import write_image

    save_dir = Path(args.save) if args.save else None
    if save_dir is not None:
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DeviceError(f"{save_dir}: cannot create the folder ({error.strerror})") from None
    with open_camera(args.spec) as camera:
        shapes: set[tuple[int, ...]] = set()
        started = time.monotonic()
        count = 0
        for count in range(1, args.frames + 1):
            try:
                frame = camera.read()
            except EndOfReplay:
                count -= 1
                break
            shapes.add(frame.shape)
            if save_dir is not None:
                write_image(save_dir / f"frame-{count:04d}.png", frame)
        elapsed = time.monotonic() - started
    sizes = ", ".join(f"{shape[1]}x{shape[0]}" for shape in sorted(shapes))
    rate = f"{count / elapsed:.1f} fps" if elapsed > 0 and count else "no timing"
    frames = f"{count} frame" + ("" if count == 1 else "s")
    print(f"{camera.description}: {frames}, {sizes or 'no image'}, {rate}")
    if save_dir is not None and count:
        print(f"saved {count} frames in {save_dir}")
    return 0
