"""``call`` and ``stand``: a seat's hand beside the X (and Y) and total keypad.

``call`` opens when the referee waits for a caller's X (``Expecting("x", seats)``): the
hand is shown, X is typed, and the verdict comes back from the referee with each card's
working, as in the rulebook's example. ``stand`` opens for a stated total
(``Expecting("total", seats)``: a stand, or the best totals at the end of the minute):
X and the total are typed, or the seat passes; the stand is then shown with its minute.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from companion.engine.conductor import Update
from companion.engine.view import GameView, SeatView
from ui import theme
from ui.cards import CardRow
from ui.format import expected, main_timer, seats_of, timer_text
from ui.screens.base import AppScreen, Host
from ui.widgets import Keypad, Panel, Text, Tile, row

VERDICT_SIGNALS = ("right", "wrong", "refused")
VERDICT_SECONDS = 4.0
"""How long a verdict stays up before the table comes back by itself."""


def uses_y(seat: SeatView) -> bool:
    """True when a card of the seat's hand reads Y, so the keypad asks for Y too."""
    return any("Y" in (card.text or card.card).upper() for card in seat.cards)


class KeypadScreen(AppScreen):
    """A seat's hand and a keypad; the subclass says what it asks for and submits."""

    EXPECTING = ""
    FIELDS: tuple[tuple[str, str], ...] = ()
    SUBMIT = ""

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="horizontal", spacing=theme.GAP, padding=theme.GAP)
        left = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.52)
        self.seat_row = row()
        self.hand_panel = Panel(orientation="vertical")
        self.heading = Text(size=theme.TEXT, size_hint_y=None, height=30)
        self.hand = CardRow(size=theme.BIG - 6)
        self.working = Text(size=theme.TEXT)
        for child in (self.heading, self.hand, self.working):
            self.hand_panel.add_widget(child)
        self.message = Text(size=theme.TEXT + 4, size_hint_y=None, height=90, halign="center")
        for child in (self.seat_row, self.hand_panel, self.message):
            left.add_widget(child)
        right = BoxLayout(orientation="vertical", spacing=theme.GAP)
        self.keypad = Keypad(self.FIELDS)
        self.actions = row(Tile("table", lambda: host.go("table")))
        self.submit = Tile(self.SUBMIT, self.send, size=theme.BIG - 8,
                           background_color=theme.CHOSEN)
        self.actions.add_widget(self.submit)
        self.add_extra_actions()
        right.add_widget(self.keypad)
        right.add_widget(self.actions)
        root.add_widget(left)
        root.add_widget(right)
        self.add_widget(root)
        self.seat: int | None = None
        self.sent = False
        self.view: GameView | None = None

    def add_extra_actions(self) -> None:
        """Buttons beside submit (the stand screen's pass)."""

    def enter(self, **options: Any) -> None:
        seat = options.get("seat")
        view = self.host.loop.game.view
        seats = seats_of(expected(view, self.EXPECTING))
        self.seat = seat if seat is not None else (seats[0] if seats else None)
        self.sent = False
        self.message.text = ""
        self.keypad.reset()
        self.show(view, seats)

    def update(self, update: Update) -> None:
        seats = seats_of(expected(update.view, self.EXPECTING))
        for signal in update.signals:
            if signal.kind in VERDICT_SIGNALS and signal.seat in (self.seat, None):
                self.message.text = self.verdict(signal.kind, signal.detail, update.view)
                self.host.later(VERDICT_SECONDS, self.back_to_table)
        if not self.sent and self.seat not in seats and seats:
            self.seat = seats[0]
        self.show(update.view, seats)

    def show(self, view: GameView, seats: list[int]) -> None:
        """Draw the chosen seat's hand and the seats still to answer."""
        self.view = view
        self.seat_row.clear_widgets()
        for number in seats:
            player = self.player(view, number)
            self.seat_row.add_widget(Tile(player, partial(self.choose, number),
                                          background_color=theme.CHOSEN
                                          if number == self.seat else theme.BUTTON))
        seat = next((s for s in view.seats if s.seat == self.seat), None)
        if seat is None:
            return
        self.heading.text = f"[b]{seat.player}[/b]  {seat.note}"
        self.hand.show(seat.cards, seat.hidden)
        self.working.text = "\n".join(c.working for c in seat.cards if c.working)
        fields = [name for name, _ in self.FIELDS if name != "y" or uses_y(seat)]
        if list(self.keypad.entry.fields) != fields:
            self.keypad.reset(fields)
        self.submit.disabled = self.sent or self.seat not in seats

    def back_to_table(self) -> None:
        """Back to the table (the round's end once the game is over), unless the screen
        has moved on already."""
        if self.manager is not None and self.manager.current == self.NAME:
            over = self.host.loop.playing and self.host.loop.game.view.outcome.over
            self.host.go("round-end" if over else "table")

    def choose(self, seat: int) -> None:
        """Answer for ``seat`` next."""
        self.seat = seat
        self.sent = False
        self.keypad.reset()
        if self.view is not None:
            self.show(self.view, seats_of(expected(self.view, self.EXPECTING)))

    def send(self) -> None:
        """Submit what was typed for the chosen seat."""
        missing = self.keypad.entry.missing()
        if missing:
            self.message.text = f"type {' and '.join(m.upper() for m in missing)} first"
            return
        self.host.loop.tap(self.EXPECTING, self.seat, self.keypad.entry.values())
        self.sent = True
        self.submit.disabled = True
        self.message.text = "checking..."

    def verdict(self, kind: str, detail: str, view: GameView) -> str:
        """The one line shown when the referee answers."""
        seat = next((s for s in view.seats if s.seat == self.seat), None)
        note = detail or (seat.note if seat else "")
        return {"right": "[color=55dd66]right![/color] ",
                "wrong": "[color=ee5544]wrong[/color] "}.get(kind, "") + note

    @staticmethod
    def player(view: GameView, number: int) -> str:
        """The player at seat ``number``."""
        return next((s.player for s in view.seats if s.seat == number), str(number))


class CallScreen(KeypadScreen):
    """The caller types X (and Y); the referee's verdict and working come back."""

    NAME = "call"
    EXPECTING = "x"
    FIELDS = (("x", "X"), ("y", "Y"))
    SUBMIT = "call 21"


class StandScreen(KeypadScreen):
    """A seat states X and its total (or passes); then its minute runs."""

    NAME = "stand"
    EXPECTING = "total"
    FIELDS = (("x", "X"), ("y", "Y"), ("total", "total"))
    SUBMIT = "state"

    def add_extra_actions(self) -> None:
        self.actions.add_widget(Tile("pass", self.give_up))

    def give_up(self) -> None:
        """The seat states no total."""
        self.host.loop.tap("pass", self.seat)
        self.sent = True
        self.message.text = "passed"

    def tick(self, now: float) -> None:
        view = self.view
        timer = None if view is None else main_timer(view)
        seat = next((s for s in view.seats if s.seat == self.seat), None) if view else None
        if seat is not None and seat.status == "standing" and timer is not None:
            self.message.text = (f"{seat.player} stands on {seat.total}:"
                                 f" {timer_text(timer, now)} left for the others")
        elif self.sent and timer is not None:
            self.message.text = f"stated - {timer_text(timer, now)} left"
