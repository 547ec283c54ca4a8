"""Each game's own table layout, drawn from its :class:`GameView` alone.

21X: each seat's hand with its values; single player: the stopwatch and the score area;
the trick game: the seats, the trick, the leader; solitaire: the columns with their
totals under the SCORE / DECK / TIME / TOP bar; Medley: the grid, the dice and the
target, the corners. Anything else the view's ``table`` holds is listed as text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.engine.scores import high_scores
from companion.engine.view import CardView, GameView
from ui import theme
from ui.cards import CardRow, SeatPanel
from ui.format import clock_text
from ui.widgets import Panel, Text, row


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

    def __init__(self, host: Any = None, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=theme.GAP, **kwargs)
        self.host = host
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
        self.centre_text.text = self.centre_lines(view)

    def centre_lines(self, view: GameView) -> str:
        """The text of the centre panel."""
        return table_text(view.table, skip=self.CARD_KEYS)

    def tick(self, now: float) -> None:
        """The clock moved (figures that count down)."""


class TrickLayout(GameLayout):
    """The trick game: seats (their hidden hands), the trick in the middle and the play to
    beat, the leader, the dealer, the stock and the last deal's scores."""

    CARD_KEYS = ("to_beat",)

    def centre_lines(self, view: GameView) -> str:
        table = view.table
        plays = [f"{play['player']}: {' '.join(play['cards'])} ({play['kind']})"
                 for play in table.get("trick", [])]
        lines = [f"leader {table.get('leader')}, dealer {table.get('dealer')},"
                 f" stock {table.get('stock')}, target {table.get('target')}",
                 "  ".join(plays[-4:]) or "no cards in the trick yet"]
        deals = table.get("deals", [])
        if deals:
            scores = ", ".join(f"{p} {n}" for p, n in deals[-1]["scores"].items())
            lines.append(f"last deal: {scores}")
        return "\n".join(lines)


class SoloLayout(GameLayout):
    """Single-player 21X: the hand, and the score area with every hand scored."""

    def centre_lines(self, view: GameView) -> str:
        table = view.table
        lines = [f"[b]{table.get('points', 0)} of {table.get('target', 21)} points[/b]"
                 f"   V = {table.get('v', 1)}   deck {table.get('deck_left', '-')}"
                 f"   discards {table.get('discards', 0)}"]
        for hand in table.get("scored", []):
            cards = ", ".join(card.get("text") or card["card"] for card in hand["cards"])
            lines.append(f"{cards}: X = {hand.get('x')}, V = {hand.get('v')},"
                         f" {hand.get('icons')} icons")
        return "\n".join(lines[-5:])


class SolitaireLayout(BoxLayout):  # type: ignore[misc]
    """Solitaire: the SCORE / DECK / TIME / TOP bar over the columns and their totals.

    Tapping a column puts the turned-up card on it (the same sighting as the camera's).
    """

    BAR = ("score", "deck", "time", "top")

    def __init__(self, host: Any = None, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=theme.GAP, **kwargs)
        self.host = host
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
        self.turned = CardRow(size=theme.BIG - 8, size_hint_x=0.3)
        self.hint = Text(size=theme.SMALL + 1, color=theme.DIM)
        self.add_widget(self.bar)
        self.add_widget(self.columns)
        self.add_widget(row(self.turned, self.hint))
        self.column_panels: list[SolitaireColumn] = []
        self.ends_at: float | None = None
        self.current: str | None = None
        if host is not None:
            best = high_scores(host.store, "solitaire", 1)
            self.figures["top"].text = f"{best[0].value:g}" if best else "-"

    def show(self, view: GameView) -> None:
        """Draw ``view``."""
        table = view.table
        self.figures["score"].text = str(table.get("score", 0))
        self.figures["deck"].text = str(table.get("deck", "-"))
        self.ends_at = table.get("ends_at")
        self.current = table.get("current")
        columns = table.get("columns", [])
        if len(self.column_panels) != len(columns):
            self.columns.clear_widgets()
            self.column_panels = [SolitaireColumn(partial(self.place, n))
                                  for n in range(len(columns))]
            for panel in self.column_panels:
                self.columns.add_widget(panel)
        for panel, column in zip(self.column_panels, columns, strict=True):
            panel.show(column)
        self.hint.text = ("turned up: tap a lit column to put it there" if self.current
                          else "; ".join(item.detail for item in view.expecting))
        self.turned.show(view.seats[0].cards if view.seats else ())

    def tick(self, now: float) -> None:
        """Count TIME down."""
        if self.ends_at is not None:
            self.figures["time"].text = clock_text(math.ceil(max(0.0, self.ends_at - now)))

    def place(self, column: int) -> None:
        """Put the turned-up card on ``column``."""
        if self.host is not None and self.current is not None:
            self.host.loop.tap("card", None, {"card": self.current, "zone": f"column-{column}"})


class SolitaireColumn(Panel):
    """One solitaire column: its cards top to bottom and its total; lit when it takes the
    turned-up card, which a tap puts there."""

    def __init__(self, on_tap: Callable[[], object], **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        self.on_tap = on_tap
        self.cards = CardRow(size=theme.TEXT, values=False)
        self.total = Text(size=theme.BIG, halign="center", size_hint_y=None, height=44)
        self.add_widget(self.cards)
        self.add_widget(self.total)

    def show(self, column: Mapping[str, Any]) -> None:
        """Draw one column (``cards``, ``value``, ``takes``)."""
        self.cards.show(cards_in(column.get("cards", [])))
        self.total.text = str(column.get("value", ""))
        self.recolour((0.25, 0.45, 0.20, 1) if column.get("takes") else theme.PANEL)

    def on_touch_up(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            self.on_tap()
            return True
        return bool(super().on_touch_up(touch))


class MedleyLayout(BoxLayout):  # type: ignore[misc]
    """Medley: the 3x3 grid with the corners around it, the dice and the target beside it."""

    def __init__(self, host: Any = None, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=theme.GAP, **kwargs)
        self.host = host
        self.grid = GridLayout(cols=3, spacing=theme.GAP, size_hint_x=0.55)
        self.cells = [CardRow(size=theme.TEXT) for _ in range(9)]
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

    def tick(self, now: float) -> None:
        """Nothing counts down here (the top bar shows the timer)."""


LAYOUTS: dict[str, type[Any]] = {
    "21x": GameLayout,
    "21x-solo": SoloLayout,
    "trick": TrickLayout,
    "solitaire": SolitaireLayout,
    "medley": MedleyLayout,
}


def layout_for(game: str, host: Any = None) -> Any:
    """A fresh layout widget for ``game`` (the plain seats layout for one not listed);
    ``host`` (the app) lets it read the store and take taps."""
    return LAYOUTS.get(game, GameLayout)(host)
