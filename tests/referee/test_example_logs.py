"""Every example log in docs/logs/ replays through ``companion replay --json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.replay import read_jsonl

LOGS = sorted((Path(__file__).resolve().parents[2] / "docs" / "logs").glob("*.jsonl"))
REQUIRED = {"game", "winners", "eliminated", "points", "over"}


def test_the_21x_logs_are_there() -> None:
    assert {"21x.jsonl", "21x-solo.jsonl"} <= {log.name for log in LOGS}


@pytest.mark.parametrize("log", LOGS, ids=[log.stem for log in LOGS])
def test_example_log_replays_to_a_finished_game(
        log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(log), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) >= REQUIRED
    assert summary["game"] == read_jsonl(log)[0].data["game"]
    assert summary["over"] is True
    assert isinstance(summary["winners"], list) and isinstance(summary["eliminated"], list)
    assert all(isinstance(points, int) for points in summary["points"].values())
    assert set(summary["winners"]) <= set(summary["points"])
