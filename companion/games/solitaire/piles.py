"""What solitaire's piles are worth: card values, pile values and the points of a clear."""

from __future__ import annotations

from companion.playing_cards import PlayingCard

Pile = tuple[PlayingCard, ...]


def card_value(card: PlayingCard) -> int:
    """What a card counts in a pile: its number, 10 for a picture, 1 for an ace (an ace
    counts 11 only in :func:`pile_value`'s ace + ten pile).

    >>> card_value(PlayingCard.parse("7c")), card_value(PlayingCard.parse("Qd"))
    (7, 10)
    """
    return 1 if card.rank == "A" else 10 if card.is_ten_value else int(card.rank)


def pile_value(pile: Pile) -> int:
    """The pile's value: an ace counts 11 only in a two-card pile with a ten-value card.

    >>> cards = lambda *names: tuple(PlayingCard.parse(n) for n in names)
    >>> pile_value(cards("As", "Qd")), pile_value(cards("As")), pile_value(cards("10c", "Kh", "Ad"))
    (21, 1, 21)
    >>> pile_value(cards("As", "9d"))
    10
    """
    if len(pile) == 2 and any(c.rank == "A" for c in pile) and any(c.is_ten_value for c in pile):
        return 21
    return sum(card_value(c) for c in pile)


def clear_points(pile: Pile) -> int | None:
    """Points if ``pile`` clears: 51 for ace + ten, 31 for three cards and 21 for four
    making 21, the pile's value for five cards worth 21 or less; None if it stays.

    >>> cards = lambda *names: tuple(PlayingCard.parse(n) for n in names)
    >>> clear_points(cards("As", "Jd")), clear_points(cards("7c", "7d", "7h"))
    (51, 31)
    >>> clear_points(cards("2c", "3d", "4h", "5s", "Ac")), clear_points(cards("9c", "9d"))
    (15, None)
    """
    value = pile_value(pile)
    if len(pile) == 5 and value <= 21:
        return value
    if value == 21 and 2 <= len(pile) <= 4:
        return {2: 51, 3: 31, 4: 21}[len(pile)]
    return None
