"""Mountainside Math Medley combinations: card values, validation and an exhaustive solver.

A combination is a signed sum of *terms*; each term is a product of one or more cards.
At most two terms are *normal* (``P1``, ``P1 + P2`` or ``P1 - P2``: "multiply as many
times as you want and add or subtract once"); every other term is a single *extra* card
added or subtracted on top: a face-up corner card, or a grid ace when ``aces_as_corners``.
A corner card may also be a normal card inside a product. Every combination uses at least
one grid card. The readings are documented in ``docs/games/medley.md``.

Positions are *slots*: ``g0`` .. ``g8`` for the grid cells (row by row) and ``c0``,
``c1``, ... for the corner spots.

>>> board = Board(grid=("8h", "5c", "10d", "2s", "Qd", "Kh", "Jc", "9c", "3h"))
>>> sorted(c.short for c in solve(board, 45) if len(c.slots) <= 3)
['10*K+5', '5*9', '5*Q*3']
>>> has_combination(board, 45)
True
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product as cartesian
from math import prod

from companion.playing_cards import JOKER, PlayingCard

FACE_VALUES = {"A": 1, "J": 2, "Q": 3, "K": 4}
JOKER_VALUES = tuple(range(1, 11))


@dataclass(frozen=True)
class CombinationRules:
    """The table's choices that change which combinations are valid.

    ``ace_eleven``: an ace is worth 1 or 11, as the player likes. ``aces_as_corners``: a
    grid ace may also be an extra + or - card, like a corner card. ``allow_negative``:
    the normal part ``P1 - P2`` may be below zero when extra cards make up the target.
    ``single_card``: a combination of one card only counts.
    """

    ace_eleven: bool = False
    aces_as_corners: bool = False
    allow_negative: bool = True
    single_card: bool = True


def card_values(card: str, rules: CombinationRules = CombinationRules()) -> tuple[int, ...]:
    """The values a card may take: A 1 (or 1 and 11), J 2, Q 3, K 4, joker 1 to 10.

    >>> card_values("Qd"), card_values("10h"), card_values("Ac", CombinationRules(ace_eleven=True))
    ((3,), (10,), (1, 11))
    >>> card_values("JK") == tuple(range(1, 11))
    True
    """
    rank = PlayingCard.parse(card).rank
    if rank == JOKER:
        return JOKER_VALUES
    if rank == "A" and rules.ace_eleven:
        return (1, 11)
    return (FACE_VALUES.get(rank) or int(rank),)


@dataclass(frozen=True)
class Board:
    """What the solver may use: grid cards by cell (None = empty) and face-up corner cards
    by spot (None = no card or a used, face-down one)."""

    grid: tuple[str | None, ...]
    corners: tuple[str | None, ...] = ()

    def cards(self) -> list[tuple[str, str]]:
        """Every usable (slot, card), grid cells first.

        >>> Board(grid=("Kd", None), corners=(None, "JK")).cards()
        [('g0', 'Kd'), ('c1', 'JK')]
        """
        grid = [(f"g{cell}", card) for cell, card in enumerate(self.grid) if card is not None]
        corners = [(f"c{spot}", card) for spot, card in enumerate(self.corners) if card is not None]
        return grid + corners


@dataclass(frozen=True)
class Factor:
    """One card in a term, with the value it takes (jokers and 1-or-11 aces choose)."""

    slot: str
    card: str
    value: int

    @property
    def token(self) -> str:
        """The card name, with the chosen value in brackets where the card could choose,
        and a joker's place (the two jokers look alike): ``JK(7)@g4``."""
        rank = PlayingCard.parse(self.card).rank
        if rank == JOKER:
            return f"{self.card}({self.value})@{self.slot}"
        if rank == "A" and self.value != 1:
            return f"{self.card}({self.value})"
        return self.card

    @property
    def short_token(self) -> str:
        """The rank only (``Q``, ``10``), or the chosen value of a joker (``JK(7)``)."""
        rank = PlayingCard.parse(self.card).rank
        if rank == JOKER or (rank == "A" and self.value != 1):
            return f"{rank}({self.value})"
        return rank


