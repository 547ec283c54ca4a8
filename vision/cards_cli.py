"""``companion recognize IMAGE``: name the standard playing cards in a photo.

OpenCV is imported inside the handler, so building the command parser stays light.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.cli.output import print_json

if TYPE_CHECKING:
    from vision.observations import CardObservation


def register(subcommands: Any) -> None:
    """Add ``recognize``."""
    recognize = subcommands.add_parser(
        "recognize",
        help="name the playing cards in a photo",
        description=(
            "Find every standard playing card in IMAGE by reading its corner index "
            "(rank and suit), also when only a corner shows."
        ),
    )
    recognize.add_argument("image", metavar="IMAGE", help="a photo (JPEG, PNG, ...)")
    recognize.add_argument("--json", action="store_true", help="print JSON instead of a table")
    recognize.add_argument(
        "--annotate", metavar="OUT.png", help="also write a copy of the photo with the cards marked"
    )
    recognize.set_defaults(handler=run_recognize)


def run_recognize(args: argparse.Namespace) -> int:
    """Recognise the cards in ``args.image`` and print them."""
    from vision.cards import CardRecognizer
    from vision.imageio import read_image, write_image

    frame = read_image(args.image)
    cards = CardRecognizer().recognize(frame)
    cards.sort(key=lambda seen: (seen.index[1], seen.index[0]))
    if args.annotate:
        from vision.annotate import annotate

        write_image(args.annotate, annotate(frame, cards))
    height, width = frame.shape[:2]
    if args.json:
        print_json(as_json(width, height, cards))
    else:
        print(as_table(width, height, cards))
    return 0


def as_json(width: int, height: int, cards: Sequence[CardObservation]) -> dict[str, object]:
    """The command's JSON document."""
    return {
        "width": width,
        "height": height,
        "cards": [
            {key: value for key, value in seen.to_json().items() if key != "zone"} for seen in cards
        ],
    }


def as_table(width: int, height: int, cards: Sequence[CardObservation]) -> str:
    """A readable table, one card a line.

    >>> from vision.observations import CardObservation
    >>> seen = CardObservation("10h", (300.0, 200.0), (250.5, 120.0), 0.93)
    >>> doubt = CardObservation("7s", (9.0, 9.0), (5.0, 5.0), 0.5, unsure=True)
    >>> print(as_table(640, 480, [seen, doubt]))
    640x480: 2 cards
    card   centre        index         confidence
    10h    300, 200      250, 120      0.93
    7s     9, 9          5, 5          0.50 unsure
    """
    lines = [f"{width}x{height}: {len(cards)} card{'' if len(cards) == 1 else 's'}"]
    if cards:
        lines.append(f"{'card':<6} {'centre':<13} {'index':<13} confidence")
    for seen in cards:
        centre = f"{seen.center[0]:.0f}, {seen.center[1]:.0f}"
        index = f"{seen.index[0]:.0f}, {seen.index[1]:.0f}"
        mark = " unsure" if seen.unsure else ""
        lines.append(f"{seen.card:<6} {centre:<13} {index:<13} {seen.confidence:.2f}{mark}")
    return "\n".join(lines)
