"""Size bounds for exact card arithmetic, checked before the work is done.

No real card comes near 21 with a number of thousands of digits, yet ``X^-99999``
or ``9^9^9`` at a small X would take minutes (or all the memory) to compute exactly
and print. So every exact value is held to ``VALUE_BITS`` bits in its numerator and
its denominator (about 3,600 decimal digits, far beyond any real card: ``X^X`` at
X = 1000 has 3,000 digits). A power or factorial is measured before it is computed,
from the sizes of its operands; sums, products and quotients of values within the
bound are cheap, so they are checked right after. A value past the bound raises
:class:`ValueTooLarge`, an :class:`~companion.errors.ExpressionError`: the solver
skips such an X, the referee counts such a claim as wrong, the CLI prints one line.

Printing is bounded too: :func:`exact_text` writes a number in full only up to
``PRINT_DIGITS`` digits, and a short scientific form beyond, so Python's limit on
converting long integers to text never surfaces.

>>> power_bits(Fraction(2), -99999) > VALUE_BITS
True
>>> exact_text(Fraction(2) ** 20000)
'~3.98027e+6020'
>>> exact_text(Fraction(1, 3))
'1/3'
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from companion.errors import ExpressionError

VALUE_BITS = 12_000
"""Most bits in the numerator or the denominator of any value a card takes."""
VALUE_DIGITS = int(VALUE_BITS * math.log10(2))
"""``VALUE_BITS`` in decimal digits (3612), for messages."""
PRINT_DIGITS = 4000
"""Most digits of a numerator or denominator printed in full (Python refuses past 4300)."""
_PRINT_BITS = int(PRINT_DIGITS / math.log10(2))
_LOG2_10 = math.log2(10)


class ValueTooLarge(ExpressionError):
    """A value whose exact form would pass ``VALUE_BITS`` bits."""


def bits(value: Fraction) -> int:
    """The larger bit length of the numerator and the denominator.

    >>> bits(Fraction(-255, 2))
    8
    """
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def power_bits(base: Fraction, exponent: int) -> int:
    """``bits(base ** exponent)`` (to within one), computed without the power.

    0, 1 and -1 stay small at any exponent, so they measure 1.

    >>> power_bits(Fraction(3), 100), (3**100).bit_length()
    (159, 159)
    """
    if base == 0 or abs(base) == 1:
        return 1
    lower = abs(exponent) * (bits(base) - 1)  # exact, and at least |exponent|
    if lower > 2**60:
        return lower
    return int(abs(exponent) * math.log2(max(abs(base.numerator), base.denominator))) + 1


def factorial_bits(n: int) -> int:
    """``n!`` in bits (to within one), from the log-gamma function.

    >>> factorial_bits(20), (2**61 < math.factorial(20) < 2**62)
    (62, True)
    """
    return int(math.lgamma(n + 1) / math.log(2)) + 1


FACTORIAL_CAP = next(n for n in range(1, 10_000) if factorial_bits(n + 1) > VALUE_BITS)
"""The largest n whose factorial fits in ``VALUE_BITS`` (1340)."""


def too_large(what: str, size: int, *, tiny: bool = False) -> ValueTooLarge:
    """The error for a value of ``size`` bits past the bound (``what`` names it).

    >>> str(too_large("2^-20000", 20_001, tiny=True))
    '2^-20000 is too small to value exactly (about 6021 digits; the limit is 3612 digits, far \
beyond any card near 21)'
    """
    kind = "too small" if tiny else "too large"
    digits = size * 301_029_995_664 // 10**12 + 1  # log10(2) to 12 places
    count = str(digits) if digits < 10**15 else scientific(Fraction(digits), 3)
    return ValueTooLarge(
        f"{what} is {kind} to value exactly (about {count} digits; "
        f"the limit is {VALUE_DIGITS} digits, far beyond any card near 21)"
    )


def check_value(value: Fraction, what: str) -> Fraction:
    """``value`` itself, or :class:`ValueTooLarge` when it passes the bound.

    >>> check_value(Fraction(1, 2**20000), "X^-20000")
    Traceback (most recent call last):
    companion.cardmath.bounds.ValueTooLarge: X^-20000 is too small to value exactly (about \
6021 digits; the limit is 3612 digits, far beyond any card near 21)
    """
    size = bits(value)
    if size > VALUE_BITS:
        raise too_large(what, size, tiny=abs(value) < 1)
    return value


def scientific(value: Fraction, digits: int = 6) -> str:
    """``value`` cut to ``digits`` significant digits, as ``1.23456e+5000`` (any size, cheap).

    >>> scientific(Fraction(2) ** 100), scientific(Fraction(-1, 3)), scientific(Fraction(0))
    ('1.26765e+30', '-3.33333e-01', '0')
    """
    if value == 0:
        return "0"
    top, bottom = abs(value.numerator), value.denominator
    exponent = math.floor((top.bit_length() - bottom.bit_length()) / _LOG2_10)
    shift = digits - 1 - exponent
    scaled = top * 10**shift // bottom if shift >= 0 else top // (bottom * 10**-shift)
    while scaled >= 10**digits:
        scaled //= 10
        exponent += 1
    while scaled < 10 ** (digits - 1):
        exponent -= 1
        shift += 1
        scaled = top * 10**shift // bottom if shift >= 0 else top // (bottom * 10**-shift)
    text = str(scaled)
    sign = "-" if value < 0 else ""
    return f"{sign}{text[0]}.{text[1:]}e{exponent:+03d}"


NUMBER_CHARS = 100
"""Longest number text read (a stated X, Y or total, or a number on the command line)."""
_EXPONENT = re.compile(r"[eE]\s*([+-]?\d[\d_]*)")


def read_number(text: str) -> Fraction:
    """An exact number from text (``21``, ``-3``, ``12.5``, ``25/3``, ``1e3``), within bounds.

    Raises :class:`ValueError` with the reason: not a number, too long, or too large;
    the exponent is read first, so ``1e999999999`` is refused without being computed.

    >>> read_number("25/3"), read_number(" -1.5e2 ")
    (Fraction(25, 3), Fraction(-150, 1))
    >>> read_number("1e999999999")
    Traceback (most recent call last):
    ValueError: '1e999999999' is too large (at most 3612 digits)
    """
    if len(text) > NUMBER_CHARS:
        raise ValueError(f"{text[:20]!r}... is too long for a number (at most {NUMBER_CHARS} "
                         "characters)")
    exponent = _EXPONENT.search(text)
    if exponent and abs(int(exponent.group(1))) > VALUE_DIGITS:
        raise ValueError(f"{text.strip()!r} is too large (at most {VALUE_DIGITS} digits)")
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text!r} is not a number") from None
    try:
        return check_value(value, repr(text.strip()))
    except ValueTooLarge:
        raise ValueError(f"{text.strip()!r} is too large (at most {VALUE_DIGITS} digits)") from None


def printable(value: Fraction) -> bool:
    """True when ``value`` is short enough to write out in full (see ``PRINT_DIGITS``)."""
    return bits(value) <= _PRINT_BITS


def exact_text(value: Fraction) -> str:
    """``str(value)``, or ``~`` and its scientific form when a part has over PRINT_DIGITS digits."""
    return str(value) if printable(value) else "~" + scientific(value)


def readable(value: Fraction, limit: int = 40) -> str:
    """``str(value)`` when at most ``limit`` characters, else ``~`` and its scientific form.

    >>> readable(Fraction(7, 2)), readable(Fraction(10) ** 40 + 1)
    ('7/2', '~1.00000e+40')
    """
    if bits(value) <= limit * 3:
        text = str(value)
        if len(text) <= limit:
            return text
    return "~" + scientific(value)
