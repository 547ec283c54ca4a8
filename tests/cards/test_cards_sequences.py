"""Celebrity card sequences: the rulebook's examples and independent references."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from companion.cardmath.expr import Bindings, parse
from companion.cardmath.sequences import (
    DIGIT_CAP,
    PRIME_CAP,
    digits_after_point,
    edigit,
    factorsum,
    fib,
    pidigit,
    prime,
    triangle,
)
from companion.errors import ExpressionError

RULEBOOK_EXAMPLES = [
    ("Xth prime", 5, 11), ("Xth prime", -7, -17),
    ("Xth triangle", 4, 10), ("Xth triangle", -2, -3),
    ("Fib(X)", 4, 3), ("Fib(X)", -9, -34),
    ("Sum of factors(X)", 6, 12), ("Sum of factors(X)", -10, -18),
    ("Xth digit of pi", 4, 5), ("Xth digit of pi", -19, -4),
    ("Xth digit of e", 1, 7), ("Xth digit of e", -8, -2),
]


@pytest.mark.parametrize(("card", "x", "worth"), RULEBOOK_EXAMPLES)
def test_celebrity_cards_rulebook_examples(card: str, x: int, worth: int) -> None:
    assert parse(card).evaluate(Bindings(Fraction(x), 2)) == worth


def test_celebrity_examples_read_from_the_rulebook_text(rules_dir: Path) -> None:
    """Every 'If X = a, this card is worth b' sentence in the rulebook holds for its card."""
    text = (rules_dir / "21x-rulebook.txt").read_text(encoding="utf-8")
    details = text.split("Celebrity Cards in Detail", 1)[1]
    headings = {"Xth prime": "Xth prime", "Xth triangle": "Xth triangle", "Fib (X)": "Fib(X)",
                "Sum of factors (X)": "Sum of factors(X)", "Xth digit of pi": "Xth digit of pi",
                "Xth digit of e": "Xth digit of e"}
    checked = 0
    for block in re.split(r"\n(?=Xth |Fib |Sum of factors)", details):
        heading = next((h for h in headings if block.startswith(h)), None)
        if heading is None:
            continue
        card = parse(headings[heading])
        for x, worth in re.findall(r"If X = (-?\d+), this card is worth (-?\d+)", block):
            assert card.evaluate(Bindings(Fraction(int(x)), 2)) == int(worth), (heading, x)
            checked += 1
    assert checked == 12


def test_negative_x_rule_negates_the_positive_value() -> None:
    for function in (prime, triangle, fib, factorsum, pidigit, edigit):
        for k in (1, 2, 7, 30):
            assert function(-k) == -function(k)


def test_primes_match_trial_division() -> None:
    found = [p for p in range(2, 8000) if all(p % d for d in range(2, int(p**0.5) + 1))]
    assert [prime(k) for k in range(1, len(found) + 1)] == found
    assert prime(10_000) == 104_729


def test_triangle_and_fibonacci_follow_their_definitions() -> None:
    assert [triangle(k) for k in range(1, 8)] == [sum(range(1, k + 1)) for k in range(1, 8)]
    a, b = 1, 1
    for k in range(1, 300):
        assert fib(k) == a
        a, b = b, a + b
    assert triangle(0) == 0 and fib(0) == 0


def test_factor_sums_match_brute_force() -> None:
    for k in range(1, 400):
        assert factorsum(k) == sum(d for d in range(1, k + 1) if k % d == 0)
    assert factorsum(999_999_937) == 999_999_938  # a large prime


def _machin_pi(places: int) -> str:
    """Independent reference: pi = 16 atan(1/5) - 4 atan(1/239) in fixed point."""
    scale = 10 ** (places + 10)

    def atan_inverse(n: int) -> int:
        total, power, k, sign = 0, scale // n, 1, 1
        while power:
            total += sign * (power // k)
            power //= n * n
            k += 2
            sign = -sign
        return total

    return str((16 * atan_inverse(5) - 4 * atan_inverse(239)) // 10**10)[1:]


def _series_e(places: int) -> str:
    """Independent reference: e = sum of 1/k! in fixed point."""
    scale = 10 ** (places + 10)
    total, term, k = 0, scale, 0
    while term:
        total += term
        k += 1
        term //= k
    return str(total // 10**10)[1:]


def test_digits_of_pi_and_e_to_two_thousand_places() -> None:
    assert digits_after_point("pi", 2000) == _machin_pi(2000)[:2000]
    assert digits_after_point("e", 2000) == _series_e(2000)[:2000]
    assert pidigit(1000) == int(_machin_pi(1000)[999])
    assert edigit(1500) == int(_series_e(1500)[1499])


def test_digits_extend_on_demand_and_stay_consistent() -> None:
    short = digits_after_point("pi", 50)
    long = digits_after_point("pi", 3000)
    assert long.startswith(short)
    assert digits_after_point("pi", 3000) == _machin_pi(3000)[:3000]


@pytest.mark.parametrize("function", [prime, factorsum, pidigit, edigit])
def test_position_zero_is_undefined_for_counting_cards(function: object) -> None:
    with pytest.raises(ExpressionError, match=r"\(0\) is undefined"):
        function(0)  # type: ignore[operator]


def test_positions_beyond_the_caps_are_refused() -> None:
    with pytest.raises(ExpressionError, match="too far along"):
        prime(PRIME_CAP + 1)
    with pytest.raises(ExpressionError, match="too far along"):
        pidigit(-(DIGIT_CAP + 1))


def test_non_integer_x_into_celebrity_card_is_an_expression_error() -> None:
    with pytest.raises(ExpressionError, match=r"fib\(\) needs a whole number, got 5/2"):
        parse("Fib(X)").evaluate(Bindings(Fraction(5, 2), 2))
