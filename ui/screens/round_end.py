"""``round-end``: who won and why, the points, each seat's total checked, what was possible.

The seats are listed in the order the referee checked them (the view's ``checked``
order where the game gives one), each with its stated total, the verdict and, where the
game says, the best X and total its hand could have made.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from companion.engine.conductor import Update
from companion.engine.view import GameView, SeatView
from ui import theme
from ui.cards import CardRow
from ui.screens.base import AppScreen, Host
from ui.widgets import Panel, Text, Tile, row


def checked_order(view: GameView) -> list[SeatView]:
    """The seats in the order their totals were checked (seat order if not given)."""
    order = view.table.get("checked", [])
    by_player = {seat.player: seat for seat in view.seats}
    first = [by_player[p] for p in order if isinstance(p, str) and p in by_player]
    return first + [seat for seat in view.seats if seat not in first]


def possible_text(view: GameView, player: str) -> str:
    """What ``player``'s hand could have made, as the game's view tells it."""
    possible = view.table.get("possible", {})
    best = possible.get(player) if isinstance(possible, dict) else None
    if not isinstance(best, dict):
        return ""
    x = f"X = {best['x']}" if "x" in best else ""
    y = f", Y = {best['y']}" if "y" in best else ""
    return f"best: {x}{y} makes {best.get('total', '?')}"


class RoundEndScreen(AppScreen):
    """The end of a game."""

    NAME = "round-end"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        self.winners = Text(size=theme.BIG + 4, size_hint_y=None, height=54, halign="center")
        self.reason = Text(size=theme.TEXT, size_hint_y=None, height=48, halign="center")
        self.lines = BoxLayout(orientation="vertical", spacing=theme.GAP)
        root.add_widget(self.winners)
        root.add_widget(self.reason)
        root.add_widget(self.lines)
        root.add_widget(row(Tile("home", lambda: host.go("home")),
                            Tile("scores", lambda: host.go("scoreboard")),
                            Tile("play again", self.again, background_color=theme.CHOSEN)))
        self.add_widget(root)
        self.shown: GameView | None = None

    def enter(self, **options: Any) -> None:
        if self.host.loop.playing:
            self.show(self.host.loop.game.view)

    def update(self, update: Update) -> None:
        self.show(update.view)

    def show(self, view: GameView) -> None:
        """Draw the outcome of ``view``."""
        if view == self.shown:
            return
        self.shown = view
        outcome = view.outcome
        winners = " and ".join(outcome.winners) or "nobody"
        self.winners.text = f"[b]{winners} {'wins' if len(outcome.winners) < 2 else 'win'}[/b]"
        self.reason.text = outcome.reason
        self.lines.clear_widgets()
        for seat in checked_order(view):
            strip = Panel(orientation="horizontal")
            points = outcome.points.get(seat.player, 0)
            verdict = outcome.eliminated.get(seat.player, seat.note)
            strip.add_widget(Text(f"[b]{seat.player}[/b]  +{points}\n{seat.total or '-'}",
                                  size=theme.TEXT, size_hint_x=0.22))
            cards = CardRow(size=theme.SMALL, size_hint_x=0.38)
            cards.show(seat.cards, seat.hidden)
            strip.add_widget(cards)
            strip.add_widget(Text(f"{verdict}\n{possible_text(view, seat.player)}",
                                  size=theme.SMALL))
            self.lines.add_widget(strip)

    def again(self) -> None:
        """The same players, a new game of the same kind."""
        start = self.host.loop.start_line
        if start is not None:
            self.host.start_game(start)
