"""Problems the table must see: a full disk during a game, a broken config or data folder at
start, each shown over the screen, and the game going on once it is fixed.

``ui.app`` is imported inside the tests: importing it opens Kivy's window, which must wait for
the driver fixture's 800x480 set-up (tests/ui/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.observations import Sighting, TableStart
from companion.errors import StoreWriteError
from ui.cli import open_store
from ui.health import config_or_defaults


def test_a_full_disk_is_shown_and_the_game_goes_on_once_there_is_room(
        driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.app import STORE_TROUBLE

    app = driver.app
    app.start_game(TableStart("21x", ("ann", "ben")))
    driver.tick()
    store = app.loop.store

    def full(game_id: int, event: Any) -> None:
        raise StoreWriteError("cannot write the game store: the disk is full", path="g.db")

    monkeypatch.setattr(store, "append", full)
    app.loop.conductor.post(Sighting("placed", "6x", "seat-1", 0.0))
    driver.tick()
    said = f"{STORE_TROUBLE}g.db: cannot write the game store: the disk is full"
    assert app.shown_warning == said
    assert app.warning_popup is not None and "disk is full" in app.warning_popup.content.text
    monkeypatch.undo()
    driver.tick()
    assert app.shown_warning == "" and app.warning_popup is None
    assert [e.kind for e in app.loop.game.referee.events][-1] == "deal"


def test_a_warning_from_the_start_stays_until_read(driver: Any) -> None:
    driver.app.warn("config.toml:3: invalid TOML; using the defaults")
    driver.tick()
    assert driver.app.warning_popup is not None
    assert "using the defaults" in driver.app.warning_popup.content.text
    driver.app.warning_popup.dismiss()
    driver.app.warn("")


def test_a_broken_config_falls_back_to_the_defaults_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[hardware\n", encoding="utf-8")
    config, warning = config_or_defaults(path)
    assert config == {} and warning is not None and "config.toml:1" in warning


def test_a_data_folder_that_cannot_be_used_still_plays_in_memory(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "companion.sqlite3").write_bytes(b"not a database at all, just junk" * 40)
    store, warning = open_store(str(folder))
    with store:
        assert store.path == ":memory:"
    assert warning is not None and warning.endswith("games are not kept until this is fixed")
