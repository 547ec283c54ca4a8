"""The command line's own promises: one-line errors, no tracebacks, quiet on a closed pipe."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from companion import cli
from companion.errors import CatalogueError


class _OneCommand:
    """Stands in for the parser: always the ``demo`` command, run by ``handler``."""

    def __init__(self, handler: object) -> None:
        self.handler = handler

    def parse_args(self, argv: object) -> argparse.Namespace:
        return argparse.Namespace(command="demo", handler=self.handler)


def _run_with_handler(monkeypatch: pytest.MonkeyPatch, handler: object) -> int:
    monkeypatch.setattr(cli, "build_parser", lambda: _OneCommand(handler))
    return cli.main(["demo"])


def test_a_companion_error_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fail(args: argparse.Namespace) -> int:
        raise CatalogueError("card 'c7' has no text", path="mine.toml", line=12)

    assert _run_with_handler(monkeypatch, fail) == 2
    err = capsys.readouterr().err
    assert err == "companion demo: error: mine.toml:12: card 'c7' has no text\n"


def test_a_file_problem_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fail(args: argparse.Namespace) -> int:
        raise PermissionError(13, "Permission denied", "/root/x.jsonl")

    assert _run_with_handler(monkeypatch, fail) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_an_unexpected_fault_is_one_line_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fail(args: argparse.Namespace) -> int:
        raise ZeroDivisionError("boom")

    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    assert _run_with_handler(monkeypatch, fail) == cli.INTERNAL_ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "ZeroDivisionError: boom" in err


def test_debug_mode_shows_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(args: argparse.Namespace) -> int:
        raise ZeroDivisionError("boom")

    monkeypatch.setenv(cli.DEBUG_ENV, "1")
    with pytest.raises(ZeroDivisionError):
        _run_with_handler(monkeypatch, fail)


def test_a_usage_mistake_is_one_line_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "check", "--x"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_output_into_a_closed_pipe_stops_quietly() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written, like `| head` finishing
    try:
        writer = subprocess.run(
            [sys.executable, "-m", "companion", "demo"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        os.close(write_end)
    assert writer.returncode == 1
    assert writer.stderr == ""
