"""The trick game's deal and a Medley turn on the real app, by touch only."""

from __future__ import annotations

from typing import Any

from tests.ui.test_ui_21x import logged, place
from tests.ui.test_ui_solo_games import start_by_touch

MEDLEY_DEAL = (("cell-6", "Ad"), ("cell-7", "3h"), ("cell-4", "4c"), ("cell-3", "7d"),
               ("cell-2", "4h"), ("cell-1", "Ah"), ("cell-5", "Ks"), ("cell-0", "10d"),
               ("cell-8", "Jh"))


def test_trick_game_deal_swapping_and_a_lead_by_touch(driver: Any) -> None:
    driver.app.go("home")
    driver.press("Twenty One")
    driver.press("2 players")
    driver.press("START")
    driver.tick()
    driver.press("deal")
    driver.tick()
    assert logged(driver, "deal") == [{}]
    assert all(seat.hidden > 0 for seat in driver.app.loop.game.view.seats)
    leader = driver.app.loop.game.view.table["leader"]
    driver.press(f"{leader}: no swapping")
    driver.tick()
    assert logged(driver, "swapping")[-1] == {"player": leader, "open": False}
    place(driver, "trick", "9d")
    seat = driver.app.loop.game.seating.by_player(leader).number
    driver.press(f"{seat} press")  # the lead is one card: the button ends the play
    driver.tick()
    assert logged(driver, "play")[-1] == {"player": leader, "cards": ["9d"]}
    assert "9d" in driver.app.current.layout.centre_text.text


def test_medley_deal_roll_and_claim_by_touch(driver: Any) -> None:
    start_by_touch(driver, "Mountainside Math Medley")
    for cell, card in MEDLEY_DEAL:
        place(driver, cell, card)
    assert len(logged(driver, "draw")) == len(MEDLEY_DEAL)
    driver.press("die 3")
    driver.press("3 + 6")
    driver.tick()
    assert logged(driver, "roll")[-1] == {"dice": [3, 6]}
    table = driver.app.current
    assert table.layout.target.text == f"target {driver.app.loop.game.view.table['target']}"
    offered = table.entries
    assert offered and all(entry.action == "claim" for entry in offered)
    driver.tap(table.entries_row.children[-1])
    driver.tick()
    assert logged(driver, "claim")[-1]["expression"] == offered[0].data["expression"]
