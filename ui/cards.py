"""Cards and seats as widgets: a card chip, a row of chips, a seat's panel."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kivy.uix.stacklayout import StackLayout

from companion.engine.view import CardView, SeatView
from ui import theme
from ui.format import card_text, seat_line
from ui.widgets import Panel, Text

CARD_FACE: theme.RGBA = (0.96, 0.96, 0.92, 1)
CARD_INK: theme.RGBA = (0.08, 0.08, 0.08, 1)
RED_SUITS = ("h", "d")
STATUS_COLOURS = {"standing": theme.WARN, "won": theme.GOOD, "eliminated": theme.BAD,
                  "calling": theme.CHOSEN}


class CardChip(Panel):
    """One card: what it reads, and its value where the game gives one."""

    def __init__(self, card: CardView, size: int = theme.TEXT, values: bool = True,
                 **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (None, None))
        label = card_text(card) if values else (card.text or card.card)
        kwargs.setdefault("width", max(52, int(len(label) * size * 0.6) + 16))
        kwargs.setdefault("height", size + 22)
        super().__init__(colour=CARD_FACE, padding=4, **kwargs)
        self.card = card
        red = card.card[-1:] in RED_SUITS and len(card.card) <= 3
        ink = (0.75, 0.05, 0.05, 1) if red else CARD_INK
        self.label = Text(label, size=size, color=ink, halign="center",
                          font_name=theme.CARD_FONT)
        self.add_widget(self.label)


class CardRow(StackLayout):  # type: ignore[misc]
    """Cards side by side, wrapping onto more lines when needed."""

    def __init__(self, size: int = theme.TEXT, values: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", 4)
        super().__init__(**kwargs)
        self.card_size = size
        self.values = values

    def show(self, cards: Iterable[CardView], hidden: int = 0) -> None:
        """Show ``cards`` and ``hidden`` face-down cards."""
        self.clear_widgets()
        for card in cards:
            self.add_widget(CardChip(card, size=self.card_size, values=self.values))
        if hidden:
            self.add_widget(CardChip(CardView("hidden", f"{hidden} in hand"),
                                     size=self.card_size))

    @property
    def names(self) -> list[str]:
        """The card names shown, in order."""
        return [child.card.card for child in reversed(self.children)]


class SeatPanel(Panel):
    """One seat: number and player, points, cards, total and status, a note."""

    def __init__(self, card_size: int = theme.TEXT, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        self.title = Text(size=theme.TEXT, size_hint_y=None, height=28)
        self.cards = CardRow(size=card_size)
        self.total = Text(size=theme.BIG, size_hint_y=None, height=44)
        self.note = Text(size=theme.SMALL, size_hint_y=None, height=40, color=theme.DIM)
        for child in (self.title, self.cards, self.total, self.note):
            self.add_widget(child)
        self.seat: SeatView | None = None

    def show(self, seat: SeatView) -> None:
        """Show ``seat``."""
        self.seat = seat
        self.title.text = f"[b]{seat.seat}  {seat.player}[/b]   {seat.points} pts"
        self.cards.show(seat.cards, seat.hidden)
        self.total.text = seat_line(seat)
        self.note.text = seat.note
        self.recolour(_dimmed(STATUS_COLOURS.get(seat.status, theme.PANEL)))


def _dimmed(colour: theme.RGBA) -> theme.RGBA:
    if colour == theme.PANEL:
        return colour
    r, g, b, a = colour
    return (r * 0.45, g * 0.45, b * 0.45, a)
