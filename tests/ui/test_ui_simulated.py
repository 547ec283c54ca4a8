"""A card laid by touch on the simulated table reaches the game through the camera pipeline."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.ui.test_ui_21x import logged, place
from ui.loop import default_start

PIPELINE_SECONDS = 20.0


def dealt_by_the_camera(driver: Any, cards: int = 2) -> list[tuple[str, str]]:
    """(player, card) of each deal logged once the camera pipeline has read ``cards``."""
    deadline = time.monotonic() + PIPELINE_SECONDS
    while len(logged(driver, "deal")) < cards and time.monotonic() < deadline:
        driver.tick()
        time.sleep(0.02)
    return sorted((deal["player"], deal["card"]) for deal in logged(driver, "deal"))


def test_touch_deals_on_the_simulated_table_and_the_camera_reads_it(driver: Any) -> None:
    app = driver.app
    app.camera = "sim"
    try:
        app.start_game(default_start("21x", 2))
        place(driver, "ann", "6X")
        place(driver, "ben", "Fib(X)")
        assert [p.card for p in app.simulated.placements] == ["6x", "fib"]
        assert dealt_by_the_camera(driver) == [("ann", "6x"), ("ben", "fib")]
        assert app.preview.frames_shown > 0
        assert app.screens["table"].preview is app.preview
    finally:
        app.camera = None
        app.simulated = None
        app.watcher.stop()


def test_a_snapshot_of_the_table_shows_the_camera_view_with_each_card_named(
        driver: Any, tmp_path: Path) -> None:
    from ui.demo import laid_table, load_recording, recording_path

    app = driver.app
    start, observations = load_recording(recording_path("trick"))
    app.start_game(start)
    table, reader = laid_table(start, observations, until=start.t + 25, data=tmp_path)
    assert [(p.card, p.zone) for p in table.placements] == [
        ("9d", "trick"), ("9h", "trick"), ("10d", "trick")]
    app.show_still(table, reader)
    driver.frames(3)  # laid out: the picture refitted, the outlines drawn over it again
    names = sorted(label.text for label in app.preview.names if label.text)
    assert names == ["10d", "9d", "9h"]
    picture = app.preview.picture
    for label in app.preview.names[:3]:
        assert picture.pos[0] <= label.x <= picture.pos[0] + picture.size[0]
    assert app.screens["table"].preview is app.preview


def test_a_real_camera_reads_21x_cards_with_the_owner_s_taught_deck(
        driver: Any, tmp_path: Path) -> None:
    import cv2

    from vision.layout import DEFAULT_LAYOUTS
    from vision.profile import DeckProfile, decks_dir
    from vision.simulated import SimulatedTable, builtin_expressions, simulated_deck

    app = driver.app
    expressions = builtin_expressions()
    taught = simulated_deck(expressions, list(expressions), data=tmp_path)  # cards alone
    DeckProfile("home", taught.faces, "21x").save(decks_dir(app.data_folder) / "home")
    table = SimulatedTable(DEFAULT_LAYOUTS["21x"](), expressions=expressions, seed=5)
    table.place("6x", "seat-1")
    table.place("prime", "seat-2")
    replay = tmp_path / "camera"
    replay.mkdir()
    for number in range(40):  # what the camera saw: the same table, fresh noise each frame
        cv2.imwrite(str(replay / f"{number:03}.png"), table.read())
    layout = app.data_folder / "layouts" / "21x.toml"
    layout.parent.mkdir(exist_ok=True)
    table.layout.calibrated(table.calibration()).save(layout)
    app.camera = str(replay)
    try:
        app.start_game(default_start("21x", 2))
        assert app.simulated is None and app.watcher is not None
        assert dealt_by_the_camera(driver) == [("ann", "6x"), ("ben", "prime")]
    finally:
        app.camera = None
        app.watcher.stop()
        layout.unlink()


def test_a_real_camera_for_21x_needs_a_taught_deck(tmp_path: Path) -> None:
    from companion.errors import CompanionError
    from ui.deck import owner_deck
    from vision.simulated import builtin_expressions, simulated_deck

    simulated_deck(builtin_expressions(), ["6x"], data=tmp_path)  # the simulator's: not it
    with pytest.raises(CompanionError, match="no taught 21X deck: teach the box"):
        owner_deck(tmp_path)