@dataclass(frozen=True)
class Term:
    """A product of cards, added (sign +1) or subtracted (sign -1)."""

    sign: int
    factors: tuple[Factor, ...]

    @property
    def value(self) -> int:
        """The signed product."""
        return self.sign * prod(factor.value for factor in self.factors)


def _slot_key(slot: str) -> tuple[bool, int]:
    return (slot[0] != "g", int(slot[1:]))


@dataclass(frozen=True)
class Combination:
    """A claimed or found combination: its terms, in the order written."""

    terms: tuple[Term, ...]

    @classmethod
    def of(cls, terms: Sequence[Term]) -> Combination:
        """The combination in canonical order: added terms first, longer products first,
        factors in slot order (so ``a*b`` and ``b*a``, ``a+b`` and ``b+a`` are one)."""
        ordered = [
            Term(t.sign, tuple(sorted(t.factors, key=lambda f: _slot_key(f.slot)))) for t in terms
        ]
        ordered.sort(
            key=lambda t: (-t.sign, -len(t.factors), [_slot_key(f.slot) for f in t.factors])
        )
        return cls(tuple(ordered))

    @property
    def value(self) -> int:
        """What the combination adds up to."""
        return sum(term.value for term in self.terms)

    @property
    def slots(self) -> frozenset[str]:
        """Every slot the combination uses."""
        return frozenset(f.slot for term in self.terms for f in term.factors)

    @property
    def key(self) -> frozenset[tuple[int, frozenset[str], int]]:
        """What makes two combinations the same: their signed products of the same slots."""
        return frozenset(
            (term.sign, frozenset(f.slot for f in term.factors), term.value) for term in self.terms
        )

    def _text(self, short: bool) -> str:
        parts = []
        for index, term in enumerate(self.terms):
            sign = "-" if term.sign < 0 else ("+" if index else "")
            tokens = (f.short_token if short else f.token for f in term.factors)
            parts.append(sign + "*".join(tokens))
        return "".join(parts)

    @property
    def expression(self) -> str:
        """With card names, as a claim is written: ``Qd*Kh*5c-10s``, ``JK(7)*5h+10c``."""
        return self._text(short=False)

    @property
    def short(self) -> str:
        """With ranks only, as a hint is shown: ``Q*K*5-10``."""
        return self._text(short=True)

    def __str__(self) -> str:
        return self.expression


def is_valid_shape(
    combination: Combination, extras: frozenset[str], rules: CombinationRules
) -> str:
    """Why the combination breaks the rules, or ``""`` if its shape is allowed.

    ``extras`` are the slots that may be an extra + or - card (face-up corners, and grid
    aces with ``aces_as_corners``). Some choice of extra terms among the single-card terms
    must leave one or two normal terms, at least one of them added.

    >>> corner_k = frozenset({"c0"})
    >>> k, five, ten = Factor("c0", "Kd", 4), Factor("g0", "5h", 5), Factor("g1", "10s", 10)
    >>> is_valid_shape(Combination((Term(1, (k,)), Term(1, (five,)), Term(1, (ten,)))),
    ...                corner_k, CombinationRules())
    ''
    >>> is_valid_shape(Combination((Term(1, (k,)), Term(1, (five,)), Term(1, (ten,)))),
    ...                frozenset(), CombinationRules())
    'you may only add or subtract once, plus one + or - per corner card'
    """
    factors = [f for term in combination.terms for f in term.factors]
    if len({f.slot for f in factors}) != len(factors):
        return "a card is used twice"
    if not any(f.slot.startswith("g") for f in factors):
        return "a combination must use at least one grid card"
    if len(factors) < 2 and not rules.single_card:
        return "a combination needs at least two cards"
    terms = combination.terms
    singles = [
        i for i, t in enumerate(terms) if len(t.factors) == 1 and t.factors[0].slot in extras
    ]
    for chosen in range(1 << len(singles)):
        extra = {singles[bit] for bit in range(len(singles)) if chosen >> bit & 1}
        normal = [t for i, t in enumerate(terms) if i not in extra]
        if not 1 <= len(normal) <= 2 or all(t.sign < 0 for t in normal):
            continue
        if rules.allow_negative or sum(t.value for t in normal) >= 0:
            return ""
    if len(terms) - len(singles) > 2 or not singles:
        return "you may only add or subtract once, plus one + or - per corner card"
    return "no reading of the extra cards leaves one add or subtract with a positive first product"


