"""The moves of Twenty One solitaire, one frozen dataclass per kind of event data.

>>> from companion.games.moves import decode
>>> decode(PlaceCard, {"column": 2}, "place")
PlaceCard(column=2)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.moves import Move


@dataclass(frozen=True)
class TurnUp(Move):
    """``draw``: the next card of the stock, turned up (as the camera reads it)."""

    card: str


@dataclass(frozen=True)
class PlaceCard(Move):
    """``place``: the turned-up card goes on ``column`` (0 at the left)."""

    column: int
