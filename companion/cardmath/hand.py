"""Evaluate a 21X hand: each card's value, the total and its status.

A total of exactly 21 is ``twentyone``; over 21 *or exactly 20* is ``bust`` (the
rulebook's FAQ); anything else is ``valid``. Totals may be non-integer.

Rules checked (raising :class:`~companion.errors.HandError`): X is a non-zero
integer; Y, when a card uses it, is a positive integer; V is a positive integer;
at most 5 cards. The difficulty options in :class:`HandRules` relax them:
``non_integer_x`` lets X be any non-zero number and Y any positive number (Y
"follows all the same rules as X" except it must be positive); ``max_cards=None``
removes the hand-size limit. N is always the number of cards.

>>> from companion.cardmath.expr import parse
>>> hand = [parse("6X"), parse("2X+4"), parse("X/2")]
>>> result = evaluate_hand(hand, x=2)
>>> [str(v) for v in result.values], result.total, result.status.value
(['12', '8', '1'], Fraction(21, 1), 'twentyone')
>>> evaluate_hand(hand, x=1).total, status_of(Fraction(20)).value
(Fraction(25, 2), 'bust')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from companion.cardmath.bounds import check_value
from companion.cardmath.expr import Bindings, Expr
from companion.errors import HandError

TWENTY_ONE = Fraction(21)
TWENTY = Fraction(20)
MAX_CARDS = 5


class Status(StrEnum):
    """The verdict on a total."""

    TWENTYONE = "twentyone"
    BUST = "bust"
    VALID = "valid"


def status_of(total: Fraction) -> Status:
    """``twentyone`` for exactly 21, ``bust`` above 21 or exactly 20, else ``valid``."""
    if total == TWENTY_ONE:
        return Status.TWENTYONE
    if total > TWENTY_ONE or total == TWENTY:
        return Status.BUST
    return Status.VALID


@dataclass(frozen=True)
class HandRules:
    """The rulebook's difficulty options that change what a hand may be."""

    non_integer_x: bool = False
    max_cards: int | None = MAX_CARDS


DEFAULT_RULES = HandRules()


@dataclass(frozen=True)
class HandResult:
    """Card values in hand order, their total and its status."""

    values: tuple[Fraction, ...]
    total: Fraction
    status: Status


def check_hand_size(count: int, rules: HandRules) -> None:
    """Refuse more cards than ``rules.max_cards``."""
    if rules.max_cards is not None and count > rules.max_cards:
        raise HandError(
            f"{count} cards in hand: at most {rules.max_cards} allowed "
            "(the 'more than 5 cards' difficulty option lifts this)"
        )


def check_x(x: Fraction, rules: HandRules) -> None:
    """X must be non-zero, and an integer unless the non-integer option is on."""
    if x == 0:
        raise HandError("X cannot be 0")
    if x.denominator != 1 and not rules.non_integer_x:
        raise HandError(
            f"X must be a whole number, got {x} (the non-integer X option allows it)"
        )


def check_y(y: Fraction, rules: HandRules) -> None:
    """Y follows X's rules and must also be positive."""
    if y <= 0:
        raise HandError(f"Y must be positive, got {y}")
    if y.denominator != 1 and not rules.non_integer_x:
        raise HandError(
            f"Y must be a whole number, got {y} (the non-integer X option allows it)"
        )


def check_v(v: int) -> None:
    """V is 1 + games won, so a positive integer."""
    if v < 1:
        raise HandError(f"V must be at least 1 (1 + games won), got {v}")


def uses_y(cards: Sequence[Expr]) -> bool:
    """True if any card mentions Y."""
    return any("Y" in card.variables for card in cards)


def evaluate_hand(
    cards: Sequence[Expr],
    x: int | Fraction,
    y: int | Fraction | None = None,
    v: int = 1,
    rules: HandRules = DEFAULT_RULES,
) -> HandResult:
    """Value every card with these X, Y, V (N = number of cards) and judge the total.

    Raises :class:`HandError` for values the rules forbid and
    :class:`~companion.errors.ExpressionError` when a card cannot be evaluated.
    """
    check_hand_size(len(cards), rules)
    x = Fraction(x)
    check_x(x, rules)
    check_v(v)
    if y is not None:
        y = Fraction(y)
        check_y(y, rules)
    elif uses_y(cards):
        raise HandError("a card uses Y: choose a value for Y")
    bindings = Bindings(x=x, n=len(cards), v=v, y=y)
    values = tuple(card.evaluate(bindings) for card in cards)
    total = check_value(sum(values, Fraction(0)), "the total")
    return HandResult(values, total, status_of(total))
