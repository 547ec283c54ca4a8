"""Property tests: random expressions against an independent evaluator, round trips, fuzzing.

The reference here shares no code with companion.cardmath.expr: random trees are plain tuples,
rendered to card text (with the printed forms: cross, division sign, minus sign,
superscripts, implicit multiplication) and evaluated by a tiny recursive function.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Literal, TypeAlias

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cardmath.expr import Bindings, parse
from companion.errors import ExpressionError

Num: TypeAlias = tuple[Literal["num"], Fraction]
Var: TypeAlias = tuple[Literal["var"], str]
Neg: TypeAlias = tuple[Literal["neg"], "Tree"]
Op: TypeAlias = tuple[Literal["op"], str, "Tree", "Tree"]
Fact: TypeAlias = tuple[Literal["fact"], "Tree"]
Pow: TypeAlias = tuple[Literal["pow"], "Tree", int]
Tree: TypeAlias = Num | Var | Neg | Op | Fact | Pow
TIMES, DOT, DIVIDE = "\N{MULTIPLICATION SIGN}", "\N{MIDDLE DOT}", "\N{DIVISION SIGN}"
MINUS = "\N{MINUS SIGN}"

VALUES = {"X": Fraction(-3), "N": Fraction(4), "V": Fraction(2), "Y": Fraction(5)}
BINDINGS = Bindings(x=VALUES["X"], n=4, v=2, y=VALUES["Y"])
SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


class Undefined(Exception):
    """The reference's own 'no value' signal (division by zero, bad factorial)."""


def reference(tree: Tree) -> Fraction:
    if tree[0] == "num":
        return tree[1]
    if tree[0] == "var":
        return VALUES[tree[1]]
    if tree[0] == "neg":
        return -reference(tree[1])
    if tree[0] == "fact":
        inner = reference(tree[1])
        if inner.denominator != 1 or inner < 0:
            raise Undefined
        return Fraction(math.factorial(int(inner)))
    if tree[0] == "pow":
        base = reference(tree[1])
        if base == 0 and tree[2] < 0:
            raise Undefined
        return base ** tree[2]
    left, right = reference(tree[2]), reference(tree[3])
    if tree[1] == "+":
        return left + right
    if tree[1] == "-":
        return left - right
    if tree[1] == "*":
        return left * right
    if right == 0:
        raise Undefined
    return left / right


def text_of(tree: Tree, style: int) -> str:
    """Fully bracketed card text; ``style`` picks printed forms so all of them get used."""
    if tree[0] == "num":
        number = tree[1]
        return str(number.numerator) if number.denominator == 1 else f"{float(number)}"
    if tree[0] == "var":
        return tree[1].lower() if style % 2 else tree[1]
    if tree[0] == "neg":
        return (MINUS if style % 3 == 0 else "-") + "(" + text_of(tree[1], style) + ")"
    if tree[0] == "fact":
        return "(" + text_of(tree[1], style) + ")!"
    if tree[0] == "pow":
        base = "(" + text_of(tree[1], style) + ")"
        if style % 2:
            return base + str(tree[2]).translate(SUPERSCRIPT)
        return base + "^(" + str(tree[2]) + ")"
    op = tree[1]
    left, right = text_of(tree[2], style), text_of(tree[3], style)
    if op == "*" and style % 4 == 1:
        return f"({left})({right})"
    printed = {"*": ["*", TIMES, DOT][style % 3], "/": ["/", DIVIDE][style % 2],
               "-": ["-", MINUS][style % 2], "+": "+"}[op]
    return f"({left}){printed}({right})"


numbers = st.one_of(
    st.integers(0, 12).map(Fraction),
    st.sampled_from([Fraction(1, 2), Fraction(1, 4), Fraction(5, 2), Fraction(3, 8)]),
)
leaves = st.one_of(
    numbers.map(lambda n: ("num", n)),
    st.sampled_from(["X", "N", "V", "Y"]).map(lambda name: ("var", name)),
)
trees = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.tuples(st.just("op"), st.sampled_from("+-*/"), inner, inner),
        st.tuples(st.just("neg"), inner),
        st.tuples(st.just("pow"), inner, st.integers(-2, 3)),
        st.tuples(st.just("fact"), st.just(("num", Fraction(3)))),
    ),
    max_leaves=10,
)


@settings(max_examples=400, deadline=None)
@given(trees, st.integers(0, 11))
def test_evaluation_agrees_with_independent_reference(tree: Tree, style: int) -> None:
    text = text_of(tree, style)
    try:
        expected = reference(tree)
    except Undefined:
        try:
            parse(text).evaluate(BINDINGS)
        except ExpressionError:
            return
        raise AssertionError(f"{text!r} should be undefined") from None
    assert parse(text).evaluate(BINDINGS) == expected


@settings(max_examples=400, deadline=None)
@given(trees, st.integers(0, 11))
def test_printing_a_tree_and_parsing_it_back_keeps_the_value(tree: Tree, style: int) -> None:
    parsed = parse(text_of(tree, style))
    printed = str(parsed)
    again = parse(printed)
    assert str(again) == printed
    try:
        expected = parsed.evaluate(BINDINGS)
    except ExpressionError:
        return
    assert again.evaluate(BINDINGS) == expected


FUZZ_ALPHABET = [
    *"0123456789XNVYxnvy+-*/^()[]!. ²³⁻¹⁰½", TIMES, DOT, DIVIDE, MINUS,
    "prime", "fib", "Xth ", "th", "digit of pi", "Sum of factors", "Z", "é", "\t", "**", "e",
]


def test_fuzz_random_strings_raise_only_expression_errors() -> None:
    rng = random.Random(21)
    parsed = 0
    for _ in range(10_000):
        text = "".join(rng.choice(FUZZ_ALPHABET) for _ in range(rng.randint(0, 14)))
        try:
            tree = parse(text)
            parsed += 1
            tree.evaluate(BINDINGS)
            parse(str(tree))
        except ExpressionError as error:
            assert "\n" not in str(error)
    assert parsed > 500  # the fuzzing reaches evaluation, not just the lexer
