"""The moves of Mountainside Math Medley, one frozen dataclass per kind of event data.

>>> from companion.games.moves import decode
>>> decode(Draw, {"card": "7s", "cell": 4}, "draw")
Draw(card='7s', cell=4, corner=None)
>>> decode(Roll, {"dice": [5, "3"]}, "roll")
Traceback (most recent call last):
companion.errors.MalformedMove: 'dice' of a 'roll' must be a whole number, not '3'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.moves import Move


@dataclass(frozen=True)
class Draw(Move):
    """``draw``: ``card`` from the pile into grid ``cell``, or onto corner spot ``corner``."""

    card: str
    cell: int | None = None
    corner: int | None = None


@dataclass(frozen=True)
class Roll(Move):
    """``roll``: the two settled dice."""

    dice: tuple[int, ...]


@dataclass(frozen=True)
class Claim(Move):
    """``claim``: a combination making the target, written as in the rule text."""

    expression: str
