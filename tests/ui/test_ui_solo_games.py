"""Single-player 21X and solitaire on the real app, by touch only."""

from __future__ import annotations

from typing import Any

from tests.ui.test_ui_21x import logged, place, type_keys


def start_by_touch(driver: Any, caption: str) -> None:
    driver.app.go("home")
    driver.press(caption)
    driver.press("START")
    driver.tick()
    assert driver.app.current.NAME == "table"


def test_single_player_makes_21_by_touch(driver: Any) -> None:
    start_by_touch(driver, "21X single player")
    for card in ("6X", "2X+4", "X/2"):
        place(driver, "hand", card)
    assert [d["card"] for d in logged(driver, "deal") + logged(driver, "draw")] == [
        "6x", "2x+4", "x/2"]
    driver.press("make 21")
    driver.tick()
    assert driver.app.current.NAME == "call"
    type_keys(driver, "2")
    driver.press("call 21")
    driver.tick()
    assert logged(driver, "make21")[-1]["x"] == 2
    assert "right" in driver.app.current.message.text
    driver.press("table")
    points = driver.app.loop.game.view.table["points"]
    assert points > 0
    assert f"{points} of 21 points" in driver.app.current.layout.centre_text.text


def test_solitaire_draws_and_places_by_touch(driver: Any) -> None:
    start_by_touch(driver, "Twenty One solitaire")
    table = driver.app.current
    place(driver, "draw", "Kd")
    assert table.layout.current == "Kd"
    driver.tap(table.layout.column_panels[0])
    driver.tick()
    assert logged(driver, "place")[-1] == {"column": 0}
    assert table.layout.column_panels[0].total.text == "10"
    place(driver, "draw", "Ah")
    driver.tap(table.layout.column_panels[0])
    driver.tick()
    assert table.layout.figures["score"].text != "0"
    assert table.layout.column_panels[0].total.text == "0"
