"""``table``: the live view and the game's own layout, the big timer, who buzzed.

Along the bottom every seat has its on-screen call and stand buttons (the same
observations as the wired buttons), ``+ card`` enters a card by touch, ``log`` lists the
recent events to correct. Open attention items sit above them, each resolved in one tap.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from companion.engine.conductor import Attention, Signal, Update
from companion.engine.observations import PressKind
from companion.engine.view import GameView
from ui import theme
from ui.entries import FIRST_DIE, Entry, entries
from ui.format import GAME_NAMES, late_text, main_timer, timer_text
from ui.layouts import layout_for
from ui.screens.base import AppScreen, Host
from ui.widgets import Panel, Text, Tile, row

SEAT_BUTTONS: dict[str, tuple[tuple[PressKind, str], ...]] = {
    "21x": (("press", "call"), ("hold", "stand")),
    "trick": (("press", "press"), ("hold", "hold")),
}
"""Each seat's on-screen buttons in the games where every seat has one: a press and a hold,
as on the wired button (21X: call and stand; the trick game: swapping, keeping, a play's
end)."""
GAME_TAPS: dict[str, tuple[tuple[str, str], ...]] = {
    "21x": (("close", "close"),),
    "21x-solo": (("mulligan", "mulligan"), ("reshuffle", "reshuffle"), ("cancel", "cancel")),
    "solitaire": (("reshuffle", "reshuffle"),),
}
"""The game's own screen entries: (button caption, tap action)."""
SOLO_BUTTONS: dict[str, str] = {"21x-solo": "make 21", "medley": "judge lifted"}
"""Single-player games whose one button does something, and what its press is called."""


