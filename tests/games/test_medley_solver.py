"""Mountainside Math Medley combinations: values, the rule text's examples, claims, solver.

The solver is checked against an independent brute force that gives every usable card
each possible role (unused, first product, second product, extra + or -) on small boards.
"""

from __future__ import annotations

from itertools import product as cartesian
from math import prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import ExpressionError, IllegalMove
from companion.games.medley import solver as medley_solver
from companion.games.medley.claims import parse_claim, resolve_claim
from companion.games.medley.solver import (
    Board,
    CombinationRules,
    card_values,
    has_combination,
    is_valid_shape,
    iter_combinations,
    solve,
)
from companion.playing_cards import standard_deck

DEFAULT = CombinationRules()
NO_EXTRAS: frozenset[str] = frozenset()


def grid(*cards: str) -> tuple[str | None, ...]:
    """Nine cells: the cards given, the rest empty."""
    return (*cards, *([None] * (9 - len(cards))))


def claim(text: str, board: Board, target: int, rules: CombinationRules = DEFAULT) -> str:
    """The claim as the referee accepts it (card names), using every face-up corner as extra."""
    extras = frozenset(f"c{i}" for i, card in enumerate(board.corners) if card)
    if rules.aces_as_corners:
        extras |= {f"g{i}" for i, card in enumerate(board.grid) if card and card[0] == "A"}
    return resolve_claim(text, board, extras, target, rules).expression


# Card values --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "values"),
    [("As", (1,)), ("Jd", (2,)), ("Qh", (3,)), ("Kc", (4,)), ("2s", (2,)), ("7d", (7,)),
     ("10h", (10,)), ("JK", tuple(range(1, 11)))],
)
def test_card_values_follow_the_table(card: str, values: tuple[int, ...]) -> None:
    assert card_values(card) == values


def test_ace_is_one_or_eleven_in_that_variant() -> None:
    rules = CombinationRules(ace_eleven=True)
    assert card_values("Ah", rules) == (1, 11)
    board = Board(grid=grid("Ah", "5c"))
    assert claim("A(11)*5", board, 55, rules) == "Ah(11)*5c"
    assert claim("A*5", board, 55, rules) == "Ah(11)*5c"
    with pytest.raises(IllegalMove, match="makes 5, not the target 55"):
        claim("A*5", board, 55)


# The rule text's combination examples -------------------------------------------------

EXAMPLE_BOARD = Board(grid=("8s", "5h", "10c", "Jd", "4c", "2h", "Qs", "Kd", "5d"))


@pytest.mark.parametrize(
    ("text", "value"),
    [("8*5h+10", 50), ("J*4*5h+10", 50), ("2*10+5h*5d", 45), ("Q*K*5h-10", 50)],
)
def test_the_valid_examples_have_the_allowed_shape(text: str, value: int) -> None:
    # The text calls all four valid "if the target is 45"; three of them make 50.
    assert claim(text, EXAMPLE_BOARD, value)
    if value != 45:
        with pytest.raises(IllegalMove, match=f"makes {value}, not the target 45"):
            claim(text, EXAMPLE_BOARD, 45)


def test_the_example_values_as_written() -> None:
    written = {"8*5+10": 50, "J*4*5+10": 50, "2*10+5*5": 45, "Q*K*5-10": 50}
    for text, value in written.items():
        values = [prod(card_values(t.rank + "s")[0] for t in term.tokens) * term.sign
                  for term in parse_claim(text)]
        assert sum(values) == value


@pytest.mark.parametrize("text", ["10c+10s*2h+3d*5h", "4c*5h+6d*5s-5c"])
def test_the_invalid_examples_use_plus_or_minus_twice(text: str) -> None:
    board = Board(grid=("10c", "10s", "2h", "3d", "5h", "4c", "6d", "5s", "5c"))
    with pytest.raises(IllegalMove, match="only add or subtract once"):
        claim(text, board, 45)


CORNER_BOARD = Board(
    grid=("5h", "10c", "3s", "6d", "7h", "4c", "2d", "9s", "8c"), corners=("Kd", None, None, None)
)


@pytest.mark.parametrize(
    ("text", "value", "expression"),
    [
        ("K+5+10", 19, "Kd+5h+10c"),
        ("K+3*6*7+4", 134, "Kd+3s*6d*7h+4c"),
        ("K*3*5", 60, "Kd*3s*5h"),
        ("K+3*4+7", 23, "Kd+3s*4c+7h"),
    ],
)
def test_the_corner_examples_with_k_as_corner(text: str, value: int, expression: str) -> None:
    assert claim(text, CORNER_BOARD, value) == expression


def test_k_in_the_grid_cannot_be_the_extra_plus() -> None:
    board = Board(grid=("5h", "10c", "Kd", "3s", "4c", "7h"))
    with pytest.raises(IllegalMove, match="only add or subtract once"):
        claim("K+5+10", board, 19)
    assert claim("K*3*5", board, 60) == "Kd*3s*5h"


