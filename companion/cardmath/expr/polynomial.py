"""Compile a card expression to an exact polynomial (or rational function) in X and Y.

The solver values a hand at thousands of X; walking the tree with Fractions each
time is too slow, so the parts of a hand that are polynomials (``6X``, ``2X+4``,
``X/2``, ``3N²``, ``XY``) become integer coefficients over one common denominator
and are evaluated with plain integer arithmetic, still exactly. N and V are
constants while solving. Anything else (``1/X``, ``X!``, ``prime(X)``, ``2^X``)
is not a polynomial; quotients such as ``12/X`` or ``X/(X+1)`` compile to a
:class:`Rational` (numerator, denominator and the divisors that must not be zero).

>>> from companion.cardmath.expr.parser import parse
>>> poly = to_polynomial(parse("X/2 + 3N²"), {"N": Fraction(2)})
>>> sorted(poly.items())
[((0, 0), Fraction(12, 1)), ((1, 0), Fraction(1, 2))]
>>> to_polynomial(parse("1/X"), {}) is None
True
>>> to_rational(parse("12/X"), {}).numerator
{(0, 0): Fraction(12, 1)}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from companion.cardmath.expr.nodes import BinaryOp, Bindings, Expr, Negate, Variable
from companion.errors import ExpressionError

Monomial = tuple[int, int]
"""Powers of (X, Y)."""
Polynomial = dict[Monomial, Fraction]
MAX_DEGREE = 64
"""Higher powers are left to the tree (which caps their size)."""

_POLY_VARIABLES = {"X": (1, 0), "Y": (0, 1)}


def constant_value(expr: Expr, constants: Mapping[str, Fraction]) -> Fraction | None:
    """The value of an expression without X and Y, or None if it cannot be evaluated."""
    bindings = Bindings(
        x=Fraction(1),
        n=int(constants.get("N", 1)),
        v=int(constants.get("V", 1)),
        y=Fraction(1),
    )
    try:
        return expr.evaluate(bindings)
    except ExpressionError:
        return None


def to_polynomial(expr: Expr, constants: Mapping[str, Fraction]) -> Polynomial | None:
    """``expr`` as {(i, j): coefficient of X^i Y^j}, or None if it is not a polynomial.

    ``constants`` gives N and V. A polynomial never fails to evaluate, so terms that
    could (a division by zero, a factorial) are never compiled.
    """
    if not expr.variables & {"X", "Y"}:
        value = constant_value(expr, constants)
        return None if value is None else _clean({(0, 0): value})
    if isinstance(expr, Variable):
        return {_POLY_VARIABLES[expr.name]: Fraction(1)}
    if isinstance(expr, Negate):
        inner = to_polynomial(expr.operand, constants)
        return None if inner is None else {m: -c for m, c in inner.items()}
    if isinstance(expr, BinaryOp):
        return _binary(expr, constants)
    return None


def _binary(expr: BinaryOp, constants: Mapping[str, Fraction]) -> Polynomial | None:
    left = to_polynomial(expr.left, constants)
    if left is None:
        return None
    if expr.op == "^":
        exponent = _small_exponent(expr.right, constants)
        if exponent is None or _degree(left) * exponent > MAX_DEGREE:
            return None
        return _power(left, exponent)
    right = to_polynomial(expr.right, constants)
    if right is None:
        return None
    if expr.op == "+":
        return add(left, right)
    if expr.op == "-":
        return add(left, {m: -c for m, c in right.items()})
    if expr.op == "*":
        product = multiply(left, right)
        return product if _degree(product) <= MAX_DEGREE else None
    if set(right) == {(0, 0)}:
        divisor = right[(0, 0)]
        return {m: c / divisor for m, c in left.items()}
    return None


def _small_exponent(expr: Expr, constants: Mapping[str, Fraction]) -> int | None:
    if expr.variables & {"X", "Y"}:
        return None
    value = constant_value(expr, constants)
    if value is None or value.denominator != 1 or not 0 <= value <= MAX_DEGREE:
        return None
    return int(value)


def _degree(poly: Polynomial) -> int:
    return max((i + j for i, j in poly), default=0)


def _clean(poly: Polynomial) -> Polynomial:
    return {m: c for m, c in poly.items() if c != 0}


def add(left: Polynomial, right: Polynomial) -> Polynomial:
    """The sum of two polynomials."""
    total = dict(left)
    for monomial, coefficient in right.items():
        total[monomial] = total.get(monomial, Fraction(0)) + coefficient
    return _clean(total)


def multiply(left: Polynomial, right: Polynomial) -> Polynomial:
    """The product of two polynomials."""
    product: Polynomial = {}
    for (i1, j1), c1 in left.items():
        for (i2, j2), c2 in right.items():
            key = (i1 + i2, j1 + j2)
            product[key] = product.get(key, Fraction(0)) + c1 * c2
    return _clean(product)


@dataclass(frozen=True)
class Rational:
    """numerator / denominator, defined where no polynomial in ``guards`` is zero.

    The guards are every divisor met in the tree, so the rational function is undefined
    exactly where the tree's evaluation would divide by zero (nothing is cancelled).
    """

    numerator: Polynomial
    denominator: Polynomial
    guards: tuple[Polynomial, ...]


def to_rational(expr: Expr, constants: Mapping[str, Fraction]) -> Rational | None:
    """``expr`` as a quotient of polynomials, or None (powers, factorials, functions of X)."""
    poly = to_polynomial(expr, constants)
    if poly is not None:
        return Rational(poly, {(0, 0): Fraction(1)}, ())
    if isinstance(expr, Negate):
        inner = to_rational(expr.operand, constants)
        if inner is None:
            return None
        return Rational({m: -c for m, c in inner.numerator.items()}, inner.denominator,
                        inner.guards)
    if not isinstance(expr, BinaryOp):
        return None
    left = to_rational(expr.left, constants)
    if left is None:
        return None
    if expr.op == "^":
        exponent = None if expr.right.variables & {"X", "Y"} else constant_value(
            expr.right, constants)
        if exponent is None or exponent.denominator != 1 or abs(exponent) > MAX_DEGREE:
            return None
        power = abs(int(exponent))
        top, bottom, guards = left.numerator, left.denominator, left.guards
        if exponent < 0:
            top, bottom, guards = bottom, top, (*guards, left.numerator)
        return _bounded(Rational(_power(top, power), _power(bottom, power), guards))
    right = to_rational(expr.right, constants)
    if right is None:
        return None
    guards = (*left.guards, *right.guards)
    if expr.op in "+-":
        sign = Fraction(1 if expr.op == "+" else -1)
        numerator = add(multiply(left.numerator, right.denominator),
                        multiply({(0, 0): sign}, multiply(right.numerator, left.denominator)))
        return _bounded(Rational(numerator, multiply(left.denominator, right.denominator), guards))
    if expr.op == "*":
        return _bounded(Rational(multiply(left.numerator, right.numerator),
                                 multiply(left.denominator, right.denominator), guards))
    return _bounded(Rational(multiply(left.numerator, right.denominator),
                             multiply(left.denominator, right.numerator),
                             (*guards, right.numerator)))


def _power(poly: Polynomial, exponent: int) -> Polynomial:
    result: Polynomial = {(0, 0): Fraction(1)}
    for _ in range(exponent):
        result = multiply(result, poly)
    return result


def _bounded(rational: Rational) -> Rational | None:
    """None when a degree grows past ``MAX_DEGREE`` (the tree then evaluates the term)."""
    polys = (rational.numerator, rational.denominator, *rational.guards)
    if any(_degree(poly) > MAX_DEGREE for poly in polys):
        return None
    return rational
