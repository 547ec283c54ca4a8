"""The expression tree and its exact evaluation with :class:`fractions.Fraction`.

Every node remembers where it came from (``source`` and ``position``, ignored when
comparing trees) so that an evaluation error such as a division by zero can point
at the operator in the printed text.

Sizes are bounded (see :mod:`companion.cardmath.bounds`) so that a card like
``9^9^9``, ``X^-99999`` or ``1000!!`` gives a clear error at once instead of hanging:
a power or factorial is measured before it is computed, every other result is
checked after, and no value passes ``VALUE_BITS`` bits.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction

from companion.cardmath.bounds import (
    FACTORIAL_CAP,
    VALUE_BITS,
    ValueTooLarge,
    check_value,
    power_bits,
    readable,
    too_large,
)
from companion.cardmath.sequences import CELEBRITY
from companion.errors import ExpressionError


def short(value: Fraction) -> str:
    """``value`` as text, or its rough size when it is too long to read in one line.

    >>> short(Fraction(7, 2)), short(Fraction(10) ** 40)
    ('7/2', '~1.00000e+40')
    """
    return readable(value, 24)


@dataclass(frozen=True)
class Bindings:
    """Values of the card variables: X (chosen), N (cards in hand), V (1 + wins), Y (chosen).

    >>> Bindings(Fraction(2), 3)
    Bindings(x=Fraction(2, 1), n=3, v=1, y=None)
    """

    x: Fraction
    n: int
    v: int = 1
    y: Fraction | None = None

    def value_of(self, name: str) -> Fraction | None:
        """The value of variable ``name`` (``X N V Y``); None when Y is unset."""
        if name == "X":
            return Fraction(self.x)
        if name == "N":
            return Fraction(self.n)
        if name == "V":
            return Fraction(self.v)
        return None if self.y is None else Fraction(self.y)


@dataclass(frozen=True)
class Expr(ABC):
    """A parsed card expression; ``str()`` gives canonical text that parses back."""

    source: str = field(default="", compare=False, repr=False, kw_only=True)
    position: int = field(default=0, compare=False, repr=False, kw_only=True)

    @abstractmethod
    def evaluate(self, bindings: Bindings) -> Fraction:
        """The exact value with the given variable values."""

    @abstractmethod
    def children(self) -> tuple[Expr, ...]:
        """The direct sub-expressions."""

    @property
    def variables(self) -> frozenset[str]:
        """The upper-case variable names used anywhere in the expression."""
        found: set[str] = set()
        for child in self.children():
            found |= child.variables
        return frozenset(found)

    def error(
        self, message: str, kind: type[ExpressionError] = ExpressionError
    ) -> ExpressionError:
        """An error of ``kind`` pointing at this node in its source text."""
        return kind(message, text=self.source, position=self.position)

    def bounded(self, value: Fraction) -> Fraction:
        """``value``, or a :class:`ValueTooLarge` pointing here when it passes the bound."""
        try:
            return check_value(value, "the value")
        except ValueTooLarge as error:
            raise self.error(error.message, ValueTooLarge) from None

    def __str__(self) -> str:
        from companion.cardmath.expr.printer import render

        return render(self)


@dataclass(frozen=True)
class Number(Expr):
    """A literal such as ``4`` or ``0.5``."""

    value: Fraction

    def evaluate(self, bindings: Bindings) -> Fraction:
        return self.value

    def children(self) -> tuple[Expr, ...]:
        return ()


@dataclass(frozen=True)
class Variable(Expr):
    """One of ``X N V Y``."""

    name: str

    def evaluate(self, bindings: Bindings) -> Fraction:
        value = bindings.value_of(self.name)
        if value is None:
            raise self.error(f"{self.name} has no value")
        return value

    def children(self) -> tuple[Expr, ...]:
        return ()

    @property
    def variables(self) -> frozenset[str]:
        return frozenset((self.name,))


@dataclass(frozen=True)
class Negate(Expr):
    """Unary minus."""

    operand: Expr

    def evaluate(self, bindings: Bindings) -> Fraction:
        return -self.operand.evaluate(bindings)

    def children(self) -> tuple[Expr, ...]:
        return (self.operand,)


@dataclass(frozen=True)
class BinaryOp(Expr):
    """``left op right`` with ``op`` one of ``+ - * / ^``."""

    op: str
    left: Expr
    right: Expr

    def evaluate(self, bindings: Bindings) -> Fraction:
        left = self.left.evaluate(bindings)
        right = self.right.evaluate(bindings)
        if self.op == "+":
            result = left + right
        elif self.op == "-":
            result = left - right
        elif self.op == "*":
            result = left * right
        elif self.op == "/":
            if right == 0:
                raise self.error("division by zero")
            result = left / right
        else:
            result = self._power(left, right)
        return self.bounded(result)

    def _power(self, base: Fraction, exponent: Fraction) -> Fraction:
        if exponent.denominator != 1:
            raise self.error(f"exponent must be a whole number, got {short(exponent)}")
        if base == 0 and exponent < 0:
            raise self.error("division by zero (0 to a negative power)")
        size = power_bits(base, int(exponent))
        if size > VALUE_BITS:
            tiny = (exponent < 0) == (abs(base) > 1)
            shown = short(base) if base > 0 and base.denominator == 1 else f"({short(base)})"
            error = too_large(f"{shown}^{short(exponent)}", size, tiny=tiny)
            raise self.error(error.message, ValueTooLarge)
        return base ** int(exponent)

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)


@dataclass(frozen=True)
class Factorial(Expr):
    """``operand!`` for a whole number from 0 to ``FACTORIAL_CAP``."""

    operand: Expr

    def evaluate(self, bindings: Bindings) -> Fraction:
        value = self.operand.evaluate(bindings)
        if value.denominator != 1 or value < 0:
            raise self.error(f"factorial needs a whole number >= 0, got {short(value)}")
        if value > FACTORIAL_CAP:
            raise self.error(f"{short(value)}! is too large to value exactly "
                             f"(the limit is {FACTORIAL_CAP}!)", ValueTooLarge)
        return Fraction(math.factorial(int(value)))

    def children(self) -> tuple[Expr, ...]:
        return (self.operand,)


@dataclass(frozen=True)
class Call(Expr):
    """A celebrity card function such as ``prime(X)`` (see :mod:`companion.cardmath.sequences`)."""

    function: str
    argument: Expr

    def evaluate(self, bindings: Bindings) -> Fraction:
        value = self.argument.evaluate(bindings)
        if value.denominator != 1:
            raise self.error(f"{self.function}() needs a whole number, got {short(value)}")
        try:
            return self.bounded(Fraction(CELEBRITY[self.function](int(value))))
        except ValueTooLarge:
            raise
        except ExpressionError as error:
            raise self.error(error.message) from None

    def children(self) -> tuple[Expr, ...]:
        return (self.argument,)
