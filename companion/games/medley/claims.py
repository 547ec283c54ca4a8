"""Reading a claimed Mountainside Math Medley combination: ``Qd*Kh*5c-10s``.

A claim is written like the examples of the rule text: cards joined by ``*`` (or ``x``)
into products, products joined by ``+`` and ``-``; the first product is added. A
card is its name (``Qd``, ``10h``, ``JK``) or just its rank (``Q``, ``10``) when only one
card on the board fits. A joker may carry its value in brackets, ``JK(7)``; without one
it takes whatever value works. An ace may be written ``A(11)`` with the 1-or-11 variant.
Any card may name its place, ``JK(7)@c0`` (the joker on corner spot 0), which tells the
two jokers apart.

>>> [(term.sign, [t.text for t in term.tokens]) for term in parse_claim("Q*K*5 - 10s")]
[(1, ['Q', 'K', '5']), (-1, ['10s'])]
>>> parse_claim("JK(7)*5+10")[0].tokens[0]
Token(text='JK(7)', rank='JK', suit='', value=7, position=0, slot='')
>>> parse_claim("Q*-K")
Traceback (most recent call last):
    ...
companion.errors.ExpressionError: expected a card at position 3 in 'Q*-K'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.errors import ExpressionError, IllegalMove
from companion.games.medley.solver import (
    Board,
    Combination,
    CombinationRules,
    Factor,
    Term,
    card_values,
    is_valid_shape,
)
from companion.playing_cards import JOKER, RANKS, SUITS, PlayingCard

_TOKEN = re.compile(
    r"\s*(?:(JK|10|[2-9AJQKT])([cdhs]?)(?:\((\d+)\))?(?:@([gc]\d+))?|([-+*x]))", re.IGNORECASE
)
_TIMES = ("*", "x")


@dataclass(frozen=True)
class Token:
    """One card as written: its rank, suit (``""`` if not given) and chosen value (or None)."""

    text: str
    rank: str
    suit: str
    value: int | None
    position: int
    slot: str = ""


@dataclass(frozen=True)
class ClaimTerm:
    """A product of cards as written, added (sign 1) or subtracted (sign -1)."""

    sign: int
    tokens: tuple[Token, ...]


def parse_claim(text: str) -> list[ClaimTerm]:
    """The terms of a claim; ``ExpressionError`` names what is wrong and where."""
    terms: list[ClaimTerm] = []
    sign, tokens = 1, list[Token]()
    expect_card, index = True, 0
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        if index == len(text):
            break
        match = _TOKEN.match(text, index)
        if match is None:
            raise ExpressionError(f"unexpected {text[index]!r}", text=text, position=index)
        start = match.start(1) if match.group(1) else match.start(5)
        operator = match.group(5)
        if expect_card:
            if operator is not None:
                raise ExpressionError("expected a card", text=text, position=start)
            tokens.append(_token(match, start, text))
            expect_card = False
        else:
            if operator is None:
                raise ExpressionError("expected *, + or -", text=text, position=start)
            if operator.lower() in _TIMES:
                expect_card = True
            else:
                terms.append(ClaimTerm(sign, tuple(tokens)))
                sign, tokens, expect_card = (1 if operator == "+" else -1), [], True
        index = match.end()
    if expect_card:
        raise ExpressionError("expected a card", text=text, position=len(text))
    terms.append(ClaimTerm(sign, tuple(tokens)))
    return terms


def _token(match: re.Match[str], start: int, text: str) -> Token:
    rank, suit, value = match.group(1).upper(), match.group(2).lower(), match.group(3)
    rank = "10" if rank == "T" else rank
    if rank == JOKER and suit:
        raise ExpressionError("a joker has no suit", text=text, position=start)
    if rank != JOKER and (rank not in RANKS or (suit and suit not in SUITS)):
        raise ExpressionError("unknown card", text=text, position=start)
    written, slot = match.group(0).strip(), (match.group(4) or "").lower()
    return Token(written, rank, suit, None if value is None else int(value), start, slot)


def resolve_claim(
    text: str, board: Board, extras: frozenset[str], target: int, rules: CombinationRules
) -> Combination:
    """The combination a claim names on ``board``, checked against the rules and ``target``.

    Every reading of the written cards (which card a bare rank means, what a joker is
    worth) is tried; exactly one set of cards must work. ``IllegalMove`` says why not.

    >>> board = Board(grid=("Qs", "Kd", "5h", "10c", "2d", "2h", "9s", "8s", "7s"))
    >>> resolve_claim("Q*K*5-10", board, frozenset(), 50, CombinationRules()).expression
    'Qs*Kd*5h-10c'
    >>> resolve_claim("Q*K*5-10", board, frozenset(), 45, CombinationRules())
    Traceback (most recent call last):
        ...
    companion.errors.IllegalMove: Q*K*5-10 makes 50, not the target 45
    """
    terms = parse_claim(text)
    tokens = [token for term in terms for token in term.tokens]
    options = [_choices(token, board, rules) for token in tokens]
    for token, choices in zip(tokens, options, strict=True):
        if not choices:
            where = token.position + 1
            raise IllegalMove(f"no {token.text} on the board to use (at position {where})")
    written = text.strip()
    if len(tokens) > len(board.cards()):
        raise IllegalMove(f"{written} needs more cards than the board has")
    found: dict[frozenset[str], Combination] = {}
    problems: list[str] = []
    values: set[int] = set()
    for factors in _readings(options, 0, set()):
        combination = _combination(terms, factors)
        problem = is_valid_shape(combination, extras, rules)
        if problem:
            problems.append(problem)
        elif combination.value != target:
            values.add(combination.value)
        else:
            found.setdefault(combination.slots, combination)
    if not found:
        if values:
            made = ", ".join(map(str, sorted(values)[:5])) + (" ..." if len(values) > 5 else "")
            raise IllegalMove(f"{written} makes {made}, not the target {target}")
        if not problems:
            raise IllegalMove(f"{written} needs more cards than the board has")
        raise IllegalMove(problems[0])
    if len(found) > 1:
        hint = "name the suit (5h) or the place (JK@c0)"
        raise IllegalMove(f"{written} could mean different cards: {hint}")
    return next(iter(found.values()))


def _choices(token: Token, board: Board, rules: CombinationRules) -> list[Factor]:
    """Every (slot, card, value) the written token can stand for."""
    choices: list[Factor] = []
    for slot, card in board.cards():
        parsed = PlayingCard.parse(card)
        if parsed.rank != token.rank or (token.suit and parsed.suit != token.suit):
            continue
        if token.slot and slot != token.slot:
            continue
        values = card_values(card, rules)
        if token.value is not None:
            values = tuple(v for v in values if v == token.value)
        choices.extend(Factor(slot, card, value) for value in values)
    return choices


def _readings(options: list[list[Factor]], index: int, used: set[str]) -> list[tuple[Factor, ...]]:
    """Every way to give each token its own card."""
    if index == len(options):
        return [()]
    readings = []
    for factor in options[index]:
        if factor.slot in used:
            continue
        for rest in _readings(options, index + 1, used | {factor.slot}):
            readings.append((factor, *rest))
    return readings


def _combination(terms: list[ClaimTerm], factors: tuple[Factor, ...]) -> Combination:
    built, index = [], 0
    for term in terms:
        built.append(Term(term.sign, factors[index : index + len(term.tokens)]))
        index += len(term.tokens)
    return Combination(tuple(built))
