"""Mountainside Math Medley: a solitaire of cards and dice, refereed card by card.

Nine cards lie face-up in a 3x3 grid (cells 0 to 8, row by row); two dice give the target
(equal dice ``d, d``: ``d*10 + d``; else ``high*10 + low``). The player claims a combination
of cards making the target (see :mod:`companion.games.medley.solver`); its grid cards go to
the discard pile, its corner cards turn face-down, and the empty cells are refilled from the
draw pile. With no combination, the player draws a corner card. A joker drawn goes on the
table like any card and the dice are rolled again. The game is won when the draw pile is
empty and lost when no combination exists and every corner spot is occupied (the referee
proves it with the solver), or when the countdown runs out.

Events (the camera names the cards): ``draw`` ``{"card": "7s", "cell": 4}`` into the grid
or ``{"card": "7s", "corner": 2}`` onto a corner spot; ``roll`` ``{"dice": [5, 3]}`` at the
start and after each joker; ``claim`` ``{"expression": "Qd*Kh*5c-10s"}``; and the timer
events of :mod:`companion.engine.timers`. The ``start`` event may list the ``deck``: every card of
the draw pile, top first (default: the 52 cards and 2 jokers).

Options of the ``start`` event, with their defaults: ``corners`` (4 spots), ``pile_size``
(the whole deck: fewer cards make a shorter game), ``ace_eleven`` (False: an ace is 1; True:
1 or 11), ``aces_as_corners`` (False: True lets a grid ace be an extra + or - card),
``allow_negative`` (True: ``P1 - P2`` may be below zero when corner cards make up the
difference), ``single_card`` (True: one card alone may be a combination), ``strict``
(False: True refuses a corner card while a combination exists), ``time_limit`` in seconds
(0: none) and ``warnings`` (0). Readings of the rule text: ``docs/games/medley.md``.

>>> state = RULES.start(Event("start", {"game": "medley", "players": ["mia"]}))
>>> for cell, card in enumerate(["8h", "5c", "10d", "2s", "Qd", "Kh", "Jc", "9c", "3h"]):
...     state = RULES.apply(state, Event("draw", {"card": card, "cell": cell}))
>>> state = RULES.apply(state, Event("roll", {"dice": [4, 5]}))
>>> state.target, [c.short for c in hints(state)][:3]
(54, ['5*10+K', '2*Q*9', 'Q*J*9'])
>>> state = RULES.apply(state, Event("claim", {"expression": "10*5+K"}))
>>> state.grid, state.discard
(('8h', None, None, '2s', 'Qd', None, 'Jc', '9c', '3h'), ('5c', '10d', 'Kh'))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from companion.engine.events import Event
from companion.engine.timers import (
    EXPIRED,
    TIMER_KINDS,
    WARNING,
    Countdown,
    logged_timer_event,
    refuse_after_time,
)
from companion.engine.view import GameView
from companion.errors import IllegalMove
from companion.games.base import check_option_keys, event_card, option, solo_start
from companion.games.medley.claims import resolve_claim
from companion.games.medley.moves import Claim, Draw, Roll
from companion.games.medley.solver import (
    Board,
    Combination,
    CombinationRules,
    has_combination,
    iter_combinations,
    solve,
)
from companion.games.moves import MoveTable, PossibleMoves, TimerMove
from companion.playing_cards import JOKER, PlayingCard, UnknownCard, standard_deck

CELLS = 9
TIMER = "time"
FULL_DECK = tuple(str(card) for card in standard_deck(jokers=2))
OPTION_KEYS = frozenset(
    (
        "corners",
        "pile_size",
        "ace_eleven",
        "aces_as_corners",
        "allow_negative",
        "single_card",
        "strict",
        "time_limit",
        "warnings",
    )
)
WON, BLOCKED, TIMEOUT = "won", "blocked", "timeout"
"""How a game ends: the draw pile is empty; no combination and no free corner; time ran out."""


def target(dice: tuple[int, int]) -> int:
    """The target two dice make: the higher die counts ten times, the lower once.

    >>> target((4, 4)), target((5, 3)), target((2, 6))
    (44, 53, 62)
    """
    high, low = max(dice), min(dice)
    return high * 10 + low


def new_pile(rng: random.Random, size: int = len(FULL_DECK)) -> list[str]:
    """A shuffled draw pile of ``size`` cards, top first, set up as the text says: the 52
    cards shuffled (``size - 2`` of them kept), one joker at 1/3 and one at 2/3 of the pile.

    >>> pile = new_pile(random.Random(7), 30)
    >>> len(pile), [i for i, card in enumerate(pile) if card == "JK"]
    (30, [10, 20])
    """
    if not 11 <= size <= len(FULL_DECK):
        raise IllegalMove(f"a pile holds 11 to {len(FULL_DECK)} cards, not {size}")
    cards = [str(card) for card in standard_deck()]
    rng.shuffle(cards)
    pile = cards[: size - 2]
    pile.insert(size // 3, JOKER)
    pile.insert(2 * size // 3, JOKER)
    return pile


@dataclass(frozen=True)
class MedleyOptions:
    """The table's choices, read from the ``start`` event (see the module docstring)."""

    corners: int = 4
    pile_size: int = len(FULL_DECK)
    combinations: CombinationRules = field(default_factory=CombinationRules)
    strict: bool = False
    time_limit: float = 0.0
    warnings: int = 0

    @classmethod
    def read(cls, options: Mapping[str, Any], deck_size: int) -> MedleyOptions:
        """Validate ``options`` for a deck of ``deck_size`` cards; ``IllegalMove`` says why not."""
        check_option_keys(options, OPTION_KEYS, "medley")
        corners = option(options, "corners", 4, int)
        pile_size = option(options, "pile_size", deck_size, int)
        time_limit = option(options, "time_limit", 0.0, float)
        warnings = option(options, "warnings", 0, int)
        if not 0 <= corners <= 8:
            raise IllegalMove(f"option 'corners' must be 0 to 8, not {corners}")
        if not CELLS + 1 <= pile_size <= deck_size:
            raise IllegalMove(
                f"option 'pile_size' must be {CELLS + 1} to {deck_size} (the deck), not {pile_size}"
            )
        if time_limit < 0 or warnings < 0:
            raise IllegalMove("options 'time_limit' and 'warnings' cannot be negative")
        rules = CombinationRules(
            ace_eleven=option(options, "ace_eleven", False, bool),
            aces_as_corners=option(options, "aces_as_corners", False, bool),
            allow_negative=option(options, "allow_negative", True, bool),
            single_card=option(options, "single_card", True, bool),
        )
        strict = option(options, "strict", False, bool)
        return cls(corners, pile_size, rules, strict, time_limit, warnings)


