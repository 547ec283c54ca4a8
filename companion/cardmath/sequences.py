"""The number sequences on the six 21X celebrity cards, computed exactly.

Each function takes a position ``k`` (a non-zero integer; see below for 0) and
follows the rulebook's rule for negative X: take the value at ``|k|`` and negate
it. Digits of pi and e come from big-integer arithmetic (Chudnovsky series and
the series of 1/k!, both by binary splitting), cached and extended on demand;
primes come from a sieve that grows.

>>> prime(5), prime(-7)
(11, -17)
>>> triangle(4), triangle(-2)
(10, -3)
>>> fib(4), fib(-9)
(3, -34)
>>> factorsum(6), factorsum(-10)
(12, -18)
>>> pidigit(4), pidigit(-19)
(5, -4)
>>> edigit(1), edigit(-8)
(7, -2)

Position 0 means "no places along the sequence": ``triangle(0)`` and ``fib(0)`` are
0 (the natural start of those sequences); the other cards have no 0th entry and
raise :class:`SequenceError`. Positions are capped (see ``CAPS``) so that a
mistyped card cannot hang the companion.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from functools import lru_cache

from companion.errors import ExpressionError

PRIME_CAP = 1_000_000
FIB_CAP = 17_000
"""fib(17000) has 3553 digits, inside the bound on values (companion.cardmath.bounds)."""
FACTORSUM_CAP = 10**10
"""Trial division up to 10**5: about 12 ms at most here."""
DIGIT_CAP = 100_000
CAPS = {"prime": PRIME_CAP, "fib": FIB_CAP, "factorsum": FACTORSUM_CAP,
        "pidigit": DIGIT_CAP, "edigit": DIGIT_CAP}


class SequenceError(ExpressionError):
    """A position a celebrity card cannot take (0 or beyond its cap)."""


def _signed(name: str, k: int, positive: Callable[[int], int], zero: int | None = None) -> int:
    """Apply the rulebook's negative-X rule around ``positive`` (defined for k >= 1)."""
    if k == 0:
        if zero is None:
            raise SequenceError(f"{name}(0) is undefined: positions start at 1")
        return zero
    cap = CAPS.get(name)
    if cap is not None and abs(k) > cap:
        raise SequenceError(f"{name}({k}) is too far along the sequence (limit |X| <= {cap})")
    value = positive(abs(k))
    return value if k > 0 else -value


# ---------------------------------------------------------------- primes

_primes: list[int] = [2, 3, 5, 7, 11, 13]


def _sieve(limit: int) -> list[int]:
    """All primes <= ``limit`` (Eratosthenes on a bytearray)."""
    flags = bytearray([1]) * (limit + 1)
    flags[0:2] = b"\x00\x00"
    for p in range(2, math.isqrt(limit) + 1):
        if flags[p]:
            flags[p * p :: p] = bytes(len(range(p * p, limit + 1, p)))
    return [i for i, flag in enumerate(flags) if flag]


def _nth_prime(k: int) -> int:
    global _primes
    if k > len(_primes):
        # Rosser's bound: p_k < k (ln k + ln ln k) for k >= 6.
        bound = int(k * (math.log(k) + math.log(math.log(k)))) + 10
        _primes = _sieve(max(bound, 2 * _primes[-1]))
    return _primes[k - 1]


def prime(k: int) -> int:
    """The ``k``-th prime: 2, 3, 5, 7, 11, ..."""
    return _signed("prime", k, _nth_prime)


# ---------------------------------------------------------------- triangle, fib, factors