@dataclass(frozen=True)
class _Item:
    slot: str
    card: str
    values: tuple[int, ...]


_Extra = tuple[int, tuple[tuple[int, int], ...]]
"""Extra cards added or subtracted: the mask of items used and (item, signed value)s."""

_Part = tuple[int, int, int]
"""A normal product: sign, mask of items, value."""


class _Search:
    """One board's precomputed products and extra-card sums.

    Combinations are told apart by the set of slots they use: that is what happens at the
    table (those grid cards go, those corners turn face-down), so each set is found once.
    """

    def __init__(self, board: Board, target: int, rules: CombinationRules) -> None:
        self.target, self.rules = target, rules
        cards = [(slot, str(PlayingCard.parse(card))) for slot, card in board.cards()]
        self.items = [_Item(slot, card, card_values(card, rules)) for slot, card in cards]
        self.grid_mask = sum(1 << i for i, it in enumerate(self.items) if it.slot[0] == "g")
        self.extra_mask = sum(
            1 << i
            for i, it in enumerate(self.items)
            if it.slot[0] == "c" or (rules.aces_as_corners and it.card[0] == "A")
        )
        self.products = self._products()
        self.extras = self._extras()
        self.seen: set[int] = set()

    def _products(self) -> list[tuple[int, ...]]:
        """For every mask of items, the values its product can take."""
        products: list[tuple[int, ...]] = [(1,)]
        for mask in range(1, 1 << len(self.items)):
            low = mask & -mask
            values = self.items[low.bit_length() - 1].values
            rest = products[mask ^ low]
            if len(values) == 1:
                x = values[0]
                products.append(tuple(v * x for v in rest))
            else:
                products.append(tuple({v * x for v in rest for x in values}))
        return products

    def _extras(self) -> dict[int, dict[int, list[_Extra]]]:
        """For every set of free extra-eligible items: the sums they can make, and how."""
        eligible = [i for i in range(len(self.items)) if self.extra_mask >> i & 1]
        choices = [
            [(0, 0)] + [(i, s * v) for s in (1, -1) for v in self.items[i].values] for i in eligible
        ]
        assignments = []
        for picked in cartesian(*choices):
            used = tuple((i, v) for i, v in picked if v)
            assignments.append((sum(1 << i for i, _ in used), sum(v for _, v in used), used))
        table: dict[int, dict[int, list[_Extra]]] = {}
        free = self.extra_mask
        while True:
            sums: dict[int, list[_Extra]] = {}
            for mask, total, used in assignments:
                if mask & ~free == 0:
                    sums.setdefault(total, []).append((mask, used))
            table[free] = sums
            if free == 0:
                return table
            free = (free - 1) & self.extra_mask

    def _new(self, parts: Sequence[_Part], extra: _Extra) -> Combination | None:
        """The combination of normal products and extra cards, if its slot set is new."""
        used = extra[0]
        for _, mask, _ in parts:
            used |= mask
        if used in self.seen or not used & self.grid_mask:
            return None
        if not self.rules.single_card and used & (used - 1) == 0:
            return None
        self.seen.add(used)
        terms = [Term(sign, self._factors(mask, value)) for sign, mask, value in parts]
        for i, v in extra[1]:
            item = self.items[i]
            terms.append(Term(1 if v > 0 else -1, (Factor(item.slot, item.card, abs(v)),)))
        return Combination.of(terms)

    def _factors(self, mask: int, value: int) -> tuple[Factor, ...]:
        """The cards of ``mask``, with values (jokers and aces choose) making ``value``."""
        items = [self.items[i] for i in range(len(self.items)) if mask >> i & 1]
        for values in cartesian(*(item.values for item in items)):
            if prod(values) == value:
                return tuple(
                    Factor(it.slot, it.card, v) for it, v in zip(items, values, strict=True)
                )
        raise AssertionError(f"no factor values give {value}")

    def combinations(self) -> Iterator[Combination]:
        """Every valid combination, one per set of slots used."""
        target, extras, extra_mask = self.target, self.extras, self.extra_mask
        extra_sums = sorted(extras[extra_mask])
        lowest, highest = extra_sums[0], extra_sums[-1]
        by_value: dict[int, list[int]] = {}
        for mask, products in enumerate(self.products):
            if not mask:
                continue
            free = extras[extra_mask & ~mask]
            for value in products:
                by_value.setdefault(value, []).append(mask)
                for extra in free.get(target - value, ()):
                    found = self._new([(1, mask, value)], extra)
                    if found:
                        yield found
        values = sorted(by_value)
        # P1 + P2: each product at most target - lowest extra sum.
        for i, v1 in enumerate(values):
            if 2 * v1 > target - lowest:
                break
            start = bisect_left(values, max(v1, target - highest - v1), lo=i)
            stop = bisect_right(values, target - lowest - v1)
            for v2 in values[start:stop]:
                yield from self._pairs(1, v1, v2, by_value)
        # P1 - P2 = n for every n = target - extra sum.
        needed = {target - s for s in extra_sums}
        if not self.rules.allow_negative:
            needed = {n for n in needed if n >= 0}
        if not needed:
            return
        low_n, high_n = min(needed), max(needed)
        for v2 in values:
            start = bisect_left(values, v2 + low_n)
            stop = bisect_right(values, v2 + high_n)
            for v1 in values[start:stop]:
                if v1 - v2 in needed:
                    yield from self._pairs(-1, v1, v2, by_value)

    def _pairs(
        self, sign: int, v1: int, v2: int, by_value: dict[int, list[int]]
    ) -> Iterator[Combination]:
        extras, extra_mask, seen = self.extras, self.extra_mask, self.seen
        rest = self.target - v1 - sign * v2
        for m1 in by_value[v1]:
            for m2 in by_value[v2]:
                if m1 & m2 or (sign > 0 and v1 == v2 and m1 > m2):
                    continue
                both = m1 | m2
                for extra in extras[extra_mask & ~both].get(rest, ()):
                    if both | extra[0] in seen:
                        continue
                    found = self._new([(1, m1, v1), (sign, m2, v2)], extra)
                    if found:
                        yield found


def solve(
    board: Board, target: int, rules: CombinationRules = CombinationRules()
) -> list[Combination]:
    """Every valid combination that makes ``target``: one per set of cards used, fewest first.

    >>> board = Board(grid=("5h", "10c", "3d") + (None,) * 6, corners=("Kd", None, None, None))
    >>> [c.short for c in solve(board, 19)]
    ['5+10+K', '5*3+K']
    """
    found = _Search(board, target, rules).combinations()
    return sorted(found, key=lambda c: (len(c.slots), sorted(map(_slot_key, c.slots))))


def iter_combinations(
    board: Board, target: int, rules: CombinationRules = CombinationRules()
) -> Iterator[Combination]:
    """Valid combinations one at a time, one per set of cards, in the order found (hints
    need only the first few, and the first arrives long before the full list)."""
    return _Search(board, target, rules).combinations()


def has_combination(
    board: Board, target: int, rules: CombinationRules = CombinationRules()
) -> bool:
    """Whether any valid combination makes ``target``; stops at the first one found."""
    return next(iter_combinations(board, target, rules), None) is not None
