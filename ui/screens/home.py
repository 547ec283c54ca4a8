"""``home``: choose the game and its variants, the players, their seats and buttons.

Player ``n`` sits at seat ``n``; each seat's button can be changed for a table wired in
another order. The first value of each variant is the rules' default.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from companion.engine.observations import TableStart
from ui import theme
from ui.format import GAME_NAMES
from ui.loop import DEFAULT_NAMES, PLAYERS
from ui.screens.base import AppScreen, Host
from ui.widgets import Text, Tile, row

MAX_SEATS = len(DEFAULT_NAMES)
VARIANTS: dict[str, tuple[tuple[str, str, tuple[Any, ...]], ...]] = {
    "21x": (("stand_seconds", "minute", (60, 30, 90)),
            ("last_player", "last player", ("plays_on", "wins")),
            ("non_integer_x", "fraction X", (False, True))),
    "21x-solo": (),
    "trick": (("score_all", "score all", (False, True)), ("hand_size", "hand", (7, 5))),
    "solitaire": (("columns", "columns", (4, 3, 5)), ("time_limit", "seconds", (180, 300))),
    "medley": (("time_limit", "time limit", (0, 300)), ("ace_eleven", "ace 11", (False, True))),
}


class HomeScreen(AppScreen):
    """Set up a game and start it."""

    NAME = "home"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        self.game_tiles = {game: Tile(GAME_NAMES[game].replace(" (trick game)", ""),
                                      partial(self.choose, game), size=theme.SMALL + 2)
                           for game in PLAYERS}
        root.add_widget(row(*self.game_tiles.values(), height=theme.TOUCH + 10))
        self.variants = row()
        root.add_widget(self.variants)
        self.count_row = row()
        root.add_widget(self.count_row)
        self.names = [TextInput(text=name, multiline=False, font_size=theme.TEXT,
                                write_tab=False) for name in DEFAULT_NAMES]
        self.buttons = list(range(1, MAX_SEATS + 1))
        self.button_tiles = [Tile("", partial(self.next_button, n), size_hint_x=0.4)
                             for n in range(MAX_SEATS)]
        self.seat_rows = BoxLayout(orientation="vertical", spacing=theme.GAP)
        root.add_widget(self.seat_rows)
        self.message = Text(size=theme.TEXT, size_hint_y=None, height=30, color=theme.WARN)
        root.add_widget(self.message)
        self.resume_tile = Tile("back to the game", lambda: host.go("table"))
        root.add_widget(row(Tile("scores", lambda: host.go("scoreboard")),
                            Tile("history", lambda: host.go("history")),
                            Tile("settings", lambda: host.go("settings")),
                            Tile("teach", lambda: host.go("teach")),
                            self.resume_tile,
                            Tile("START", self.start, size=theme.BIG - 8,
                                 background_color=theme.CHOSEN)))
        self.add_widget(root)
        self.game = "21x"
        self.count = 3
        self.options: dict[str, Any] = {}
        self.choose("21x")

    def enter(self, **options: Any) -> None:
        self.resume_tile.disabled = not self.host.loop.playing
        self.message.text = ""

    def choose(self, game: str) -> None:
        """Set up ``game``: its variants at their defaults, a player count it allows."""
        self.game = game
        low, high = PLAYERS[game]
        self.count = min(max(self.count, low), high)
        self.options = {}
        for name, tile in self.game_tiles.items():
            tile.background_color = theme.CHOSEN if name == game else theme.BUTTON
        self.count_row.clear_widgets()
        if high > 1:
            for count in range(low, high + 1):
                self.count_row.add_widget(Tile(f"{count} players",
                                               partial(self.set_count, count)))
        self._variant_tiles()
        self._seat_rows()

    def set_count(self, count: int) -> None:
        """Play with ``count`` players."""
        self.count = count
        self._seat_rows()

    def next_button(self, seat_index: int) -> None:
        """Give seat ``seat_index + 1`` the next button number."""
        self.buttons[seat_index] = self.buttons[seat_index] % MAX_SEATS + 1
        self._seat_rows()

    def table_start(self) -> TableStart:
        """The start of the game as set up now."""
        players = tuple(name.text.strip() for name in self.names[:self.count])
        seats = tuple({"seat": n + 1, "player": players[n], "button": self.buttons[n]}
                      for n in range(self.count) if self.buttons[n] != n + 1)
        return TableStart(self.game, players, seats=seats, options=dict(self.options))

    def start(self) -> None:
        """Start the game; a set-up the rules refuse is shown in one line."""
        start = self.table_start()
        if len(set(start.players)) != len(start.players) or not all(start.players):
            self.message.text = "every player needs a name of their own"
            return
        self.host.start_game(start)

    def _variant_tiles(self) -> None:
        self.variants.clear_widgets()
        for key, caption, values in VARIANTS[self.game]:
            tile = Tile(f"{caption}: {values[0]}")
            tile.bind(on_release=lambda t, k=key, c=caption, v=values: self._cycle(t, k, c, v))
            self.variants.add_widget(tile)

    def _cycle(self, tile: Tile, key: str, caption: str, values: tuple[Any, ...]) -> None:
        current = self.options.get(key, values[0])
        value = values[(values.index(current) + 1) % len(values)]
        if value == values[0]:
            self.options.pop(key, None)
        else:
            self.options[key] = value
        tile.text = f"{caption}: {value}"

    def _seat_rows(self) -> None:
        self.seat_rows.clear_widgets()
        for n in range(self.count):
            self.button_tiles[n].text = f"button {self.buttons[n]}"
            name = self.names[n]
            if name.parent is not None:
                name.parent.remove_widget(name)
            tile = self.button_tiles[n]
            if tile.parent is not None:
                tile.parent.remove_widget(tile)
            self.seat_rows.add_widget(row(Text(f"seat {n + 1}", size_hint_x=0.2), name, tile,
                                          height=theme.TOUCH - 10))