def triangle(k: int) -> int:
    """The ``k``-th triangle number 1 + 2 + ... + k."""
    return _signed("triangle", k, lambda m: m * (m + 1) // 2, zero=0)


@lru_cache(maxsize=4096)
def _fib_pair(m: int) -> tuple[int, int]:
    """(F(m), F(m+1)) by fast doubling."""
    if m == 0:
        return 0, 1
    a, b = _fib_pair(m // 2)
    c = a * (2 * b - a)
    d = a * a + b * b
    return (d, c + d) if m % 2 else (c, d)


def fib(k: int) -> int:
    """The ``k``-th Fibonacci number 1, 1, 2, 3, 5, 8, ..."""
    return _signed("fib", k, lambda m: _fib_pair(m)[0], zero=0)


@lru_cache(maxsize=4096)
def _divisor_sum(m: int) -> int:
    total = 1
    for p in itertools.chain((2,), range(3, math.isqrt(m) + 1, 2)):
        if p * p > m:
            break
        if m % p == 0:
            power_sum, power = 1, 1
            while m % p == 0:
                m //= p
                power *= p
                power_sum += power
            total *= power_sum
    return total * (m + 1) if m > 1 else total


def factorsum(k: int) -> int:
    """The sum of all divisors of ``k`` (including 1 and ``k``): 1, 3, 4, 7, 6, 12, ..."""
    return _signed("factorsum", k, _divisor_sum)


# ---------------------------------------------------------------- digits of pi and e

_digits: dict[str, str] = {"pi": "", "e": ""}
_GUARD = 20


def _pi_scaled(places: int) -> int:
    """floor(pi * 10**places) via the Chudnovsky series with binary splitting."""
    c3_over_24 = 640320**3 // 24

    def split(a: int, b: int) -> tuple[int, int, int]:
        if b - a == 1:
            if a == 0:
                p = q = 1
            else:
                p = (6 * a - 5) * (2 * a - 1) * (6 * a - 1)
                q = a * a * a * c3_over_24
            t = p * (13591409 + 545140134 * a)
            return p, q, -t if a % 2 else t
        m = (a + b) // 2
        p1, q1, t1 = split(a, m)
        p2, q2, t2 = split(m, b)
        return p1 * p2, q1 * q2, q2 * t1 + p1 * t2

    terms = places // 14 + 2
    _, q, t = split(0, terms)
    one = 10**places
    return q * 426880 * math.isqrt(10005 * one * one) // t


def _e_scaled(places: int) -> int:
    """floor(e * 10**places) from the series sum of 1/k!, by binary splitting."""

    def split(a: int, b: int) -> tuple[int, int]:
        # p/q = sum over k in (a, b] of a!/k!
        if b - a == 1:
            return 1, b
        m = (a + b) // 2
        p1, q1 = split(a, m)
        p2, q2 = split(m, b)
        return p1 * q2 + p2, q1 * q2

    terms = 2
    while math.lgamma(terms + 1) < (places + 2) * math.log(10):
        terms *= 2
    p, q = split(0, terms)
    scale: int = 10**places
    return (q + p) * scale // q


_SCALED = {"pi": _pi_scaled, "e": _e_scaled}


def digits_after_point(constant: str, count: int) -> str:
    """The first ``count`` decimal digits after the point of ``"pi"`` or ``"e"``.

    >>> digits_after_point("pi", 10), digits_after_point("e", 10)
    ('1415926535', '7182818284')
    """
    known = _digits[constant]
    if len(known) < count:
        places = max(count, 2 * len(known), 1000)
        scaled = _SCALED[constant](places + _GUARD) // 10**_GUARD
        known = _digits[constant] = decimal_digits(scaled, places + 1)[1:]
    return known[:count]


def decimal_digits(number: int, width: int) -> str:
    """``number`` (>= 0, below 10**width) in decimal, zero-padded to ``width`` digits.

    Long numbers are split in halves by powers of ten, so no piece meets Python's
    limit on converting long integers to text.

    >>> decimal_digits(42, 5), len(decimal_digits(7 * 10**9000, 9001))
    ('00042', 9001)
    """
    if width <= 2000:
        return str(number).rjust(width, "0")
    low_width = width // 2
    high, low = divmod(number, 10**low_width)
    return decimal_digits(high, width - low_width) + decimal_digits(low, low_width)


def pidigit(k: int) -> int:
    """The ``k``-th digit of pi after the decimal point (3.1415...: 1, 4, 1, 5, ...)."""
    return _signed("pidigit", k, lambda m: int(digits_after_point("pi", m)[m - 1]))


def edigit(k: int) -> int:
    """The ``k``-th digit of e after the decimal point (2.71828...: 7, 1, 8, 2, ...)."""
    return _signed("edigit", k, lambda m: int(digits_after_point("e", m)[m - 1]))


@lru_cache(maxsize=64)
def _positive_values(name: str, count: int) -> tuple[int, ...]:
    if name == "prime":
        _nth_prime(max(count, 1))
        return tuple(_primes[:count])
    if name == "fib":
        values, a, b = [], 1, 1
        for _ in range(count):
            values.append(a)
            a, b = b, a + b
        return tuple(values)
    if name == "factorsum":
        sums = [0] * (count + 1)
        for divisor in range(1, count + 1):
            for multiple in range(divisor, count + 1, divisor):
                sums[multiple] += divisor
        return tuple(sums[1:])
    if name in ("pidigit", "edigit"):
        return tuple(int(d) for d in digits_after_point(name[:-5], count))
    return tuple(k * (k + 1) // 2 for k in range(1, count + 1))


def positive_values(name: str, count: int) -> tuple[int, ...]:
    """The card ``name`` at positions 1..count (at most its cap), computed in one go.

    >>> positive_values("prime", 5), positive_values("pidigit", 5)
    ((2, 3, 5, 7, 11), (1, 4, 1, 5, 9))
    """
    return _positive_values(name, min(count, CAPS.get(name, count)))


CELEBRITY: dict[str, Callable[[int], int]] = {
    "prime": prime,
    "triangle": triangle,
    "fib": fib,
    "factorsum": factorsum,
    "pidigit": pidigit,
    "edigit": edigit,
}
"""The six celebrity functions by their canonical names in card expressions."""
