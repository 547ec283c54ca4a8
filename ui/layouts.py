"""Each game's own table layout, drawn from its :class:`GameView` alone.

21X: each seat's hand with its values; single player: the stopwatch and the score area;
the trick game: the seats, the trick, the leader; solitaire: the columns with their
totals under the SCORE / DECK / TIME / TOP bar; Medley: the grid, the dice and the
target, the corners. Anything else the view's ``table`` holds is listed as text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.engine.view import CardView, GameView
from ui import theme
from ui.cards import CardRow, SeatPanel
from ui.widgets import Panel, Text


def cards_in(value: Any) -> list[CardView]:
    """The cards a ``table`` entry holds: names, or objects with a ``card``.

    >>> [c.card for c in cards_in(["Kd", {"card": "7h", "value": "7"}])]
    ['Kd', '7h']
    >>> cards_in("Kd")[0].card, cards_in(3)
    ('Kd', [])
    """
    if isinstance(value, str):
        return [CardView(value)]
    if isinstance(value, Mapping) and isinstance(value.get("card"), str):
        return [CardView(value["card"], str(value.get("text", "")),
                         None if value.get("value") is None else str(value["value"]),
                         value.get("working"))]
    if isinstance(value, Sequence):
        return [card for item in value for card in cards_in(item)]
    return []


def table_text(table: Mapping[str, Any], skip: Sequence[str] = ()) -> str:
    """The ``table`` entries not drawn otherwise, one ``key: value`` per line.

    >>> table_text({"deck": 40, "leader": "ann", "trick": ["Kd"], "calling": None},
    ...            skip=("trick",))
    'deck: 40\\nleader: ann'
    """
    lines = []
    for key, value in table.items():
        if key in skip or value is None:
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, list) else value
        lines.append(f"{key.replace('_', ' ')}: {shown}")
    return "\n".join(lines)


class GameLayout(BoxLayout):  # type: ignore[misc]
    """A game's layout: seats, and what lies between them."""

    CARD_KEYS: tuple[str, ...] = ()
    """``table`` keys drawn as rows of cards in the centre panel."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=theme.GAP, **kwargs)
        self.seats = BoxLayout(orientation="horizontal", spacing=theme.GAP)
        self.centre = Panel(orientation="vertical", size_hint_y=0.42)
        self.centre_rows: dict[str, CardRow] = {}
        for key in self.CARD_KEYS:
            self.centre.add_widget(Text(key.replace("_", " "), size=theme.SMALL,
                                        size_hint_y=None, height=20, color=theme.DIM))
            self.centre_rows[key] = CardRow()
            self.centre.add_widget(self.centre_rows[key])
        self.centre_text = Text(size=theme.TEXT)
        self.centre.add_widget(self.centre_text)
        self.add_widget(self.seats)
        self.add_widget(self.centre)
        self.panels: list[SeatPanel] = []

    def show(self, view: GameView) -> None:
        """Draw ``view``."""
        if len(self.panels) != len(view.seats):
            self.seats.clear_widgets()
            self.panels = [SeatPanel() for _ in view.seats]
            for panel in self.panels:
                self.seats.add_widget(panel)
        for panel, seat in zip(self.panels, view.seats, strict=True):
            panel.show(seat)
        for key, cards in self.centre_rows.items():
            cards.show(cards_in(view.table.get(key, [])))
        self.centre_text.text = table_text(view.table, skip=self.CARD_KEYS)


class TrickLayout(GameLayout):
    """The trick game: seats (their hidden hands), the trick in the middle, the leader."""

    CARD_KEYS = ("trick",)


class SoloLayout(GameLayout):
    """One player: a big hand and the score area."""

    CARD_KEYS = ()


class SolitaireLayout(BoxLayout):  # type: ignore[misc]
    """Solitaire: the SCORE / DECK / TIME / TOP bar over the columns and their totals."""

    BAR = ("score", "deck", "time", "top")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=theme.GAP, **kwargs)
        self.bar = GridLayout(cols=len(self.BAR), size_hint_y=None, height=64,
                              spacing=theme.GAP)
        self.figures: dict[str, Text] = {}
        for key in self.BAR:
            cell = Panel(orientation="vertical", padding=2)
            cell.add_widget(Text(key.upper(), size=theme.SMALL, halign="center",
                                 color=theme.DIM))
            self.figures[key] = Text("-", size=theme.BIG - 8, halign="center")
            cell.add_widget(self.figures[key])
            self.bar.add_widget(cell)
        self.columns = GridLayout(rows=1, spacing=theme.GAP)
        self.draw = CardRow(size_hint_y=None, height=44)
        self.add_widget(self.bar)
        self.add_widget(self.columns)
        self.add_widget(self.draw)
        self.column_panels: list[SolitaireColumn] = []

    def show(self, view: GameView) -> None:
        """Draw ``view``."""
        for key, label in self.figures.items():
            label.text = str(view.table.get(key, "-"))
        columns = view.table.get("columns", [])
        columns = columns if isinstance(columns, list) else []
        if len(self.column_panels) != len(columns):
            self.columns.clear_widgets()
            self.column_panels = [SolitaireColumn() for _ in columns]
            for panel in self.column_panels:
                self.columns.add_widget(panel)
        for panel, column in zip(self.column_panels, columns, strict=True):
            panel.show(column if isinstance(column, Mapping) else {"cards": column})
        self.draw.show(cards_in(view.table.get("draw", [])))


class SolitaireColumn(Panel):
    """One solitaire column: its cards top to bottom and its total."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        self.cards = CardRow(size=theme.SMALL)
        self.total = Text(size=theme.BIG, halign="center", size_hint_y=None, height=44)
        self.add_widget(self.cards)
        self.add_widget(self.total)

    def show(self, column: Mapping[str, Any]) -> None:
        """Draw one column (``cards`` and ``total``)."""
        self.cards.show(cards_in(column.get("cards", [])))
        self.total.text = str(column.get("total", ""))


