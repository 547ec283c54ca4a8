"""What a screen shows of single-player 21X, and the moves open to the player.

The hand shows each card's text; after a missed make-21 it shows each card's value and
working at the X tried (the note says why it was not 21), as the rulebook checks work.
The score area (``table["scored"]``) shows every scored hand with its working at the X
that made 21 and the V it was scored under. The stopwatch runs from the first deal; once
the game is over its time is in ``table["time"]`` and the outcome's reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.cardmath.working import number_text
from companion.engine.view import Expecting, GameView, Outcome, SeatView, TimerView
from companion.errors import CompanionError
from companion.games.moves import Possible, PossibleMoves
from companion.games.x21.view import hand_cards

if TYPE_CHECKING:
    from companion.games.x21_solo.rules import SoloState

SEAT = 1
"""The one player's seat."""


def solo_phase(state: SoloState) -> str:
    """``dealing``, ``reshuffling`` (the deck is empty), ``playing`` or ``over``."""
    if state.over:
        return "over"
    if len(state.hand) >= 2:
        return "playing"
    return "reshuffling" if not state.deck and state.discards else "dealing"


def solo_view(state: SoloState, game: str) -> GameView:
    """The public picture of ``state``."""
    watch = state.stopwatch
    time = watch.elapsed(state.t) if watch is not None and state.over else None
    reason = (f"{state.player} scored {state.points} points in {time:g} s"
              if time is not None else "")
    return GameView(
        game=game, phase=solo_phase(state), seats=(_seat(state),),
        expecting=_expecting(state),
        timers=(TimerView("stopwatch", "stopwatch", watch.started_at),)
        if watch is not None and not state.over else (),
        outcome=Outcome(over=state.over, winners=(state.player,) if state.over else (),
                        points={state.player: state.points}, reason=reason),
        table={"target": state.target, "points": state.points, "v": state.v,
               "deck_left": len(state.deck), "discards": len(state.discards),
               "attempts": state.attempts, "scored": _scored(state), "time": time},
    )


def _seat(state: SoloState) -> SeatView:
    tried = state.tried
    total = None
    if tried is not None:
        try:
            total = number_text(state.cards.total(state.hand, tried, state.v))
        except CompanionError:
            total = None
    return SeatView(seat=SEAT, player=state.player,
                    cards=hand_cards(state.cards, state.hand, tried, state.v), total=total,
                    status="won" if state.over else "playing",
                    note=state.miss if tried is not None else "", points=state.points)


def _scored(state: SoloState) -> list[dict[str, Any]]:
    """Every hand in the score area: its cards and working, X (and Y), V and icons."""
    hands = []
    for number, (hand, claim) in enumerate(zip(state.scored, state.scored_at, strict=True)):
        v = 1 + number
        hands.append({
            "cards": [card.to_json() for card in hand_cards(state.cards, hand, claim, v)],
            **claim.to_json(), "v": v, "icons": state.cards.icons(hand)})
    return hands


def _expecting(state: SoloState) -> tuple[Expecting, ...]:
    phase = solo_phase(state)
    if phase == "dealing":
        left = 2 - len(state.hand)
        return (Expecting("deal", (SEAT,), f"deal {left} card{'s' * (left > 1)} into the hand"),)
    if phase == "reshuffling":
        return (Expecting("reshuffle", (SEAT,),
                          "the deck is empty: shuffle the discards into a new deck"),)
    if phase == "playing":
        return (Expecting("play", (SEAT,), "draw, mulligan or make 21"),)
    return ()


def solo_moves(state: SoloState) -> PossibleMoves:
    """The moves the player can make now."""
    if state.over:
        return PossibleMoves()
    player, moves = state.player, []
    limit = state.cards.hand_rules.max_cards
    take = "deal" if len(state.hand) < 2 else "draw"
    if state.deck and (take == "deal" or limit is None or len(state.hand) < limit):
        moves.append(Possible(take, player, {"deck_left": len(state.deck)}))
    elif not state.deck and state.discards:
        moves.append(Possible("reshuffle", player, {"discards": len(state.discards)}))
    if state.hand:
        moves.append(Possible("mulligan", player, {"cards": len(state.hand)}))
    if len(state.hand) >= 2:
        moves.append(Possible("make21", player, {"needs": ["x"], "v": state.v}))
    taking = any(move.kind in ("deal", "draw") for move in moves)
    hidden = (f"which of the {len(state.deck)} face-down deck cards comes next",) if taking else ()
    return PossibleMoves(tuple(moves), hidden)


