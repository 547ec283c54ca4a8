"""What a screen shows of Twenty One solitaire, and the moves open to the player.

``table`` carries the app's top bar (``score``, ``deck``: cards left in the stock,
``ends_at`` for TIME; TOP is the store's best score, which the rules never read), the
columns with their cards and values and whether each takes the turned-up card, and the
last clear. The countdown is a :class:`~companion.engine.view.TimerView` while it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.engine.view import CardView, Expecting, GameView, Outcome, SeatView, TimerView
from companion.games.moves import Possible, PossibleMoves
from companion.games.solitaire.piles import card_value, clear_points, pile_value
from companion.playing_cards import PlayingCard

if TYPE_CHECKING:
    from companion.games.solitaire.rules import SolitaireState

SEAT = 1
"""The one player's seat."""
SUIT_SYMBOLS = {"c": "\N{BLACK CLUB SUIT}", "d": "\N{BLACK DIAMOND SUIT}",
                "h": "\N{BLACK HEART SUIT}", "s": "\N{BLACK SPADE SUIT}"}


def card_view(card: PlayingCard) -> CardView:
    """A playing card as the screen shows it: ``K♦``, worth 10 (an ace: 1, or 11 with a ten).

    >>> card_view(PlayingCard.parse("As")).value
    '1 or 11'
    """
    value = "1 or 11" if card.rank == "A" else str(card_value(card))
    return CardView(str(card), f"{card.rank}{SUIT_SYMBOLS.get(card.suit, '')}", value)


def solitaire_phase(state: SolitaireState) -> str:
    """``drawing``, ``placing`` (a card is turned up), ``reshuffling`` or ``over``."""
    if state.over:
        return "over"
    if state.current is not None:
        return "placing"
    return "drawing" if state.stock else "reshuffling"


def solitaire_view(state: SolitaireState, game: str) -> GameView:
    """The public picture of ``state``."""
    countdown = state.countdown
    return GameView(
        game=game, phase=solitaire_phase(state),
        seats=(SeatView(SEAT, state.player,
                        cards=() if state.current is None else (card_view(state.current),),
                        status="done" if state.over else "playing", note=_ended(state),
                        points=state.score),),
        expecting=_expecting(state),
        timers=(TimerView("time", "countdown", countdown.started_at, countdown.ends_at),)
        if countdown is not None and not state.over else (),
        outcome=Outcome(over=state.over, points={state.player: state.score},
                        reason=f"{state.player} scored {state.score}: {_ended(state)}"
                        if state.over else ""),
        table=_table(state),
    )


def _ended(state: SolitaireState) -> str:
    if state.ended == "blocked":
        return f"{state.current} fits no column"
    return "time is up" if state.ended else ""


def _table(state: SolitaireState) -> dict[str, Any]:
    takers = () if state.current is None else state.takers(state.current)
    last = state.clears[-1] if state.clears else None
    return {
        "score": state.score, "deck": len(state.stock), "cleared": len(state.cleared),
        "current": None if state.current is None else str(state.current),
        "columns": [{"cards": [card_view(card).to_json() for card in pile],
                     "value": pile_value(pile), "takes": column in takers}
                    for column, pile in enumerate(state.columns)],
        "clears": len(state.clears), "reshuffles": state.reshuffles,
        "last_clear": None if last is None else {
            "column": last.column, "cards": [str(card) for card in last.cards],
            "points": last.points},
        "time_limit": 0.0 if state.countdown is None else state.countdown.duration,
        "ends_at": None if state.countdown is None else state.countdown.ends_at,
    }


def _expecting(state: SolitaireState) -> tuple[Expecting, ...]:
    phase = solitaire_phase(state)
    if phase == "placing" and state.current is not None:
        *others, last = (str(c) for c in state.takers(state.current))
        columns = f"{', '.join(others)} or {last}" if others else last
        return (Expecting("place", (SEAT,), f"put {state.current} on column {columns}"),)
    if phase == "drawing":
        return (Expecting("draw", (SEAT,), "turn up the next card of the stock"),)
    if phase == "reshuffling":
        return (Expecting("reshuffle", (SEAT,),
                          "the stock is empty: shuffle the cleared cards into a new stock"),)
    return ()


def solitaire_moves(state: SolitaireState) -> PossibleMoves:
    """The columns that take the turned-up card, else the draw (which card is unknown) or
    the reshuffle."""
    if state.over:
        return PossibleMoves()
    card = state.current
    if card is not None:
        return PossibleMoves(tuple(
            Possible("place", state.player,
                     {"column": column,
                      "clears": clear_points((*state.columns[column], card))})
            for column in state.takers(card)))
    if state.stock:
        return PossibleMoves(
            (Possible("draw", state.player, {"stock": len(state.stock)}),),
            (f"which of the {len(state.stock)} face-down stock cards turns up next",))
    return PossibleMoves((Possible("reshuffle", state.player, {"cards": len(state.cleared)}),))
