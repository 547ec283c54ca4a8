"""Bounded exact arithmetic: sizes refused before the work, printing and reading bounded."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.cardmath.bounds import (
    PRINT_DIGITS,
    VALUE_DIGITS,
    exact_text,
    read_number,
    readable,
    scientific,
)
from companion.cardmath.expr import Bindings, ValueTooLarge, decimal_text, parse
from companion.cardmath.hand import evaluate_hand
from companion.cardmath.sequences import DIGIT_CAP, FIB_CAP, digits_after_point, fib
from companion.cardmath.solver import MAX_MIXED_SEARCH, MAX_SEARCH, solve
from companion.errors import ExpressionError, HandError


def test_decimals_are_written_only_when_short() -> None:
    assert decimal_text(Fraction(1, 2**30)) == "0.000000000931322574615478515625"
    assert decimal_text(Fraction(1, 2**99999)) is None
    assert decimal_text(Fraction(10**60)) is None


def test_long_numbers_print_in_a_short_form_whatever_their_size() -> None:
    huge = Fraction(7) ** 20000
    assert exact_text(huge).startswith("~") and len(exact_text(huge)) < 20
    assert readable(Fraction(1, 3**100)) == "~1.94032e-48"  # 1.940325..., cut not rounded
    assert len(exact_text(Fraction(10) ** (PRINT_DIGITS - 1))) == PRINT_DIGITS
    assert scientific(Fraction(-123456789, 1000)) == "-1.23456e+05"


@pytest.mark.parametrize(
    ("text", "reason"),
    [("1e999999999", "too large"), ("-1e-5000", "too large"), ("nan", "not a number"),
     ("inf", "not a number"), ("1/0", "not a number"), ("9" * 101, "too long")],
)
def test_numbers_read_within_bounds(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        read_number(text)
    assert read_number("1e3") == 1000 and read_number(" 25/3 ") == Fraction(25, 3)


def test_a_tiny_card_in_a_hand_is_an_error_not_a_hang() -> None:
    with pytest.raises(ValueTooLarge, match="too small"):
        evaluate_hand([parse("X^-99999"), parse("4")], x=2)
    total = evaluate_hand([parse("X^-3000"), parse("X^3000")], x=2).total
    assert total == Fraction(2) ** -3000 + Fraction(2) ** 3000


def test_celebrity_cards_keep_their_places_or_state_their_limit() -> None:
    assert len(digits_after_point("pi", 9000)) == 9000
    assert parse("Xth digit of pi").evaluate(Bindings(x=Fraction(DIGIT_CAP), n=1)) in range(10)
    with pytest.raises(ExpressionError, match=f"limit \\|X\\| <= {DIGIT_CAP}"):
        parse("Xth digit of pi").evaluate(Bindings(x=Fraction(DIGIT_CAP + 1), n=1))
    assert len(str(fib(FIB_CAP))) < VALUE_DIGITS
    with pytest.raises(ExpressionError, match=f"limit \\|X\\| <= {FIB_CAP}"):
        fib(FIB_CAP + 1)


def test_the_solver_states_its_range_limits() -> None:
    with pytest.raises(HandError, match=f"from 1 to {MAX_SEARCH}"):
        solve([parse("X")], search=MAX_SEARCH + 1)
    with pytest.raises(HandError, match=f"at most {MAX_MIXED_SEARCH}"):
        solve([parse("X*Y")], search=MAX_MIXED_SEARCH + 1)
    with pytest.raises(HandError, match=r"one X at a time .* at most 8695"):
        solve([parse("X!*X")], search=MAX_SEARCH)
    assert solve([parse("X!*X")], search=50).best is not None
