"""The table of both 21X games: the cards in play, what players state, and the deck.

A start event declares the deck (catalogue card ids, plus cards defined inline so a log
replays on its own) and the options; :class:`Cards` values a hand under those options
with the card engine. Players' numbers (X, Y, totals) are read exactly as fractions.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.cardmath.bounds import exact_text, printable, readable
from companion.cardmath.catalogue import Card, Catalogue, builtin
from companion.cardmath.expr import decimal_text, parse
from companion.cardmath.hand import (
    MAX_CARDS,
    TWENTY_ONE,
    HandRules,
    Status,
    evaluate_hand,
    status_of,
)
from companion.errors import CompanionError, ExpressionError, HandError, IllegalMove
from companion.games.base import option

CARD_SETS = ("core", "limited", "celebrity")


@functools.cache
def catalogue_named(name: str) -> Catalogue:
    """A built-in deck catalogue, loaded once."""
    return builtin(name)


def fraction_text(value: Fraction) -> str:
    """A number as a person writes it: ``21``, ``12.5``, ``7/3`` (``~8.03469e+59`` when long).

    >>> long = Fraction(2**199)
    >>> fraction_text(Fraction(25, 2)), fraction_text(Fraction(7, 3)), fraction_text(long)
    ('12.5', '7/3', '~8.03469e+59')
    """
    return decimal_text(value) or readable(value)


def fraction_json(value: Fraction) -> int | str:
    """A number for JSON: an int when whole, else ``"p/q"``.

    >>> fraction_json(Fraction(21)), fraction_json(Fraction(25, 2))
    (21, '25/2')
    """
    if value.denominator == 1 and printable(value):
        return value.numerator
    return exact_text(value)


@dataclass(frozen=True)
class Claim:
    """What a player stated: X (and Y) and, for a stand or a best total, the total."""

    x: Fraction
    y: Fraction | None = None
    total: Fraction | None = None

    def describe(self) -> str:
        """The stated X (and Y) as a person would say them.

        >>> Claim(x=Fraction(4), y=Fraction(5, 2)).describe()
        'X = 4, Y = 2.5'
        """
        y = "" if self.y is None else f", Y = {fraction_text(self.y)}"
        return f"X = {fraction_text(self.x)}{y}"

    def to_json(self) -> dict[str, Any]:
        """The claim as JSON-ready data."""
        out: dict[str, Any] = {"x": fraction_json(self.x)}
        if self.y is not None:
            out["y"] = fraction_json(self.y)
        if self.total is not None:
            out["total"] = fraction_json(self.total)
        return out


@dataclass(frozen=True)
class Cards:
    """The cards this game knows (by id), and how hands are evaluated under the options."""

    known: Mapping[str, Card]
    hand_rules: HandRules

    def check(self, deck: Iterable[Any]) -> tuple[str, ...]:
        """The declared deck as a tuple of distinct known card ids."""
        cards = tuple(deck)
        if not cards or not all(isinstance(card, str) for card in cards):
            raise IllegalMove("the deck must be a non-empty list of card ids")
        if len(set(cards)) != len(cards):
            raise IllegalMove("the deck lists a card more than once")
        for card in cards:
            self.card(card)
        return cards

    def card(self, card_id: str) -> Card:
        """The card with this id (``IllegalMove`` if unknown)."""
        card = self.known.get(card_id)
        if card is None:
            raise IllegalMove(f"unknown card id {card_id!r}")
        return card

    def icons(self, cards: Iterable[str]) -> int:
        """The difficulty icons on these cards."""
        return sum(self.card(card).icons for card in cards)

    def values(self, cards: Sequence[str], claim: Claim, v: int) -> tuple[Fraction, ...]:
        """Each card's value at the claim's X and Y; ``HandError`` if that binding is not
        allowed (X = 0, a missing Y...)."""
        expressions = [self.card(card).expression for card in cards]
        try:
            result = evaluate_hand([e for e in expressions if e is not None], claim.x,
                                   y=claim.y, v=v, rules=self.hand_rules)
        except ExpressionError as error:
            raise HandError(str(error)) from None
        return result.values

    def total(self, cards: Sequence[str], claim: Claim, v: int) -> Fraction:
        """The hand's total at the claim's X and Y (see :meth:`values`)."""
        return sum(self.values(cards, claim, v), Fraction(0))

    def judge(self, cards: Sequence[str], claim: Claim, v: int,
              said: str) -> tuple[Fraction | None, str]:
        """What the cards give at the claim's X and Y (None if not allowed), and why the
        claim is wrong (``""`` if right). ``said`` is the claim in words ("called 21",
        "stood on 14"); the claimed total (21 for a call) must be a valid total, exactly
        what the cards give.

        >>> hand = [inline_card({"id": i, "text": i.upper()}) for i in ("3x", "x+5")]
        >>> cards = Cards({card.id: card for card in hand}, HandRules())
        >>> cards.judge(["3x", "x+5"], Claim(x=Fraction(4)), 1, "called 21")
        (Fraction(21, 1), '')
        >>> cards.judge(["3x", "x+5"], Claim(x=Fraction(1), total=Fraction(9)), 1, "stood on 9")
        (Fraction(9, 1), '')
        >>> cards.judge(["3x", "x+5"], Claim(x=Fraction(0)), 1, "called 21")[1]
        'called 21 with X = 0: X cannot be 0'
        """
        target = TWENTY_ONE if claim.total is None else claim.total
        if status_of(target) == Status.BUST:
            return None, f"{said}, which is bust"
        try:
            total = self.total(cards, claim, v)
        except HandError as error:
            return None, f"{said} with {claim.describe()}: {error}"
        if total != target:
            made = fraction_text(total)
            return total, f"{said} with {claim.describe()} but the cards make {made}"
        return total, ""


def inline_card(entry: Any) -> Card:
    """A card defined in the start event (``id``, ``text``, ``expression``, ``icons``, ``set``).

    >>> inline_card({"id": "c7", "text": "3X-1", "icons": 1}).icons
    1
    """
    if not isinstance(entry, dict):
        raise IllegalMove("each of 'cards' must be an object")
    card_id, text = entry.get("id"), entry.get("text")
    if not isinstance(card_id, str) or not card_id or not isinstance(text, str):
        raise IllegalMove("an inline card needs a string 'id' and 'text'")
    source, icons = entry.get("expression", text), entry.get("icons", 0)
    card_set = entry.get("set", "core")
    if isinstance(icons, bool) or not isinstance(icons, int) or icons < 0:
        raise IllegalMove(f"card {card_id!r}: 'icons' must be a whole number >= 0")
    if card_set not in CARD_SETS or not isinstance(source, str):
        raise IllegalMove(f"card {card_id!r}: set must be one of {CARD_SETS}, with a text")
    try:
        expression = parse(source)
    except ExpressionError as error:
        raise IllegalMove(f"card {card_id!r}: {error}") from None
    return Card(id=card_id, text=text, expression=expression, icons=icons, set=card_set)


def read_cards(data: Mapping[str, Any], options: Mapping[str, Any]) -> Cards:
    """The known cards and hand rules of a start event.

    Known cards are those of the ``catalogue`` option (built-in, default ``21x``) plus
    any defined inline in the start event's ``cards``, so a log replays on its own.
    """
    max_cards = options.get("max_cards", MAX_CARDS)
    if max_cards is not None and (option(options, "max_cards", MAX_CARDS, int) < 2):
        raise IllegalMove("option 'max_cards' must be at least 2, or null for no limit")
    rules = HandRules(non_integer_x=option(options, "non_integer_x", False, bool),
                      max_cards=max_cards)
    name = option(options, "catalogue", "21x", str)
    try:
        known = {card.id: card for card in catalogue_named(name) if card.expression is not None}
    except CompanionError as error:
        raise IllegalMove(f"catalogue {name!r}: {error}") from None
    extra = data.get("cards", [])
    if not isinstance(extra, list):
        raise IllegalMove("'cards' must be a list of card objects")
    for entry in extra:
        card = inline_card(entry)
        if card.id in known:
            raise IllegalMove(f"card id {card.id!r} is already in catalogue {name!r}")
        known[card.id] = card
    return Cards(known=known, hand_rules=rules)


@dataclass(frozen=True)
class Setup:
    """What a 21X start event declares: its options, the cards it knows and the deck."""

    options: Mapping[str, Any]
    cards: Cards
    deck: tuple[str, ...]


def read_setup(data: Mapping[str, Any]) -> Setup:
    """The options, known cards and declared ``deck`` (default: every known card)."""
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise IllegalMove("'options' must be an object")
    cards = read_cards(data, options)
    deck = data.get("deck")
    if deck is None:
        return Setup(options, cards, tuple(cards.known))
    if not isinstance(deck, list):
        raise IllegalMove("'deck' must be a list of card ids")
    return Setup(options, cards, cards.check(deck))


def take_from_deck(deck: frozenset[str], card: Any, places: Mapping[str, str]) -> frozenset[str]:
    """The deck without ``card``; ``IllegalMove`` says where the card is if not in the deck."""
    if not isinstance(card, str):
        raise IllegalMove(f"'card' must be a card id, not {card!r}")
    if not deck:
        raise IllegalMove("the deck is empty")
    if card not in deck:
        where = places.get(card)
        if where is None:
            raise IllegalMove(f"card {card!r} is not in the declared deck")
        raise IllegalMove(f"card {card!r} is not in the deck ({where})")
    return deck - {card}
