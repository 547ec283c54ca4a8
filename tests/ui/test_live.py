"""``companion play --camera``: a real table loop with a replayed camera and typed entries."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.engine.store import Store
from vision.layout import DEFAULT_LAYOUTS
from vision.simulated import SimulatedTable, builtin_expressions

ENTRIES = """card 6x seat-1
card 2x+4 seat-1
card prime seat-2
card fib seat-2
card x/2 seat-1
x two
press 1
x 1 x=2
"""


@pytest.fixture()
def camera(tmp_path: Path) -> tuple[Path, Path]:
    """A replayed photo of a 21X table and its calibrated layout file."""
    table = SimulatedTable(DEFAULT_LAYOUTS["21x"](), expressions=builtin_expressions())
    photo, layout = tmp_path / "table.png", tmp_path / "21x.toml"
    cv2.imwrite(str(photo), table.read())
    table.layout.calibrated(table.calibration()).save(layout)
    return photo, layout


def test_a_game_is_refereed_from_typed_entries_beside_the_camera(
        tmp_path: Path, camera: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    photo, layout = camera
    monkeypatch.setattr("sys.stdin", io.StringIO(ENTRIES))
    code = main(["play", "21x", "--players", "ann,ben", "--camera", str(photo),
                 "--layout", str(layout), "--data-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "draw {\"player\":\"ann\",\"card\":\"x/2\"}" in out
    assert "not understood: 'x two': a seat number comes after the action, not 'two'" in out
    assert "winners: ann" in out and "reason: ann called 21 with X = 2 and made it" in out
    with Store.open(tmp_path) as store:
        (game,) = [store.game(game_id) for game_id in (1,)]
        assert game.finished


def test_live_play_needs_the_game_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--camera", "auto"]) == 2
    assert "with --camera, name the GAME and its --players" in capsys.readouterr().err


def test_an_uncalibrated_table_is_one_line(tmp_path: Path, camera: tuple[Path, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    photo, _ = camera
    code = main(["play", "21x", "--players", "a,b", "--camera", str(photo),
                 "--data-dir", str(tmp_path)])
    error = capsys.readouterr().err
    assert code == 2 and error.count("\n") == 1 and "21x.toml" in error


def test_bad_options_name_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "21x", "--players", "a,b", "--camera", "auto",
                 "--options", json.dumps([1])]) == 2
    assert "--options: must be a JSON object" in capsys.readouterr().err
