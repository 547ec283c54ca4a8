"""What a screen shows of the trick game, and the moves open to the seat on turn.

With hidden hands (the camera's game) each seat shows how many cards it holds (``hidden``)
and nothing of them; the trick on the table, the play to beat, the stock and every finished
deal are public. With declared hands (open hands, the simulator) each seat's cards are shown.

The legal plays of a hidden hand are unknowable, so :func:`trick_moves` gives what the
table decides: the shape to answer in and the lowest card (by the cards not yet seen this
deal) that would beat or match the play to beat, and says the rest is unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine.view import CardView, Expecting, GameView, Outcome, SeatView
from companion.games.moves import Possible, PossibleMoves
from companion.games.trick.rules import (
    DEAL,
    DECIDE,
    DECK,
    OVER,
    PLAY,
    REVEAL,
    SWAP,
    TrickState,
    expecting_text,
    legal_moves,
    seen,
    strength,
    wanted,
)
from companion.playing_cards import PlayingCard


def trick_view(state: TrickState, game: str) -> GameView:
    """The public picture of ``state``."""
    over = state.phase == OVER
    winners = _winners(state) if over else ()
    return GameView(
        game=game, phase=state.phase,
        seats=tuple(_seat(state, seat, winners) for seat in range(len(state.players))),
        expecting=_expecting(state),
        outcome=Outcome(over=over, winners=winners, eliminated={},
                        points=dict(zip(state.players, state.totals, strict=True)),
                        reason=_reason(state, winners)),
        table=_table(state),
    )


def _winners(state: TrickState) -> tuple[str, ...]:
    top = max(state.totals)
    return tuple(p for p, total in zip(state.players, state.totals, strict=True) if total == top)


def _reason(state: TrickState, winners: tuple[str, ...]) -> str:
    if not winners:
        return ""
    top = max(state.totals)
    names = " and ".join(winners)
    return f"{names} reached {top}, the highest total (target {state.options.target})"


def _seat(state: TrickState, seat: int, winners: tuple[str, ...]) -> SeatView:
    player = state.players[seat]
    cards = () if state.hands is None else tuple(
        CardView(str(card), str(card)) for card in state.hands[seat])
    if player in winners:
        status = "won"
    elif state.phase == PLAY and state.waiting and state.waiting[0] == seat:
        status = "on turn"
    elif state.counts[seat] == 1 and state.phase == PLAY:
        status = "last card"
    else:
        status = "playing"
    last = state.deals[-1] if state.deals else None
    note = "; ".join(r for r in last.revokes if r.startswith(f"{player} ")) if last else ""
    return SeatView(seat=seat + 1, player=player, cards=cards,
                    hidden=state.counts[seat] if state.hands is None else 0,
                    total=str(state.totals[seat]), status=status, note=note,
                    points=state.totals[seat])


def _expecting(state: TrickState) -> tuple[Expecting, ...]:
    leader = state.leader + 1
    detail = expecting_text(state) if state.phase != OVER else ""
    if state.phase == DEAL:
        return (Expecting("deal", (state.dealer + 1,),
                          f"{state.players[state.dealer]} deals {state.options.hand_size}"
                          " cards each"),)
    if state.phase == DECIDE:
        return (Expecting("swapping", (leader,), detail),)
    if state.phase == SWAP:
        return (Expecting("swap", tuple(s + 1 for s in state.waiting), detail),
                Expecting("play", (leader,), "the lead closes swapping"))
    if state.phase == PLAY:
        return (Expecting("play", (state.waiting[0] + 1,), _wanted_now(state)),)
    if state.phase == REVEAL:
        return (Expecting("reveal", tuple(range(1, len(state.players) + 1)), detail),)
    return ()


def _wanted_now(state: TrickState) -> str:
    player = state.players[state.waiting[0]]
    if not state.trick:
        return f"{player} leads one card or a pair"
    best = state.trick[state.best].cards
    to_beat = " ".join(str(card) for card in best)
    other = "passes" if state.options.passing else "dumps the lowest card"
    return f"{player} plays {wanted(best, state.options)} than {to_beat}, or matches, or {other}"


def _table(state: TrickState) -> dict[str, Any]:
    return {
        "dealer": state.players[state.dealer],
        "leader": state.players[state.leader],
        "target": state.options.target,
        "hands": state.options.hands,
        "stock": state.stock_count,
        "trick": [{"player": state.players[play.seat], "cards": [str(c) for c in play.cards],
                   "kind": play.kind} for play in state.trick],
        "to_beat": [str(c) for c in state.trick[state.best].cards] if state.trick else [],
        "deals": [{"dealer": state.players[deal.dealer],
                   "last_cards": dict(zip(state.players, map(str, deal.last_cards),
                                          strict=True)),
                   "scores": dict(zip(state.players, deal.scores, strict=True)),
                   "revokes": list(deal.revokes)} for deal in state.deals],
    }


def trick_moves(state: TrickState) -> PossibleMoves:
    """The moves open now: every legal move with declared hands; with hidden hands the
    swapping decision, swap counts, the shape to play and the lowest card that beats."""
    known = tuple(Possible(e.kind, e.data.get("player"),
                           {k: v for k, v in e.data.items() if k != "player"})
                  for e in legal_moves(state))
    if state.hands is not None:
        return PossibleMoves(known)
    if state.phase == REVEAL:
        return PossibleMoves((Possible("reveal", None, {"cards": "each player's last card"}),),
                             ("the last cards are hidden until they are turned over",))
    if state.phase not in (PLAY, DECIDE, SWAP):
        return PossibleMoves(known)
    seat = state.waiting[0] if state.phase == PLAY else state.leader
    player = state.players[seat]
    plays = _hidden_plays(state, seat)
    unknown = (f"{player}'s hand is hidden: which of these {player} can play is unknown",)
    return PossibleMoves((*known, *(Possible("play", player, p) for p in plays)), unknown)


def _hidden_plays(state: TrickState, seat: int) -> list[dict[str, Any]]:
    """The plays a hidden hand might make: a lead's shapes, or the beat, match and dump."""
    most = 1 if state.counts[seat] <= 2 else 2
    if not state.trick:
        return [{"lead": "single"}, *([{"lead": "pair"}] if most == 2 else [])]
    best = state.trick[state.best].cards
    level = strength(best[0], state.options)
    shape = len(best)
    plays: list[dict[str, Any]] = []
    if shape <= most:
        beat = _lowest_unseen(state, shape, lambda s: s > level)
        if beat:
            plays.append({"beat": beat, "shape": "single" if shape == 1 else "pair"})
        match = _lowest_unseen(state, shape, lambda s: s == level)
        if match:
            plays.append({"match": match, "shape": "single" if shape == 1 else "pair"})
    if not state.options.passing:
        plays.append({"dump": "the lowest card", "shape": "single"})
    return plays


def _lowest_unseen(state: TrickState, shape: int, fits: Callable[[int], bool]) -> str:
    """The lowest rank (by play order) fitting ``fits`` of which ``shape`` cards are still
    unseen this deal (``""`` if none): the card that would beat or match the table."""
    unseen = sorted((c for c in DECK if c not in seen(state)
                     and fits(strength(c, state.options))),
                    key=lambda c: strength(c, state.options))
    by_level: dict[int, list[PlayingCard]] = {}
    for card in unseen:
        by_level.setdefault(strength(card, state.options), []).append(card)
    for cards in by_level.values():
        if len(cards) >= shape:
            ranks = sorted({c.rank for c in cards}, key=lambda r: strength(
                PlayingCard(r, "s"), state.options))
            return " or ".join(ranks)
    return ""
