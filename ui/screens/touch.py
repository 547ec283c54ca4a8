"""Touch instead of the camera: ``pick`` places a card by touch, ``log`` corrects events.

``pick``: tap the place on the table, then the card. With no camera it goes to the game
as the same sighting the camera would have made (a ``card`` tap); on the simulated table
the card is laid there and the camera pipeline reports it. ``log``: the latest events, each
with a ``void`` button, and ``fix card`` for a misread card (pick the right one): each logs
a correction (the history itself is never edited).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from companion.engine.events import Event
from ui import theme
from ui.deck import deck_cards, zone_choices
from ui.screens.base import AppScreen, Host
from ui.widgets import Panel, Text, Tile, row, scrolling_grid

LOG_LINES = 6


class PickScreen(AppScreen):
    """Enter a card by touch: where it lies, then which card."""

    NAME = "pick"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        self.prompt = Text("where is the card?", size=theme.BIG, size_hint_y=None,
                           height=48)
        self.zones = row()
        scroller, self.cards = scrolling_grid(cols=14)
        root.add_widget(row(Tile("table", lambda: host.go("table"), size_hint_x=0.2),
                            self.prompt))
        root.add_widget(self.zones)
        root.add_widget(scroller)
        self.add_widget(root)
        self.zone: str | None = None
        self.replacing: Event | None = None
        self.zone_tiles: dict[str, Tile] = {}
        self.card_tiles: dict[str, Tile] = {}

    def enter(self, **options: Any) -> None:
        start = self.host.loop.start_line
        if start is None:
            return
        self.zone = options.get("zone")
        self.replacing = options.get("replace")
        self.zones.clear_widgets()
        self.zone_tiles = {}
        for zone, caption in () if self.replacing else zone_choices(start):
            tile = Tile(caption, partial(self.choose, zone))
            self.zone_tiles[zone] = tile
            self.zones.add_widget(tile)
        self.cards.clear_widgets()
        self.card_tiles = {}
        cols = 14 if len(deck_cards(start)) > 20 else 5
        self.cards.cols = cols
        for card, caption in deck_cards(start):
            tile = Tile(caption, partial(self.place, card), size=theme.SMALL + 2)
            self.card_tiles[card] = tile
            self.cards.add_widget(tile)
        self.refresh()

    def choose(self, zone: str) -> None:
        """The card lies in ``zone``."""
        self.zone = zone
        self.refresh()

    def place(self, card: str) -> None:
        """``card`` lies in the chosen zone (or was the card of the event being fixed):
        tell the game, back to the table."""
        if self.replacing is not None:
            event = self.replacing
            self.host.loop.tap("correct", None, {
                "target": event.seq, "reason": "corrected by touch",
                "replacement": {"kind": event.kind, "data": {**event.data, "card": card}}})
            self.host.go("table")
            return
        if self.zone is None:
            self.prompt.text = "first tap where the card is"
            return
        self.host.place(card, self.zone)
        self.host.go("table")

    def refresh(self) -> None:
        """Highlight the chosen zone."""
        for zone, tile in self.zone_tiles.items():
            tile.background_color = theme.CHOSEN if zone == self.zone else theme.BUTTON
        if self.replacing is not None:
            self.prompt.text = f"which card was {self.replacing.data['card']} really?"
        else:
            self.prompt.text = "which card?" if self.zone else "where is the card?"


class LogScreen(AppScreen):
    """The latest events of the game, each voidable by a correction."""

    NAME = "log"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        root.add_widget(row(Tile("table", lambda: host.go("table"), size_hint_x=0.2),
                            Text("the log: void a wrong entry", size=theme.BIG)))
        self.lines = BoxLayout(orientation="vertical", spacing=theme.GAP)
        root.add_widget(self.lines)
        self.add_widget(root)

    def enter(self, **options: Any) -> None:
        self.lines.clear_widgets()
        events = self.host.loop.game.referee.events
        for event in events[-LOG_LINES:][::-1]:
            strip = Panel(orientation="horizontal")
            details = ", ".join(f"{k}={v}" for k, v in event.data.items()
                                if k not in ("cards", "deck"))
            strip.add_widget(Text(f"{event.seq}. [b]{event.kind}[/b] {details}"[:120],
                                  size=theme.SMALL))
            if isinstance(event.data.get("card"), str):
                strip.add_widget(Tile("fix card", partial(self.host.go, "pick", replace=event),
                                      size_hint_x=0.18))
            if event.seq > 1:
                strip.add_widget(Tile("void", partial(self.void, event.seq),
                                      size_hint_x=0.18))
            self.lines.add_widget(strip)

    def void(self, seq: int) -> None:
        """Log a correction voiding event ``seq``."""
        self.host.loop.tap("correct", None, {"target": seq})
        self.host.go("table")
