"""Twenty One solitaire on a real deck: build piles of 21 in the columns against the clock.

The player turns up the next card of the stock (the camera reports it: ``draw``) and puts
it on a column (``place``). A pile may never go over 21; a pile of two to four cards worth
exactly 21, or of five cards worth 21 or less, clears and scores. Cleared cards are set
aside; when the stock runs out, everything not on the board becomes the new stock
(``reshuffle``). The game is over when the turned-up card fits no column (the referee sees
that itself) or when the countdown expires. Readings of the text: ``docs/games/solitaire.md``.

Options of the ``start`` event: ``columns`` (4), ``time_limit`` in seconds (180; 0 means
no limit) and ``warnings`` (10: a ``timer_warning`` event each second of the last ten).
Each event is decoded once into its move (:mod:`.moves`) by ``MOVES``; :mod:`.piles` values
the piles, :mod:`.view` gives what a screen shows and the moves open, :mod:`.translator` the
table.

>>> state = RULES.start(Event("start", {"game": "solitaire", "players": ["sol"]}))
>>> for kind, data in [("draw", {"card": "Kd"}), ("place", {"column": 0}),
...                    ("draw", {"card": "As"}), ("place", {"column": 0})]:
...     state = RULES.apply(state, Event(kind, data, t=1.0))
>>> RULES.summary(state)["score"], state.columns[0], len(state.stock)
(51, (), 50)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
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
from companion.games.base import check_option_keys, option, solo_start
from companion.games.moves import MoveTable, NoData, PossibleMoves, TimerMove
from companion.games.solitaire.moves import PlaceCard, TurnUp
from companion.games.solitaire.piles import Pile, clear_points, pile_value
from companion.games.solitaire.view import solitaire_moves, solitaire_view
from companion.playing_cards import PlayingCard, UnknownCard, standard_deck

DECK = frozenset(standard_deck())
TIMER = "time"
OPTION_KEYS = frozenset(("columns", "time_limit", "warnings"))
BLOCKED, TIMEOUT = "blocked", "timeout"

@dataclass(frozen=True)
class Clear:
    """A pile that cleared: its column, cards and points."""

    column: int
    cards: Pile
    points: int


@dataclass(frozen=True)
class SolitaireState:
    """The board: stock, the turned-up card, columns, cleared cards, score and countdown."""

    player: str
    countdown: Countdown | None
    stock: frozenset[PlayingCard]
    columns: tuple[Pile, ...]
    current: PlayingCard | None = None
    cleared: frozenset[PlayingCard] = frozenset()
    score: int = 0
    clears: tuple[Clear, ...] = ()
    reshuffles: int = 0
    ended: str = ""
    """Why the game is over: ``blocked`` (no column takes the card), ``timeout``, or ""."""

    @property
    def over(self) -> bool:
        """True once blocked or out of time."""
        return bool(self.ended)

    def accepts(self, column: int, card: PlayingCard) -> bool:
        """True if ``card`` may go on ``column`` (the pile stays at 21 or less)."""
        return pile_value((*self.columns[column], card)) <= 21

    def takers(self, card: PlayingCard) -> tuple[int, ...]:
        """The columns that take ``card``."""
        return tuple(c for c in range(len(self.columns)) if self.accepts(c, card))

    def places(self) -> dict[str, Pile]:
        """Where every card of the deck is: stock, current, cleared and ``column:<n>``."""
        where = {
            "stock": tuple(sorted(self.stock)),
            "current": () if self.current is None else (self.current,),
            "cleared": tuple(sorted(self.cleared)),
        }
        for number, pile in enumerate(self.columns):
            where[f"column:{number}"] = pile
        return where


def _read_options(options: Mapping[str, Any]) -> tuple[int, float, int]:
    check_option_keys(options, OPTION_KEYS, "solitaire")
    columns = option(options, "columns", 4, int)
    time_limit = option(options, "time_limit", 180.0, float)
    warnings = option(options, "warnings", 10, int)
    if not 1 <= columns <= 12:
        raise IllegalMove(f"option 'columns' must be 1 to 12, not {columns}")
    if time_limit < 0 or warnings < 0:
        raise IllegalMove("options 'time_limit' and 'warnings' cannot be negative")
    return columns, time_limit, warnings


class SolitaireRules:
    """The rules of Twenty One solitaire (``game`` = ``solitaire``)."""

    name = "solitaire"

    def start(self, event: Event) -> SolitaireState:
        """A fresh game: the whole deck in the stock, empty columns, the countdown running."""
        player, options = solo_start(event, self.name)
        columns, time_limit, warnings = _read_options(options)
        countdown = Countdown(event.t, time_limit, warnings) if time_limit else None
        return SolitaireState(
            player=player,
            countdown=countdown,
            stock=DECK,
            columns=tuple(() for _ in range(columns)),
        )

    def apply(self, state: SolitaireState, event: Event) -> SolitaireState:
        """The state after ``draw``, ``place``, ``reshuffle`` or a timer event."""
        if state.over:
            raise IllegalMove(f"the game is over ({state.ended}): no {event.kind!r} allowed")
        if event.kind not in TIMER_KINDS:
            refuse_after_time(state.countdown, event)
        return MOVES.apply(state, event)

    def due(self, state: SolitaireState, now: float) -> list[Event]:
        """The countdown's warnings and expiry due by ``now`` (none once the game is over)."""
        if state.over or state.countdown is None:
            return []
        return state.countdown.due(TIMER, now)

    def summary(self, state: SolitaireState) -> dict[str, Any]:
        """The score (``score``, also ``points``: the store's high-score table ranks it), why
        it ended, the board at a glance, and when the countdown ends (``ends_at``, on the
        game clock, for the TIME display)."""
        return {
            "game": self.name,
            "winners": [],
            "eliminated": [],
            "points": {state.player: state.score},
            "over": state.over,
            "score": state.score,
            "ended": state.ended,
            "deck": len(state.stock),
            "current": None if state.current is None else str(state.current),
            "columns": [[str(card) for card in pile] for pile in state.columns],
            "clears": len(state.clears),
            "reshuffles": state.reshuffles,
            "time_limit": 0.0 if state.countdown is None else state.countdown.duration,
            "ends_at": None if state.countdown is None else state.countdown.ends_at,
        }

    def view(self, state: SolitaireState) -> GameView:
        """What a screen shows (:mod:`companion.games.solitaire.view`)."""
        return solitaire_view(state, self.name)

    def moves(self, state: SolitaireState) -> PossibleMoves:
        """The columns that take the turned-up card, the draw or the reshuffle."""
        return solitaire_moves(state)


