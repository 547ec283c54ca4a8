"""Find every X (and Y) that makes a hand exactly 21, and the best valid total.

The search covers integer X with 1 <= |X| <= ``search`` and, when a card uses Y,
integer Y from 1 to ``search`` (also with the non-integer X option: the search is
over whole numbers). Values at which a card cannot be evaluated (a division by
zero, a factorial of a negative number ...) are skipped. The best total is the
highest valid one (at most 21 and not 20); ties go to the smallest |X|, then the
positive X, then the smallest Y. Assignments making 21 are listed by X, then Y.

Every answer is exact. The polynomial parts of the hand are compiled once to
integer coefficients over a common denominator, quotients of polynomials (``12/X``)
to integer numerators and denominators (see :mod:`companion.cardmath.expr.polynomial`),
celebrity cards and factorials of X or Y come from one table of their sequence,
powers such as ``2^X`` are computed directly, and the rest is evaluated on the tree. Totals are
split into a part in X, a part in Y and a mixed part: with no mixed part the Y
search is a lookup per X; with a mixed polynomial part a float pass with a proven
error bound picks the candidates, which are then confirmed with integers; a mixed
part that is not a polynomial (``X^Y``) is searched pair by pair, which is refused
(HandError) beyond ``EXHAUSTIVE_PAIRS`` pairs (a range of about 350).

>>> from companion.cardmath.expr import parse
>>> solution = solve([parse("6X"), parse("2X+4"), parse("X/2")])
>>> [(a.x, a.total) for a in solution.twentyone]
[(Fraction(2, 1), Fraction(21, 1))]
>>> solve([parse("X"), parse("X")]).best
Assignment(x=Fraction(9, 1), y=None, total=Fraction(18, 1))
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.cardmath.bounds import power_bits
from companion.cardmath.expr import (
    FACTORIAL_CAP,
    VALUE_BITS,
    BinaryOp,
    Bindings,
    Call,
    Expr,
    Factorial,
    Negate,
    Variable,
)
from companion.cardmath.expr.polynomial import (
    Polynomial,
    add,
    constant_value,
    to_polynomial,
    to_rational,
)
from companion.cardmath.hand import DEFAULT_RULES, HandRules, check_hand_size, check_v
from companion.cardmath.sequences import positive_values
from companion.errors import ExpressionError, HandError

DEFAULT_SEARCH = 1000
MAX_SEARCH = 50_000
"""Largest search range (a hand of five celebrity cards takes about 4 s at it here)."""
MAX_MIXED_SEARCH = 2_000
"""Largest search range when X and Y mix in a polynomial term (``XY``): every pair is
looked at in the float pass, about 1.5 s here at this range."""
EXHAUSTIVE_PAIRS = 250_000
"""Most (X, Y) pairs tried one by one when X and Y mix outside a polynomial."""
TREE_WORK = 400_000
"""Most steps of evaluating terms on the tree in one search (nodes times values tried,
weighted by ``NODE_COST``): about 2 s here."""
NODE_COST = {"factorsum": 200, "factorial": 20, "fib": 5}
"""The cost of a celebrity call or a factorial in tree steps (any other node costs 1)."""


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


def x_order(search: int) -> list[int]:
    """1, -1, 2, -2, ...: the X values searched, in tie-break order."""
    return [x for magnitude in range(1, search + 1) for x in (magnitude, -magnitude)]


def additive_terms(expr: Expr, sign: int = 1) -> Iterator[tuple[int, Expr]]:
    """The terms of a sum with their signs: ``2X - 1/X`` gives (1, 2X), (-1, 1/X)."""
    if isinstance(expr, BinaryOp) and expr.op in "+-":
        yield from additive_terms(expr.left, sign)
        yield from additive_terms(expr.right, sign if expr.op == "+" else -sign)
    elif isinstance(expr, Negate):
        yield from additive_terms(expr.operand, -sign)
    else:
        yield sign, expr


Residual = list[tuple[int, Expr]]
Value = int | Fraction
"""An exact total: an integer over a common denominator, or a Fraction."""
IntegerTerm = tuple[int, str]
"""A sign and the name of a celebrity function (or ``factorial``) of one variable."""
RationalTerm = tuple[int, list[int], list[int], list[list[int]]]
"""A sign, the numerator, denominator and guards of a quotient, as dense integer polynomials."""
Pair = tuple[int, int]
"""An exact value as (numerator, positive denominator)."""


def integer_term(term: Expr) -> tuple[str, str] | None:
    """(variable, function) for a celebrity card or factorial of X or Y alone."""
    if isinstance(term, Call | Factorial):
        argument = term.argument if isinstance(term, Call) else term.operand
        if isinstance(argument, Variable) and argument.name in ("X", "Y"):
            return argument.name, term.function if isinstance(term, Call) else "factorial"
    return None


def integer_values(function: str, values: list[int]) -> dict[int, int]:
    """The function at each value where defined, from one table of its sequence."""
    largest = max(max(values), -min(values)) if values else 0
    if function == "factorial":
        table, product = [1], 1
        for k in range(1, min(largest, FACTORIAL_CAP) + 1):
            product *= k
            table.append(product)
        return {value: table[value] for value in values if 0 <= value < len(table)}
    positive = positive_values(function, largest)
    result: dict[int, int] = {}
    for value in values:
        if 0 < value <= len(positive):
            result[value] = positive[value - 1]
        elif 0 < -value <= len(positive):
            result[value] = -positive[-value - 1]
    return result


class _Hand:
    """A hand compiled for searching: integer polynomials over ``denominator``, integer
    terms (``prime(X)``, ``X!``) and residual terms evaluated on the tree."""

    def __init__(self, cards: Sequence[Expr], v: int) -> None:
        self.n, self.v = len(cards), v
        constants = {"N": Fraction(self.n), "V": Fraction(v)}
        poly: Polynomial = {}
        self.residuals: dict[str, Residual] = {"X": [], "Y": [], "XY": []}
        self.integer_terms: dict[str, list[IntegerTerm]] = {"X": [], "Y": []}
        self.rationals: dict[str, list[RationalTerm]] = {"X": [], "Y": []}
        self.exponentials: dict[str, list[tuple[int, Fraction]]] = {"X": [], "Y": []}
        self.uses_y = False
        for card in cards:
            self.uses_y |= "Y" in card.variables
            for sign, term in additive_terms(card):
                compiled = to_polynomial(term, constants)
                integer = integer_term(term) if compiled is None else None
                if compiled is not None:
                    poly = add(poly, {m: sign * c for m, c in compiled.items()})
                elif integer is not None:
                    self.integer_terms[integer[0]].append((sign, integer[1]))
                else:
                    key = "".join(sorted(term.variables & {"X", "Y"})) or "X"
                    rational = _rational_term(term, constants) if len(key) == 1 else None
                    base = _exponential_base(term, constants)
                    if rational is not None:
                        self.rationals[key].append((sign, *rational))
                    elif base is not None:
                        self.exponentials[key].append((sign, base))
                    else:
                        self.residuals[key].append((sign, term))
        self.denominator = math.lcm(1, *(c.denominator for c in poly.values()))
        scaled = {m: int(c * self.denominator) for m, c in poly.items()}
        self.x_poly = _dense({i: c for (i, j), c in scaled.items() if j == 0})
        self.y_poly = _dense({j: c for (i, j), c in scaled.items() if i == 0 and j > 0})
        self.mixed = {(i, j): c for (i, j), c in scaled.items() if i > 0 and j > 0}

    def residual(self, key: str, x: int, y: int | None) -> Fraction:
        """The sum of the residual terms of one kind (raises ExpressionError)."""
        bindings = Bindings(x=Fraction(x), n=self.n, v=self.v,
                            y=None if y is None else Fraction(y))
        return sum((sign * term.evaluate(bindings) for sign, term in self.residuals[key]),
                   Fraction(0))

    def table(
        self, variable: str, values: list[int]
    ) -> tuple[dict[int, Pair], dict[int, Fraction]]:
        """The part of the total in one variable, for each value where it is defined: its
        polynomial, integer and rational terms as a pair, and its residual Fraction."""
        poly = self.x_poly if variable == "X" else self.y_poly
        integers = dict.fromkeys(values, 0)
        for sign, name in self.integer_terms[variable]:
            lookup = integer_values(name, values)
            integers = {v: total + sign * lookup[v] for v, total in integers.items() if v in lookup}
        scale = self.denominator
        pairs = {
            value: (integer * scale + number, scale)
            for (value, integer), number in zip(
                integers.items(), _poly_values(poly, list(integers)), strict=True
            )
        }
        for sign, numerator, denominator, guards in self.rationals[variable]:
            pairs = _add_pairs(pairs, sign, _rational_values(numerator, denominator, guards,
                                                             list(pairs)))
        for sign, base in self.exponentials[variable]:
            pairs = _add_pairs(pairs, sign, _exponential_values(base, list(pairs)))
        extras: dict[int, Fraction] = {}
        if self.residuals[variable]:
            for value in list(pairs):
                try:
                    other = (value, None) if variable == "X" else (1, value)
                    extras[value] = self.residual(variable, *other)
                except ExpressionError:
                    del pairs[value]
        return pairs, extras


def _rational_term(
    term: Expr, constants: dict[str, Fraction]
) -> tuple[list[int], list[int], list[list[int]]] | None:
    """A one-variable quotient as dense integer polynomials (numerator, denominator, guards)."""
    rational = to_rational(term, constants)
    if rational is None:
        return None

    def dense(poly: Polynomial, scale: int) -> list[int]:
        return _dense({i + j: int(c * scale) for (i, j), c in poly.items()})

    def lcm_of(*polys: Polynomial) -> int:
        return math.lcm(1, *(c.denominator for poly in polys for c in poly.values()))

    scale = lcm_of(rational.numerator, rational.denominator)
    return (dense(rational.numerator, scale), dense(rational.denominator, scale),
            [dense(guard, lcm_of(guard)) for guard in rational.guards])


def _rational_values(
    numerator: list[int], denominator: list[int], guards: list[list[int]], values: list[int]
) -> dict[int, Pair]:
    """numerator/denominator at each value where no guard is zero."""
    tops, bottoms = _poly_values(numerator, values), _poly_values(denominator, values)
    guard_values = [_poly_values(guard, values) for guard in guards]
    return {
        value: (tops[k], bottoms[k])
        for k, value in enumerate(values)
        if bottoms[k] != 0 and all(column[k] != 0 for column in guard_values)
    }


def _exponential_base(term: Expr, constants: dict[str, Fraction]) -> Fraction | None:
    """The constant base of a term like ``2^X`` or ``(1/2)^Y``, else None."""
    if not (isinstance(term, BinaryOp) and term.op == "^" and isinstance(term.right, Variable)):
        return None
    if term.right.name not in ("X", "Y") or term.left.variables & {"X", "Y"}:
        return None
    return constant_value(term.left, constants)


def _exponential_values(base: Fraction, values: list[int]) -> dict[int, Pair]:
    """base^value where the tree would give one (same size cap, no 0 to a negative power)."""
    result: dict[int, Pair] = {}
    for value in values:
        if (base == 0 and value < 0) or power_bits(base, value) > VALUE_BITS:
            continue
        power = base**value
        result[value] = (power.numerator, power.denominator)
    return result


def _add_pairs(pairs: dict[int, Pair], sign: int, addend: dict[int, Pair]) -> dict[int, Pair]:
    """pairs + sign * addend, keeping only values where both are defined."""
    result: dict[int, Pair] = {}
    for value, (old_top, old_bottom) in pairs.items():
        if value not in addend:
            continue
        top, bottom = addend[value]
        if bottom < 0:
            top, bottom = -top, -bottom
        result[value] = (old_top * bottom + sign * top * old_bottom, old_bottom * bottom)
    return result


def _dense(coefficients: dict[int, int]) -> list[int]:
    size = max(coefficients, default=-1) + 1
    return [coefficients.get(power, 0) for power in range(size)]


def _poly_values(coefficients: list[int], values: list[int]) -> list[int]:
    """The polynomial at every value: int64 numpy when it provably fits, else Python ints."""
    if not values:
        return []
    largest = max(max(values), -min(values))
    bound = sum(abs(c) * largest**i for i, c in enumerate(coefficients))
    if bound < 2**62:
        import numpy as np

        result = np.zeros(len(values), dtype=np.int64)
        points = np.array(values, dtype=np.int64)
        for coefficient in reversed(coefficients):
            result = result * points + coefficient
        return [int(v) for v in result.tolist()]
    results = []
    for value in values:
        total = 0
        for coefficient in reversed(coefficients):
            total = total * value + coefficient
        results.append(total)
    return results


def solve(
    cards: Sequence[Expr],
    v: int = 1,
    search: int = DEFAULT_SEARCH,
    rules: HandRules = DEFAULT_RULES,
) -> Solution:
    """Search X (and Y) for this hand exactly; see the module docstring for the order."""
    check_hand_size(len(cards), rules)
    check_v(v)
    if not 1 <= search <= MAX_SEARCH:
        raise HandError(f"the search range must be from 1 to {MAX_SEARCH}, got {search}")
    hand = _Hand(cards, v)
    xs = x_order(search)
    ys = list(range(1, search + 1)) if hand.uses_y else []
    _check_tree_work(hand, len(xs), len(ys))
    x_pairs, x_extras = hand.table("X", xs)
    if not hand.uses_y:
        return _search_x(xs, _with_extras(x_pairs, x_extras))
    y_pairs, y_extras = hand.table("Y", ys)
    # Integers over the polynomials' denominator, or Fractions when other terms have their own.
    fractions = bool(x_extras or y_extras or any(
        hand.rationals[key] or hand.exponentials[key] for key in ("X", "Y")))
    common = 1 if fractions else hand.denominator
    a = _values(x_pairs, x_extras, fractions)
    b = _values(y_pairs, y_extras, fractions)
    mixed: dict[tuple[int, int], Value] = {
        m: Fraction(c, hand.denominator) if fractions else c for m, c in hand.mixed.items()
    }
    if hand.residuals["XY"]:
        if len(xs) * len(ys) > EXHAUSTIVE_PAIRS:
            raise HandError(
                "X and Y are mixed in a way that is not a polynomial (like X^Y), so every "
                f"pair must be tried: use a search range of at most {_exhaustive_range()}"
            )
        return _search_exhaustive(hand, a, b, mixed, common)
    if not mixed:
        return _search_separable(a, b, common)
    if search > MAX_MIXED_SEARCH:
        raise HandError(f"X and Y are multiplied together, so every pair is looked at: use a "
                        f"search range of at most {MAX_MIXED_SEARCH}")
    return _search_mixed(hand, a, b, mixed, common)


def tree_cost(expr: Expr) -> int:
    """The steps one evaluation of ``expr`` on the tree takes (see ``NODE_COST``).

    >>> from companion.cardmath.expr import parse
    >>> tree_cost(parse("X + 1")), tree_cost(parse("X! * factorsum(X)"))
    (3, 223)
    """
    cost, stack = 0, [expr]
    while stack:
        node = stack.pop()
        name = node.function if isinstance(node, Call) else (
            "factorial" if isinstance(node, Factorial) else "")
        cost += NODE_COST.get(name, 1)
        stack.extend(node.children())
    return cost


def _check_tree_work(hand: _Hand, x_count: int, y_count: int) -> None:
    """Refuse a search whose tree-evaluated terms would take more than ``TREE_WORK`` steps."""
    def cost(key: str) -> int:
        return sum(tree_cost(term) for _, term in hand.residuals[key])

    work = x_count * cost("X") + y_count * cost("Y") + x_count * y_count * cost("XY")
    if work > TREE_WORK:
        largest = (math.isqrt(TREE_WORK // (2 * cost("XY"))) if cost("XY")
                   else TREE_WORK // (2 * cost("X") + cost("Y")))
        raise HandError(f"some cards are evaluated one X at a time (like X!*X) and this "
                        f"range would take too long: use a search range of at most "
                        f"{max(1, largest)}")


def _exhaustive_range() -> int:
    """The largest search range whose (X, Y) pairs fit in ``EXHAUSTIVE_PAIRS``."""
    return math.isqrt(EXHAUSTIVE_PAIRS // 2)


def _values(
    pairs: dict[int, Pair], extras: dict[int, Fraction], fractions: bool
) -> dict[int, Value]:
    """Integer numerators over the common denominator, or exact Fractions."""
    if not fractions:
        return {key: top for key, (top, _) in pairs.items()}
    return {key: Fraction(top, bottom) + extras.get(key, 0)
            for key, (top, bottom) in pairs.items()}


def _with_extras(pairs: dict[int, Pair], extras: dict[int, Fraction]) -> dict[int, Pair]:
    """Pairs with the residual Fractions added in."""
    if not extras:
        return pairs
    totals = {key: Fraction(top, bottom) + extras[key] for key, (top, bottom) in pairs.items()}
    return {key: (total.numerator, total.denominator) for key, total in totals.items()}


def _solution(
    found: list[tuple[int, int]], best: tuple[int, int, Value] | None, common: int
) -> Solution:
    """Assemble the answer from (x, y) pairs making 21 and (x, y, numerator) of the best."""
    twentyone = [Assignment(Fraction(x), Fraction(y), Fraction(21)) for x, y in sorted(found)]
    if best is None:
        return Solution(twentyone, None)
    x, y, numerator = best
    return Solution(twentyone, Assignment(Fraction(x), Fraction(y), Fraction(numerator, common)))


def _search_x(xs: list[int], totals: dict[int, Pair]) -> Solution:
    """X alone: one pass in tie-break order, comparing fractions by cross-multiplication."""
    twentyone: list[Assignment] = []
    best: tuple[int, int, int] | None = None
    for x in xs:
        pair = totals.get(x)
        if pair is None:
            continue
        top, bottom = pair
        if top > 21 * bottom or top == 20 * bottom:
            continue
        if top == 21 * bottom:
            twentyone.append(Assignment(Fraction(x), None, Fraction(21)))
        if best is None or top * best[2] > best[1] * bottom:
            best = (x, top, bottom)
    twentyone.sort(key=lambda found: found.x)
    if best is None:
        return Solution(twentyone, None)
    return Solution(twentyone, Assignment(Fraction(best[0]), None, Fraction(best[1], best[2])))


def _search_separable(a: dict[int, Value], b: dict[int, Value], common: int) -> Solution:
    """Total = A(x) + B(y): look up 21 - A(x) among the B values."""
    target, twenty = 21 * common, 20 * common
    ys_by_value: dict[Value, list[int]] = {}
    for y, value in b.items():
        ys_by_value.setdefault(value, []).append(y)
    values = sorted(ys_by_value)
    found: list[tuple[int, int]] = []
    best: tuple[int, int, Value] | None = None
    for x, a_value in a.items():
        found += [(x, y) for y in ys_by_value.get(target - a_value, [])]
        index = bisect_right(values, target - a_value) - 1
        if index >= 0 and a_value + values[index] == twenty:
            index -= 1
        if index < 0:
            continue
        total = a_value + values[index]
        if best is None or total > best[2]:
            best = (x, ys_by_value[values[index]][0], total)
    return _solution(found, best, common)


def _search_exhaustive(
    hand: _Hand,
    a: dict[int, Value],
    b: dict[int, Value],
    mixed: dict[tuple[int, int], Value],
    common: int,
) -> Solution:
    """Every (x, y): for mixed terms that are not polynomials (``X^Y``) or too large for floats."""
    target, twenty = 21 * common, 20 * common
    found: list[tuple[int, int]] = []
    best: tuple[int, int, Value] | None = None
    extra: Value = 0
    for x, a_value in a.items():
        for y, b_value in b.items():
            if hand.residuals["XY"]:
                try:
                    extra = hand.residual("XY", x, y) * common
                except ExpressionError:
                    continue
            total = a_value + b_value + sum(c * x**i * y**j for (i, j), c in mixed.items()) + extra
            if total == target:
                found.append((x, y))
            if total <= target and total != twenty and (best is None or total > best[2]):
                best = (x, y, total)
    return _solution(found, best, common)


def _search_mixed(
    hand: _Hand,
    a: dict[int, Value],
    b: dict[int, Value],
    mixed: dict[tuple[int, int], Value],
    common: int,
) -> Solution:
    """Total = A(x) + B(y) + sum of c X^i Y^j: a float pass over blocks of X, confirmed exactly.

    Each float total t comes with a bound e on its rounding error (a generous multiple
    of the machine epsilon times the sum of the terms' magnitudes), so the exact total
    lies in [t - e, t + e]. Points whose interval holds 21 are checked exactly for 21.
    For the best total, a point whose whole interval is valid (at most 21, clear of 20)
    proves the best is at least t - e; only points whose interval reaches that far and
    may be valid are checked exactly. Nothing is missed and every answer is exact.
    """
    import numpy as np

    target, twenty = 21 * common, 20 * common
    xs, a_list = list(a), list(a.values())
    y_list, b_list = list(b), list(b.values())
    try:
        b_float = np.array([float(value / common) for value in b_list])
    except OverflowError:
        return _search_exhaustive(hand, a, b, mixed, common)
    powers = sorted({j for _, j in mixed})
    y_powers = {j: np.array(y_list, dtype=np.float64) ** j for j in powers}
    slack = 8.0 * (len(mixed) + max(powers) + 4) * float(np.finfo(np.float64).eps)
    coefficients = [_y_coefficients(mixed, x) for x in xs]
    found: list[tuple[int, int]] = []
    best: tuple[int, int, Value] | None = None  # (x index, y index, exact numerator)

    def exact(row: int, column: int) -> Value:
        y = y_list[column]
        terms = coefficients[row].items()
        value: Value = a_list[row] + b_list[column] + sum(c * y**j for j, c in terms)
        return value

    block = max(1, 100_000 // max(1, len(y_list)))
    with np.errstate(over="ignore", invalid="ignore"):
        for first in range(0, len(xs), block):
            rows = range(first, min(first + block, len(xs)))
            total, size = _float_totals(rows, a_list, coefficients, common, b_float, y_powers)
            error = size * slack
            unsure = ~np.isfinite(total) | ~np.isfinite(error)
            low, high = total - error, total + error
            for row, column in zip(*np.nonzero(unsure | ((low <= 21.0) & (high >= 21.0))),
                                   strict=True):
                if exact(first + int(row), int(column)) == target:
                    found.append((xs[first + int(row)], y_list[int(column)]))
            surely_valid = ~unsure & (high <= 21.0) & ((low > 20.0) | (high < 20.0))
            floor = float(low[surely_valid].max()) if surely_valid.any() else -math.inf
            if best is not None:
                floor = max(floor, _lower_float(best[2], common))
            maybe = unsure | ((low <= 21.0) & (high >= floor))
            for row, column in zip(*np.nonzero(maybe), strict=True):
                index, value = first + int(row), exact(first + int(row), int(column))
                if value > target or value == twenty:
                    continue
                if best is None or value > best[2] or (
                    value == best[2] and (index, int(column)) < (best[0], best[1])
                ):
                    best = (index, int(column), value)
    if best is None:
        return _solution(found, None, common)
    return _solution(found, (xs[best[0]], y_list[best[1]], best[2]), common)


def _y_coefficients(mixed: dict[tuple[int, int], Value], x: int) -> dict[int, Value]:
    """The mixed part at this X as a polynomial in Y: {power of Y: coefficient}."""
    coefficients: dict[int, Value] = {}
    for (i, j), c in mixed.items():
        coefficients[j] = coefficients.get(j, 0) + c * x**i
    return coefficients


def _float_totals(
    rows: range,
    a_list: list[Value],
    coefficients: list[dict[int, Value]],
    common: int,
    b_float: Any,
    y_powers: dict[int, Any],
) -> tuple[Any, Any]:
    """Float totals for a block of X rows by all Y columns, and the sum of magnitudes."""
    import numpy as np

    a_column = np.array([_to_float(a_list[row], common) for row in rows])[:, None]
    total = a_column + b_float[None, :]
    size = np.abs(a_column) + np.abs(b_float)[None, :]
    for j, column in y_powers.items():
        c_column = np.array([_to_float(coefficients[row].get(j, 0), common) for row in rows])
        term = c_column[:, None] * column[None, :]
        total = total + term
        size = size + np.abs(term)
    return total, size


def _to_float(value: Value, common: int) -> float:
    """value/common as a float, NaN when too large (its points are then checked exactly)."""
    try:
        return float(value / common)
    except OverflowError:
        return math.nan


def _lower_float(numerator: Value, common: int) -> float:
    """A float no larger than numerator/common."""
    try:
        value = float(numerator / common)
    except OverflowError:
        return -math.inf if numerator < 0 else math.inf
    return value - abs(value) * 1e-12 - 1e-300

