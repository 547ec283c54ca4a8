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

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion.cardmath.expr import Expr, parse
from companion.config import parse_toml, read_toml_text
from companion.errors import CatalogueError, CompanionError, ExpressionError
from companion.paths import data_dir
from companion.playing_cards import JOKER, RANKS, SUITS

SETS = ("core", "limited", "celebrity", "standard")
BUILTIN = ("standard", "21x")
_KEYS = {"id", "text", "expression", "level", "icons", "set", "rank", "suit"}
_CARD_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*card[ \t]*\]\]", re.MULTILINE)


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
    document = parse_toml(text, path=name, error=CatalogueError)
    unknown = set(document) - {"card", "deck"}
    if unknown:
        raise CatalogueError(f"unknown top-level key(s) {sorted(unknown)}", path=name)
    entries = document.get("card", [])
    if not isinstance(entries, list):
        raise CatalogueError("'card' must be an array of tables: use [[card]]", path=name)
    header_lines = [text.count("\n", 0, m.start()) + 1 for m in _CARD_HEADER.finditer(text)]
    cards: list[Card] = []
    seen: dict[str, int | None] = {}
    for index, entry in enumerate(entries):
        line = header_lines[index] if index < len(header_lines) else None
        try:
            card = _card(entry)
        except CompanionError as error:
            message = getattr(error, "message", str(error))
            if not message.startswith("card "):
                message = f"card {index + 1}: {message}"
            raise CatalogueError(message, path=name, line=line) from None
        if card.id in seen:
            first = seen[card.id]
            raise CatalogueError(
                f"duplicate card id {card.id!r} (first at line {first})", path=name, line=line
            )
        seen[card.id] = line
        cards.append(card)
    return Catalogue(cards, name=name)


def _card(entry: Any) -> Card:
    """One ``[[card]]`` table, validated."""
    if not isinstance(entry, dict):
        raise CatalogueError("a card must be a table")
    unknown = set(entry) - _KEYS
    if unknown:
        raise CatalogueError(f"unknown key(s) {sorted(unknown)}")
    card_id, text = entry.get("id"), entry.get("text")
    if not isinstance(card_id, str) or not card_id.strip():
        raise CatalogueError("missing or empty 'id'")
    if not isinstance(text, str) or not text.strip():
        raise CatalogueError(f"card {card_id!r} has no 'text'")
    card_set = entry.get("set", "core")
    if card_set not in SETS:
        raise CatalogueError(f"card {card_id!r}: set must be one of {', '.join(SETS)}")
    level = _optional_int(entry, "level", card_id, low=1, high=3)
    icons = _optional_int(entry, "icons", card_id, low=0, high=99)
    rank, suit = entry.get("rank"), entry.get("suit")
    expression: Expr | None = None
    if card_set == "standard":
        if rank != JOKER and (rank not in RANKS or suit not in SUITS):
            raise CatalogueError(
                f"card {card_id!r}: a standard card needs rank A..K and suit c d h s (or rank JK)"
            )
        if "expression" in entry:
            raise CatalogueError(f"card {card_id!r}: standard cards have no expression")
    else:
        if rank is not None or suit is not None:
            raise CatalogueError(f"card {card_id!r}: only standard cards have rank and suit")
        source = entry.get("expression", text)
        if not isinstance(source, str):
            raise CatalogueError(f"card {card_id!r}: 'expression' must be text")
        try:
            expression = parse(source)
        except ExpressionError as error:
            raise CatalogueError(f"card {card_id!r}: {error}") from None
    if icons is None:
        icons = level or 0
    return Card(id=card_id, text=text, expression=expression, icons=icons, set=card_set,
                rank=rank, suit=suit, level=level)


def _optional_int(entry: dict[str, Any], key: str, card_id: str, low: int, high: int) -> int | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CatalogueError(f"card {card_id!r}: {key} must be a whole number {low}..{high}")
    return value


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
