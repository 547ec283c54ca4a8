"""Standard playing cards: names like ``Kd``, ``10h``, ``As`` and ``JK`` (a joker).

A name is the rank (``A 2 3 4 5 6 7 8 9 10 J Q K``) followed by the suit letter
(``c d h s``); jokers are ``JK``. The same names are used by the vision module and
in every game's event log. Values are not defined here: each game has its own.

>>> card = PlayingCard.parse("10h")
>>> card.rank, card.suit, str(card)
('10', 'h', '10h')
>>> PlayingCard.parse("qS")
PlayingCard(rank='Q', suit='s')
>>> len(standard_deck()), len(standard_deck(jokers=2))
(52, 54)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import CompanionError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("c", "d", "h", "s")
JOKER = "JK"


class UnknownCard(CompanionError, ValueError):
    """A card name that is not a standard playing card."""


@dataclass(frozen=True, order=True)
class PlayingCard:
    """One standard card; a joker has rank ``JK`` and no suit."""

    rank: str
    suit: str = ""

    @classmethod
    def parse(cls, name: str) -> PlayingCard:
        """Read a card name (case-insensitive; ``T`` is accepted for ten)."""
        text = name.strip()
        if text.upper() == JOKER:
            return cls(JOKER)
        rank, suit = text[:-1].upper(), text[-1:].lower()
        rank = "10" if rank == "T" else rank
        if rank not in RANKS or suit not in SUITS:
            raise UnknownCard(f"unknown card {name!r}: expected rank A..K + suit c d h s")
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank == JOKER

    @property
    def is_ten_value(self) -> bool:
        """True for 10, J, Q and K: the cards worth ten in blackjack-style counting."""
        return self.rank in ("10", "J", "Q", "K")

    def __str__(self) -> str:
        return self.rank + self.suit


def standard_deck(jokers: int = 0) -> list[PlayingCard]:
    """The 52 cards in suit-then-rank order, followed by ``jokers`` jokers."""
    deck = [PlayingCard(rank, suit) for suit in SUITS for rank in RANKS]
    return deck + [PlayingCard(JOKER)] * jokers
