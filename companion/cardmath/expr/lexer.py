"""Split the text printed on a card into tokens, normalising the printed forms.

Vulgar fractions (one half, one third, one quarter ...) are numbers; the
multiplication signs (cross, dot) become ``*``, the division sign becomes ``/``,
the minus sign and dashes become ``-``, a run of superscript digits (``²``,
``¹⁰``, ``⁻¹``) becomes one ``power`` token, and the card wordings ``Xth prime``,
``Sum of factors(X)``, ``Xth digit of pi`` ... become calls of the canonical functions.

>>> [t.text for t in tokenize("3N\u00b2 \u2212 2\u00d7X")]
['3', 'N', '2', '-', '2', '*', 'X']
>>> [t.kind for t in tokenize("Xth prime")]
['function', 'open', 'name', 'close']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from companion.errors import ExpressionError

FUNCTIONS = ("prime", "triangle", "fib", "factorsum", "pidigit", "edigit")
VARIABLES = ("X", "N", "V", "Y")

_OPERATORS = {
    "+": "+", "-": "-", "*": "*", "/": "/", "^": "^",
    "\N{MULTIPLICATION SIGN}": "*",
    "\N{MIDDLE DOT}": "*",
    "\N{DOT OPERATOR}": "*",
    "\N{BULLET OPERATOR}": "*",
    "\N{DIVISION SIGN}": "/",
    "\N{MINUS SIGN}": "-",
    "\N{EN DASH}": "-",
    "\N{EM DASH}": "-",
}
_BRACKETS = {"(": ")", "[": "]"}
_VULGAR_FRACTIONS = {
    "\N{VULGAR FRACTION ONE HALF}": Fraction(1, 2),
    "\N{VULGAR FRACTION ONE THIRD}": Fraction(1, 3),
    "\N{VULGAR FRACTION TWO THIRDS}": Fraction(2, 3),
    "\N{VULGAR FRACTION ONE QUARTER}": Fraction(1, 4),
    "\N{VULGAR FRACTION THREE QUARTERS}": Fraction(3, 4),
    "\N{VULGAR FRACTION ONE FIFTH}": Fraction(1, 5),
    "\N{VULGAR FRACTION ONE SIXTH}": Fraction(1, 6),
    "\N{VULGAR FRACTION ONE EIGHTH}": Fraction(1, 8),
}
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")
_SUPERSCRIPT = re.compile(r"⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_WORD = re.compile(r"[A-Za-z]+")
_NTH = re.compile(
    r"([XNVY])th\s+(prime|triangle|digit\s+of\s+pi|digit\s+of\s+e)\b", re.IGNORECASE
)
_NTH_FUNCTIONS = {"prime": "prime", "triangle": "triangle", "pi": "pidigit", "e": "edigit"}
_SUM_OF_FACTORS = re.compile(r"sum\s+of\s+factors\b", re.IGNORECASE)
_ALIASES = {"fibonacci": "fib", "sumoffactors": "factorsum"}


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is number, name, function, operator, power, bang, open, close."""

    kind: str
    text: str
    position: int
    value: Fraction = Fraction(0)


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``; raises :class:`ExpressionError` at an unknown character or name."""
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
        elif match := _NUMBER.match(text, i):
            tokens.append(Token("number", match.group(), i, Fraction(match.group())))
            i = match.end()
        elif char in _VULGAR_FRACTIONS:
            tokens.append(Token("number", char, i, _VULGAR_FRACTIONS[char]))
            i += 1
        elif match := _SUPERSCRIPT.match(text, i):
            exponent = match.group().translate(_SUPERSCRIPTS)
            tokens.append(Token("power", exponent, i, Fraction(exponent)))
            i = match.end()
        elif text.startswith("**", i):
            tokens.append(Token("operator", "^", i))
            i += 2
        elif char in _OPERATORS:
            tokens.append(Token("operator", _OPERATORS[char], i))
            i += 1
        elif char == "!":
            tokens.append(Token("bang", "!", i))
            i += 1
        elif char in _BRACKETS:
            tokens.append(Token("open", char, i))
            i += 1
        elif char in _BRACKETS.values():
            tokens.append(Token("close", char, i))
            i += 1
        elif match := _NTH.match(text, i):
            function = _NTH_FUNCTIONS[match.group(2).split()[-1].lower()]
            tokens += [
                Token("function", function, i),
                Token("open", "(", i),
                Token("name", match.group(1).upper(), i),
                Token("close", ")", i),
            ]
            i = match.end()
        elif match := _SUM_OF_FACTORS.match(text, i):
            tokens.append(Token("function", "factorsum", i))
            i = match.end()
        elif match := _WORD.match(text, i):
            tokens += _word_tokens(match.group(), i, text)
            i = match.end()
        else:
            raise ExpressionError(f"unexpected character {char!r}", text=text, position=i)
    return tokens


def _word_tokens(word: str, position: int, text: str) -> list[Token]:
    """A function name, or a run of variables such as ``XN`` (implicit product)."""
    lower = _ALIASES.get(word.lower(), word.lower())
    if lower in FUNCTIONS:
        return [Token("function", lower, position)]
    if all(letter.upper() in VARIABLES for letter in word):
        return [Token("name", letter.upper(), position + k) for k, letter in enumerate(word)]
    raise ExpressionError(
        f"unknown name {word!r} (variables are X, N, V, Y; functions are "
        f"{', '.join(FUNCTIONS)})",
        text=text,
        position=position,
    )