class TableScreen(AppScreen):
    """The table during a game."""

    NAME = "table"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        self.title = Text(size=theme.TEXT, size_hint_x=0.34)
        self.timer = Text(size=theme.HUGE, halign="center", size_hint_x=0.30, bold=True)
        self.buzz = Text(size=theme.TEXT, size_hint_x=0.26)
        top = row(Tile("menu", lambda: host.go("home"), size_hint_x=0.10), self.title,
                  self.timer, self.buzz, height=theme.HUGE + 8)
        self.middle = BoxLayout(orientation="horizontal", spacing=theme.GAP)
        self.preview: Any = None
        self.layout: Any = None
        self.game = ""
        self.attention = BoxLayout(orientation="vertical", spacing=theme.GAP,
                                   size_hint_y=None, height=0)
        self.controls = row()
        self.entries_row = row(height=0)
        for child in (top, self.middle, self.attention, self.entries_row, self.controls):
            root.add_widget(child)
        self.add_widget(root)
        self.view: GameView | None = None
        self.buzzes: list[Signal] = []
        self.attention_items: tuple[Attention, ...] = ()
        self.seat_buttons: dict[tuple[int, str], Tile] = {}
        self.notice = ""
        """One line about the table itself (a camera that failed to open)."""
        self.spoken = ""
        """The voice's last line."""
        self.entries: list[Entry] = []
        self.first_die: int | None = None

    def tell(self, notice: str) -> None:
        """Show ``notice`` (about the table itself, not the game: a camera that failed to
        open) in the title, in place of the game's phase ("" for the phase again)."""
        self.notice = notice
        self._show_title()

    def _show_title(self) -> None:
        view = self.view
        if view is not None:
            self.title.text = (f"[b]{GAME_NAMES.get(view.game, view.game)}[/b]\n"
                               f"{self.notice or view.phase}")

    def set_preview(self, preview: Any) -> None:
        """Show the camera ``preview`` beside the layout."""
        self.preview = preview
        self.middle.add_widget(preview, index=len(self.middle.children))

    def enter(self, **options: Any) -> None:
        if self.host.loop.playing:
            self.show(self.host.loop.game.view, self.host.loop.game.attention)

    def update(self, update: Update) -> None:
        for signal in update.signals:
            if signal.kind == "buzz":
                self.buzzes = [signal]
            elif signal.kind == "late":
                self.buzzes.append(signal)
        self.show(update.view, update.attention)

    def show(self, view: GameView, attention: tuple[Attention, ...]) -> None:
        """Draw ``view`` and the open ``attention`` items."""
        if view.game != self.game:
            self._build_for(view)
        elif view == self.view and attention == self.attention_items:
            return
        self.view = view
        self._show_title()
        self.layout.show(view)
        self.layout.tick(self.host.now())
        self.buzz.text = self._buzz_text(view)
        if attention != self.attention_items:
            self._show_attention(attention)
        self._show_entries(view)
        self.tick(self.host.now())

    def tick(self, now: float) -> None:
        timer = None if self.view is None else main_timer(self.view)
        self.timer.text = "" if timer is None else timer_text(timer, now)
        if self.layout is not None:
            self.layout.tick(now)

    def _build_for(self, view: GameView) -> None:
        self.game = view.game
        if self.layout is not None:
            self.middle.remove_widget(self.layout)
        self.layout = layout_for(view.game, self.host)
        self.middle.add_widget(self.layout)
        self.buzzes = []
        self.controls.clear_widgets()
        self.seat_buttons = {}
        loop = self.host.loop
        for seat in view.seats:
            for kind, caption in SEAT_BUTTONS.get(view.game, ()):
                tile = Tile(f"{seat.seat} {caption}",
                            partial(loop.press, seat.seat, kind))
                self.seat_buttons[(seat.seat, kind)] = tile
                self.controls.add_widget(tile)
        if view.game in SOLO_BUTTONS:
            self.controls.add_widget(Tile(SOLO_BUTTONS[view.game],
                                          partial(loop.press, 1, "press")))
        for caption, action in GAME_TAPS.get(view.game, ()):
            self.controls.add_widget(Tile(caption, partial(loop.tap, action)))
        self.controls.add_widget(Tile("+ card", lambda: self.host.go("pick")))
        self.controls.add_widget(Tile("log", lambda: self.host.go("log")))

    def _show_entries(self, view: GameView) -> None:
        """One-tap buttons for what the game waits for (swaps, dice, combinations)."""
        moves = None
        if any(item.what == "claim" for item in view.expecting) and self.host.loop.playing:
            referee = self.host.loop.game.referee
            moves = referee.rules.moves(referee.state)
        found = entries(view, moves, self.first_die)
        if found == self.entries:
            return
        self.entries = found
        self.entries_row.clear_widgets()
        for entry in found:
            self.entries_row.add_widget(Tile(entry.caption, partial(self.enter_entry, entry),
                                             size=theme.SMALL + 2))
        self.entries_row.height = theme.TOUCH if found else 0

    def enter_entry(self, entry: Entry) -> None:
        """Submit one entry's tap (the first die is only remembered)."""
        if entry.action == FIRST_DIE:
            self.first_die = int(entry.data["value"])
        else:
            self.first_die = None
            self.host.loop.tap(entry.action, entry.seat, entry.data)
        if self.view is not None:
            self._show_entries(self.view)

    def announce(self, line: str) -> None:
        """Show what the voice says (a laptop may have no sound)."""
        if line:
            self.spoken = line
            if self.view is not None:
                self.buzz.text = self._buzz_text(self.view)

    def resolve(self, item: int, choice: int) -> None:
        """Answer attention item ``item`` with its choice number ``choice``."""
        self.host.loop.game.resolve(item, choice)

    def _buzz_text(self, view: GameView) -> str:
        names = {seat.seat: seat.player for seat in view.seats}
        lines = []
        for signal in self.buzzes:
            who = names.get(signal.seat or 0, "referee")
            if signal.kind == "buzz":
                lines.append(f"[b]{who} buzzed[/b]")
            else:
                lines.append(f"{who} {late_text(float(signal.detail or 0))}")
        return "\n".join([*lines[:2], self.spoken] if self.spoken else lines[:3])

    def _show_attention(self, items: tuple[Attention, ...]) -> None:
        self.attention_items = items
        self.attention.clear_widgets()
        for item in items[:2]:
            strip = Panel(orientation="horizontal", colour=(0.45, 0.30, 0.05, 1),
                          size_hint_y=None, height=theme.TOUCH + 2 * theme.GAP)
            strip.add_widget(Text(item.message, size=theme.TEXT))
            for index, choice in enumerate(item.choices):
                strip.add_widget(Tile(choice.label,
                                      partial(self.resolve, item.id, index),
                                      size_hint_x=0.25))
            self.attention.add_widget(strip)
        self.attention.height = len(self.attention.children) * (theme.TOUCH + 3 * theme.GAP)
