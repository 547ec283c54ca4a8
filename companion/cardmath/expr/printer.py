"""Turn a tree back into text: canonical (parses back to the same value) or the working.

The canonical form uses ``* / ^`` and only the brackets precedence needs. The
working form is what a player writes when checking a card: a multiplication sign
for products and the variables replaced by their values, as in the rulebook's
``6x2 = 12``.

>>> from companion.cardmath.expr.parser import parse
>>> render(parse("2(X+1)^2"))
'2*(X + 1)^2'
>>> render(parse("2X+4"), substitute={"X": Fraction(-3)}, times=" times ")
'2 times (-3) + 4'
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from companion.cardmath.bounds import readable
from companion.cardmath.expr.nodes import BinaryOp, Call, Expr, Factorial, Negate, Number, Variable

SUM, PRODUCT, UNARY, POWER, POSTFIX, ATOM = range(1, 7)
_LEVEL = {"+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT, "^": POWER}


DECIMAL_DIGITS = 40
"""Longest decimal written out (digits in all); a longer one is written as a fraction."""


def decimal_text(value: Fraction) -> str | None:
    """``value`` as a finite decimal (``"12.5"``), or None if it has none of at most
    ``DECIMAL_DIGITS`` digits.

    >>> decimal_text(Fraction(25, 2)), decimal_text(Fraction(-3, 8)), decimal_text(Fraction(1, 3))
    ('12.5', '-0.375', None)
    >>> decimal_text(Fraction(1, 2**99999)) is None
    True
    """
    denominator = value.denominator
    twos = (denominator & -denominator).bit_length() - 1
    denominator >>= twos
    fives = 0
    while denominator % 5 == 0 and fives <= DECIMAL_DIGITS:
        denominator //= 5
        fives += 1
    places = max(twos, fives)
    too_long = value.numerator.bit_length() > 4 * DECIMAL_DIGITS  # over 48 digits
    if denominator != 1 or places > DECIMAL_DIGITS or too_long:
        return None
    digits = str(abs(value.numerator * 10**places // value.denominator)).rjust(places + 1, "0")
    if len(digits) > DECIMAL_DIGITS:
        return None
    if places == 0:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def number_text(value: Fraction) -> str:
    """Text for a literal value, bracketed when negative or a fraction so it reads as an atom.

    >>> number_text(Fraction(5, 2)), number_text(Fraction(-1, 3))
    ('2.5', '(-1/3)')
    """
    size = abs(value)
    text = decimal_text(size) or readable(size)
    if value < 0 or "/" in text:
        return f"({'-' if value < 0 else ''}{text})"
    return text


def render(
    expr: Expr, substitute: Mapping[str, Fraction] | None = None, times: str = "*"
) -> str:
    """The text of ``expr``; ``substitute`` replaces variables by values.

    ``times`` is the product sign: ``*`` (canonical) or a multiplication sign (working).
    """
    return _render(expr, SUM, substitute or {}, times)


def _level(expr: Expr) -> int:
    if isinstance(expr, BinaryOp):
        return _LEVEL[expr.op]
    if isinstance(expr, Negate):
        return UNARY
    if isinstance(expr, Factorial):
        return POSTFIX
    return ATOM


def _render(expr: Expr, minimum: int, substitute: Mapping[str, Fraction], times: str) -> str:
    text = _text(expr, substitute, times)
    return f"({text})" if _level(expr) < minimum else text


def _text(expr: Expr, substitute: Mapping[str, Fraction], times: str) -> str:
    if isinstance(expr, Number):
        return number_text(expr.value)
    if isinstance(expr, Variable):
        if expr.name in substitute:
            return number_text(substitute[expr.name])
        return expr.name
    if isinstance(expr, Negate):
        return "-" + _render(expr.operand, POWER, substitute, times)
    if isinstance(expr, Factorial):
        return _render(expr.operand, ATOM, substitute, times) + "!"
    if isinstance(expr, Call):
        argument = expr.argument
        if isinstance(argument, Variable) and argument.name in substitute:
            value = substitute[argument.name]
            return f"{expr.function}({decimal_text(value) or readable(value)})"
        return f"{expr.function}({_render(argument, SUM, substitute, times)})"
    assert isinstance(expr, BinaryOp)
    level = _LEVEL[expr.op]
    if expr.op == "^":
        left_min, right_min = POSTFIX, POWER
    else:
        left_min, right_min = level, level + 1
    if isinstance(expr.right, Negate):
        right_min = ATOM
    left = _render(expr.left, left_min, substitute, times)
    right = _render(expr.right, right_min, substitute, times)
    if level == SUM:
        return f"{left} {expr.op} {right}"
    return f"{left}{times if expr.op == '*' else expr.op}{right}"
