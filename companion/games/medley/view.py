"""What a screen shows of a Medley game, and the moves open to its player.

The view is cheap (no solver): the grid and corner cards with their values, the dice and
target, the draw pile's count, the countdown and the outcome. :func:`medley_moves` runs
the solver: once the board is ready it lists every valid combination as a claim (fewest
cards first), and the free corner spots (not while a combination exists in strict play).

Phases: ``dealing`` (the grid has gaps), ``rolling`` (the dice must be thrown: at the start
and after a joker), ``claiming`` (a combination or a corner card), ``over``.
"""

from __future__ import annotations

from typing import Any

from companion.engine.view import CardView, Expecting, GameView, Outcome, SeatView, TimerView
from companion.games.medley.rules import BLOCKED, CELLS, TIMEOUT, WON, MedleyState, hints
from companion.games.medley.solver import card_values
from companion.games.moves import Possible, PossibleMoves

OUTCOMES = {
    WON: "the draw pile is empty: the game is won",
    BLOCKED: "no combination makes the target and every corner spot is occupied",
    TIMEOUT: "the time ran out before the draw pile was empty",
}


def phase(state: MedleyState) -> str:
    """``over``, ``dealing``, ``rolling`` or ``claiming`` (see the module docstring)."""
    if state.over:
        return "over"
    if None in state.grid:
        return "dealing"
    return "rolling" if state.reroll else "claiming"


def medley_view(state: MedleyState, game: str) -> GameView:
    """The public picture of ``state``."""
    lost = state.ended in (BLOCKED, TIMEOUT)
    outcome = Outcome(over=state.over, winners=(state.player,) if state.ended == WON else (),
                      eliminated={state.player: OUTCOMES[state.ended]} if lost else {},
                      points={state.player: len(state.discard)},
                      reason=OUTCOMES.get(state.ended, ""))
    status = {WON: "won", BLOCKED: "eliminated", TIMEOUT: "eliminated"}.get(state.ended,
                                                                          "playing")
    seat = SeatView(seat=1, player=state.player, status=status, note=outcome.reason,
                    points=len(state.discard))
    timers = () if state.countdown is None or state.over else (
        TimerView("time", "countdown", state.countdown.started_at, state.countdown.ends_at),)
    return GameView(game=game, phase=phase(state), seats=(seat,),
                    expecting=_expecting(state), timers=timers, outcome=outcome,
                    table=_table(state))


def _card(state: MedleyState, card: str) -> CardView:
    """A card and the value(s) it may take: ``3``, ``1 or 11`` (an ace), ``1-10`` (a joker)."""
    values = card_values(card, state.options.combinations)
    if len(values) > 2:
        return CardView(card, card, f"{values[0]}-{values[-1]}")
    return CardView(card, card, " or ".join(map(str, values)))


def _table(state: MedleyState) -> dict[str, Any]:
    return {
        "grid": [None if card is None else _card(state, card).to_json() for card in state.grid],
        "corners": [None if corner is None else {**_card(state, corner.card).to_json(),
                                                 "face_up": corner.face_up}
                    for corner in state.corners],
        "dice": None if state.dice is None else list(state.dice),
        "target": state.target,
        "pile_left": state.pile_left,
        "discard": len(state.discard),
        "claims": [claim.expression for claim in state.claims],
    }


def _gaps(state: MedleyState) -> list[int]:
    return [cell for cell in range(CELLS) if state.grid[cell] is None]


def _expecting(state: MedleyState) -> tuple[Expecting, ...]:
    if state.over:
        return ()
    found = []
    gaps = _gaps(state)
    if gaps:
        cells = ", ".join(f"cell-{cell}" for cell in gaps)
        found.append(Expecting("draw", (1,), f"deal cards from the pile into {cells}"))
    if state.reroll:
        found.append(Expecting("roll", (1,), "roll the two dice for a new target"))
    if state.ready:
        found.append(Expecting("claim", (1,), f"lift a combination making {state.target},"
                                              " or put a corner card on a free spot"))
    return tuple(found)


def medley_moves(state: MedleyState) -> PossibleMoves:
    """The moves open now: deals into the gaps, the roll, every valid combination and the
    free corner spots. Which card comes off the face-down pile is never known."""
    if state.over:
        return PossibleMoves()
    player = state.player
    moves = [Possible("draw", player, {"cell": cell}) for cell in _gaps(state)]
    if state.reroll:
        moves.append(Possible("roll", player))
    combinations = hints(state)
    moves += [Possible("claim", player, {"expression": c.expression, "short": c.short})
              for c in combinations]
    if state.ready and not (state.options.strict and combinations):
        moves += [Possible("draw", player, {"corner": spot})
                  for spot, corner in enumerate(state.corners) if corner is None]
    unknown = ("which card comes off the draw pile",) if state.pile_left else ()
    return PossibleMoves(tuple(moves), unknown)
