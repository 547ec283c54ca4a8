"""``companion check``, ``solve`` and ``demo`` run as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, env=env, timeout=60, check=False)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def test_check_json_matches_the_rulebook_example(data_dir: Path) -> None:
    done = run("check", "--x", "2", "--json", "6X", "2X+4", "X/2", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [(c["card"], c["value"]) for c in report["cards"]] == [
        ("6X", "12"), ("2X+4", "8"), ("X/2", "1")]
    assert (report["n"], report["x"], report["total"], report["status"]) == (3, 2, "21",
                                                                              "twentyone")


def test_check_json_exact_fraction_strings(data_dir: Path) -> None:
    done = run("check", "--x", "1", "--json", "6x", "2x+4", "x/2", data_dir=data_dir)
    report = json.loads(done.stdout)
    assert report["total"] == "25/2" and report["decimal"] == "12.5"
    assert report["status"] == "valid"
    assert report["cards"][2]["value"] == "1/2"
    assert report["icons"] == 4


def test_check_non_integer_x_is_a_json_string(data_dir: Path) -> None:
    done = run("check", "--x", "5/2", "--non-integer-x", "--json", "X", "X/3", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["x"] == "5/2" and report["total"] == "10/3"


def test_check_human_output_shows_the_working(data_dir: Path) -> None:
    done = run("check", "--x", "2", "6X", "2X+4", "X/2", data_dir=data_dir)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert "6X = 6\N{MULTIPLICATION SIGN}2 = 12" in done.stdout
    assert "2X+4 = 2\N{MULTIPLICATION SIGN}2 + 4 = 8" in done.stdout
    assert "Total: 12 + 8 + 1 = 21" in lines
    assert lines[-1] == "21! Call 21 and win the game."


def test_check_human_output_for_bust_and_twenty(data_dir: Path) -> None:
    bust = run("check", "--x", "4", "6X", "2X+4", "X/2", data_dir=data_dir)
    assert "Total: 24 + 12 + 2 = 38" in bust.stdout and bust.stdout.rstrip().endswith("Bust!")
    twenty = run("check", "--x", "2", "10X", data_dir=data_dir)
    assert "exactly 20 is bust" in twenty.stdout


def test_check_celebrity_cards_by_id_and_wording(data_dir: Path) -> None:
    done = run("check", "--x", "-9", "--json", "fib", "Xth prime", data_dir=data_dir)
    report = json.loads(done.stdout)
    assert [c["value"] for c in report["cards"]] == ["-34", "-23"]


def test_check_with_y_and_v(data_dir: Path) -> None:
    done = run("check", "--x", "2", "--y", "3", "--v", "4", "--json", "XY", "V", data_dir=data_dir)
    report = json.loads(done.stdout)
    assert (report["y"], report["v"], report["total"]) == (3, 4, "10")


def test_check_without_x_uses_the_best_x(data_dir: Path) -> None:
    done = run("check", "6X", "2X+4", "X/2", data_dir=data_dir)
    assert "X = 2" in done.stdout and "best X" in done.stdout


def test_solve_json(data_dir: Path) -> None:
    done = run("solve", "--json", "6X", "2X+4", "X/2", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["twentyone"] == [{"x": 2, "total": "21"}]
    assert report["best"] == {"x": 2, "total": "21"}


def test_solve_json_with_y_and_range(data_dir: Path) -> None:
    done = run("solve", "--json", "--range", "10", "X", "Y", data_dir=data_dir)
    report = json.loads(done.stdout)
    assert report["twentyone"] == []  # X + Y <= 20 in this range, and 20 is bust
    assert report["best"] == {"x": 9, "y": 10, "total": "19"}
    wider = json.loads(run("solve", "--json", "--range", "25", "X", "Y",
                           data_dir=data_dir).stdout)
    assert wider["twentyone"][0] == {"x": -4, "y": 25, "total": "21"}
    assert len(wider["twentyone"]) == 20 + 4


def test_solve_human_output(data_dir: Path) -> None:
    done = run("solve", "6X", "2X+4", "X/2", data_dir=data_dir)
    assert "Exactly 21 with: X = 2" in done.stdout
    assert "Total: 12 + 8 + 1 = 21" in done.stdout


def test_extra_catalogue_option(tmp_path: Path, data_dir: Path) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text('[[card]]\nid = "half-n"\ntext = "N/2"\nlevel = 2\n', encoding="utf-8")
    done = run("check", "--x", "1", "--json", "--catalogue", str(extra), "half-n", "X",
               data_dir=data_dir)
    report = json.loads(done.stdout)
    assert report["cards"][0]["value"] == "1" and report["cards"][0]["icons"] == 2


def test_max_cards_option(data_dir: Path) -> None:
    six = ["X"] * 6
    refused = run("check", "--x", "1", *six, data_dir=data_dir)
    assert refused.returncode == 2 and "at most 5" in refused.stderr
    allowed = run("check", "--x", "1", "--max-cards", "0", "--json", *six, data_dir=data_dir)
    assert json.loads(allowed.stdout)["total"] == "6"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("check", "--x", "2", "6X+"), "trailing operator '+' at position 3 in '6X+'"),
        (("check", "--x", "2", "2Q"), "unknown name 'Q'"),
        (("check", "--x", "0", "6X"), "X cannot be 0"),
        (("check", "--x", "1/2", "6X"), "X must be a whole number"),
        (("check", "--x", "abc", "6X"), "'abc' is not a number"),
        (("check", "--x", "2", "1/(X-2)"), "division by zero at position 2"),
        (("check", "--x", "2", "(-X)!"), "factorial needs a whole number >= 0"),
        (("check", "--x", "2", "XY"), "a card uses Y"),
        (("check", "--x", "2", "--y", "-1", "XY"), "Y must be positive"),
        (("solve", "--range", "0", "6X"), "too small"),
        (("check", "--x", "2", "--catalogue", "/nonexistent/deck.toml", "6X"),
         "/nonexistent/deck.toml: no such catalogue file"),
        (("solve", "X^Y"), "use a search range of at most"),
    ],
)
def test_bad_input_is_one_line_exit_2_no_traceback(
    data_dir: Path, args: tuple[str, ...], fragment: str
) -> None:
    done = run(*args, data_dir=data_dir)
    assert done.returncode == 2
    assert fragment in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_bad_owner_deck_is_reported_with_its_line(data_dir: Path) -> None:
    decks = data_dir / "decks"
    decks.mkdir(parents=True)
    (decks / "broken.toml").write_text('[[card]]\nid = "a"\ntext = "X"\nlevel = 9\n',
                                       encoding="utf-8")
    done = run("check", "--x", "1", "6X", data_dir=data_dir)
    assert done.returncode == 2
    assert "broken.toml:4: card.1.level: must be a whole number 1-3, not 9" in done.stderr


def test_demo_shows_the_rulebook_example(data_dir: Path) -> None:
    done = run("demo", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    assert "Total: 24 + 12 + 2 = 38" in done.stdout
    assert "Total: 6 + 6 + 0.5 = 12.5" in done.stdout
    assert "Total: 12 + 8 + 1 = 21" in done.stdout
    assert "Exactly 21 with: X = 2" in done.stdout
