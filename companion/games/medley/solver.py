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

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, reduce
from itertools import pairwise
from itertools import product as cartesian
from math import prod
from operator import or_

import numpy as np

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


@cache
def _rank(card: str) -> str:
    """The rank of a card name: ``"10"`` for ``"10h"``, ``"JK"`` for a joker."""
    return PlayingCard.parse(card).rank


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
        rank = _rank(self.card)
        if rank == JOKER:
            return f"{self.card}({self.value})@{self.slot}"
        if rank == "A" and self.value != 1:
            return f"{self.card}({self.value})"
        return self.card

    @property
    def short_token(self) -> str:
        """The rank only (``Q``, ``10``), or the chosen value of a joker (``JK(7)``)."""
        rank = _rank(self.card)
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


def _canonical(terms: Sequence[Term]) -> tuple[Term, ...]:
    """The terms in one order: added before subtracted, longer products first, by slot."""
    ordered = [
        Term(t.sign, tuple(sorted(t.factors, key=lambda f: _slot_key(f.slot)))) for t in terms
    ]
    ordered.sort(key=lambda t: (-t.sign, -len(t.factors), [_slot_key(f.slot) for f in t.factors]))
    return tuple(ordered)


class Combination:
    """A claimed or found combination: its terms, in the order written.

    The solver finds the sets of cards first and writes a combination's terms only when
    they are asked for, so listing thousands of combinations stays cheap.
    """

    __slots__ = ("_mask", "_slots", "_source", "_terms")

    def __init__(self, terms: Sequence[Term]) -> None:
        self._terms: tuple[Term, ...] = tuple(terms)
        self._source: _Search | None = None
        self._mask = 0

    @staticmethod
    def _deferred(source: _Search, masks: list[int]) -> list[Combination]:
        """The combinations of the cards in each of ``masks``, written by ``source`` on
        first use (terms and slots are left unset until then: that is the fast way)."""
        new, found = Combination.__new__, []
        for mask in masks:
            combination = new(Combination)
            combination._source = source
            combination._mask = mask
            found.append(combination)
        return found

    @property
    def terms(self) -> tuple[Term, ...]:
        """The signed products, in the order written."""
        try:
            return self._terms
        except AttributeError:
            assert self._source is not None
            self._terms = self._source.terms(self._mask)
            return self._terms

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Combination) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(self.terms)

    def __repr__(self) -> str:
        return f"Combination({self.expression!r})"

    @property
    def value(self) -> int:
        """What the combination adds up to."""
        return sum(term.value for term in self.terms)

    @property
    def slots(self) -> frozenset[str]:
        """Every slot the combination uses."""
        try:
            return self._slots
        except AttributeError:
            if self._source is not None:
                self._slots: frozenset[str] = self._source.slots(self._mask)
            else:
                self._slots = frozenset(f.slot for term in self.terms for f in term.factors)
            return self._slots

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


TABLE_LIMIT = 13
"""Up to this many usable cards a table of every mask's submasks is kept (8 MB at 13);
beyond it (more corner spots) the disjoint masks are found item by item."""


@cache
def _submasks(count: int) -> list[int]:
    """For every mask of ``count`` items, a bitset (an int) of all its submasks.

    The union of disjoint masks is their sum, so shifting a bitset of masks left by
    ``m`` turns each mask ``x`` into ``x | m``: whole families of unions in one step.
    """
    table = [1]
    for bit in range(count):
        table += [family | family << (1 << bit) for family in table]
    return table


@cache
def _complements(count: int) -> list[int]:
    """For every mask of ``count`` items, the bitset of the masks sharing no item with it
    (the submasks of its complement)."""
    return _submasks(count)[::-1]


@cache
def _lacking(count: int) -> list[int]:
    """For each of ``count`` items, the bitset of masks without it.

    >>> [bin(family) for family in _lacking(2)]
    ['0b101', '0b11']
    """
    families = []
    for item in range(count):
        block = (1 << (1 << item)) - 1
        period = 1 << (item + 1)
        families.append(sum(block << start for start in range(0, 1 << count, period)))
    return families


