"""The moves of the trick game, one frozen dataclass per kind of event data.

>>> from companion.games.moves import decode
>>> decode(Played, {"player": "ben", "cards": ["9h", "9s"]}, "play").cards
('9h', '9s')
>>> decode(Swap, {"player": "ben", "count": "2"}, "swap")
Traceback (most recent call last):
companion.errors.MalformedMove: 'count' of a 'swap' must be a whole number, not '2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.moves import Move


@dataclass(frozen=True)
class Deal(Move):
    """``deal``: a new deal; with declared hands, ``hands`` maps each player to their cards."""

    hands: dict[str, Any] | None = None


@dataclass(frozen=True)
class Swapping(Move):
    """``swapping``: the leader opens (``open`` true) or closes swapping for this deal."""

    player: str
    open: bool


@dataclass(frozen=True)
class Swap(Move):
    """``swap``: one player's trade; ``count`` with hidden hands, ``give``/``take`` declared."""

    player: str
    count: int | None = None
    give: tuple[str, ...] | None = None
    take: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Played(Move):
    """``play``: ``player`` puts ``cards`` (one card or a pair) face up on the trick."""

    player: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Passed(Move):
    """``pass`` (the passing variation): ``player`` cannot go higher and keeps their hand."""

    player: str


@dataclass(frozen=True)
class Reveal(Move):
    """``reveal``: the last cards turned over together, ``cards`` by player."""

    cards: dict[str, Any]
