"""The real processes: the worst inputs found answer in time, and the helper scripts too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FREEZE_CARD = "X^-99999"


def companion(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``python -m companion ARGV``; a run over 20 s fails the test as a hang."""
    return subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True,
                          text=True, cwd=cwd, timeout=20, check=False)


def freezing_game(folder: Path) -> Path:
    """A 21X log in which ann calls 21 holding the card that used to freeze the referee."""
    cards = [{"id": "tiny", "text": FREEZE_CARD}, *({"id": n, "text": n} for n in "456")]
    events = [
        {"seq": 1, "t": 0.0, "kind": "start",
         "data": {"game": "21x", "players": ["ann", "ben"], "cards": cards,
                  "deck": ["tiny", "4", "5", "6"]}},
        *({"seq": 2 + k, "t": 1.0 + k, "kind": "deal", "data": {"player": p, "card": c}}
          for k, (p, c) in enumerate([("ann", "tiny"), ("ben", "4"), ("ann", "5"),
                                      ("ben", "6")])),
        {"seq": 6, "t": 9.0, "kind": "call", "data": {"player": "ann", "x": 2}},
    ]
    log = folder / "freeze.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return log


def test_the_card_that_froze_check_is_refused_at_once() -> None:
    done = companion("check", "--x", "2", FREEZE_CARD)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "2^-99999 is too small to value exactly (about 30103 digits" in done.stderr


def test_a_call_with_that_card_is_judged_and_the_game_goes_on(tmp_path: Path) -> None:
    log = freezing_game(tmp_path)
    done = companion("replay", str(log), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["eliminated"] == ["ann"] and not summary["over"]
    assert "too small to value exactly" in summary["why"]["ann"]
    imported = companion("import", str(log), "--data-dir", str(tmp_path / "data"))
    assert imported.returncode == 0, imported.stderr
    resumed = companion("replay", "1", "--data-dir", str(tmp_path / "data"))
    assert resumed.returncode == 0 and "ann: called 21 with X = 2" in resumed.stdout


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--x", "1e999999999", "X"], "'1e999999999' is too large"),
        (["solve", "--range", "100000000", "X"], "too large (at most 50000)"),
        (["check", "--x", "99999", "Xth digit of pi"], None),
        (["check", "--x", "100001", "Xth digit of e"], "limit |X| <= 100000"),
        (["check", "10", "10"], None),
    ],
)
def test_worst_inputs_found_answer_in_time(argv: list[str], message: str | None) -> None:
    done = companion(*argv)
    if message is None:
        assert done.returncode == 0, done.stderr
    else:
        assert done.returncode == 2 and message in done.stderr and done.stderr.count("\n") == 1


def test_version_and_help_describe_every_command() -> None:
    assert companion("--version").stdout.startswith("companion ")
    listing = companion("--help").stdout
    for command in ("check", "solve", "replay", "scores", "import", "recover", "demo"):
        assert f"    {command}" in listing
        help_text = companion(command, "--help").stdout
        assert help_text.split("\n\n")[1].strip(), f"{command} --help has no description"


@pytest.mark.parametrize("script", [["-m", "benchmarks"], ["-m", "vision.training.glyphs"]])
def test_helper_scripts_answer_help_and_bad_names(script: list[str], tmp_path: Path) -> None:
    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *script, *argv], capture_output=True,
                              text=True, cwd=ROOT, timeout=60, check=False)

    assert run("--help").returncode == 0
    wrong = run(str(tmp_path / "no-such-name"))
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