@dataclass(frozen=True)
class Corner:
    """A corner card: face-up (still usable) or face-down (used, its spot stays occupied)."""

    card: str
    face_up: bool = True


@dataclass(frozen=True)
class MedleyState:
    """Where every physical card is, the dice, and how the game stands.

    ``unseen`` holds the cards not yet drawn (the draw pile, plus any cards a shorter game
    left out); ``pile_left`` counts the cards still in the draw pile.
    """

    player: str
    options: MedleyOptions
    deck: tuple[str, ...]
    unseen: tuple[str, ...]
    pile_left: int
    grid: tuple[str | None, ...] = (None,) * CELLS
    corners: tuple[Corner | None, ...] = ()
    discard: tuple[str, ...] = ()
    dice: tuple[int, int] | None = None
    reroll: bool = True
    countdown: Countdown | None = None
    ended: str = ""
    claims: tuple[Combination, ...] = ()

    @property
    def over(self) -> bool:
        """True once won or lost."""
        return bool(self.ended)

    @property
    def target(self) -> int | None:
        """The dice's target, or None before the first roll."""
        return None if self.dice is None else target(self.dice)

    @property
    def ready(self) -> bool:
        """True when the player may claim or draw a corner card: grid full, dice settled."""
        return not self.over and not self.reroll and None not in self.grid

    def board(self) -> Board:
        """What a combination may use: the grid and the face-up corner cards."""
        corners = tuple(c.card if c is not None and c.face_up else None for c in self.corners)
        return Board(grid=self.grid, corners=corners)

    def extras(self) -> frozenset[str]:
        """Slots that may be an extra + or - card: face-up corners (and aces, in that variant)."""
        slots = {f"c{spot}" for spot, card in enumerate(self.board().corners) if card}
        if self.options.combinations.aces_as_corners:
            slots |= {f"g{cell}" for cell, card in enumerate(self.grid) if card and card[0] == "A"}
        return frozenset(slots)

    def places(self) -> dict[str, list[str]]:
        """Every card of the deck by place: unseen (draw pile), grid, corners, discard."""
        return {
            "unseen": list(self.unseen),
            "grid": [card for card in self.grid if card is not None],
            "corners": [corner.card for corner in self.corners if corner is not None],
            "discard": list(self.discard),
        }


