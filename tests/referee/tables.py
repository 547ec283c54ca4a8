"""Helpers for the referee tests: a small inline deck and a referee on a real store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.engine.clock import ManualClock
from companion.engine.referee import Referee
from companion.engine.store import Store

# Cards defined inline in the start event (ids are what the camera would report).
INLINE_CARDS: list[dict[str, Any]] = [
    {"id": "3x", "text": "3X", "icons": 1},
    {"id": "x+5", "text": "X+5", "icons": 1},
    {"id": "n", "text": "N", "icons": 1},
    {"id": "10", "text": "10", "icons": 1},
    {"id": "4", "text": "4", "icons": 1},
    {"id": "7-x", "text": "7-X", "icons": 1},
    {"id": "2n", "text": "2N", "icons": 2},
    {"id": "9", "text": "9", "icons": 1},
    {"id": "x2", "text": "X²", "icons": 2},
    {"id": "v", "text": "V", "icons": 2, "set": "limited"},
    {"id": "y+1", "text": "Y+1", "icons": 2, "set": "limited"},
    {"id": "y", "text": "Y", "icons": 2, "set": "limited"},
    {"id": "xy", "text": "XY", "icons": 2, "set": "limited"},
    {"id": "5", "text": "5", "icons": 1},
    {"id": "6", "text": "6", "icons": 1},
]
EXAMPLE_HAND = ["6x", "2x+4", "x/2"]
CELEBRITY = ["prime", "triangle", "fib", "factorsum", "pidigit", "edigit"]
ALL_IDS = [*EXAMPLE_HAND, *CELEBRITY, *(card["id"] for card in INLINE_CARDS)]


class Table:
    """A referee for one game on a real SQLite store, with a manual clock."""

    def __init__(self, data_dir: Path, game: str, data: dict[str, Any],
                 session_id: int | None = None, store: Store | None = None,
                 clock: ManualClock | None = None) -> None:
        self.clock = clock or ManualClock(1000.0)
        self.store = store or Store.open(data_dir)
        start = {"deck": ALL_IDS, "cards": INLINE_CARDS, **data}
        self.referee = Referee.start(self.store, self.clock, game, start, session_id)

    def at(self, seconds: float) -> Table:
        """Move the clock to ``seconds`` after the start."""
        self.clock.now = 1000.0 + seconds
        return self

    def do(self, kind: str, **data: Any) -> dict[str, Any]:
        """Submit one event and return the summary after it."""
        self.referee.submit(kind, data)
        return self.referee.summary()

    def deal(self, hands: dict[str, list[str]]) -> None:
        """Deal two cards to each player, round by round."""
        for round_ in range(2):
            for player, cards in hands.items():
                self.do("deal", player=player, card=cards[round_])
        for player, cards in hands.items():
            for card in cards[2:]:
                self.do("draw", player=player, card=card)
