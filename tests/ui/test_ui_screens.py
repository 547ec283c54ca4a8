"""Every screen renders at 800x480 and shows what it should; the snapshot command works."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.engine.clock import ManualClock
from companion.engine.observations import ButtonPress
from companion.engine.scores import standings
from tests.image_files import image_at
from ui.cli import SCREEN_NAMES
from ui.loop import default_start
from ui.playback import Playback

ROOT = Path(__file__).resolve().parents[2]
RECORDED_21X = ROOT / "docs" / "observations" / "21x.jsonl"


def play_recorded_21x(driver: Any, clock: ManualClock) -> None:
    """The 21X recording, played to its end on the app (cat wins on 19)."""
    driver.app.play_to(Playback.read(RECORDED_21X, began=clock()), clock, until=None)
    driver.frames(2)


def test_a_finished_game_ends_on_the_round_end_screen(driver: Any, clock: ManualClock) -> None:
    driver.app.go("table")
    play_recorded_21x(driver, clock)
    screen = driver.app.current
    assert screen.NAME == "round-end"
    assert "cat wins" in screen.winners.text
    assert "19" in screen.reason.text
    lines = [child.children[0].text for child in reversed(screen.lines.children)]
    assert any("best: X = " in line for line in lines)


@pytest.mark.parametrize("name", SCREEN_NAMES)
def test_each_screen_snapshot_is_800_by_480(driver: Any, tmp_path: Path, name: str) -> None:
    driver.app.go(name)
    image = image_at(driver.snapshot(tmp_path / f"{name}.png"))
    assert image.shape == (480, 800, 3)
    assert image.std() > 20, "the screen is blank"


def cat_points(driver: Any) -> int:
    session = driver.app.loop.session_id
    rows = standings(driver.app.store, session_id=session) if session else []
    return next((row.points for row in rows if row.player == "cat"), 0)


def test_scoreboard_standings_and_chart(driver: Any, clock: ManualClock) -> None:
    before = cat_points(driver)
    play_recorded_21x(driver, clock)
    driver.app.go("scoreboard")
    screen = driver.app.current
    assert screen.session.text.splitlines()[1].startswith(f"cat: {before + 4} pts")
    assert screen.chart.texture.size == (360, 300)


def test_history_steps_through_a_stored_game(driver: Any, clock: ManualClock) -> None:
    play_recorded_21x(driver, clock)
    driver.app.go("history")
    screen = driver.app.current
    assert screen.step_text.text.startswith("step 1 of ")
    driver.press("last >>")
    assert f"step {len(screen.events)} of" in screen.step_text.text
    driver.press("< back")
    assert f"step {len(screen.events) - 1} of" in screen.step_text.text
    assert screen.layout.panels[2].seat.player == "cat"


def test_teach_parses_as_you_type_and_saves_the_card(driver: Any) -> None:
    driver.app.go("teach")
    screen = driver.app.current
    for key in ("3", "X", "+"):
        driver.press(key)
    assert "trailing operator" in screen.problem.text
    assert "[color=ff5544][u]+[/u][/color]" in screen.expression.text
    driver.press("1")
    driver.press("2 icons")
    driver.press("save card")
    assert screen.deck.catalogue().card("3x+1").icons == 2
    assert "card 2 of 110" in screen.progress.text


def test_settings_button_test_and_calibration(driver: Any, monkeypatch: Any) -> None:
    driver.app.start_game(default_start("21x", 2))
    recalibrated: list[bool] = []
    monkeypatch.setattr(driver.app, "recalibrate_camera", lambda: recalibrated.append(True))
    driver.app.go("settings")
    assert recalibrated == [True]  # the camera's exposure runs again while calibrating
    screen = driver.app.current
    screen.pressed(ButtonPress(seat=2, kind="hold", t=0.0))
    assert screen.pressed_text.text == "seat 2 (ben): stand"
    driver.press("save corners")
    assert (driver.app.data_folder / "layouts" / "21x.toml").exists()
    driver.press("save")
    assert (driver.app.data_folder / "app.json").exists()
    assert driver.app.sounds.volume == int(screen.sound.value)  # at once, not next game


def snapshot_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "snapshot", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_snapshot_command_renders_a_recorded_moment(tmp_path: Path) -> None:
    out = tmp_path / "call.png"
    done = snapshot_command("call", str(out), "--state", str(RECORDED_21X), "--at", "29.5")
    assert done.returncode == 0, done.stderr
    assert image_at(out).shape == (480, 800, 3)


def test_snapshot_command_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    done = snapshot_command("table", str(tmp_path / "x.jpg"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"companion snapshot: error: {tmp_path / 'x.jpg'}: the snapshot is a PNG: name it"
        " ....png"]


def test_a_screen_is_made_when_first_asked_for(driver: Any) -> None:
    from kivy.uix.screenmanager import ScreenManager

    from ui.app import SCREENS
    from ui.screens.base import Screens

    manager = ScreenManager()
    screens = Screens(driver.app, manager, SCREENS)
    assert not screens.made and manager.screen_names == [] and "teach" in screens
    teach = screens["teach"]
    assert screens.made == ("teach",) and manager.screen_names == ["teach"]
    assert screens["teach"] is teach and len(screens) == len(SCREENS)
    screens.make(["home", "table"])
    assert manager.screen_names == ["teach", "home", "table"]