@cache
def _lacking_groups(count: int) -> list[list[int]]:
    """The bitsets of masks of ``count`` items without some of them, for groups of six
    items: ``groups[g][s]`` lacks every item of the subset ``s`` of group ``g``.

    >>> [[bin(family) for family in group] for group in _lacking_groups(2)]
    [['0b1111', '0b101', '0b11', '0b1']]
    """
    everything, lacking = (1 << (1 << count)) - 1, _lacking(count)
    groups = []
    for first in range(0, count, 6):
        items = lacking[first : first + 6]
        group = [everything]
        for family in items:
            group += [known & family for known in group]
        groups.append(group)
    return groups


def _members(bitset: int) -> np.ndarray:
    """The masks whose bits are set in ``bitset``, in increasing order.

    >>> _members(0b10110).tolist()
    [1, 2, 4]
    """
    octets = bitset.to_bytes((bitset.bit_length() + 7) // 8, "little")
    return np.flatnonzero(np.unpackbits(np.frombuffer(octets, np.uint8), bitorder="little"))


class _Buckets:
    """Masks grouped by the value of their product, values in increasing order: the
    masks of bucket ``k`` make ``values[k]`` (a mask with a joker is in one bucket for
    each value it can take)."""

    def __init__(self, values: np.ndarray, masks: np.ndarray, count: int) -> None:
        if values.max() < 1 << (62 - count):  # sorting one key is faster than a lexsort
            keys = np.sort(values << count | masks)
            values, self._masks = keys >> count, keys & ((1 << count) - 1)
        else:
            order = np.lexsort((masks, values))
            values, self._masks = values[order], masks[order]
        start = np.flatnonzero(np.diff(values, prepend=0))
        self.values = values[start]
        bounds: list[int] = [*start.tolist(), len(masks)]
        self.bounds = list(pairwise(bounds))
        self.sizes: list[int] = np.diff(bounds).tolist()
        self.index = {value: k for k, value in enumerate(self.values.tolist())}
        self._count = count
        self._members: dict[int, list[int]] = {}
        self._bitsets: dict[int, int] = {}
        self._octets = self._all_octets(start) if count <= TABLE_LIMIT else None

    def _all_octets(self, start: np.ndarray) -> np.ndarray:
        """Every bucket's bitset as bytes, one row per bucket, in one pass: the masks of a
        bucket are in increasing order, so those sharing a byte are neighbours."""
        width = max((1 << self._count) // 8, 1)
        rows = np.repeat(np.arange(len(start)), self.sizes)
        places = rows * width + (self._masks >> 3)
        firsts = np.flatnonzero(np.diff(places, prepend=-1))
        bits = np.left_shift(1, self._masks & 7).astype(np.uint8)
        octets = np.zeros((len(start), width), dtype=np.uint8)
        octets.ravel()[places[firsts]] = np.bitwise_or.reduceat(bits, firsts)
        return octets

    def members(self, k: int) -> list[int]:
        """The masks making the ``k``-th value."""
        if k not in self._members:
            start, end = self.bounds[k]
            self._members[k] = self._masks[start:end].tolist()
        return self._members[k]

    def bitset(self, k: int) -> int:
        """The bitset of the masks making the ``k``-th value."""
        if k not in self._bitsets:
            if self._octets is not None:
                self._bitsets[k] = int.from_bytes(self._octets[k].tobytes(), "little")
            else:
                start, end = self.bounds[k]
                bits = np.zeros(max(1 << self._count, 8), dtype=np.bool_)
                bits[self._masks[start:end]] = True
                octets = np.packbits(bits, bitorder="little").tobytes()
                self._bitsets[k] = int.from_bytes(octets, "little")
        return self._bitsets[k]

    def sums(self, targets: np.ndarray) -> list[tuple[int, int, int]]:
        """``(k1, k2, n)`` for every pair of values ``v1 <= v2`` with ``v1 + v2 = n``, a
        target."""
        values = self.values[: np.searchsorted(self.values, targets.max() // 2, "right")]
        wanted = targets[None, :] - values[:, None]
        return self._pairs(wanted, wanted >= values[:, None], targets, first_given=True)

    def differences(self, targets: np.ndarray) -> list[tuple[int, int, int]]:
        """``(k1, k2, n)`` for every pair of values with ``v1 - v2 = n``, a target."""
        wanted = self.values[:, None] + targets[None, :]
        return self._pairs(wanted, wanted > 0, targets, first_given=False)

    def _pairs(
        self, wanted: np.ndarray, allowed: np.ndarray, targets: np.ndarray, first_given: bool
    ) -> list[tuple[int, int, int]]:
        """Where ``wanted[k, j]`` is one of the values: ``k``, its index and ``targets[j]``."""
        found = np.searchsorted(self.values, wanted).clip(max=len(self.values) - 1)
        rows, columns = np.nonzero(allowed & (self.values[found] == wanted))
        given, other, made = rows.tolist(), found[rows, columns].tolist(), targets[columns]
        if first_given:
            return list(zip(given, other, made.tolist(), strict=True))
        return list(zip(other, given, made.tolist(), strict=True))


class _Search:
    """One board's combinations, as bitsets over masks of the usable cards.

    ``made[n]`` is the bitset of masks whose cards make ``n`` as ``P1``, ``P1 + P2`` or
    ``P1 - P2``; a valid combination is such a mask plus extra cards making up the rest.
    Combinations are told apart by the set of slots they use: that is what happens at the
    table (those grid cards go, those corners turn face-down).
    """

    def __init__(
        self, board: Board, target: int, rules: CombinationRules, first_only: bool = False
    ) -> None:
        self.target, self.rules = target, rules
        cards = [(slot, str(PlayingCard.parse(card))) for slot, card in board.cards()]
        self.items = [_Item(slot, card, card_values(card, rules)) for slot, card in cards]
        self.full = (1 << len(self.items)) - 1
        self.grid_mask = sum(1 << i for i, it in enumerate(self.items) if it.slot[0] == "g")
        self.extra_mask = sum(
            1 << i
            for i, it in enumerate(self.items)
            if it.slot[0] == "c" or (rules.aces_as_corners and it.card[0] == "A")
        )
        self.choosing_mask = sum(1 << i for i, it in enumerate(self.items) if len(it.values) > 1)
        if len(self.items) <= TABLE_LIMIT:
            table, full = _submasks(len(self.items)), self.full
            self.disjoint: Callable[[int], int] = lambda mask: table[full ^ mask]
        else:
            self.disjoint = self._disjoint_by_item
        self.products = self._products()
        self.base: list[int] = self.products.tolist()
        self.multipliers = self._multipliers()
        self.extras = self._extras()
        self.extras_by_size: list[tuple[int, set[int]]] = []
        self.made: dict[int, int] = {}
        self.found = self._valid(first_only) if self.items else 0

    def _disjoint_by_item(self, mask: int) -> int:
        """The bitset of masks sharing no item with ``mask``, without the big table: one
        intersection per group of six items."""
        groups = _lacking_groups(len(self.items))
        family = groups[0][mask & 63]
        for index in range(1, len(groups)):
            family &= groups[index][mask >> 6 * index & 63]
        return family

    def _products(self) -> np.ndarray:
        """For every mask of items, the product of its one-value cards."""
        products = np.ones(1, dtype=np.int64)
        for item in self.items:
            factor = item.values[0] if len(item.values) == 1 else 1
            products = np.concatenate((products, products * factor))
        return products

    def _multipliers(self, above_one: bool = False) -> dict[int, tuple[int, ...]]:
        """For every set of choosing cards (jokers, 1-or-11 aces), the multipliers they
        can add to a product (with ``above_one``, each card taking a value above 1)."""
        multipliers: dict[int, tuple[int, ...]] = {0: (1,)}
        for i, item in enumerate(self.items):
            if len(item.values) > 1:
                values = [x for x in item.values if x > 1] if above_one else item.values
                for chosen, factors in list(multipliers.items()):
                    multipliers[chosen | 1 << i] = tuple({c * x for c in factors for x in values})
        return multipliers

    def choosing(self, mask: int) -> tuple[int, ...]:
        """The multipliers the choosing cards of ``mask`` can add to its product."""
        return self.multipliers[mask & self.choosing_mask]

    def _extras(self) -> dict[int, set[int]]:
        """For every set of extra cards, each used once: the sums they can add."""
        sums: dict[int, set[int]] = {0: {0}}
        for i in range(len(self.items)):
            if not self.extra_mask >> i & 1:
                continue
            for mask, totals in list(sums.items()):
                sums[mask | 1 << i] = {
                    t + s * v for t in totals for s in (1, -1) for v in self.items[i].values
                }
        return sums

    def _valid(self, first_only: bool) -> int:
        """The bitset of every mask of cards that is a valid combination (with
        ``first_only``, of those found by the first stage that finds any)."""
        needed = {self.target - s for sums in self.extras.values() for s in sums}
        valid = 0
        for made in self._made(needed, first_only):
            self.made = made
            valid = 0
            for extra, sums in self.extras.items():
                family = 0
                for total in sums:
                    family |= made.get(self.target - total, 0)
                valid |= (family & self.disjoint(extra)) << extra
            valid &= ~self.disjoint(self.grid_mask)
            if not self.rules.single_card:
                valid &= ~sum(1 << (1 << i) for i in range(len(self.items)))
            if valid and first_only:
                break
        return valid

    def _buckets(self, ones: list[int], may_be_one: list[int]) -> _Buckets:
        """The searched masks by value: those without cards worth 1, each 1 alone, and
        the cards that may be worth 1 (jokers, 1-or-11 aces) worth more, or 1 alone."""
        masks = np.arange(1, self.full + 1, dtype=np.int64)
        masks = np.concatenate((masks[(masks & sum(ones)) == 0], np.array(ones, np.int64)))
        chosen = masks & self.choosing_mask
        values, grouped = [np.ones(len(may_be_one), np.int64)], [np.array(may_be_one, np.int64)]
        for subset, factors in self._multipliers(above_one=True).items():
            group = masks[chosen == subset]
            values.append(np.multiply.outer(self.products[group], factors).ravel())
            grouped.append(np.repeat(group, len(factors)))
        return _Buckets(np.concatenate(values), np.concatenate(grouped), len(self.items))

    def _made(self, needed: set[int], first_only: bool) -> Iterator[dict[int, int]]:
        """For each needed normal value, the bitset of masks making it: first with single
        products and sums ``P1 + P2`` (for the loss check, the target itself first), then
        also with differences ``P1 - P2``.

        Cards worth exactly 1 change no product, so masks are first searched without them
        (a lone 1 stands for itself), then every found mask takes any of them on top. A
        joker or a 1-or-11 ace is searched with its other values, and as a lone 1, then
        taken on top the same way.
        """
        ones = [1 << i for i, item in enumerate(self.items) if item.values == (1,)]
        may_be_one = [
            1 << i for i, item in enumerate(self.items) if len(item.values) > 1 and 1 in item.values
        ]
        buckets = self._buckets(ones, may_be_one)
        made = {n: 0 for n in needed}
        made.update((n, buckets.bitset(buckets.index[n])) for n in needed if n in buckets.index)
        disjoint = self.disjoint
        table = _complements(len(self.items)) if len(self.items) <= TABLE_LIMIT else None
        flags: dict[int, bytes | None] = {disjoint(0): None}
        relevant = self._relevant()

        def restriction(family: int) -> tuple[bytes | None, int]:
            """Which masks to walk (None: all of them) and which to join them with."""
            if family not in flags:
                octets = family.to_bytes(((1 << len(self.items)) + 7) // 8, "little")
                bits = np.unpackbits(np.frombuffer(octets, np.uint8), bitorder="little")
                flags[family] = bits.tobytes()
            return flags[family], family

        restrictions = {n: restriction(family) for n, family in relevant.items()}
        sizes, members_of, bitset_of = buckets.sizes, buckets.members, buckets.bitset

        def join(pairs: Iterable[tuple[int, int, tuple[int, ...]]]) -> None:
            for k1, k2, targets in pairs:
                small, large = (k1, k2) if sizes[k1] <= sizes[k2] else (k2, k1)
                if len(targets) == 1:
                    keep, family_of_all = restrictions[targets[0]]
                else:
                    keep, family_of_all = restriction(reduce(or_, (relevant[n] for n in targets)))
                other, family, members = bitset_of(large), 0, members_of(small)
                if table is None:
                    if keep is not None:
                        other &= family_of_all
                        members = [mask for mask in members if keep[mask]]
                    for mask in members:
                        family |= (other & disjoint(mask)) << mask
                elif keep is None:  # the same with the table, without a call per mask
                    for mask in members:
                        family |= (other & table[mask]) << mask
                else:
                    other &= family_of_all
                    for mask in members:
                        if keep[mask]:
                            family |= (other & table[mask]) << mask
                for n in targets:
                    made[n] |= family

        stages = [[self.target], sorted(needed - {self.target})] if first_only else [needed]
        for targets in stages:
            if targets:
                sums = buckets.sums(np.array(sorted(targets), dtype=np.int64))
                join((k1, k2, (n,)) for k1, k2, n in sums)
            yield self._with_ones(made, ones + may_be_one)
        low = min(needed) if self.rules.allow_negative else max(min(needed), 0)
        differences = [n for n in sorted(needed) if n >= low]
        if differences:
            # P1 - P2 = n and P2 - P1 = -n join the same two buckets: once for both
            both: dict[tuple[int, int, int], tuple[int, ...]] = {}
            for k1, k2, n in buckets.differences(np.array(differences, dtype=np.int64)):
                key = (k1, k2, n) if n >= 0 else (k2, k1, -n)
                both[key] = (*both.get(key, ()), n)
            join((k1, k2, targets) for (k1, k2, _), targets in both.items())
            yield self._with_ones(made, ones + may_be_one)

    def _relevant(self) -> dict[int, int]:
        """For each needed value ``n``, the bitset of masks for which making ``n`` matters:
        those leaving out some set of extra cards that can add ``target - n``. The set is
        closed under taking fewer cards, so both parts of a pair making ``n`` are in it."""
        relevant: dict[int, int] = {}
        for extra, sums in self.extras.items():
            family = self.disjoint(extra)
            for total in sums:
                relevant[self.target - total] = relevant.get(self.target - total, 0) | family
        return relevant

    def _with_ones(self, made: dict[int, int], ones: list[int]) -> dict[int, int]:
        """``made`` with any of the cards worth 1 added to every mask."""
        made = {n: family for n, family in made.items() if family}
        for one in ones:
            without = self.disjoint(one)
            for n, family in made.items():
                made[n] = family | (family & without) << one
        return made

    def masks(self) -> list[int]:
        """Every valid mask, fewest cards first."""
        found = _members(self.found)
        counts = np.zeros_like(found)
        for item in range(len(self.items)):
            counts += found >> item & 1
        ordered: list[int] = found[np.lexsort((found, counts))].tolist()
        return ordered

    def combination(self, mask: int) -> Combination:
        """The combination of a valid mask; its terms are written when first asked for."""
        return Combination._deferred(self, [mask])[0]

    def slots(self, mask: int) -> frozenset[str]:
        """The slots of the cards in ``mask``."""
        return frozenset(self.items[i].slot for i in range(len(self.items)) if mask >> i & 1)

    def terms(self, mask: int) -> tuple[Term, ...]:
        """One way of writing a valid mask as terms, using as many extra cards as it can."""
        if not self.extras_by_size:
            self.extras_by_size = sorted(self.extras.items(), key=lambda e: -e[0].bit_count())
        for extra, sums in self.extras_by_size:
            if extra & ~mask:
                continue
            normal = mask ^ extra
            for total in sums:
                if self.made.get(self.target - total, 0) >> normal & 1:
                    parts = self._normal(normal, self.target - total)
                    return _canonical([*parts, *self._signs(extra, total)])
        raise AssertionError(f"mask {mask} is not a valid combination")

    def _has(self, mask: int, value: int) -> bool:
        """Whether the product of the cards in ``mask`` can be ``value``."""
        quotient, remainder = divmod(value, self.base[mask])
        return remainder == 0 and quotient in self.choosing(mask)

    def _normal(self, mask: int, n: int) -> list[Term]:
        """Terms ``P1``, ``P1 + P2`` or ``P1 - P2`` of exactly ``mask`` making ``n``."""
        if n > 0 and self._has(mask, n):
            return [Term(1, self._factors(mask, n))]
        sub = (mask - 1) & mask
        while sub:
            rest = mask ^ sub
            for c in self.choosing(sub):
                v1 = self.base[sub] * c
                for sign, v2 in ((1, n - v1), (-1, v1 - n)):
                    if v2 > 0 and self._has(rest, v2):
                        return [
                            Term(1, self._factors(sub, v1)),
                            Term(sign, self._factors(rest, v2)),
                        ]
            sub = (sub - 1) & mask
        raise AssertionError(f"mask {mask} cannot make {n}")

    def _signs(self, extra: int, total: int) -> list[Term]:
        """Each extra card added or subtracted, the signed values summing to ``total``."""
        chosen = [i for i in range(len(self.items)) if extra >> i & 1]
        options = [[s * v for s in (1, -1) for v in self.items[i].values] for i in chosen]
        for signed in cartesian(*options):
            if sum(signed) == total:
                return [
                    Term(
                        1 if v > 0 else -1,
                        (Factor(self.items[i].slot, self.items[i].card, abs(v)),),
                    )
                    for i, v in zip(chosen, signed, strict=True)
                ]
        raise AssertionError(f"extra cards {extra} cannot make {total}")

    def _factors(self, mask: int, value: int) -> tuple[Factor, ...]:
        """The cards of ``mask``, with values (jokers and aces choose) making ``value``."""
        items = [self.items[i] for i in range(len(self.items)) if mask >> i & 1]
        for values in cartesian(*(item.values for item in items)):
            if prod(values) == value:
                return tuple(
                    Factor(it.slot, it.card, v) for it, v in zip(items, values, strict=True)
                )
        raise AssertionError(f"no factor values give {value}")


def solve(
    board: Board, target: int, rules: CombinationRules = CombinationRules()
) -> list[Combination]:
    """Every valid combination that makes ``target``: one per set of cards used, fewest first.

    >>> board = Board(grid=("5h", "10c", "3d") + (None,) * 6, corners=("Kd", None, None, None))
    >>> [c.short for c in solve(board, 19)]
    ['5+10+K', '5*3+K']
    """
    search = _Search(board, target, rules)
    return Combination._deferred(search, search.masks())


def iter_combinations(
    board: Board, target: int, rules: CombinationRules = CombinationRules()
) -> Iterator[Combination]:
    """The valid combinations one at a time, in the order of :func:`solve`."""
    search = _Search(board, target, rules)
    return (search.combination(mask) for mask in search.masks())


def has_combination(
    board: Board, target: int, rules: CombinationRules = CombinationRules()
) -> bool:
    """Whether any valid combination makes ``target`` (the loss check); stops after the
    first stage of the search that finds one."""
    return _Search(board, target, rules, first_only=True).found != 0
