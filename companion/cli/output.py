"""Output shared by every command: ``--json`` is one JSON object on one line.

Non-ASCII text stays readable (``ensure_ascii=False``) and anything that is not plain
JSON (a path, a date) is written as its text.

>>> print_json({"player": "zoë", "points": [4, 0]})
{"player": "zoë", "points": [4, 0]}
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any


def print_json(value: Any) -> None:
    """Print ``value`` as one line of JSON."""
    print(json.dumps(value, ensure_ascii=False, default=str))


def store_command(subcommands: Any, name: str, help: str, description: str,
                  handler: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    """Add a command that works on the game store: with ``--json`` and ``--data-dir``."""
    parser: argparse.ArgumentParser = subcommands.add_parser(name, help=help,
                                                             description=description)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--data-dir", help="where the game store is (default: user data dir)")
    parser.set_defaults(handler=handler)
    return parser
