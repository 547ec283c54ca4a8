"""The session chart: each player's running points, game by game, drawn with matplotlib.

Kivy-free: the chart is a PNG in memory (matplotlib's Agg renderer, no display) that the
scoreboard shows as an image.

>>> from companion.engine.store import ResultRecord
>>> results = [ResultRecord(1, "21x", 1, "ann", 4, True, None),
...            ResultRecord(2, "21x", 1, "ann", 2, True, None),
...            ResultRecord(2, "21x", 1, "ben", 3, False, None)]
>>> running_points(results)
{'ann': [4, 6], 'ben': [0, 3]}
>>> session_chart(results)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from companion.engine.store import ResultRecord

CHART_SIZE = (360, 300)
"""The chart's size in pixels, as the scoreboard shows it."""
DPI = 100


def running_points(results: Sequence[ResultRecord]) -> dict[str, list[int]]:
    """Each player's total points after each finished game of the session, in game order."""
    games = sorted({r.game_id for r in results})
    players = sorted({r.player for r in results})
    points = {(r.game_id, r.player): r.points for r in results}
    running: dict[str, list[int]] = {}
    for player in players:
        total, line = 0, []
        for game in games:
            total += points.get((game, player), 0)
            line.append(total)
        running[player] = line
    return running


def session_chart(results: Sequence[ResultRecord],
                  size: tuple[int, int] = CHART_SIZE) -> bytes:
    """The chart of the session's running points, as PNG bytes."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI, facecolor="#0d3821")
    axes = figure.add_subplot()
    axes.set_facecolor("#17502f")
    for player, line in running_points(results).items():
        axes.plot(range(1, len(line) + 1), line, marker="o", linewidth=2, label=player)
    axes.set_xlabel("game", color="white")
    axes.set_ylabel("points", color="white")
    axes.set_title("this session", color="white")
    axes.tick_params(colors="white")
    games = max((len(line) for line in running_points(results).values()), default=1)
    axes.set_xlim(0.5, games + 0.5)
    axes.set_xticks(range(1, games + 1))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    if results:
        axes.legend(loc="upper left", fontsize=9)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", facecolor=figure.get_facecolor())
    return out.getvalue()
