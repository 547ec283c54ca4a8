"""Deck catalogues: TOML files that list the cards of a deck.

Each card is a ``[[card]]`` table::

    [[card]]
    id = "2x+4"            # unique across every loaded catalogue
    text = "2X+4"          # as printed on the card
    expression = "2X+4"    # optional; defaults to text (omit for playing cards)
    level = 1              # optional difficulty level 1..3
    icons = 1              # optional; defaults to the level (0 without one)
    set = "core"           # core, limited, celebrity or standard
    rank = "A"             # standard playing cards only, with suit
    suit = "c"

Two catalogues ship with the companion (:func:`builtin`): ``standard`` (52 cards
and two jokers) and ``21x`` (every card the 21X rulebook mentions). Owners add
the rest of their deck as ``*.toml`` files in ``<data dir>/decks/``;
:func:`owner_catalogue` merges them, refusing duplicate ids. A file that fails to
load raises :class:`~companion.errors.CatalogueError` naming the file and line.

>>> deck = builtin("21x")
>>> deck.card("fib").text, deck.card("fib").icons
('Fib(X)', 3)
>>> deck.resolve("2X+4").id, deck.resolve("3X-1").icons
('2x+4', 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal, get_args

from companion.cardmath.expr import Expr, parse
from companion.errors import CatalogueError, ExpressionError
from companion.paths import data_dir
from companion.playing_cards import JOKER, RANKS, SUITS
from companion.tomlfile import (
    Text,
    TomlModel,
    key_lines,
    load_model,
    problem,
    read_toml_text,
    whole_number,
)

CardSet = Literal["core", "limited", "celebrity", "standard"]
SETS: tuple[CardSet, ...] = get_args(CardSet)
BUILTIN = ("standard", "21x")


@dataclass(frozen=True)
class Card:
    """One card of a deck; ``expression`` is None for a standard playing card."""

    id: str
    text: str
    expression: Expr | None
    icons: int
    set: str
    rank: str | None = None
    suit: str | None = None
    level: int | None = None


class Catalogue:
    """Cards by id, in file order."""

    def __init__(self, cards: Iterable[Card] = (), name: str = "") -> None:
        self.name = name
        self._cards: dict[str, Card] = {}
        for card in cards:
            if card.id in self._cards:
                raise CatalogueError(f"duplicate card id {card.id!r}", path=name)
            self._cards[card.id] = card

    def card(self, card_id: str) -> Card:
        """The card with this id; :class:`CatalogueError` if there is none."""
        try:
            return self._cards[card_id]
        except KeyError:
            raise CatalogueError(f"unknown card id {card_id!r}", path=self.name) from None

    def resolve(self, token: str) -> Card:
        """The card a player names: an id (exact, then ignoring case), then printed text.

        Anything else is parsed as an ad-hoc card: id and text are the token, the set
        is ``core`` and it has 0 icons (it scores nothing). Raises
        :class:`ExpressionError` if the token is neither a card nor an expression.
        """
        if token in self._cards:
            return self._cards[token]
        wanted = _normal(token)
        for card in self._cards.values():
            if _normal(card.id) == wanted:
                return card
        for card in self._cards.values():
            if card.expression is not None and _normal(card.text) == wanted:
                return card
        return Card(id=token, text=token, expression=parse(token), icons=0, set="core")

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._cards


def _normal(text: str) -> str:
    return "".join(text.split()).casefold()


def merge(*catalogues: Catalogue) -> Catalogue:
    """One catalogue holding every card; a duplicate id names both catalogues."""
    cards: dict[str, tuple[Card, str]] = {}
    for catalogue in catalogues:
        for card in catalogue:
            if card.id in cards:
                raise CatalogueError(
                    f"duplicate card id {card.id!r} (already in {cards[card.id][1]})",
                    path=catalogue.name,
                )
            cards[card.id] = (card, catalogue.name)
    return Catalogue((card for card, _ in cards.values()),
                     name="+".join(c.name for c in catalogues))


def load_catalogue(path: str | Path) -> Catalogue:
    """Read one catalogue file; :class:`CatalogueError` names the file and line on failure."""
    path = Path(path)
    try:
        text = read_toml_text(path, error=CatalogueError)
    except FileNotFoundError:
        raise CatalogueError("no such catalogue file", path=str(path)) from None
    return parse_catalogue(text, str(path))


def parse_catalogue(text: str, name: str) -> Catalogue:
    """A catalogue from TOML ``text``; ``name`` is used in error messages."""
    document = load_model(text, CatalogueFile, path=name, error=CatalogueError)
    lines = key_lines(text)
    seen: dict[str, int | None] = {}
    for index, entry in enumerate(document.card):
        line = lines.get(("card", index))
        if entry.id in seen:
            raise CatalogueError(
                f"duplicate card id {entry.id!r} (first at line {seen[entry.id]})",
                path=name,
                line=line,
            )
        seen[entry.id] = line
    return Catalogue((entry.card() for entry in document.card), name=name)


class CardTable(TomlModel):
    """One ``[[card]]``; a card of the ``standard`` set has a rank and suit, any other an
    expression (its ``text`` unless given)."""

    id: Text
    text: Text
    expression: str | None = None
    level: Annotated[int, whole_number(1, 3)] | None = None
    icons: Annotated[int, whole_number(0, 99)] | None = None
    set: CardSet = "core"
    rank: str | None = None
    suit: str | None = None
    _expression: Expr | None = field(default=None, init=False, compare=False, repr=False)

    def check(self) -> None:
        """A standard card has a rank and suit, any other an expression that parses."""
        if self.set == "standard":
            if self.rank != JOKER and (self.rank not in RANKS or self.suit not in SUITS):
                raise problem(
                    "a standard card needs rank A..K and suit c d h s (or rank JK)", at=("rank",)
                )
            if self.expression is not None:
                raise problem("standard cards have no expression", at=("expression",))
            return
        if self.rank is not None or self.suit is not None:
            raise problem(
                "only standard cards have rank and suit",
                at=("rank",) if self.rank is not None else ("suit",),
            )
        source, key = (self.text, "text") if self.expression is None else (self.expression,
                                                                          "expression")
        try:
            self._set("_expression", parse(source))
        except ExpressionError as error:
            raise problem(f"card {self.id!r}: {error}", at=(key,)) from None

    def card(self) -> Card:
        """The card this table describes; ``icons`` defaults to the level (0 without one)."""
        icons = self.icons if self.icons is not None else self.level or 0
        return Card(id=self.id, text=self.text, expression=self._expression, icons=icons,
                    set=self.set, rank=self.rank, suit=self.suit, level=self.level)


class DeckTable(TomlModel):
    """``[deck]``: what the catalogue is."""

    name: Text | None = None
    description: str | None = None


class CatalogueFile(TomlModel):
    """A catalogue file: an optional ``[deck]`` and the ``[[card]]`` tables."""

    deck: DeckTable | None = None
    card: list[CardTable] = field(default_factory=list)


def builtin(name: str) -> Catalogue:
    """A catalogue shipped with the companion: ``"standard"`` or ``"21x"``."""
    if name not in BUILTIN:
        raise CatalogueError(f"no built-in catalogue {name!r} (choose {' or '.join(BUILTIN)})")
    resource = resources.files("companion") / "data" / "decks" / f"{name}.toml"
    return parse_catalogue(resource.read_text(encoding="utf-8"), f"{name}.toml")


def owner_decks(directory: Path | None = None) -> list[Path]:
    """The owner's own catalogue files: ``*.toml`` in ``<data dir>/decks/``, sorted."""
    folder = (directory if directory is not None else data_dir()) / "decks"
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def owner_catalogue(extra: Iterable[str | Path] = (), directory: Path | None = None) -> Catalogue:
    """The built-in 21X cards merged with the owner's decks and any ``extra`` files."""
    files = [*owner_decks(directory), *(Path(p) for p in extra)]
    return merge(builtin("21x"), *(load_catalogue(path) for path in files))