def hints(state: MedleyState, limit: int | None = None) -> list[Combination]:
    """Combinations the player could claim now, fewest cards first: all of them, or the
    first ``limit``; none unless the board is ready."""
    if not state.ready or state.target is None:
        return []
    if limit is None:
        return solve(state.board(), state.target, state.options.combinations)
    found = iter_combinations(state.board(), state.target, state.options.combinations)
    return list(islice(found, limit))


class MedleyRules:
    """The rules of Mountainside Math Medley (``game`` = ``medley``)."""

    name = "medley"

    def start(self, event: Event) -> MedleyState:
        """A fresh game: the whole pile unseen, an empty grid, the dice not yet rolled."""
        player, options = solo_start(event, self.name)
        deck = _read_deck(event.data.get("deck", list(FULL_DECK)))
        chosen = MedleyOptions.read(options, len(deck))
        countdown = (
            Countdown(event.t, chosen.time_limit, chosen.warnings) if chosen.time_limit else None
        )
        return MedleyState(
            player=player,
            options=chosen,
            deck=deck,
            unseen=tuple(sorted(deck)),
            pile_left=chosen.pile_size,
            corners=(None,) * chosen.corners,
            countdown=countdown,
        )

    def apply(self, state: MedleyState, event: Event) -> MedleyState:
        """The state after ``draw``, ``roll``, ``claim`` or a timer event."""
        if state.over:
            raise IllegalMove(f"the game is over ({state.ended}): no {event.kind!r} allowed")
        if event.kind not in MOVES.kinds:
            raise IllegalMove(f"unknown medley event {event.kind!r}")
        if event.kind not in TIMER_KINDS:
            refuse_after_time(state.countdown, event)
        return _settle(MOVES.apply(state, event))

    def due(self, state: MedleyState, now: float) -> list[Event]:
        """The countdown's warnings and expiry due by ``now`` (none once the game is over)."""
        if state.over or state.countdown is None:
            return []
        return state.countdown.due(TIMER, now)

    def view(self, state: MedleyState) -> GameView:
        """What a screen shows (:mod:`companion.games.medley.view`)."""
        from companion.games.medley.view import medley_view  # the view reads these rules

        return medley_view(state, self.name)

    def moves(self, state: MedleyState) -> PossibleMoves:
        """Deals, the roll, every valid combination and the free corner spots."""
        from companion.games.medley.view import medley_moves

        return medley_moves(state)

    def summary(self, state: MedleyState) -> dict[str, Any]:
        """The outcome (``ended``: won, blocked or timeout) and the table at a glance."""
        return {
            "game": self.name,
            "winners": [state.player] if state.ended == WON else [],
            "eliminated": [state.player] if state.ended in (BLOCKED, TIMEOUT) else [],
            "points": {state.player: len(state.discard)},
            "over": state.over,
            "ended": state.ended,
            "target": state.target,
            "pile_left": state.pile_left,
            "grid": list(state.grid),
            "corners": [
                None if c is None else {"card": c.card, "face_up": c.face_up} for c in state.corners
            ],
            "discard": len(state.discard),
            "claims": [c.expression for c in state.claims],
        }


def _read_deck(deck: Any) -> tuple[str, ...]:
    if not isinstance(deck, list) or not all(isinstance(name, str) for name in deck):
        raise IllegalMove(f"'deck' must be a list of card names, not {deck!r}")
    try:
        cards = tuple(str(PlayingCard.parse(name)) for name in deck)
    except UnknownCard as error:
        raise IllegalMove(f"'deck': {error}") from None
    counts = Counter(cards)
    for card, count in counts.items():
        if count > (2 if card == JOKER else 1):
            raise IllegalMove(f"'deck' has {count} of {card}: a deck has one of each and 2 jokers")
    return cards


