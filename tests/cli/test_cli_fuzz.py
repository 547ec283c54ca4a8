"""Fuzz the whole command line: random and mutated input for every command and option.

Each input must be answered with exit 0, or exit 2 and one line on stderr, in time
(see :mod:`tests.cli.fuzzing`). The examples are derandomized, so a failure repeats.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.cli import build_parser
from tests.cli.fuzzing import clean, command_names, option_strings

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted((ROOT / "docs" / "logs").glob("*.jsonl"))
LOG_LINES = [log.read_text(encoding="utf-8").splitlines() for log in LOGS]
RECORDINGS = sorted((ROOT / "docs" / "observations").glob("*.jsonl"))
RECORDING_LINES = [path.read_text(encoding="utf-8").splitlines() for path in RECORDINGS]
LOG_KEYS = ["x", "y", "player", "card", "total", "target", "seq", "t"]
RECORDING_KEYS = ["t", "type", "kind", "card", "zone", "seat", "value", "action", "item",
                  "choice", "late_ms", "unsure", "players", "game"]


def fuzz(examples: int) -> settings:
    """Hypothesis settings for a fuzz test: derandomized, no per-example deadline."""
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data dir and config of this test's own, and mock GPIO pins."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.delenv("COMPANION_DEBUG", raising=False)
    yield tmp_path


# ------------------------------------------------------------------ strategies

HOSTILE_NUMBERS = ["0", "-0", "nan", "inf", "-inf", "1e999999999", "1e-999999999", "1/0",
                   "0x10", "1_000", "٣", "", " ", "99999999999999999999999999", "1e3612",
                   "2.5", "-7/3", "1e308", "+5", "--1", "1" * 200]
numbers = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.integers(-10**6, 10**6).map(str),
                    st.fractions(max_denominator=1000).map(str), st.floats().map(repr),
                    st.text(max_size=8))
CARD_CHARACTERS = "XYNV0123456789.+-*/^()[]! ²³⁻¹÷½\N{MULTIPLICATION SIGN}\N{MINUS SIGN}"
CARD_WORDS = ["X", "Y", "N", "V", "2", "7", "0.5", "½", "1000", "99999", "X²", "X⁻¹", "X¹⁰",
              "Xth prime", "Fib(X)", "Sum of factors(X)", "Xth digit of pi", "Xth digit of e",
              "Xth triangle", "fib", "prime", "x21-001", "ace-spades"]


def expressions() -> st.SearchStrategy[str]:
    """Card texts built from the grammar: sums, powers, factorials, celebrity calls."""
    leaves = st.sampled_from(["X", "Y", "N", "V", "1", "2", "3", "10", "0", "0.5", "99", "1000"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from("+-*/^"), inner).map("".join),
            inner.map(lambda e: f"({e})"), inner.map(lambda e: f"({e})!"),
            inner.map(lambda e: f"-{e}"),
            st.tuples(st.sampled_from(["prime", "fib", "factorsum", "pidigit", "edigit",
                                       "triangle"]), inner).map(lambda p: f"{p[0]}({p[1]})"))

    return st.recursive(leaves, extend, max_leaves=8)


cards = st.one_of(expressions(), st.sampled_from(CARD_WORDS),
                  st.text(alphabet=CARD_CHARACTERS, max_size=24),
                  st.text(max_size=12))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=6)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6)


def mutated_log() -> st.SearchStrategy[str]:
    """An example game log with a few lines mutated, dropped, repeated or cut."""
    return mutated_lines(LOG_LINES, LOG_KEYS)


@st.composite
def mutated_lines(draw: st.DrawFn, sources: list[list[str]], keys: list[str]) -> str:
    """One of ``sources`` (JSON lines) with a few lines mutated (a key of ``keys`` or of
    the line set to any JSON value), dropped, repeated or cut."""
    lines = list(draw(st.sampled_from(sources)))
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        index = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["field", "data", "drop", "repeat", "cut", "junk"]))
        if how in ("field", "data"):
            try:
                event = json.loads(lines[index])
            except ValueError:  # a line an earlier mutation already broke
                continue
            target = event if how == "field" else event.setdefault("data", {})
            if not isinstance(target, dict):
                continue
            target[draw(st.sampled_from([*target, *keys]))] = draw(json_values)
            lines[index] = json.dumps(event)
        elif how == "drop":
            del lines[index]
        elif how == "repeat":
            lines.insert(index, lines[draw(st.integers(0, len(lines) - 1))])
        elif how == "cut":
            lines[index] = lines[index][: draw(st.integers(0, len(lines[index])))]
        else:
            lines[index] = draw(st.text(max_size=40))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the commands

FUZZED = {"check", "solve", "demo", "replay", "scores", "import", "recover", "recognize",
          "dice", "camera", "teach", "decks", "hw-test", "play", "doctor", "run", "snapshot"}
WINDOWED = {"run", "snapshot"}
"""Commands that open the app's window once their arguments are accepted: fuzzed up to that
point in this process (the UI tests own its one Kivy window), and in subprocesses below."""


PROBLEMS_FOUND = (0, 1, 2)
"""``companion doctor`` exits 1 when it found something to fix."""


def test_every_command_is_fuzzed() -> None:
    assert command_names() == FUZZED


@fuzz(500)
@given(x=st.none() | numbers, y=st.none() | numbers, v=st.none() | numbers,
       hand=st.lists(cards, min_size=0, max_size=6), json_out=st.booleans(),
       non_integer=st.booleans())
def test_check_answers_any_hand(x: str | None, y: str | None, v: str | None, hand: list[str],
                                json_out: bool, non_integer: bool) -> None:
    argv = ["check", *(["--json"] if json_out else []),
            *(["--non-integer-x"] if non_integer else [])]
    for flag, value in (("--x", x), ("--y", y), ("--v", v)):
        if value is not None:
            argv.append(f"{flag}={value}")
    clean([*argv, "--", *hand])


@fuzz(150)
@given(search=st.none() | numbers | st.integers(1, 60).map(str),
       hand=st.lists(cards, min_size=1, max_size=5), max_cards=st.none() | numbers)
def test_solve_answers_any_hand(search: str | None, hand: list[str],
                                max_cards: str | None) -> None:
    argv = ["solve", "--json"]
    if search is not None:
        argv.append(f"--range={search}")
    if max_cards is not None:
        argv.append(f"--max-cards={max_cards}")
    clean([*argv, "--", *hand])


@fuzz(400)
@given(text=mutated_log(), json_out=st.booleans())
def test_replay_answers_any_damaged_log(isolated: Path, text: str, json_out: bool) -> None:
    log = isolated / "game.jsonl"
    log.write_text(text, encoding="utf-8", errors="surrogatepass")
    clean(["replay", str(log), *(["--json"] if json_out else [])])


@fuzz(300)
@given(text=mutated_lines(RECORDING_LINES, RECORDING_KEYS), json_out=st.booleans())
def test_play_answers_any_damaged_recording(isolated: Path, text: str, json_out: bool) -> None:
    recording = isolated / "game.jsonl"
    recording.write_text(text, encoding="utf-8", errors="surrogatepass")
    clean(["play", "--observations", str(recording), *(["--json"] if json_out else [])])


@fuzz(40)
@given(config=st.text(max_size=60), camera=st.sampled_from(["none", "nope", "/dev/null", "7"]),
       json_out=st.booleans())
def test_doctor_answers_any_config(isolated: Path, config: str, camera: str,
                                   json_out: bool) -> None:
    path = isolated / "config.toml"
    path.write_text(config, encoding="utf-8", errors="surrogatepass")
    clean(["doctor", "--config", str(path), "--camera", camera,
           *(["--json"] if json_out else [])], allowed=PROBLEMS_FOUND)


@fuzz(120)
@given(text=mutated_log())
def test_import_stores_a_log_or_refuses_it(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "game.jsonl"
        log.write_text(text, encoding="utf-8", errors="surrogatepass")
        if clean(["import", str(log), "--data-dir", folder]).code == 0:
            clean(["scores", "--json", "--data-dir", folder], allowed=(0,))


@pytest.fixture(scope="module")
def stocked_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding every example game, all in the main file."""
    folder = tmp_path_factory.mktemp("stocked")
    for log in LOGS:
        clean(["import", str(log), "--data-dir", str(folder)], allowed=(0,))
    path = folder / "companion.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


