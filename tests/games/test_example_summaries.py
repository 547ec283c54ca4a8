"""Every example log replays to the summary it had before moves became dataclasses.

``data/<log>.summary.json`` is what ``companion replay --json`` printed for the log then;
the game interface's rework (moves, views, one dispatch) must not change an outcome.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.games.recordings import example_log

DATA = Path(__file__).resolve().parent / "data"


@pytest.mark.parametrize("name", ["21x-solo", "solitaire", "solitaire-default", "trick",
                                  "medley"])
def test_the_example_log_replays_to_the_summary_it_had_before(name: str) -> None:
    before = json.loads((DATA / f"{name}.summary.json").read_text(encoding="utf-8"))
    assert example_log(name).summary() == before
