"""``teach``: enter the 21X cards of a box one by one, with the progress to all 110.

The expression is typed on an on-screen keypad and parsed at each key; an error is
shown where it is (that character in red). Icons and set are one tap each; ``save``
appends the card to the owner's deck file (``<data dir>/decks/home-21x.toml``), which
every 21X game then knows.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.errors import CompanionError
from ui import theme
from ui.screens.base import AppScreen, Host
from ui.teaching import BOX_SIZE, EXPRESSION_KEYS, ICONS, SETS, CardDraft, DeckFile
from ui.widgets import Panel, Text, Tile, row

DECK_NAME = "home-21x"
DIGITS = ("7", "8", "9", "4", "5", "6", "1", "2", "3", "0", ".", "/")


def marked(text: str, position: int | None) -> str:
    """``text`` in Kivy markup with the character at ``position`` in red.

    >>> marked("3X+", 2)
    '3X[color=ff5544][u]+[/u][/color]'
    >>> marked("3X", 2)
    '3X[color=ff5544][u] [/u][/color]'
    """
    escaped = [c.replace("[", "&bl;").replace("]", "&br;") for c in text]
    if position is None:
        return "".join(escaped)
    if position >= len(escaped):
        escaped.append(" ")
    at = min(position, len(escaped) - 1)
    escaped[at] = f"[color=ff5544][u]{escaped[at]}[/u][/color]"
    return "".join(escaped)


class TeachScreen(AppScreen):
    """Type a deck's cards in."""

    NAME = "teach"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        self.draft = CardDraft()
        self.deck: DeckFile | None = None
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        self.progress = Text(size=theme.TEXT, size_hint_y=None, height=30)
        shown = Panel(orientation="vertical", size_hint_y=None, height=96)
        self.expression = Text(size=theme.BIG, halign="center")
        self.problem = Text(size=theme.SMALL + 1, halign="center", color=theme.WARN)
        shown.add_widget(self.expression)
        shown.add_widget(self.problem)
        keys = GridLayout(cols=10, spacing=theme.GAP)
        for key in (*DIGITS, *EXPRESSION_KEYS, "DEL", "clear"):
            keys.add_widget(Tile(key, partial(self.press, key), size=theme.SMALL + 3,
                                 size_hint_y=1))
        self.icon_tiles = {n: Tile(f"{n} icon{'s' if n > 1 else ''}", partial(self.icons, n))
                           for n in ICONS}
        self.set_tiles = {name: Tile(name, partial(self.card_set, name)) for name in SETS}
        for child in (self.progress, shown, keys):
            root.add_widget(child)
        root.add_widget(row(*self.icon_tiles.values(), *self.set_tiles.values()))
        root.add_widget(row(Tile("home", lambda: host.go("home")),
                            Tile("save card", self.save, background_color=theme.CHOSEN)))
        self.add_widget(root)

    def enter(self, **options: Any) -> None:
        self.deck = DeckFile(self.host.data_folder / "decks" / f"{DECK_NAME}.toml")
        self.refresh()

    def press(self, key: str) -> None:
        """One key of the expression keypad."""
        if key == "DEL":
            self.draft.text = self.draft.text[:-1]
        elif key == "clear":
            self.draft.text = ""
        else:
            self.draft.text += key
        self.refresh()

    def icons(self, count: int) -> None:
        """The card shows ``count`` difficulty icons."""
        self.draft.icons = count
        self.refresh()

    def card_set(self, name: str) -> None:
        """The card's frame is of set ``name``."""
        self.draft.set = name
        self.refresh()

    def save(self) -> None:
        """Add the card to the deck file and start the next one."""
        assert self.deck is not None
        try:
            self.deck.add(self.draft)
        except CompanionError as error:
            self.problem.text = str(error)
            return
        self.draft = CardDraft(icons=self.draft.icons, set=self.draft.set)
        self.refresh()

    def refresh(self) -> None:
        """Show the draft, what is wrong with it, and the progress."""
        problem = self.draft.problem()
        self.expression.text = marked(self.draft.text, problem[1] if problem else None) or " "
        self.problem.text = problem[0] if problem else "reads fine"
        count = len(self.deck.catalogue()) if self.deck is not None else 0
        self.progress.text = (f"[b]teach the 21X box[/b]: card {count + 1} of {BOX_SIZE}"
                              f"  ({count} saved to {DECK_NAME})")
        for number, tile in self.icon_tiles.items():
            tile.background_color = theme.CHOSEN if number == self.draft.icons else theme.BUTTON
        for name, tile in self.set_tiles.items():
            tile.background_color = theme.CHOSEN if name == self.draft.set else theme.BUTTON
