"""``scoreboard``: this session's and all-time standings, single-player best times,
solitaire high scores, and a chart of the session's running points."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image

from companion.engine.scores import best_times, high_scores, standings
from ui import theme
from ui.chart import CHART_SIZE, session_chart
from ui.format import clock_text
from ui.screens.base import AppScreen, Host
from ui.widgets import Panel, Text, Tile, row

LINES = 5


def standing_lines(title: str, rows: list[Any]) -> str:
    """A titled block of standings: player, wins, points."""
    lines = [f"[b]{title}[/b]"]
    lines += [f"{s.player}: {s.points} pts, {s.wins}/{s.games} won" for s in rows[:LINES]]
    return "\n".join(lines if rows else [*lines, "no games yet"])


class ScoreboardScreen(AppScreen):
    """The scores kept in the store."""

    NAME = "scoreboard"

    def __init__(self, host: Host, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        root = BoxLayout(orientation="vertical", spacing=theme.GAP, padding=theme.GAP)
        body = BoxLayout(orientation="horizontal", spacing=theme.GAP)
        tables = BoxLayout(orientation="vertical", spacing=theme.GAP)
        self.session = Text(size=theme.TEXT)
        self.all_time = Text(size=theme.TEXT)
        self.records = Text(size=theme.SMALL + 1)
        for block in (self.session, self.all_time, self.records):
            panel = Panel(orientation="vertical")
            panel.add_widget(block)
            tables.add_widget(panel)
        self.chart = Image(size_hint=(None, 1), width=CHART_SIZE[0])
        body.add_widget(tables)
        body.add_widget(self.chart)
        root.add_widget(body)
        root.add_widget(row(Tile("home", lambda: host.go("home")),
                            Tile("back to the game", lambda: host.go("table"))))
        self.add_widget(root)

    def enter(self, **options: Any) -> None:
        store, session = self.host.store, self.host.loop.session_id
        self.session.text = standing_lines(
            "this session", standings(store, session_id=session) if session else [])
        self.all_time.text = standing_lines("all time", standings(store))
        times = [f"{e.player} {clock_text(e.value)}" for e in best_times(store, limit=3)]
        scores = [f"{e.player} {e.value:g}" for e in high_scores(store, "solitaire", 3)]
        self.records.text = (f"[b]21X single player, best times[/b]: {', '.join(times) or '-'}"
                             f"\n[b]solitaire high scores[/b]: {', '.join(scores) or '-'}")
        results = store.results(session_id=session) if session else []
        image = CoreImage(BytesIO(session_chart(results)), ext="png")
        self.chart.texture = image.texture
