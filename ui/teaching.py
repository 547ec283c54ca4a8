"""Entering a 21X deck card by card (no Kivy): the expression parsed as it is typed,
its icons and set, saved to the owner's deck file in the catalogue format.

>>> draft = CardDraft("3X+")
>>> draft.problem()
("trailing operator '+'", 2)
>>> draft.text = "3X+1"; draft.problem() is None
True
>>> print(card_toml(CardDraft("3X+1", icons=2, set="limited")).strip())
[[card]]
id = "3x+1"
text = "3X+1"
icons = 2
set = "limited"
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import tomli_w

from companion.cardmath.catalogue import Catalogue, load_catalogue
from companion.cardmath.expr import parse
from companion.errors import CompanionError, ExpressionError

BOX_SIZE = 110
"""Cards in a 21X box (the rulebook's count), the goal of the progress bar."""
SETS = ("core", "limited", "celebrity")
ICONS = (1, 2, 3)
EXPRESSION_KEYS = ("X", "Y", "N", "V", "+", "-", "\N{MULTIPLICATION SIGN}",
                   "\N{DIVISION SIGN}", "^", "(", ")", "!", "²", "³", "Fib(X)", "Xth prime")
"""The expression keypad's extra keys beside the digits and the decimal point."""


@dataclass
class CardDraft:
    """A card being typed: its printed text, icons and set."""

    text: str = ""
    icons: int = 1
    set: str = "core"

    @property
    def card_id(self) -> str:
        """The catalogue id: the text in lower case without spaces."""
        return "".join(self.text.split()).lower()

    def problem(self) -> tuple[str, int | None] | None:
        """What is wrong with the expression and where (0-based), or None if it parses."""
        if not self.text.strip():
            return ("type the card's expression", None)
        try:
            parse(self.text)
        except ExpressionError as error:
            return (error.message, error.position)
        return None


def card_toml(draft: CardDraft) -> str:
    """The ``[[card]]`` table of ``draft`` in the catalogue format (written by tomli-w, so any
    text, quotes and newlines included, reads back as typed).

    >>> print(card_toml(CardDraft('2"X', 2, "core")), end="")
    [[card]]
    id = "2\\"x"
    text = "2\\"X"
    icons = 2
    set = "core"
    <BLANKLINE>
    """
    card = {"id": draft.card_id, "text": draft.text, "icons": draft.icons, "set": draft.set}
    return "[[card]]\n" + tomli_w.dumps(card) + "\n"


class DeckFile:
    """The owner's deck file being filled, one card at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def catalogue(self) -> Catalogue:
        """The cards saved so far."""
        return load_catalogue(self.path) if self.path.exists() else Catalogue(name=str(self.path))

    def add(self, draft: CardDraft) -> int:
        """Append ``draft``; returns how many cards the file now holds."""
        problem = draft.problem()
        if problem is not None:
            raise CompanionError(f"card {draft.text!r}: {problem[0]}")
        if draft.card_id in self.catalogue():
            raise CompanionError(f"card {draft.card_id!r} is in the deck already")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write(card_toml(draft))
        return len(self.catalogue())
