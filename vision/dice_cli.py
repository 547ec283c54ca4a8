"""``companion dice IMAGE [--json]``: read the dice in one photo.

OpenCV is imported inside the handler so that building the command parser stays light.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.output import print_json


def register(subcommands: Any) -> None:
    """Add the ``dice`` command."""
    dice = subcommands.add_parser(
        "dice",
        help="read the dice in a photo",
        description="Find the dice in a photo and count the pips on their top faces.",
    )
    dice.add_argument("image", help="photo file (JPEG, PNG...)")
    dice.add_argument("--json", action="store_true", help="print JSON instead of text")
    dice.set_defaults(handler=run_dice)


def run_dice(args: argparse.Namespace) -> int:
    """Print the dice found in ``args.image``."""
    from vision.dice import find_dice
    from vision.imageio import read_image

    image = read_image(args.image)
    dice = find_dice(image)
    if args.json:
        print_json({"dice": [die.to_json() for die in dice]})
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
