"""The Mountainside Math Medley solver against a compact copy of its first algorithm.

``reference_slots`` is the search the solver used before it was made faster (R3's bitsets
over masks, without its speed-ups): for every value a normal part ``P1``, ``P1 + P2`` or
``P1 - P2`` may need to make, the bitset of masks of cards making it, joined with every
choice of extra cards. The solver must list exactly the same sets of cards, on full
boards of 9 grid cards with 0 to 4 corners, jokers (one or two) included.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest

from companion.games.medley.rules import FULL_DECK, target
from companion.games.medley.solver import (
    Board,
    CombinationRules,
    card_values,
    has_combination,
    iter_combinations,
    solve,
)


@cache
def _submasks(count: int) -> list[int]:
    """For every mask of ``count`` items, the bitset of its submasks."""
    table = [1]
    for bit in range(count):
        table += [family | family << (1 << bit) for family in table]
    return table


def _bits(masks: list[int]) -> int:
    """The bitset with bit ``m`` set for each mask ``m``."""
    bits = bytearray(max(masks, default=0) // 8 + 1)
    for mask in masks:
        bits[mask >> 3] |= 1 << (mask & 7)
    return int.from_bytes(bits, "little")


def reference_slots(board: Board, goal: int, rules: CombinationRules) -> set[frozenset[str]]:
    """Every valid set of slots, by the first algorithm."""
    cards = board.cards()
    values = [card_values(card, rules) for _, card in cards]
    extra = [slot[0] == "c" or (rules.aces_as_corners and card[0] == "A") for slot, card in cards]
    count, full = len(cards), (1 << len(cards)) - 1
    table = _submasks(count)
    products: list[set[int]] = [{1}]
    for options in values:
        products += [{p * v for p in made for v in options} for made in products]
    buckets: dict[int, list[int]] = {}
    for mask in range(1, full + 1):
        for value in products[mask]:
            buckets.setdefault(value, []).append(mask)
    sums: dict[int, set[int]] = {0: {0}}
    for item in range(count):
        if extra[item]:
            for mask, totals in list(sums.items()):
                sums[mask | 1 << item] = {t + s * v for t in totals for s in (1, -1)
                                          for v in values[item]}
    needed = {goal - total for totals in sums.values() for total in totals}
    if not rules.allow_negative:
        needed = {n for n in needed if n >= 0}
    made = {n: _bits(buckets.get(n, [])) for n in needed}
    bitsets: dict[int, int] = {}

    def join(v1: int, v2: int, n: int) -> None:
        if len(buckets[v1]) > len(buckets[v2]):
            v1, v2 = v2, v1
        if v2 not in bitsets:
            bitsets[v2] = _bits(buckets[v2])
        other, family = bitsets[v2], 0
        for mask in buckets[v1]:
            family |= (other & table[full ^ mask]) << mask
        made[n] |= family

    for v1 in buckets:
        for n in needed:
            if n - v1 in buckets and v1 <= n - v1:
                join(v1, n - v1, n)
            if v1 - n in buckets:
                join(v1, v1 - n, n)
    valid = 0
    for mask, totals in sums.items():
        family = 0
        for total in totals:
            family |= made.get(goal - total, 0)
        valid |= (family & table[full ^ mask]) << mask
    grid_mask = sum(1 << i for i, (slot, _) in enumerate(cards) if slot[0] == "g")
    found = set()
    for mask in range(1, full + 1):
        usable = valid >> mask & 1 and mask & grid_mask
        if usable and (rules.single_card or mask.bit_count() > 1):
            found.add(frozenset(cards[i][0] for i in range(count) if mask >> i & 1))
    return found


def random_boards(count: int, seed: int) -> Iterator[tuple[Board, int, CombinationRules]]:
    """Full grids with 0 to 4 corners, a third with one joker and a sixth with two."""
    rng = random.Random(seed)
    plain = [card for card in FULL_DECK if card != "JK"]
    for index in range(count):
        corners = index % 5
        cards = rng.sample(plain, 9 + corners)
        for spot in rng.sample(range(len(cards)), index % 6 // 2):
            cards[spot] = "JK"
        rules = CombinationRules(
            ace_eleven=rng.random() < 0.2, aces_as_corners=rng.random() < 0.2,
            allow_negative=rng.random() < 0.8, single_card=rng.random() < 0.8,
        )
        spots = (*cards[9:], *[None] * (4 - corners))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        yield Board(grid=tuple(cards[:9]), corners=spots), target(dice), rules


@pytest.mark.parametrize("seed", range(4))
def test_the_solver_lists_what_the_first_algorithm_listed(seed: int) -> None:
    for board, goal, rules in random_boards(50, seed):
        expected = reference_slots(board, goal, rules)
        found = solve(board, goal, rules)
        assert {c.slots for c in found} == expected, (board, goal, rules)
        assert len(found) == len(expected)
        assert has_combination(board, goal, rules) == bool(expected)


def test_two_jokers_and_four_corners() -> None:
    board = Board(grid=("8c", "2s", "JK", "4h", "5s", "5h", "7s", "9h", "4d"),
                  corners=("10h", "Kd", "7d", "JK"))
    rules = CombinationRules()
    expected = reference_slots(board, 65, rules)
    assert {c.slots for c in solve(board, 65, rules)} == expected
    listed = [c.slots for c in iter_combinations(board, 65, rules)]
    assert listed == [c.slots for c in solve(board, 65, rules)]
    assert all(c.value == 65 for c in solve(board, 65, rules)[::97])
