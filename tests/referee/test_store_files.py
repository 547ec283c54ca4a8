"""Damaged, foreign, empty and read-only store files; import and recovery."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.events import Event
from companion.engine.recovery import recover
from companion.engine.replay import read_jsonl
from companion.engine.store import FILE_NAME, Store
from companion.engine.storefile import APPLICATION_ID
from companion.errors import LogError

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted((ROOT / "docs" / "logs").glob("*.jsonl"))


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    return err


def stocked_store(directory: Path) -> Path:
    """A store with every example game imported, checkpointed into the main file."""
    for log in LOGS:
        assert main(["import", str(log), "--data-dir", str(directory)]) == 0
    path = directory / FILE_NAME
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


def test_another_programs_database_is_refused_and_left_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO photos (name) VALUES ('beach')")
    db.commit()
    db.close()
    before = path.read_bytes()
    err = one_line_error(capsys, ["scores", "--data-dir", str(tmp_path)])
    assert "another program (no application id, tables: photos)" in err
    one_line_error(capsys, ["import", str(LOGS[0]), "--data-dir", str(tmp_path)])
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]


def test_an_application_id_of_another_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id = 1234")
    for table in ("players", "sessions", "games", "events", "results"):
        db.execute(f"CREATE TABLE {table} (x)")
    db.commit()
    db.close()
    with pytest.raises(LogError, match="application id 0x4d2"):
        Store(path)


def test_a_new_store_is_marked_and_an_old_unmarked_one_is_adopted(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        store.new_game("21x", started_at=0.0)
    db = sqlite3.connect(tmp_path / FILE_NAME)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    db.execute("PRAGMA application_id = 0")
    db.commit()
    db.close()
    with Store.open(tmp_path) as store:
        assert [g.id for g in store.games()] == [1]
    db = sqlite3.connect(tmp_path / FILE_NAME)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(LogError, match="schema version 99, newer"):
        Store.open(tmp_path)


def test_an_empty_file_is_a_fresh_store(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"")
    with Store.open(tmp_path) as store:
        assert store.games() == []
        store.new_game("trick", started_at=0.0)
    with Store.open(tmp_path) as store:
        assert len(store.games()) == 1


def test_a_read_only_store_is_read_without_a_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = stocked_store(tmp_path)
    for side in tmp_path.glob(FILE_NAME + "-*"):
        side.unlink()
    before = path.read_bytes()
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        assert main(["scores", "--data-dir", str(tmp_path)]) == 0
        assert main(["replay", "2", "--data-dir", str(tmp_path)]) == 0
        assert "winners: cat" in capsys.readouterr().out
        with Store.open(tmp_path, read_only=True) as store, pytest.raises(LogError,
                                                                          match="read-only"):
            store.new_game("21x", started_at=0.0)
    finally:
        tmp_path.chmod(0o755)
    assert path.read_bytes() == before


def test_a_missing_store_reads_as_empty_without_creating_it(tmp_path: Path) -> None:
    assert main(["scores", "--data-dir", str(tmp_path)]) == 0
    assert not (tmp_path / FILE_NAME).exists()


def test_a_store_in_a_missing_folder_is_not_called_damaged(tmp_path: Path) -> None:
    with pytest.raises(LogError) as error:
        Store(tmp_path / "gone" / FILE_NAME)
    assert str(error.value) == (
        f"{tmp_path / 'gone' / FILE_NAME}: cannot open the game store: "
        f"its folder {tmp_path / 'gone'} does not exist"
    )


def test_a_store_that_sqlite_cannot_open_is_not_called_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **options: object) -> sqlite3.Connection:
        raise sqlite3.OperationalError("unable to open database file")  # as for a read-only folder

    monkeypatch.setattr(sqlite3, "connect", refuse)
    with pytest.raises(LogError) as error:
        Store(tmp_path / FILE_NAME)
    assert str(error.value) == (
        f"{tmp_path / FILE_NAME}: cannot open the game store (unable to open database file): "
        "check that its folder can be written"
    )


def test_a_store_damaged_in_its_middle_pages_is_one_line_and_recoverable(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = stocked_store(tmp_path)
    data = bytearray(path.read_bytes())
    middle = (len(data) // 4096 // 2) * 4096
    data[middle + 100: middle + 4000] = b"\x5a" * 3900
    path.write_bytes(bytes(data))
    err = one_line_error(capsys, ["scores", "--data-dir", str(tmp_path)])
    assert f"{path}: the game store is damaged" in err and "companion recover" in err
    one_line_error(capsys, ["import", str(LOGS[0]), "--data-dir", str(tmp_path)])
    assert main(["recover", "--data-dir", str(tmp_path)]) == 0
    saved = tmp_path / "recovered-1"
    assert (saved / FILE_NAME).read_bytes() == bytes(data)
    recovered = sorted(saved.glob("game-*.jsonl"))
    assert recovered, "some games are readable"
    with Store.open(tmp_path) as fresh:
        for log in recovered:
            events = read_jsonl(log)
            assert any(fresh.events(g.id) == events for g in fresh.games())
    assert main(["scores", "--data-dir", str(tmp_path)]) == 0


def test_recovery_keeps_the_readable_beginning_of_a_garbled_log(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        game = store.new_game("21x-solo", started_at=0.0)
        for event in read_jsonl(ROOT / "docs" / "logs" / "21x-solo.jsonl"):
            store.append(game, event)
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.execute("UPDATE events SET data = '{garbled' WHERE seq = 5")
    db.commit()
    db.close()
    result = recover(tmp_path)
    assert [e.seq for e in read_jsonl(result.folder / "game-1.jsonl")] == [1, 2, 3, 4]
    assert result.imported == [1]
    with Store.open(tmp_path) as fresh:
        assert len(fresh.events(1)) == 4 and fresh.unfinished() == [1]


@pytest.mark.parametrize(
    ("update", "message"),
    [
        ("UPDATE games SET summary = '[1, 2' WHERE id = 1", "#game1: garbled summary"),
        ("UPDATE games SET summary = '[1, 2]' WHERE id = 1", "#game1: garbled summary"),
        ("UPDATE results SET points = 'lots'", "#game1: garbled result row for player 'ann'"),
        ("UPDATE results SET time = 'soon'", "#game1: garbled result row for player 'ann'"),
    ],
)
def test_garbled_summary_or_result_rows_name_the_file_and_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], update: str, message: str) -> None:
    with Store.open(tmp_path) as store:
        game = store.new_game("21x-solo", started_at=0.0)
        store.append(game, Event("start", {"game": "21x-solo"}, seq=1))
        store.finish(game, {"over": True, "winners": ["ann"], "points": {"ann": 3}, "time": 9.5})
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.execute(update)
    db.commit()
    db.close()
    assert message in one_line_error(capsys, ["scores", "--data-dir", str(tmp_path)])


def test_an_imported_log_counts_in_the_scores_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = ROOT / "docs" / "logs" / "21x.jsonl"
    assert main(["import", str(log), "--data-dir", str(tmp_path)]) == 0
    assert "as game 1" in capsys.readouterr().out
    assert "already in the store as game 1" in one_line_error(
        capsys, ["import", str(log), "--data-dir", str(tmp_path)])
    assert main(["scores", "--data-dir", str(tmp_path)]) == 0
    assert "cat: 4 points, 1 won of 1 game" in capsys.readouterr().out
