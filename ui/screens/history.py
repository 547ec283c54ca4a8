"""``history``: past games from the store, each replayed step by step from its log.

Each step shows one logged event and the table as the rules saw it right after it
(replayed from the log up to that event, corrections and all).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from companion.engine.events import Event
from companion.engine.replay import replay
from companion.engine.store import GameRecord
from companion.engine.view import GameView
from ui import theme
from ui.format import GAME_NAMES
from ui.layouts import layout_for
from ui.screens.base import AppScreen, Host
from ui.widgets import Text, Tile, row, scrolling_grid

LISTED = 20


def event_line(event: Event) -> str:
    """One event as a line: its number, kind and data.

    >>> event_line(Event("call", {"player": "ann", "x": 4, "extra": [1]}, t=30.0, seq=14))
    '14. call: player ann, x 4'
    """
    details = ", ".join(f"{key} {value}" for key, value in event.data.items()
                        if isinstance(value, str | int | float))
    return f"{event.seq}. {event.kind}: {details}"


def view_after(events: list[Event], step: int) -> GameView:
    """The game's view right after its first ``step`` events."""
    replayed = replay(events[:step])
    view: GameView = replayed.rules.view(replayed.state)
    return view


def game_title(record: GameRecord) -> str:
    """A stored game as a list entry: number, game, winners."""
    winners = ", ".join((record.summary or {}).get("winners", [])) or "unfinished"
    return f"#{record.id} {GAME_NAMES.get(record.game, record.game)}: {winners}"


class HistoryScreen(AppScreen):
    """Pick a past game, then step through it."""

    NAME = "history"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        games_view, self.games = scrolling_grid(cols=1, size_hint_x=0.34)
        self.step_text = Text(size=theme.SMALL + 1, size_hint_y=None, height=44)
        self.board = BoxLayout()
        right = BoxLayout(orientation="vertical", spacing=theme.GAP)
        right.add_widget(self.step_text)
        right.add_widget(self.board)
        body = BoxLayout(orientation="horizontal", spacing=theme.GAP)
        body.add_widget(games_view)
        body.add_widget(right)
        root.add_widget(body)
        root.add_widget(row(Tile("home", lambda: host.go("home")),
                            Tile("<< first", partial(self.move, -10_000)),
                            Tile("< back", partial(self.move, -1)),
                            Tile("next >", partial(self.move, 1)),
                            Tile("last >>", partial(self.move, 10_000))))
        self.add_widget(root)
        self.events: list[Event] = []
        self.step = 0
        self.layout: Any = None

    def enter(self, **options: Any) -> None:
        self.games.clear_widgets()
        records = self.host.store.games()[-LISTED:][::-1]
        for record in records:
            self.games.add_widget(Tile(game_title(record), partial(self.open, record.id),
                                       size=theme.SMALL))
        if records and not self.events:
            self.open(records[0].id)

    def open(self, game_id: int) -> None:
        """Show game ``game_id`` from its start."""
        self.events = self.host.store.events(game_id)
        self.step = 1
        self.board.clear_widgets()
        self.layout = layout_for(self.host.store.game(game_id).game)
        self.board.add_widget(self.layout)
        self.show()

    def move(self, steps: int) -> None:
        """Go ``steps`` events forward (negative: back), within the log."""
        if self.events:
            self.step = min(max(1, self.step + steps), len(self.events))
            self.show()

    def show(self) -> None:
        """Draw the game after the current step."""
        event = self.events[self.step - 1]
        self.step_text.text = f"step {self.step} of {len(self.events)}   {event_line(event)}"
        self.layout.show(view_after(self.events, self.step))
