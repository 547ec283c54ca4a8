"""Helpers of the CLI fuzz tests: run one command in-process and check how it answered.

Every command must answer any input with exit 0, or exit 2 and exactly one line on
stderr, and never an internal error or a traceback. A run longer than ``DEADLINE``
seconds is stopped and counted as a hang.
"""

from __future__ import annotations

import argparse
import io
import signal
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from types import FrameType

from companion.cli import build_parser, main

DEADLINE = 10.0


class Hang(Exception):
    """A command that did not answer within ``DEADLINE`` seconds."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the block once ``seconds`` have passed."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Answer:
    """What a command did: its exit code and what it printed."""

    argv: tuple[str, ...]
    code: int
    out: str
    err: str


def run(argv: list[str]) -> Answer:
    """Run ``companion ARGV`` in this process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), deadline(DEADLINE):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 0
    return Answer(tuple(argv), code, out.getvalue(), err.getvalue())


def clean(argv: list[str], *, allowed: tuple[int, ...] = (0, 2)) -> Answer:
    """Run and check the answer: an allowed exit code, a one-line error when 2."""
    answer = run(argv)
    assert answer.code in allowed, answer
    assert "Traceback" not in answer.err and "internal error" not in answer.err, answer
    if answer.code == 2:
        assert answer.err.count("\n") == 1 and answer.err.startswith("companion"), answer
    return answer


def subcommands() -> dict[str, argparse.ArgumentParser]:
    """The parser of each sub-command of ``companion``, by name."""
    parser = build_parser()
    assert parser._subparsers is not None
    action = next(a for a in parser._subparsers._group_actions)
    assert isinstance(action, argparse._SubParsersAction)
    return action.choices


def command_names() -> set[str]:
    """Every sub-command of ``companion``."""
    return set(subcommands())


def option_strings() -> dict[str, list[str]]:
    """Each sub-command's option strings (``--x``, ``--json`` ...)."""
    return {name: [flag for option in sub._actions for flag in option.option_strings]
            for name, sub in subcommands().items()}