def test_four_plus_three_times_four_plus_seven_needs_the_corner_k() -> None:
    # Read with the corner K written as its value 4: K + 3*4 + 7 = 23. With the 4 of clubs
    # as the first term instead, two of the + signs would join normal cards.
    with pytest.raises(IllegalMove):
        claim("4c+3s*K+7h", CORNER_BOARD, 23)


def test_every_corner_adds_its_own_extra_term() -> None:
    board = Board(grid=grid("10c", "5h", "3s", "2d"), corners=("Kd", "Qs", "7h", "9c"))
    assert claim("10*5+3+K+Q+7+9", board, 76) == "10c*5h+3s+Kd+Qs+7h+9c"
    assert claim("10*5-3-K-Q-7+9", board, 42)
    with pytest.raises(IllegalMove, match="only add or subtract once"):
        claim("10+5+3+2+K", board, 24)


# Readings that are options --------------------------------------------------------------


def test_negative_first_part_is_allowed_unless_switched_off() -> None:
    board = Board(grid=grid("2s", "10c"), corners=("9h", "8d", "7c", "6s"))
    assert claim("2-10+9+8+7+6", board, 22)
    with pytest.raises(IllegalMove, match="positive first product"):
        claim("2-10+9+8+7+6", board, 22, CombinationRules(allow_negative=False))


def test_single_card_combination_is_an_option() -> None:
    board = Board(grid=grid("Ah", "5c"))
    rules = CombinationRules(ace_eleven=True)
    assert claim("A(11)", board, 11, rules) == "Ah(11)"
    with pytest.raises(IllegalMove, match="at least two cards"):
        claim("A(11)", board, 11, CombinationRules(ace_eleven=True, single_card=False))


def test_aces_as_corner_cards_variant() -> None:
    board = Board(grid=grid("Ah", "5c", "9d", "3s"))
    rules = CombinationRules(aces_as_corners=True)
    assert claim("5*9+3+A", board, 49, rules) == "5c*9d+3s+Ah"
    with pytest.raises(IllegalMove, match="only add or subtract once"):
        claim("5*9+3+A", board, 49)


def test_a_combination_uses_a_grid_card() -> None:
    board = Board(grid=grid("2s"), corners=("9h", "8d", None, None))
    with pytest.raises(IllegalMove, match="grid card"):
        claim("9h+8d", board, 17)


# Claims: how they are written and read --------------------------------------------------


def test_joker_takes_the_value_written_or_the_one_that_works() -> None:
    board = Board(grid=grid("JK", "5c", "10h"))
    assert claim("JK(7)*5+10", board, 45) == "JK(7)@g0*5c+10h"
    assert claim("JK*5+10", board, 45) == "JK(7)@g0*5c+10h"
    with pytest.raises(IllegalMove, match="no JK\\(11\\)"):
        claim("JK(11)*5+10", board, 65)
    with pytest.raises(IllegalMove, match=r"JK\*5\*10 makes 50, 100, 150, 200, 250 \.\.\., not"):
        claim("JK*5*10", board, 45)


def test_two_jokers_are_told_apart_by_their_place() -> None:
    board = Board(grid=grid("JK", "5c", "10h"), corners=("JK", None, None, None))
    with pytest.raises(IllegalMove, match="could mean different cards"):
        claim("JK(7)*5+10", board, 45)
    assert claim("JK(7)@c0*5+10", board, 45) == "JK(7)@c0*5c+10h"
    assert claim("JK(7)@g0*5+10", board, 45) == "JK(7)@g0*5c+10h"


def test_a_bare_rank_must_name_one_card() -> None:
    board = Board(grid=grid("5h", "5c", "9d"))
    with pytest.raises(IllegalMove, match="name the suit"):
        claim("5*9", board, 45)
    assert claim("5c*9", board, 45) == "5c*9d"


@pytest.mark.parametrize(
    ("text", "message"),
    [("Q*", "expected a card at position 3"), ("Q**K", "expected a card at position 3"),
     ("Q K", "expected \\*, \\+ or - at position 3"), ("Z+1", "unexpected 'Z' at position 1"),
     ("", "expected a card at position 1"), ("JKs", "a joker has no suit")],
)
def test_malformed_claims_name_the_place(text: str, message: str) -> None:
    with pytest.raises(ExpressionError, match=message):
        parse_claim(text)


def test_a_card_not_on_the_board_is_named() -> None:
    with pytest.raises(IllegalMove, match="no 7s on the board"):
        claim("7s*5", Board(grid=grid("5h")), 35)


def test_a_card_used_twice_is_refused() -> None:
    with pytest.raises(IllegalMove, match="needs more cards than the board has"):
        claim("5h*5h", Board(grid=grid("5h", "9c")), 25)


# The solver ----------------------------------------------------------------------------


