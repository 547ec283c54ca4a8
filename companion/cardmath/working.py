"""The rulebook's working of a hand: each card's text, with X (and N, V, Y) put in, and its value.

>>> from companion.cardmath.expr import parse
>>> card_working("6X", parse("6X"), bindings(Fraction(2), None, 3, 1), Fraction(12))
'6X = 6\N{MULTIPLICATION SIGN}2 = 12'
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from companion.cardmath.expr import Expr, decimal_text, render

TIMES = "\N{MULTIPLICATION SIGN}"


def number_text(value: Fraction) -> str:
    """A number as a person writes it: ``21``, ``12.5`` or ``7/3``.

    >>> number_text(Fraction(25, 2)), number_text(Fraction(7, 3))
    ('12.5', '7/3')
    """
    return decimal_text(value) or str(value)


def bindings(x: Fraction, y: Fraction | None, n: int, v: int) -> dict[str, Fraction]:
    """The values a card's letters stand for."""
    substitute = {"X": x, "N": Fraction(n), "V": Fraction(v)}
    if y is not None:
        substitute["Y"] = y
    return substitute


def card_working(text: str, expression: Expr, substitute: Mapping[str, Fraction],
                 value: Fraction) -> str:
    """``text = the expression with numbers put in = value``, each step shown once."""
    steps = [text, render(expression, dict(substitute), times=TIMES), number_text(value)]
    return " = ".join(dict.fromkeys(steps))
