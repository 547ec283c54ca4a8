"""Find every X (and Y) that makes a hand exactly 21, and the best valid total.

The search covers integer X with 0 < |X| <= ``search`` and, when a card uses Y,
integer Y from 1 to ``search``. Values of X (or Y) at which a card cannot be
evaluated (a division by zero, a factorial of a negative number ...) are skipped.
The best total is the highest valid one (at most 21 and not 20); ties go to the
smallest |X|, then positive X, then the smallest Y.

>>> from companion.expr import parse
>>> solution = solve([parse("6X"), parse("2X+4"), parse("X/2")])
>>> [(a.x, a.total) for a in solution.twentyone]
[(Fraction(2, 1), Fraction(21, 1))]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.errors import ExpressionError
from companion.expr import Bindings, Expr
from companion.hand import (
    DEFAULT_RULES,
    TWENTY,
    TWENTY_ONE,
    HandRules,
    check_hand_size,
    check_v,
    uses_y,
)

DEFAULT_SEARCH = 1000


@dataclass(frozen=True)
class Assignment:
    """A choice of X (and Y) and the hand's exact total with it."""

    x: Fraction
    y: Fraction | None
    total: Fraction


@dataclass(frozen=True)
class Solution:
    """Every assignment making exactly 21 (by X, then Y) and the best valid one."""

    twentyone: list[Assignment]
    best: Assignment | None


def x_order(search: int) -> Iterator[int]:
    """1, -1, 2, -2, ...: the tie-break order for X."""
    for magnitude in range(1, search + 1):
        yield magnitude
        yield -magnitude


def solve(
    cards: Sequence[Expr],
    v: int = 1,
    search: int = DEFAULT_SEARCH,
    rules: HandRules = DEFAULT_RULES,
) -> Solution:
    """Search X (and Y) for this hand exactly; see the module docstring for the order."""
    check_hand_size(len(cards), rules)
    check_v(v)
    ys: list[Fraction | None] = (
        [Fraction(y) for y in range(1, search + 1)] if uses_y(cards) else [None]
    )
    twentyone: list[Assignment] = []
    best: Assignment | None = None
    for x in x_order(search):
        for y in ys:
            bindings = Bindings(x=Fraction(x), n=len(cards), v=v, y=y)
            try:
                total = sum((card.evaluate(bindings) for card in cards), Fraction(0))
            except ExpressionError:
                continue
            if total == TWENTY_ONE:
                twentyone.append(Assignment(Fraction(x), y, total))
            if total <= TWENTY_ONE and total != TWENTY and (best is None or total > best.total):
                best = Assignment(Fraction(x), y, total)
    twentyone.sort(key=lambda a: (a.x, a.y or 0))
    return Solution(twentyone, best)