MOVES: MoveTable[SolitaireState] = MoveTable("solitaire")


def _timer(state: SolitaireState, move: TimerMove, t: float) -> SolitaireState:
    kind = EXPIRED if move.remaining == 0 else WARNING
    event = Event(kind, {"timer": move.timer, "remaining": move.remaining}, t)
    countdown = logged_timer_event(state.countdown, event)
    return replace(state, countdown=countdown, ended=TIMEOUT if kind == EXPIRED else "")


MOVES.add(TIMER_KINDS, TimerMove, _timer)


@MOVES.handles("draw", TurnUp)
def _draw(state: SolitaireState, move: TurnUp, t: float) -> SolitaireState:
    if state.current is not None:
        raise IllegalMove(f"place the turned-up {state.current} before drawing another card")
    if not state.stock:
        raise IllegalMove("the stock is empty: reshuffle everything not on the board first")
    card = playing_card(move.card)
    if card not in state.stock:
        raise IllegalMove(f"{card} is not in the stock: {_where(state, card)}")
    drawn = replace(state, stock=state.stock - {card}, current=card)
    if not drawn.takers(card):
        return replace(drawn, ended=BLOCKED)
    return drawn


def playing_card(name: str) -> PlayingCard:
    """The playing card ``name`` reads as; ``IllegalMove`` for a name of no card.

    >>> playing_card("Qh")
    PlayingCard(rank='Q', suit='h')
    """
    try:
        return PlayingCard.parse(name)
    except UnknownCard as error:
        raise IllegalMove(str(error)) from None


def _where(state: SolitaireState, card: PlayingCard) -> str:
    place = next(name for name, cards in state.places().items() if card in cards)
    return f"it is in {place}"


@MOVES.handles("place", PlaceCard)
def _place(state: SolitaireState, move: PlaceCard, t: float) -> SolitaireState:
    card, column = state.current, move.column
    if card is None:
        raise IllegalMove("no card is turned up: draw one first")
    if not 0 <= column < len(state.columns):
        raise IllegalMove(
            f"column {column} does not exist: columns are 0 to {len(state.columns) - 1}"
        )
    if not state.accepts(column, card):
        value = pile_value(state.columns[column])
        raise IllegalMove(f"{card} does not fit on column {column}: the pile is worth {value}")
    pile = (*state.columns[column], card)
    points = clear_points(pile)
    columns = list(state.columns)
    if points is None:
        columns[column] = pile
        return replace(state, columns=tuple(columns), current=None)
    columns[column] = ()
    return replace(
        state,
        columns=tuple(columns),
        current=None,
        cleared=state.cleared | set(pile),
        score=state.score + points,
        clears=(*state.clears, Clear(column, pile, points)),
    )


@MOVES.handles("reshuffle", NoData)
def _reshuffle(state: SolitaireState, move: NoData, t: float) -> SolitaireState:
    if state.stock or state.current is not None:
        raise IllegalMove(f"reshuffle only when the stock is empty ({len(state.stock)} cards left)")
    on_board = {card for pile in state.columns for card in pile}
    return replace(
        state, stock=DECK - on_board, cleared=frozenset(), reshuffles=state.reshuffles + 1
    )


def legal_moves(state: SolitaireState) -> list[Event]:
    """Every move now (without ``t``/``seq``): a ``draw`` of each stock card (the camera
    decides which), ``reshuffle`` when the stock is empty, or a ``place`` on each column
    that takes the turned-up card. Empty once the game is over. Timer events are not moves.
    """
    if state.over:
        return []
    if state.current is not None:
        return [Event("place", {"column": c}) for c in state.takers(state.current)]
    if not state.stock:
        return [Event("reshuffle", {})]
    return [Event("draw", {"card": str(card)}) for card in sorted(state.stock)]


RULES = SolitaireRules()
"""Twenty One solitaire's rules, as the registry imports them."""
