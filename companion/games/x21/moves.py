"""The moves of multi-player 21X, one frozen dataclass per kind of event data.

>>> from companion.games.moves import decode
>>> decode(Stated, {"player": "ben", "x": 3, "total": "17"}, "stand").claim().describe()
'X = 3'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.games.moves import Move
from companion.games.x21.table import Claim


@dataclass(frozen=True)
class Seated(Move):
    """A move of one player with nothing else to say (``pass``)."""

    player: str


@dataclass(frozen=True)
class Take(Move):
    """``deal`` or ``draw``: ``player`` takes ``card`` (a catalogue id) from the deck."""

    player: str
    card: str


@dataclass(frozen=True)
class Call(Move):
    """``call``: without ``x`` the call button (everyone stops); with it, the checked call."""

    player: str
    x: Fraction | None = None
    y: Fraction | None = None


@dataclass(frozen=True)
class Stated(Move):
    """``stand`` or ``state``: a total and the X (and Y) that make it."""

    player: str
    x: Fraction
    total: Fraction
    y: Fraction | None = None

    def claim(self) -> Claim:
        """What the player claims, for the card engine to check."""
        return Claim(x=self.x, y=self.y, total=self.total)