def test_solver_lists_each_set_of_cards_once() -> None:
    board = Board(grid=grid("5h", "9c", "3d", "3s"))
    found = solve(board, 45)
    assert [c.expression for c in found] == ["5h*9c", "5h*3d*3s"]
    assert all(c.value == 45 for c in found)


def test_solver_finds_the_rule_text_examples() -> None:
    # One expression per set of cards: Q, K, 5 and 10 also make 50 as 5*K+10*Q.
    def slots(text: str, target: int) -> frozenset[str]:
        return resolve_claim(text, EXAMPLE_BOARD, NO_EXTRAS, target, DEFAULT).slots

    found = {c.slots for c in solve(EXAMPLE_BOARD, 50)}
    assert {slots(t, 50) for t in ("8*5h+10", "J*4*5h+10", "Q*K*5h-10")} <= found
    assert slots("2*10+5h*5d", 45) in {c.slots for c in solve(EXAMPLE_BOARD, 45)}


def test_solver_uses_a_corner_as_extra_or_as_a_normal_card() -> None:
    shorts = {c.short for c in solve(CORNER_BOARD, 19)}
    assert "5+10+K" in shorts
    assert "3*K+7" in shorts


def test_has_combination_and_the_lazy_listing_agree_with_solve() -> None:
    board = Board(grid=("Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c"))
    assert solve(board, 66) == [] and not has_combination(board, 66)
    assert has_combination(board, 11)
    assert {c.slots for c in iter_combinations(board, 11)} == {c.slots for c in solve(board, 11)}


def test_more_corner_spots_than_the_table_holds_give_the_same_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = Board(grid=("8h", "5c", "10d", "2s", "Qd", "Kh", "Jc", "9s", "3h"),
                  corners=("Kd", "7s", "JK", "Ac"))
    with_table = {c.slots for c in solve(board, 54)}
    monkeypatch.setattr(medley_solver, "TABLE_LIMIT", 0)
    assert {c.slots for c in solve(board, 54)} == with_table
    assert has_combination(board, 54)


CARDS = [str(card) for card in standard_deck(jokers=1)]


def reference(board: Board, target: int, rules: CombinationRules) -> set[frozenset[str]]:
    """Every set of slots some role assignment turns into the target, by brute force."""
    slots = board.cards()
    eligible = [
        slot[0] == "c" or (rules.aces_as_corners and card.startswith("A")) for slot, card in slots
    ]
    found: set[frozenset[str]] = set()
    role_choices = [("-", "p1", "p2", "+x", "-x") if e else ("-", "p1", "p2") for e in eligible]
    for roles in cartesian(*role_choices):
        used = [i for i, role in enumerate(roles) if role != "-"]
        if "p1" not in roles or not any(slots[i][0][0] == "g" for i in used):
            continue
        if len(used) < 2 and not rules.single_card:
            continue
        for values in cartesian(*(card_values(slots[i][1], rules) for i in used)):
            value_of = dict(zip(used, values, strict=True))
            p1 = prod(value_of[i] for i in used if roles[i] == "p1")
            has_p2 = "p2" in roles
            p2 = prod(value_of[i] for i in used if roles[i] == "p2")
            extra = sum(value_of[i] for i in used if roles[i] == "+x")
            extra -= sum(value_of[i] for i in used if roles[i] == "-x")
            for sign in (1, -1) if has_p2 else (0,):
                normal = p1 + sign * p2
                if normal < 0 and not rules.allow_negative:
                    continue
                if normal + extra == target:
                    found.add(frozenset(slots[i][0] for i in used))
    return found


@settings(max_examples=150, deadline=None)
@given(
    cards=st.lists(st.sampled_from(CARDS), min_size=1, max_size=6, unique=True),
    corners=st.integers(0, 2),
    target=st.integers(1, 70),
    ace_eleven=st.booleans(),
    aces_as_corners=st.booleans(),
    allow_negative=st.booleans(),
    single_card=st.booleans(),
)
def test_solver_matches_brute_force(
    cards: list[str], corners: int, target: int, ace_eleven: bool, aces_as_corners: bool,
    allow_negative: bool, single_card: bool,
) -> None:
    corners = min(corners, len(cards) - 1)
    grid_cards, corner_cards = cards[: len(cards) - corners], cards[len(cards) - corners :]
    board = Board(grid=grid(*grid_cards), corners=(*corner_cards, *[None] * (4 - corners)))
    rules = CombinationRules(ace_eleven, aces_as_corners, allow_negative, single_card)
    found = solve(board, target, rules)
    assert {c.slots for c in found} == reference(board, target, rules)
    extras = frozenset(f"c{i}" for i in range(corners))
    if aces_as_corners:
        extras |= {f"g{i}" for i, card in enumerate(grid_cards) if card.startswith("A")}
    for combination in found:
        assert combination.value == target
        assert is_valid_shape(combination, extras, rules) == ""
        again = resolve_claim(combination.expression, board, extras, target, rules)
        assert again.slots == combination.slots
    assert has_combination(board, target, rules) == bool(found)