class MedleyLayout(BoxLayout):  # type: ignore[misc]
    """Medley: the 3x3 grid with the corners around it, the dice and the target beside it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=theme.GAP, **kwargs)
        self.grid = GridLayout(cols=3, spacing=theme.GAP, size_hint_x=0.55)
        self.cells = [CardRow(size=theme.BIG - 8) for _ in range(9)]
        for cell in self.cells:
            holder = Panel()
            holder.add_widget(cell)
            self.grid.add_widget(holder)
        side = BoxLayout(orientation="vertical", spacing=theme.GAP)
        self.target = Text(size=theme.HUGE, halign="center")
        self.dice = Text(size=theme.BIG, halign="center")
        self.corners = CardRow()
        self.details = Text(size=theme.SMALL)
        for child in (self.target, self.dice, Text("corners", size=theme.SMALL,
                                                   size_hint_y=None, height=20),
                      self.corners, self.details):
            side.add_widget(child)
        self.add_widget(self.grid)
        self.add_widget(side)

    def show(self, view: GameView) -> None:
        """Draw ``view``."""
        table = view.table
        grid = table.get("grid", [])
        grid = grid if isinstance(grid, list) else []
        for index, cell in enumerate(self.cells):
            cell.show(cards_in(grid[index]) if index < len(grid) and grid[index] else [])
        target = table.get("target")
        self.target.text = f"target {target}" if target is not None else "roll the dice"
        dice = table.get("dice", [])
        self.dice.text = "dice " + "  ".join(map(str, dice)) if dice else ""
        self.corners.show(cards_in(table.get("corners", [])))
        self.details.text = table_text(table, skip=("grid", "target", "dice", "corners"))


LAYOUTS: dict[str, type[Any]] = {
    "21x": GameLayout,
    "21x-solo": SoloLayout,
    "trick": TrickLayout,
    "solitaire": SolitaireLayout,
    "medley": MedleyLayout,
}


def layout_for(game: str) -> Any:
    """A fresh layout widget for ``game`` (the plain seats layout for one not listed)."""
    return LAYOUTS.get(game, GameLayout)()
