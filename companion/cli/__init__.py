"""The ``companion`` command: one entry point, a sub-command per job.

Each command module has ``register(subcommands)``, which adds its parsers and sets
``handler`` (a function of the parsed arguments returning the exit code). Modules are
imported only for their parsers, so they keep heavy imports (OpenCV, gpiozero) inside
their handlers. Any :class:`~companion.errors.CompanionError` or :class:`OSError`
becomes one line on stderr and exit code 2; an unexpected fault is one line too (set
``COMPANION_DEBUG=1`` for its traceback). Nobody at the table sees a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from companion.errors import CompanionError

COMMAND_MODULES = (
    "companion.cli.cards",
    "companion.cli.demo",
    "companion.cli.referee",
    "companion.cli.play",
    "companion.cli.store",
    "hardware.cli",
    "vision.teach_cli",
    "vision.dice_cli",
    "vision.camera_cli",
    "vision.cards_cli",
    "ui.doctor",
    "ui.cli",
)

USAGE_ERROR = 2
INTERNAL_ERROR = 70
DEBUG_ENV = "COMPANION_DEBUG"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {one_line(message)}\n")


def one_line(text: str) -> str:
    r"""``text`` with its line breaks written as ``\n``, so an error stays on one line.

    >>> print(one_line("unknown name 'a" + chr(10) + "b'"))
    unknown name 'a\nb'
    """
    return text.replace("\r", "\\r").replace("\n", "\\n")


def build_parser() -> Parser:
    """The full parser with every registered command."""
    from companion import __version__

    parser = Parser(prog="companion", description="Referee real card games at the table.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subcommands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subcommands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):  # a name the terminal cannot show is escaped
            stream.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()
    except (CompanionError, OSError) as error:
        if isinstance(error, BrokenPipeError):
            return _reader_went_away()
        print(f"companion {args.command}: error: {one_line(str(error))}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        if os.environ.get(DEBUG_ENV):
            raise
        print(
            f"companion {args.command}: internal error: {type(error).__name__}: "
            f"{one_line(str(error))}"
            f" (run with {DEBUG_ENV}=1 for details)",
            file=sys.stderr,
        )
        return INTERNAL_ERROR
    return code


def _reader_went_away() -> int:
    """The reader of our output closed the pipe (``companion replay ... | head``): stop quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":
    sys.exit(main())
