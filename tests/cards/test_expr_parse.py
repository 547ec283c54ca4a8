"""Card expression syntax: printed forms, precedence readings and error positions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.cardmath.expr import FACTORIAL_CAP, Bindings, ValueTooLarge, parse, render
from companion.errors import ExpressionError

TIMES, MINUS, DIVIDE = "\N{MULTIPLICATION SIGN}", "\N{MINUS SIGN}", "\N{DIVISION SIGN}"


def value(
    text: str, x: int | Fraction = 2, n: int = 3, v: int = 1, y: int | None = None
) -> Fraction:
    bindings = Bindings(x=Fraction(x), n=n, v=v, y=None if y is None else Fraction(y))
    return parse(text).evaluate(bindings)


@pytest.mark.parametrize(
    ("text", "x", "expected"),
    [
        ("6X", 2, 12),
        ("2X+4", 2, 8),
        ("X/2", 1, Fraction(1, 2)),
        ("0.5X", 3, Fraction(3, 2)),
        (".25 + X", 1, Fraction(5, 4)),
        ("x + 1", 4, 5),
        ("2(X+1)", 3, 8),
        ("(X+1)(X-1)", 3, 8),
        ("[X+1]*2", 1, 4),
        ("X²", -3, 9),
        ("X³", -2, -8),
        ("X¹⁰", 2, 1024),
        ("X⁻¹", 4, Fraction(1, 4)),
        (f"3X² {MINUS} 2", 2, 10),
        (f"6{TIMES}X", 2, 12),
        ("6·X", 2, 12),
        (f"X{DIVIDE}4", 2, Fraction(1, 2)),
        ("2**X", 3, 8),
        ("5 - -X", 2, 7),
        ("+X", 5, 5),
        ("\N{VULGAR FRACTION ONE HALF}X", 5, Fraction(5, 2)),
        ("\N{VULGAR FRACTION THREE QUARTERS}(X+1)", 3, 3),
    ],
)
def test_printed_forms(text: str, x: int, expected: Fraction) -> None:
    assert value(text, x) == expected


def test_variables_x_n_v_y_in_either_case() -> None:
    assert value("xNvY", x=2, n=3, v=4, y=5) == 120
    assert parse("XN + vy").variables == frozenset("XNVY")


def test_implicit_multiplication_of_variables_and_numbers() -> None:
    assert value("XN", x=2, n=3) == 6
    assert value("3N²", n=3) == 27
    assert value("2X^2", x=3) == 18


def test_power_is_right_associative() -> None:
    assert value("2^3^2") == 512


def test_unary_minus_binds_looser_than_power() -> None:
    assert value("-X²", x=3) == -9
    assert value("-X^2", x=3) == -9
    assert value("(-X)^2", x=3) == 9


def test_negative_exponent_allowed() -> None:
    assert value("2^-1") == Fraction(1, 2)
    assert value("2^-X", x=2) == Fraction(1, 4)


def test_implicit_multiplication_binds_like_times() -> None:
    """The documented reading: 1/2X is (1/2)*X and X/2X is (X/2)*X, left to right."""
    assert value("1/2X", x=6) == 3
    assert value("X/2X", x=6) == 18
    assert value("X/(2X)", x=6) == Fraction(1, 2)


def test_bidmas_precedence() -> None:
    assert value("2+3*4") == 14
    assert value("(2+3)*4") == 20
    assert value("10-4-3") == 3
    assert value("24/4/3") == 2
    assert value("2*3^2") == 18


def test_factorials() -> None:
    assert value("3!") == 6
    assert value("0!") == 1
    assert value("X!", x=5) == 120
    assert value("3!!") == 720
    assert value("2X!", x=3) == 12
    assert value("(X+1)!", x=3) == 24


def test_celebrity_function_names_and_card_wordings_agree() -> None:
    pairs = [
        ("Xth prime", "prime(X)"),
        ("Xth triangle", "triangle(X)"),
        ("Fib(X)", "fib(X)"),
        ("Fib (X)", "fib(X)"),
        ("Sum of factors(X)", "factorsum(X)"),
        ("Xth digit of pi", "pidigit(X)"),
        ("Xth digit of e", "edigit(X)"),
    ]
    for wording, canonical in pairs:
        assert str(parse(wording)) == canonical
        for x in (1, 5, -7):
            assert value(wording, x) == value(canonical, x)


def test_celebrity_cards_combine_with_arithmetic() -> None:
    assert value("2Xth prime", x=3) == 10
    assert value("fib(X+1) - 1", x=4) == 4


def test_canonical_text_parses_back() -> None:
    for text in ["6X", "2X+4", "X/2", "1/2X", "-X²", "2^-1", "2^3^2", "(X+1)!", "3!!", "X⁻¹",
                 "Xth prime", "-(X-1)", "X-(1-X)", "(-2)^X", "2/(3/X)"]:
        tree = parse(text)
        again = parse(str(tree))
        assert str(again) == str(tree)
        for x in (1, 2, 3):
            bindings = Bindings(Fraction(x), 2)
            assert again.evaluate(bindings) == tree.evaluate(bindings)


@pytest.mark.parametrize(
    ("text", "fragment", "position"),
    [
        ("", "empty expression", 0),
        ("2Z", "unknown name 'Z'", 1),
        ("6X+", "trailing operator '+'", 2),
        ("(X+1", "unclosed bracket '('", 0),
        ("X+1)", "unmatched ')'", 3),
        ("(X+1]", "bracket '(' closed by ']'", 4),
        ("()", "empty brackets", 1),
        ("X2", "missing operator before '2'", 1),
        ("2 3", "missing operator before '3'", 2),
        ("*3", "missing number before '*'", 0),
        ("2$", "unexpected character '$'", 1),
        ("prime X", "prime needs brackets", 0),
        ("Xth frog", "unknown name 'Xth'", 0),
    ],
)
def test_syntax_errors_name_the_problem_and_position(
    text: str, fragment: str, position: int
) -> None:
    with pytest.raises(ExpressionError) as caught:
        parse(text)
    assert fragment in caught.value.message
    assert caught.value.position == position
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "x", "fragment", "position"),
    [
        ("1/(X-2)", 2, "division by zero", 1),
        ("X⁻¹ + 0^-1", 2, "division by zero", 7),
        ("(X-5)!", 2, "factorial needs a whole number >= 0, got -3", 5),
        ("(X/4)!", 2, "factorial needs a whole number >= 0, got 1/2", 5),
        ("2^(1/X)", 2, "exponent must be a whole number", 1),
        ("prime(X/4)", 2, "prime() needs a whole number, got 1/2", 0),
        ("Y + 1", 2, "Y has no value", 0),
        ("prime(X-2)", 2, "prime(0) is undefined", 0),
    ],
)
def test_evaluation_errors_name_the_problem_and_position(
    text: str, x: int, fragment: str, position: int
) -> None:
    with pytest.raises(ExpressionError) as caught:
        value(text, x)
    assert fragment in caught.value.message
    assert caught.value.position == position


def test_absurd_sizes_are_refused_quickly() -> None:
    with pytest.raises(ValueTooLarge, match=r"9\^387420489 is too large .*about 369693100 digits"):
        value("9^9^9")
    with pytest.raises(ValueTooLarge, match=r"! is too large to value exactly"):
        value("1000!!")
    with pytest.raises(ValueTooLarge, match=rf"the limit is {FACTORIAL_CAP}!"):
        value(f"{FACTORIAL_CAP + 1}!")
    assert value("1^(9^9^2)") == 1
    assert value("X^X", x=1000) == 1000**1000


@pytest.mark.parametrize(
    ("text", "x", "fragment"),
    [
        ("X^-99999", 2, "2^-99999 is too small to value exactly (about 30103 digits"),
        ("X^99999", -3, "(-3)^99999 is too large to value exactly (about 47712 digits"),
        ("(X/3)^9000", 2, "(2/3)^9000 is too small"),
        ("X^6000 * X^7000", 2, "the value is too large"),
        ("fib(X) * fib(X)", 17000, "the value is too large"),
        ("X!/(X-1)!", 1341, "1341! is too large"),
    ],
)
def test_values_past_the_bound_are_refused_before_they_are_computed(
    text: str, x: int, fragment: str
) -> None:
    with pytest.raises(ValueTooLarge) as caught:
        value(text, x)
    assert fragment in str(caught.value)


def test_overlong_or_deeply_nested_text_is_refused() -> None:
    with pytest.raises(ExpressionError, match="too long"):
        parse("X+" * 400 + "1")
    with pytest.raises(ExpressionError, match="nested too deeply"):
        parse("(" * 200 + "X" + ")" * 200)


def test_error_message_is_one_line_with_position_and_text() -> None:
    with pytest.raises(ExpressionError) as caught:
        parse("2X + + ")
    assert str(caught.value) == "trailing operator '+' at position 6 in '2X + + '"


@pytest.mark.parametrize(
    ("x", "expected"),
    [(Fraction(-1, 3), "6*(-1/3)"), (Fraction(-5, 2), "6*(-2.5)"), (Fraction(1, 3), "6*(1/3)")],
)
def test_working_shows_a_substituted_fraction_once_signed(x: Fraction, expected: str) -> None:
    working = render(parse("6X"), substitute={"X": x})
    assert working == expected
    assert value(working) == 6 * x
