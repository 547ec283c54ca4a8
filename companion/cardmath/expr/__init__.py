"""Card expressions: parse the text printed on a 21X card and evaluate it exactly.

>>> from fractions import Fraction
>>> card = parse("2X+4")
>>> card.evaluate(Bindings(x=Fraction(2), n=3))
Fraction(8, 1)
>>> sorted(parse("3N² + XY").variables)
['N', 'X', 'Y']
>>> str(parse("Xth prime"))
'prime(X)'

See ``docs/cards.md`` for the full syntax and the precedence readings.
"""

from companion.cardmath.bounds import FACTORIAL_CAP, VALUE_BITS, ValueTooLarge
from companion.cardmath.expr.nodes import (
    BinaryOp,
    Bindings,
    Call,
    Expr,
    Factorial,
    Negate,
    Number,
    Variable,
)
from companion.cardmath.expr.parser import parse
from companion.cardmath.expr.printer import decimal_text, render
from companion.errors import ExpressionError

__all__ = [
    "FACTORIAL_CAP",
    "VALUE_BITS",
    "BinaryOp",
    "Bindings",
    "Call",
    "Expr",
    "ExpressionError",
    "Factorial",
    "Negate",
    "Number",
    "ValueTooLarge",
    "Variable",
    "decimal_text",
    "parse",
    "render",
]
