"""The SQLite game store: WAL file, durable appends, sessions, results, bad files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.engine.events import Event
from companion.engine.store import FILE_NAME, Store
from companion.errors import LogError


def test_store_lives_in_the_data_dir_and_uses_wal(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        assert Path(store.path) == tmp_path / FILE_NAME
    db = sqlite3.connect(tmp_path / FILE_NAME)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_data_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "elsewhere"))
    with Store.open() as store:
        assert Path(store.path) == tmp_path / "elsewhere" / FILE_NAME


def test_appended_events_are_visible_to_another_connection_at_once(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    game = store.new_game("21x-solo", started_at=1.0)
    store.append(game, Event("start", {"game": "21x-solo", "players": ["ann"]}, t=1.0, seq=1))
    store.append(game, Event("deal", {"card": "c1"}, t=2.5, seq=2))
    with Store.open(tmp_path) as other:
        events = other.events(game)
        assert other.unfinished() == [game]
    assert [(e.seq, e.kind, e.t) for e in events] == [(1, "start", 1.0), (2, "deal", 2.5)]
    assert events[1].data == {"card": "c1"}
    store.close()


def test_a_seq_cannot_be_written_twice(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        game = store.new_game("21x", started_at=0.0)
        store.append(game, Event("start", {}, seq=1))
        with pytest.raises(LogError, match="already has an event 1"):
            store.append(game, Event("draw", {}, seq=1))
        assert len(store.events(game)) == 1


def test_finish_records_results_and_a_correction_can_reopen(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        session = store.new_session(started_at=0.0, games_planned=3)
        game = store.new_game("21x", started_at=0.0, session_id=session)
        store.append(game, Event("start", {}, seq=1))
        store.finish(game, {"over": True, "winners": ["ann"], "points": {"ann": 4, "ben": 0}})
        assert store.game(game).finished
        assert store.session_wins(session, "21x") == {"ann": 1}
        assert [(r.player, r.points, r.won) for r in store.results(session_id=session)] == [
            ("ann", 4, True), ("ben", 0, False)]
        store.finish(game, {"over": False, "winners": [], "points": {}})
        assert not store.game(game).finished
        assert store.results() == []
        assert store.unfinished() == [game]
        assert store.session_games_planned(session) == 3


def test_unknown_game_and_session_are_one_line_errors(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        with pytest.raises(LogError, match="no game 7"):
            store.game(7)
        with pytest.raises(LogError, match="no session 3"):
            store.session_games_planned(3)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_text("this is not sqlite " * 100)
    with pytest.raises(LogError, match="not an SQLite database"):
        Store.open(tmp_path)


def test_corrupt_event_data_names_the_game_and_event(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        game = store.new_game("21x", started_at=0.0)
        store.append(game, Event("start", {}, seq=1))
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.execute("UPDATE events SET data = '{broken' WHERE seq = 1")
    db.commit()
    db.close()
    with Store.open(tmp_path) as store, pytest.raises(LogError, match=r"#game1: event 1 has"):
        store.events(game)