def _index(value: int | None, key: str, size: int) -> int:
    if size == 0:
        raise IllegalMove(f"this game has no {key} spots (option '{key}s' is 0)")
    if value is None or not 0 <= value < size:
        raise IllegalMove(f"{key!r} must be a number from 0 to {size - 1}, not {value!r}")
    return value


MOVES: MoveTable[MedleyState] = MoveTable("medley")


@MOVES.handles("draw", Draw)
def _draw(state: MedleyState, move: Draw, t: float) -> MedleyState:
    card = str(event_card(Event("draw", {"card": move.card})))
    if card not in state.unseen:
        places = [name for name, cards in state.places().items() if card in cards]
        where = f"it is in {places[0]}" if places else "this game's deck has no such card"
        raise IllegalMove(f"{card} is not in the draw pile: {where}")
    if move.cell is not None and move.corner is not None:
        raise IllegalMove("a drawn card goes to a 'cell' or a 'corner', not both")
    unseen = list(state.unseen)
    unseen.remove(card)
    drawn = replace(
        state,
        unseen=tuple(unseen),
        pile_left=state.pile_left - 1,
        reroll=state.reroll or card == JOKER,
    )
    if move.corner is not None:
        return _place_corner(state, drawn, card, _index(move.corner, "corner", len(state.corners)))
    cell = _index(move.cell, "cell", CELLS)
    if state.grid[cell] is not None:
        raise IllegalMove(f"cell {cell} holds {state.grid[cell]}: only empty cells are filled")
    grid = list(state.grid)
    grid[cell] = card
    return replace(drawn, grid=tuple(grid))


def _place_corner(state: MedleyState, drawn: MedleyState, card: str, spot: int) -> MedleyState:
    if not state.ready:
        raise IllegalMove("a corner card is drawn only with a full grid and the dice rolled")
    if state.corners[spot] is not None:
        raise IllegalMove(f"corner spot {spot} is occupied (by {state.corners[spot]!s})")
    if state.options.strict and state.target is not None:
        found = solve(state.board(), state.target, state.options.combinations)
        if found:
            raise IllegalMove(
                f"strict play: a combination exists ({found[0].short}), no corner card"
            )
    corners = list(state.corners)
    corners[spot] = Corner(card)
    return replace(drawn, corners=tuple(corners))


@MOVES.handles("roll", Roll)
def _roll(state: MedleyState, move: Roll, t: float) -> MedleyState:
    if not state.reroll:
        raise IllegalMove("the dice are rolled at the start and after a joker only")
    dice = move.dice
    if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
        raise IllegalMove(f"'roll' needs 'dice', two numbers from 1 to 6, not {dice!r}")
    return replace(state, dice=(dice[0], dice[1]), reroll=False)


@MOVES.handles("claim", Claim)
def _claim(state: MedleyState, move: Claim, t: float) -> MedleyState:
    if not state.ready or state.target is None:
        raise IllegalMove("claim only with a full grid and the dice rolled")
    found = resolve_claim(
        move.expression, state.board(), state.extras(), state.target, state.options.combinations
    )
    grid, corners, discard = list(state.grid), list(state.corners), list(state.discard)
    for slot in sorted(found.slots):
        index = int(slot[1:])
        if slot[0] == "g":
            discard.append(str(grid[index]))
            grid[index] = None
        else:
            corners[index] = Corner(str(state.board().corners[index]), face_up=False)
    return replace(
        state,
        grid=tuple(grid),
        corners=tuple(corners),
        discard=tuple(discard),
        claims=(*state.claims, found),
    )


def _timer(state: MedleyState, move: TimerMove, t: float) -> MedleyState:
    kind = EXPIRED if move.remaining == 0 else WARNING
    event = Event(kind, {"timer": move.timer, "remaining": move.remaining}, t)
    ended = TIMEOUT if kind == EXPIRED else ""
    return replace(state, countdown=logged_timer_event(state.countdown, event), ended=ended)


MOVES.add(TIMER_KINDS, TimerMove, _timer)


def _settle(state: MedleyState) -> MedleyState:
    """Win when the draw pile is empty; lose when the solver proves the board is stuck."""
    if state.pile_left == 0:
        return replace(state, ended=WON)
    if not state.ready or None in state.corners or state.target is None:
        return state
    if has_combination(state.board(), state.target, state.options.combinations):
        return state
    return replace(state, ended=BLOCKED)


RULES = MedleyRules()
"""The rules object the registry plays ``medley`` with."""