@fuzz(120)
@given(flips=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.binary(min_size=1,
                                                                            max_size=64)),
                      min_size=1, max_size=3),
       command=st.sampled_from([["scores"], ["replay", "2"], ["recover"], ["scores", "--json"],
                                ["import", str(LOGS[0])]]))
def test_store_commands_answer_a_damaged_store(stocked_store: Path,
                                               flips: list[tuple[float, bytes]],
                                               command: list[str]) -> None:
    data = bytearray(stocked_store.read_bytes())
    for where, junk in flips:
        start = int(where * len(data))
        data[start:start + len(junk)] = junk
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "companion.sqlite3").write_bytes(bytes(data))
        clean([*command, "--data-dir", folder])


@fuzz(80)
@given(picture=st.one_of(
    st.binary(max_size=200),
    st.tuples(st.integers(1, 90), st.integers(1, 90), st.sampled_from([".png", ".jpg"]))
      .map(lambda s: cv2.imencode(s[2], np.full((s[1], s[0], 3), 128, np.uint8))[1].tobytes()),
    st.binary(max_size=60).map(lambda junk: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + junk)),
    command=st.sampled_from(["recognize", "dice", "camera"]))
def test_image_commands_answer_any_file(isolated: Path, picture: bytes, command: str) -> None:
    image = isolated / "photo.png"
    image.write_bytes(picture)
    extra = ["--frames", "1"] if command == "camera" else []
    clean([command, str(image), *extra])


