"""The moves of single-player 21X, one frozen dataclass per kind of event data.

>>> from companion.games.moves import decode
>>> decode(MakeTwentyOne, {"x": "5/2"}, "make21").claim().describe()
'X = 2.5'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.games.moves import Move
from companion.games.x21.table import Claim


@dataclass(frozen=True)
class TakeCard(Move):
    """``deal`` or ``draw``: the player takes ``card`` (a catalogue id) from the deck."""

    card: str


@dataclass(frozen=True)
class MakeTwentyOne(Move):
    """``make21``: the X (and Y) at which the player says the hand makes 21."""

    x: Fraction
    y: Fraction | None = None

    def claim(self) -> Claim:
        """What the player claims, for the card engine to check."""
        return Claim(x=self.x, y=self.y)
