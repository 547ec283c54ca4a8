"""A 21X game on the real app, by touch and keys only: a call, a stand, the minute out."""

from __future__ import annotations

from typing import Any

from companion.engine.clock import ManualClock
from companion.engine.observations import Sighting, TableStart

HANDS = {"ann": ("6X", "2X+4"), "ben": ("Fib(X)", "Xth digit of e"),
         "cat": ("Xth prime", "Xth digit of pi")}


def new_game(driver: Any, players: int = 3) -> None:
    """Set up 21X on the home screen by touch and start it."""
    driver.app.go("home")
    driver.press("21X")
    driver.press(f"{players} players")
    driver.press("START")
    driver.tick()
    assert driver.app.current.NAME == "table"


def place(driver: Any, player: str, card: str) -> None:
    """Enter one card by touch: + card, the seat, the card."""
    driver.press("+ card")
    assert driver.app.current.NAME == "pick"
    driver.press(player)
    driver.press(card)
    driver.tick()


def deal(driver: Any) -> None:
    for round_ in range(2):
        for player, cards in HANDS.items():
            place(driver, player, cards[round_])


def logged(driver: Any, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in driver.app.loop.game.referee.events if e.kind == kind]


def type_keys(driver: Any, keys: str) -> None:
    for key in keys:
        driver.press(key)


def test_cards_entered_by_touch_are_dealt_and_shown(driver: Any) -> None:
    new_game(driver)
    deal(driver)
    assert [(d["player"], d["card"]) for d in logged(driver, "deal")][:2] == [
        ("ann", "6x"), ("ben", "fib")]
    panels = driver.app.screens["table"].layout.panels
    assert panels[0].cards.names == ["6x", "2x+4"]
    assert panels[1].title.text.startswith("[b]2  ben")


def press_seat_button(driver: Any, caption: str, screen: str) -> Any:
    """A new game, dealt; then a seat's on-screen button, which opens ``screen``."""
    new_game(driver)
    deal(driver)
    driver.press(caption)
    driver.tick()
    assert screen == driver.app.current.NAME
    return driver.app.current


def test_a_wrong_call_by_touch_eliminates_the_caller(driver: Any) -> None:
    screen = press_seat_button(driver, "1 call", "call")
    assert screen.hand.names == ["6x", "2x+4"]
    type_keys(driver, "4")
    assert screen.keypad.entry.values() == {"x": 4}
    driver.press("call 21")
    driver.tick()
    assert logged(driver, "call")[-1] == {"player": "ann", "x": 4}
    assert "ann" in driver.app.loop.game.view.outcome.eliminated
    assert "wrong" in screen.message.text


def test_a_stand_starts_the_minute_and_its_end_asks_the_others(driver: Any,
                                                              clock: ManualClock) -> None:
    screen = press_seat_button(driver, "2 stand", "stand")
    type_keys(driver, "3")
    driver.tap(screen.keypad.field_buttons["total"])
    type_keys(driver, "7")
    driver.press("state")
    driver.tick()
    assert logged(driver, "stand")[-1] == {"player": "ben", "x": 3, "total": 7}
    driver.press("table")
    table = driver.app.current
    assert table.timer.text == "1:00"
    clock.advance(30)
    driver.tick()
    assert table.timer.text == "0:30"
    clock.advance(31)
    driver.tick()
    assert logged(driver, "timer_expired")
    assert driver.app.current.NAME == "stand"
    assert driver.app.current.seat == 1


def test_a_key_press_is_the_seat_button(driver: Any, clock: ManualClock) -> None:
    new_game(driver)
    deal(driver)
    window = driver.app.root.get_root_window()
    window.dispatch("on_key_down", ord("p"), 0, "p", [])
    window.dispatch("on_key_up", ord("p"), 0)
    clock.advance(0.05)
    driver.app.io.keys.panel.poll(clock())
    driver.tick()
    assert driver.app.current.NAME == "call"
    assert driver.app.current.seat == 2


def test_start_line_of_the_home_screen(driver: Any) -> None:
    driver.app.go("home")
    driver.press("21X")
    driver.press("2 players")
    driver.press("minute: 60")
    assert driver.app.screens["home"].table_start() == TableStart(
        "21x", ("ann", "ben"), options={"stand_seconds": 30})


def test_an_attention_item_is_shown_and_resolved_in_one_tap(driver: Any,
                                                           clock: ManualClock) -> None:
    new_game(driver)
    driver.app.loop.post(Sighting("placed", "6x", "seat-1", clock(), unsure=True))
    driver.tick()
    table = driver.app.current
    assert [item.seat for item in table.attention_items] == [1]
    assert table.attention.height > 0
    driver.press("yes, 6x")
    driver.tick()
    assert logged(driver, "deal") == [{"player": "ann", "card": "6x"}]
    assert table.attention_items == ()


def test_a_misread_card_is_fixed_by_touch_as_a_correction(driver: Any) -> None:
    new_game(driver)
    deal(driver)
    driver.press("log")
    driver.press("fix card")
    assert driver.app.current.NAME == "pick"
    driver.press("Xth triangle")
    driver.tick()
    correction = logged(driver, "correction")[-1]
    fixed = next(e for e in driver.app.loop.game.referee.events if e.seq == correction["target"])
    assert correction["replacement"] == {"kind": "deal",
                                         "data": {**fixed.data, "card": "triangle"}}
    seat = driver.app.loop.game.view.seat_of(fixed.data["player"])
    assert "triangle" in [card.card for card in seat.cards]
    assert fixed.data["card"] not in [card.card for card in seat.cards]
