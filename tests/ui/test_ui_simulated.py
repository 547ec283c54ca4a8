"""A card laid by touch on the simulated table reaches the game through the camera pipeline."""

from __future__ import annotations

import threading
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


def test_a_real_camera_reads_21x_cards_with_the_owner_s_taught_deck_opened_off_the_ui_thread(
        driver: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cv2
    from kivy.clock import Clock

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
    opener = GatedOpener(monkeypatch)
    try:
        app.start_game(default_start("21x", 2))  # returns while the camera is opening
        assert opener.opening.wait(PIPELINE_SECONDS) and not opener.opened
        shown = Clock.frames_displayed
        driver.tick()
        driver.frames(2)
        assert Clock.frames_displayed >= shown + 3  # the window draws on meanwhile
        opener.release.set()
        assert app.simulated is None and app.watcher is not None
        assert dealt_by_the_camera(driver) == [("ann", "6x"), ("ben", "prime")]
        assert opener.opened and "camera" not in app.table_screen.title.text
    finally:
        opener.release.set()
        app.camera = None
        app.watcher.stop()
        layout.unlink()


class GatedOpener:
    """``vision.camera.open_camera`` held until :attr:`release` is set: a camera slow to
    open (a Pi camera takes about a second), to show that the UI thread does not wait."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import vision.camera

        self.opening = threading.Event()
        self.release = threading.Event()
        self.opened = False
        self._open = vision.camera.open_camera
        monkeypatch.setattr(vision.camera, "open_camera", self)

    def __call__(self, spec: str, **options: Any) -> Any:
        self.opening.set()
        self.release.wait(PIPELINE_SECONDS)
        camera = self._open(spec, **options)
        self.opened = True
        return camera


def test_a_missing_camera_is_told_on_the_table_and_the_game_goes_on_by_touch(
        driver: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.layout import DEFAULT_LAYOUTS
    from vision.profile import DeckProfile, decks_dir
    from vision.simulated import SimulatedTable, builtin_expressions, simulated_deck

    app = driver.app
    taught = simulated_deck(builtin_expressions(), ["6x"], data=tmp_path)
    DeckProfile("one-card", taught.faces, "21x").save(decks_dir(app.data_folder) / "one-card")
    table = SimulatedTable(DEFAULT_LAYOUTS["21x"]())
    layout = app.data_folder / "layouts" / "21x.toml"
    layout.parent.mkdir(exist_ok=True)
    table.layout.calibrated(table.calibration()).save(layout)
    missing = tmp_path / "no-such-camera"
    app.camera = str(missing)
    opener = GatedOpener(monkeypatch)
    try:
        app.start_game(default_start("21x", 2))
        assert opener.opening.wait(PIPELINE_SECONDS)
        assert "camera" not in app.table_screen.title.text  # not known yet: still opening
        opener.release.set()
        deadline = time.monotonic() + PIPELINE_SECONDS
        while app.watcher.failure is None and time.monotonic() < deadline:
            driver.tick()
        driver.tick()
        assert f"camera: no camera or replay file '{missing}'" in app.table_screen.title.text
        place(driver, "ann", "6X")  # by touch: straight to the game
        assert [(d["player"], d["card"]) for d in logged(driver, "deal")] == [("ann", "6x")]
    finally:
        opener.release.set()
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
