"""Replay and corrections, resuming from the store, and ``companion replay``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.events import Event
from companion.engine.referee import Referee
from companion.engine.replay import effective_events, read_jsonl, replay, write_jsonl
from companion.errors import IllegalMove, LogError

from .tables import Table

ROOT = Path(__file__).resolve().parents[2]
LOG_21X = ROOT / "docs" / "logs" / "21x.jsonl"


def played(tmp_path: Path, drawn: str = "9") -> Table:
    """ann holds 6X, 2X+4 and ``drawn``; ben holds 10 and 4."""
    game = Table(tmp_path, "21x", {"players": ["ann", "ben"]})
    game.deal({"ann": ["6x", "2x+4"], "ben": ["10", "4"]})
    game.at(5).do("draw", player="ann", card=drawn)
    return game


def test_an_illegal_event_is_refused_and_nothing_is_logged(tmp_path: Path) -> None:
    game = played(tmp_path)
    before = game.store.events(game.referee.game_id)
    with pytest.raises(IllegalMove):
        game.do("draw", player="ben", card="9")
    assert game.store.events(game.referee.game_id) == before == game.referee.events


def test_resume_replays_the_log_to_the_same_state(tmp_path: Path) -> None:
    game = played(tmp_path)
    game.at(10).do("stand", player="ben", x=1, total=14)
    resumed = Referee.resume(game.store, game.referee.game_id, game.clock)
    assert resumed.summary() == game.referee.summary()
    assert game.store.unfinished() == [game.referee.game_id]
    game.at(200)
    assert resumed.tick()[-1].kind == "timer_expired"


def test_on_start_the_latest_unfinished_game_resumes(tmp_path: Path) -> None:
    game = played(tmp_path)
    assert Referee.resume_unfinished(game.store, game.clock) is not None
    game.do("call", player="ann", x=1)
    assert Referee.resume_unfinished(game.store, game.clock) is None


def test_resume_records_an_end_the_crash_missed(tmp_path: Path) -> None:
    game = played(tmp_path)
    final = Event("call", {"player": "ann", "x": 1}, t=1010.0, seq=game.referee.next_seq)
    game.store.append(game.referee.game_id, final)  # logged, then the power went
    assert not game.store.game(game.referee.game_id).finished
    resumed = Referee.resume(game.store, game.referee.game_id, game.clock)
    assert resumed.summary()["winners"] == ["ann"]
    assert game.store.game(game.referee.game_id).finished
    assert game.store.unfinished() == []


def test_a_correction_replaces_a_misread_card(tmp_path: Path) -> None:
    game = played(tmp_path, drawn="5")
    misread = game.referee.events[-1]
    game.referee.correct(misread.seq, {"kind": "draw", "data": {"player": "ann", "card": "9"}},
                         reason="camera misread")
    state = game.referee.state
    assert state.hands["ann"] == ("6x", "2x+4", "9")
    assert "5" in state.deck and "9" not in state.deck
    assert game.do("call", player="ann", x=1)["winners"] == ["ann"]  # 6 + 6 + 9
    stored = game.store.events(game.referee.game_id)
    assert [e.kind for e in stored].count("correction") == 1
    assert stored[misread.seq - 1] == misread  # history is never edited


def test_a_correction_can_void_and_be_undone(tmp_path: Path) -> None:
    game = played(tmp_path)
    drawn = game.referee.events[-1].seq
    void = game.referee.correct(drawn, reason="the card fell off the table")
    assert game.referee.state.hands["ann"] == ("6x", "2x+4")
    game.referee.correct(void.seq, reason="it was drawn after all")
    assert game.referee.state.hands["ann"] == ("6x", "2x+4", "9")
    assert replay(game.referee.events).summary() == game.referee.summary()


def test_a_correction_that_would_break_later_events_is_refused(tmp_path: Path) -> None:
    game = played(tmp_path)
    game.do("draw", player="ann", card="5")
    dealt = game.referee.events[1].seq
    with pytest.raises(IllegalMove, match="event"):
        game.referee.correct(dealt, {"kind": "deal", "data": {"player": "ann", "card": "5"}})
    with pytest.raises(IllegalMove, match="start event cannot be corrected"):
        game.referee.correct(1)
    with pytest.raises(IllegalMove, match="seq of an earlier event"):
        game.referee.correct(99)
    assert [e.kind for e in game.referee.events].count("correction") == 0


def test_effective_events_keep_place_seq_and_time() -> None:
    log = [Event("start", {"game": "21x"}, 0.0, 1), Event("draw", {"card": "a"}, 2.0, 2),
           Event("draw", {"card": "b"}, 3.0, 3),
           Event("correction", {"target": 2, "replacement": {"data": {"card": "c"}}}, 4.0, 4)]
    assert [(e.seq, e.t, e.kind, e.data) for e in effective_events(log)[1:]] == [
        (2, 2.0, "draw", {"card": "c"}), (3, 3.0, "draw", {"card": "b"})]


def test_replay_json_prints_the_final_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(LOG_21X), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "21x" and summary["winners"] == ["cat"]
    assert summary["eliminated"] == ["ann"] and summary["points"]["cat"] == 4
    assert summary["hands"]["cat"] == ["10", "4", "7-x", "n"]  # the correction applied


def test_replay_text_says_who_won_why_and_who_is_out(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(LOG_21X)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "game: 21x (over)",
        "winners: cat",
        "reason: cat beat ben's stand on 17 with 19",
        "points: ann 0, ben 0, cat 4",
        "eliminated:",
        "  ann: called 21 with X = 4 but the cards make 38",
    ]


def test_replay_text_of_a_single_player_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(LOG_21X.with_name("21x-solo.jsonl"))]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["game: 21x-solo (over)", "winners: ann", "points: ann 26"]
    assert out[3:] == ["hands scored: 4", "time: 3 min 8.0 s"]


def test_replay_text_of_a_game_in_progress(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "short.jsonl"
    write_jsonl(read_jsonl(LOG_21X)[:13], log)
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "game: 21x (in progress)", "winners: -", "points: ann 0, ben 0, cat 0", "standing: ben",
        "calling: ann (everyone stops until their X is checked)"]
    write_jsonl(read_jsonl(LOG_21X)[:14], log)
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == [
        "points: ann 0, ben 0, cat 0", "eliminated:",
        "  ann: called 21 with X = 4 but the cards make 38", "standing: ben"]


def test_replay_a_stored_game_by_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played(tmp_path)
    game.do("call", player="ann", x=1)
    code = main(["replay", str(game.referee.game_id), "--json", "--data-dir", str(tmp_path)])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["ann"]
    assert main(["replay", "42", "--data-dir", str(tmp_path)]) == 2
    assert "no game 42" in capsys.readouterr().err


@pytest.mark.parametrize(("line", "message"), [
    ('{"seq": 2, "kind": "draw", "data": {"player": "ann", "card": "9"', "not valid JSON"),
    ('{"seq": 2, "kind": "draw", "data": []}', "'data' of a 'draw' event must be an object"),
    ('{"seq": 1, "kind": "draw", "data": {}}', "seq 1 does not follow 1"),
    ('{"seq": 2, "kind": "draw", "data": {"player": "ann", "card": "zz"}}', "event 2 (draw)"),
])
def test_a_bad_line_is_refused_with_its_line_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str) -> None:
    log = tmp_path / "bad.jsonl"
    body = [LOG_21X.read_text().splitlines()[0], ""]
    log.write_text("\n".join([*body, line]) + "\n")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert f"{log}:{len(body) + 1}:" in err


def test_a_log_must_start_with_start(tmp_path: Path) -> None:
    log = tmp_path / "headless.jsonl"
    log.write_text('{"seq": 1, "kind": "draw", "data": {}}\n')
    with pytest.raises(LogError, match=r"headless.jsonl:1: the first event must be 'start'"):
        read_jsonl(log)
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(LogError, match="no events"):
        read_jsonl(tmp_path / "empty.jsonl")


def test_write_and_read_round_trip(tmp_path: Path) -> None:
    events = read_jsonl(LOG_21X)
    write_jsonl(events, tmp_path / "copy.jsonl")
    assert read_jsonl(tmp_path / "copy.jsonl") == events


def test_the_command_never_shows_a_traceback(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "companion", "replay",
                             str(tmp_path / "missing.jsonl")],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "missing.jsonl" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("name", "content", "message"), [
    ("missing.jsonl", None, "missing.jsonl: cannot read the log: No such file or directory"),
    ("folder", "", "folder: cannot read the log: Is a directory"),
    ("latin.jsonl", b"\xff\xfe{}", "latin.jsonl: cannot read the log: it is not UTF-8 text"),
    ("poker.jsonl", b'{"seq":1,"t":0,"kind":"start","data":{"game":"poker"}}\n',
     "poker.jsonl: unknown game 'poker' (known: 21x, 21x-solo, medley, solitaire, trick)"),
])
def test_an_unreadable_log_is_one_line_on_stderr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
        content: bytes | str | None, message: str) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.mkdir()
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith(f"{message}\n")


def test_a_corrupt_store_is_one_line_on_stderr(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "companion.sqlite3").write_bytes(b"this is not a database" * 100)
    assert main(["scores", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an SQLite database, so not a game store" in err
