"""The combinations a set of lifted cards can be: every way to write exactly those cards.

The solver finds which sets of cards make the target (one combination per set); when the
player lifts cards off the table the question is the other one: in how many ways do
*these* cards make the target? Jokers (any value 1 to 10), 1-or-11 aces and the order of
products can give more than one, and the player is asked which they meant.

>>> from companion.engine.events import Event
>>> from companion.games.medley.rules import RULES
>>> state = RULES.start(Event("start", {"players": ["mia"]}))
>>> for cell, card in enumerate(["8h", "5c", "10d", "2s", "Qd", "Kh", "Jc", "9c", "3h"]):
...     state = RULES.apply(state, Event("draw", {"card": card, "cell": cell}))
>>> state = RULES.apply(state, Event("roll", {"dice": [4, 5]}))
>>> [c.expression for c in arrangements(state, frozenset({"g1", "g2", "g5"}))]
['5c*10d+Kh']
>>> [c.expression for c in arrangements(state, frozenset({"g0", "g2", "g4", "g8"}))]
['10d*Qd+8h*3h', '8h*Qd+10d*3h']
>>> arrangements(state, frozenset({"g0", "g1"}))
[]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product
from math import prod

from companion.games.medley.rules import MedleyState
from companion.games.medley.solver import (
    Combination,
    Factor,
    Term,
    card_values,
    is_valid_shape,
    solve,
)

MAX_WORK = 200_000
"""The most arrangements tried (value choices x splits x signs, counted high); past that
(many lifted cards, two jokers and corner cards at once) the solver's one combination of
the set is taken."""
BELL = (1, 1, 2, 5, 15, 52, 203, 877, 4140, 21147, 115975, 678570, 4213597, 27644437)
"""How many ways there are to split n cards into products (Bell numbers, n = 0 to 13)."""


def arrangements(state: MedleyState, slots: frozenset[str]) -> list[Combination]:
    """Every valid combination making the target with exactly the cards in ``slots``
    (``g4`` grid cell 4, ``c2`` the face-up corner card on spot 2), in a stable order."""
    if not state.ready or state.target is None or not slots:
        return []
    board = dict(state.board().cards())
    if not slots <= set(board):
        return []
    rules = state.options.combinations
    ordered = sorted(slots, key=lambda s: (s[0] != "g", int(s[1:])))
    extras = state.extras()
    most_terms = 2 + len(extras & slots)
    choices = [[Factor(slot, board[slot], value) for value in card_values(board[slot], rules)]
               for slot in ordered]
    if prod(map(len, choices)) * BELL[len(slots)] * 2 ** most_terms > MAX_WORK:
        found = solve(state.board(), state.target, rules)
        return [combination for combination in found if combination.slots == slots]
    found = []
    for factors in product(*choices):
        for blocks in _partitions(list(factors), most_terms):
            for signs in product((1, -1), repeat=len(blocks)):
                if 1 in signs and _value(blocks, signs) == state.target:
                    terms = sorted((Term(sign, tuple(block)) for sign, block in
                                    zip(signs, blocks, strict=True)), key=lambda t: -t.sign)
                    combination = Combination(terms)
                    if not is_valid_shape(combination, extras, rules):
                        found.append(combination)
    distinct: dict[tuple[tuple[int, tuple[str, ...]], ...], Combination] = {}
    for combination in sorted(found, key=lambda c: c.expression):
        distinct.setdefault(_reading(combination), combination)
    return list(distinct.values())


def _reading(combination: Combination) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """What tells two ways of writing the same cards apart for the player: each product's
    sign and cards with their values, leaving out factors of 1 (an ace times anything is
    the same claim whichever product it is written in)."""
    return tuple(sorted((term.sign, tuple(sorted(f"{f.card}={f.value}" for f in term.factors
                                                 if f.value != 1)))
                        for term in combination.terms))


def _value(blocks: Sequence[Sequence[Factor]], signs: Sequence[int]) -> int:
    return sum(sign * prod(f.value for f in block) for sign, block in zip(signs, blocks,
                                                                         strict=True))


def _partitions(items: list[Factor], most: int) -> Iterator[list[list[Factor]]]:
    """Every split of ``items`` into at most ``most`` products, each split once.

    >>> [[[f.value for f in b] for b in p] for p in _partitions(
    ...     [Factor("g0", "2s", 2), Factor("g1", "3s", 3), Factor("g2", "4s", 4)], 2)]
    [[[2, 3, 4]], [[2], [3, 4]], [[2, 3], [4]], [[3], [2, 4]]]
    """
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for split in _partitions(rest, most):
        for index in range(len(split)):
            yield [*split[:index], [first, *split[index]], *split[index + 1:]]
        if len(split) < most:
            yield [[first], *split]
