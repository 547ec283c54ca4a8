"""The solver against a plain exhaustive search on the tree, plus its documented choices."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cardmath.expr import Bindings, Expr, parse
from companion.cardmath.hand import HandRules
from companion.cardmath.solver import EXHAUSTIVE_PAIRS, solve
from companion.errors import ExpressionError, HandError

EXAMPLE = [parse("6X"), parse("2X+4"), parse("X/2")]


Found = list[tuple[int, int | None]]
Best = tuple[int, int | None, Fraction] | None


def brute_force(cards: list[Expr], v: int, search: int) -> tuple[Found, Best]:
    """Every X (and Y) in turn, exact, with the documented tie-break (|X|, positive, Y)."""
    uses_y = any("Y" in card.variables for card in cards)
    ys: list[int | None] = list(range(1, search + 1)) if uses_y else [None]
    xs = sorted((x for x in range(-search, search + 1) if x), key=lambda x: (abs(x), x < 0))
    found: Found = []
    best: Best = None
    for x in xs:
        for y in ys:
            bindings = Bindings(Fraction(x), len(cards), v, None if y is None else Fraction(y))
            try:
                total = sum((card.evaluate(bindings) for card in cards), Fraction(0))
            except ExpressionError:
                continue
            if total == 21:
                found.append((x, y))
            if total <= 21 and total != 20 and (best is None or total > best[2]):
                best = (x, y, total)
    return sorted(found, key=lambda p: (p[0], p[1] or 0)), best


def as_tuples(cards: list[Expr], v: int = 1, search: int = 1000) -> tuple[Found, Best]:
    solution = solve(cards, v=v, search=search, rules=HandRules(max_cards=None))
    found = [(int(a.x), None if a.y is None else int(a.y)) for a in solution.twentyone]
    assert all(a.total == 21 for a in solution.twentyone)
    best = solution.best
    if best is None:
        return found, None
    return found, (int(best.x), None if best.y is None else int(best.y), best.total)


def test_rulebook_example_hand_is_solved_at_x2() -> None:
    solution = solve(EXAMPLE)
    assert [(a.x, a.y, a.total) for a in solution.twentyone] == [(Fraction(2), None, Fraction(21))]
    assert solution.best is not None and (
        (solution.best.x, solution.best.total) == (Fraction(2), Fraction(21)))


def test_best_skips_twenty_which_is_bust() -> None:
    solution = solve([parse("10X")])
    assert solution.twentyone == []
    assert solution.best is not None
    assert (solution.best.x, solution.best.total) == (Fraction(1), Fraction(10))
    solution = solve([parse("X"), parse("19")])
    assert solution.best is not None and solution.best.total == 21


def test_tie_break_prefers_smallest_magnitude_then_positive() -> None:
    solution = solve([parse("X²")])
    assert solution.best is not None
    assert (solution.best.x, solution.best.total) == (Fraction(4), Fraction(16))
    solution = solve([parse("X"), parse("-X"), parse("7")])
    assert solution.best is not None and (
        (solution.best.x, solution.best.total) == (Fraction(1), Fraction(7)))
    solution = solve([parse("Y"), parse("X²")], search=30)
    assert solution.best is not None
    assert (solution.best.x, solution.best.y, solution.best.total) == (
        Fraction(1), Fraction(20), Fraction(21))


def test_non_integer_totals_are_exact() -> None:
    solution = solve([parse("X/3"), parse("X/7")])
    assert solution.best is not None
    assert solution.best.total == Fraction(440, 21)
    assert solution.best.x == 44


def test_values_where_a_card_is_undefined_are_skipped() -> None:
    assert as_tuples([parse("1/(X-3)"), parse("20")], search=10) == brute_force(
        [parse("1/(X-3)"), parse("20")], 1, 10)
    solution = solve([parse("X!"), parse("15")])
    assert [a.x for a in solution.twentyone] == [3]


def test_v_and_n_are_constants_of_the_search() -> None:
    assert as_tuples([parse("VX"), parse("N")], v=3, search=20) == brute_force(
        [parse("VX"), parse("N")], 3, 20)


def test_y_search_covers_positive_y_only() -> None:
    found, best = as_tuples([parse("X"), parse("Y")], search=25)
    assert (1, 20) in found and (-4, 25) in found
    assert all(y is not None and y > 0 for _, y in found)
    assert best == (1, 20, Fraction(21))


def test_mixed_x_and_y_hand_matches_brute_force() -> None:
    cards = [parse("XY"), parse("Y"), parse("X/2")]
    assert as_tuples(cards, search=40) == brute_force(cards, 1, 40)


def test_exhaustive_search_is_limited_with_a_clear_error() -> None:
    cards = [parse("X^Y"), parse("N")]
    assert as_tuples(cards, search=12) == brute_force(cards, 1, 12)
    with pytest.raises(HandError, match="use a search range of at most"):
        solve(cards, search=1000)
    assert EXHAUSTIVE_PAIRS >= 2 * 300 * 300


def test_differences_below_float_resolution_are_decided_exactly() -> None:
    cards = [parse("XY/10^20"), parse("21")]
    solution = solve(cards, search=30)
    assert solution.twentyone == []
    assert solution.best is not None
    assert (solution.best.x, solution.best.y) == (Fraction(-1), Fraction(1))
    assert solution.best.total == 21 - Fraction(1, 10**20)
    cards = [parse("XY/10^20"), parse("20"), parse("-Y/10^25")]
    assert as_tuples(cards, search=30) == brute_force(cards, 1, 30)


def test_too_many_cards_and_bad_v_are_refused() -> None:
    with pytest.raises(HandError):
        solve([parse("X")] * 6)
    with pytest.raises(HandError):
        solve(EXAMPLE, v=0)
    assert solve([parse("X")] * 6, rules=HandRules(max_cards=None)).best is not None


def test_large_values_stay_exact() -> None:
    cards = [parse("X^9 / 7"), parse("-X^9/7"), parse("21")]
    solution = solve(cards)
    assert len(solution.twentyone) == 2000


CARD_POOL = ["6X", "2X+4", "X/2", "3X^2-7", "X/3+N", "-X", "7 - 2X", "X²/4", "1/X", "X!",
             "Xth prime", "Fib(X)", "Xth triangle", "Sum of factors(X)", "Xth digit of pi",
             "Xth digit of e", "2^X", "V + X", "(X-2)(X+3)", "0.5X - 1", "X^3/10", "12/X",
             "X/(X+1)", "(X+1)^-2", "24/(X-2) - X", "(1/X)^2 + N/(X-N)", "X/(1/(X-1))",
             "(1/2)^X", "(-2)^X/100", "0^X + 1"]
Y_POOL = ["Y", "XY", "Y^2/3", "Y - X", "Y!", "2Y + X/2", "XY^2/5", "1/Y", "(X+Y)^2/9",
          "6/(Y-2)", "X/Y", "2^Y/50"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CARD_POOL), min_size=1, max_size=5), st.integers(1, 3))
def test_solver_matches_brute_force_on_random_hands(texts: list[str], v: int) -> None:
    cards = [parse(text) for text in texts]
    assert as_tuples(cards, v=v, search=40) == brute_force(cards, v, 40)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(CARD_POOL), max_size=3),
       st.lists(st.sampled_from(Y_POOL), min_size=1, max_size=2))
def test_solver_matches_brute_force_on_random_hands_with_y(x_texts: list[str],
                                                            y_texts: list[str]) -> None:
    cards = [parse(text) for text in x_texts + y_texts]
    assert as_tuples(cards, search=12) == brute_force(cards, 1, 12)
