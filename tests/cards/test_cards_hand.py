"""Hand evaluation: the rulebook's worked example and the X, Y, V, N rules."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.cardmath.expr import parse
from companion.cardmath.hand import HandRules, Status, evaluate_hand, status_of
from companion.errors import HandError

EXAMPLE = [parse("6X"), parse("2X+4"), parse("X/2")]


def test_rulebook_example_x4_is_bust() -> None:
    result = evaluate_hand(EXAMPLE, x=4)
    assert result.values == (Fraction(24), Fraction(12), Fraction(2))
    assert result.total == 38
    assert result.status is Status.BUST


def test_rulebook_example_x1_is_valid_non_integer_total() -> None:
    result = evaluate_hand(EXAMPLE, x=1)
    assert result.values == (Fraction(6), Fraction(6), Fraction(1, 2))
    assert result.total == Fraction(25, 2)
    assert result.status is Status.VALID


def test_rulebook_example_x2_makes_21() -> None:
    result = evaluate_hand(EXAMPLE, x=2)
    assert result.values == (Fraction(12), Fraction(8), Fraction(1))
    assert result.total == 21
    assert result.status is Status.TWENTYONE


def test_exactly_20_is_bust() -> None:
    assert status_of(Fraction(20)) is Status.BUST
    assert evaluate_hand([parse("10X")], x=2).status is Status.BUST
    assert status_of(Fraction(41, 2)) is Status.VALID
    assert status_of(Fraction(39, 2)) is Status.VALID
    assert status_of(Fraction(43, 2)) is Status.BUST
    assert status_of(Fraction(-50)) is Status.VALID


def test_n_follows_the_hand_size() -> None:
    card = parse("N")
    for size in range(1, 6):
        result = evaluate_hand([card] * size, x=1)
        assert result.values == (size,) * size
    assert evaluate_hand([parse("3N²"), parse("X")], x=1).values == (Fraction(12), Fraction(1))


def test_x_must_be_non_zero() -> None:
    with pytest.raises(HandError, match="X cannot be 0"):
        evaluate_hand(EXAMPLE, x=0)
    with pytest.raises(HandError, match="X cannot be 0"):
        evaluate_hand(EXAMPLE, x=0, rules=HandRules(non_integer_x=True))


def test_x_must_be_an_integer_unless_the_option_is_on() -> None:
    with pytest.raises(HandError, match="whole number"):
        evaluate_hand(EXAMPLE, x=Fraction(1, 2))
    result = evaluate_hand(EXAMPLE, x=Fraction(5, 2), rules=HandRules(non_integer_x=True))
    assert result.total == 15 + 9 + Fraction(5, 4)


def test_negative_x_is_allowed() -> None:
    assert evaluate_hand(EXAMPLE, x=-2).total == -12 + 0 - 1


def test_y_must_be_positive_integer_and_given_when_used() -> None:
    hand = [parse("XY"), parse("Y")]
    assert evaluate_hand(hand, x=2, y=7).total == 21
    with pytest.raises(HandError, match="a card uses Y"):
        evaluate_hand(hand, x=2)
    with pytest.raises(HandError, match="Y must be positive"):
        evaluate_hand(hand, x=2, y=-1)
    with pytest.raises(HandError, match="Y must be positive"):
        evaluate_hand(hand, x=2, y=0)
    with pytest.raises(HandError, match="Y must be a whole number"):
        evaluate_hand(hand, x=2, y=Fraction(3, 2))
    relaxed = HandRules(non_integer_x=True)
    assert evaluate_hand(hand, x=2, y=Fraction(3, 2), rules=relaxed).total == Fraction(9, 2)


def test_v_is_one_plus_games_won() -> None:
    hand = [parse("V"), parse("10")]
    assert evaluate_hand(hand, x=1).total == 11
    assert evaluate_hand(hand, x=1, v=4).total == 14
    with pytest.raises(HandError, match="V must be at least 1"):
        evaluate_hand(hand, x=1, v=0)


def test_at_most_five_cards_unless_the_option_is_on() -> None:
    six = [parse("X")] * 6
    with pytest.raises(HandError, match="6 cards in hand: at most 5"):
        evaluate_hand(six, x=1)
    assert evaluate_hand(six, x=1, rules=HandRules(max_cards=None)).total == 6
    assert evaluate_hand(six, x=1, rules=HandRules(max_cards=8)).total == 6


def test_factorial_card_values() -> None:
    hand = [parse("X!"), parse("(N+1)!")]
    assert evaluate_hand(hand, x=3).values == (Fraction(6), Fraction(6))