@fuzz(60)
@given(deck=st.text(max_size=12), catalogue=st.sampled_from(["21x", "standard", "none", ""]),
       files=st.lists(st.binary(max_size=100), max_size=3), listing=st.booleans())
def test_teach_and_decks_answer_any_input(isolated: Path, deck: str, catalogue: str,
                                          files: list[bytes], listing: bool) -> None:
    folder = isolated / "photos"
    folder.mkdir(exist_ok=True)
    for number, content in enumerate(files):
        (folder / f"card{number}.png").write_bytes(content)
    clean(["teach", "--catalogue", catalogue, "--from-images", str(folder), "--", deck])
    if listing:
        clean(["decks", "--json"])


@fuzz(12)
@given(pin=st.one_of(st.integers(-5, 60), st.text(max_size=4), st.floats()),
       timeout=st.sampled_from(["0.2", "nan", "-1", "inf", "x", "1e400"]))
def test_hw_test_answers_any_config(isolated: Path, pin: object, timeout: str) -> None:
    config = isolated / "pins.toml"
    config.write_text(f"[hardware]\nbuzzer = {json.dumps(pin)}\n", encoding="utf-8")
    clean(["hw-test", "--demo", "--config", str(config), "--timeout", timeout],
          allowed=(0, 1, 2))


@fuzz(300)
@given(data=st.data(), command=st.sampled_from(sorted(FUZZED - {"hw-test", "teach", "camera"})))
def test_any_arguments_get_a_one_line_answer(data: st.DataObject, command: str) -> None:
    flags = option_strings()[command]
    words = data.draw(st.lists(st.one_of(st.sampled_from(flags), numbers, cards,
                                         st.sampled_from(["home", "table", "21x", "x.png"])),
                               max_size=5))
    if command in WINDOWED:
        assume(not opens_a_window([command, *words]))
    clean([command, *words], allowed=PROBLEMS_FOUND if command == "doctor" else (0, 2))


def opens_a_window(argv: list[str]) -> bool:
    """True when ``run``/``snapshot`` would accept ``argv`` and open the app's window."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:
        return False
    if args.command == "run":
        return not (args.exit_when_over and args.demo is None)
    return (args.out.lower().endswith(".png") and not (args.state and args.game)
            and not (args.at is not None and args.state is None))


@fuzz(4)
@given(text=mutated_lines(RECORDING_LINES, RECORDING_KEYS))
def test_snapshot_answers_any_damaged_recording(isolated: Path, text: str) -> None:
    recording = isolated / "game.jsonl"
    recording.write_text(text, encoding="utf-8", errors="surrogatepass")
    done = subprocess.run([sys.executable, "-m", "companion", "snapshot", "table",
                           str(isolated / "out.png"), "--state", str(recording)],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "KIVY_HOME": str(isolated / "kivy")})
    assert done.returncode in (0, 2), done
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done
    if done.returncode == 2:
        assert done.stderr.strip().splitlines()[-1].startswith("companion snapshot: "), done
    else:
        assert (isolated / "out.png").stat().st_size > 0


@fuzz(40)
@given(variable=st.sampled_from(["COMPANION_DATA_DIR", "COMPANION_CONFIG",
                                 "GPIOZERO_PIN_FACTORY"]),
       value=st.one_of(st.sampled_from(["/dev/null", "/dev/null/x", "/proc/version", "nope",
                                        "", "."]), st.text(alphabet="abc/._-", max_size=10)),
       command=st.sampled_from([["scores"], ["decks"], ["check", "X"], ["demo"]]))
def test_environment_variables_get_a_one_line_answer(isolated: Path, monkeypatch:
                                                     pytest.MonkeyPatch, variable: str,
                                                     value: str, command: list[str]) -> None:
    if value and not value.startswith("/"):
        value = str(isolated / value)
    monkeypatch.setenv(variable, value)
    clean(command)
