"""What a screen shows of a multi-player 21X game, and the moves open to each player.

Every card shows its text; once a player has stated an X (a call or a stand), each of
their cards shows its value and working under that X, as in the rulebook's example. The
best X of a hand is a spoiler while the game runs, so it is shown only when the game is
over (``table["possible"]``: the best X and total of every hand, for the round-end screen).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.cardmath.working import bindings, card_working, number_text
from companion.engine.view import CardView, Expecting, GameView, Outcome, SeatView, TimerView
from companion.errors import CompanionError
from companion.games.moves import Possible, PossibleMoves
from companion.games.x21.table import Cards, Claim, fraction_json

if TYPE_CHECKING:
    from companion.games.x21.rules import X21State


def x21_view(state: X21State, game: str) -> GameView:
    """The public picture of ``state``."""
    seat = {player: number for number, player in enumerate(state.players, start=1)}
    over = state.phase == "over"
    return GameView(
        game=game, phase=state.phase,
        seats=tuple(_seat(state, player, seat[player]) for player in state.players),
        expecting=_expecting(state, seat),
        timers=_timers(state),
        outcome=Outcome(over=over, winners=state.winners, eliminated=dict(state.why),
                        points=_points(state), reason=state.reason),
        table={"deck_left": len(state.deck), "standing": state.standing,
               "calling": state.calling,
               **({"possible": _possible(state)} if over else {})},
    )


def _points(state: X21State) -> dict[str, int]:
    return {p: state.cards.icons(state.hands[p]) if p in state.winners else 0
            for p in state.players}


def _status(state: X21State, player: str) -> str:
    if player in state.winners:
        return "won"
    if player in state.eliminated:
        return "eliminated"
    if player == state.calling:
        return "calling"
    if player == state.standing:
        return "standing"
    return "stated" if player in state.claims else "playing"


def _seat(state: X21State, player: str, number: int) -> SeatView:
    claim = state.claims.get(player)
    hand = state.hands[player]
    return SeatView(
        seat=number, player=player, cards=hand_cards(state.cards, hand, claim, state.v[player]),
        total=None if claim is None or claim.total is None else number_text(claim.total),
        status=_status(state, player), note=state.why.get(player, ""),
        points=_points(state)[player],
    ) if hand or claim else SeatView(seat=number, player=player, status=_status(state, player))


def hand_cards(cards: Cards, hand: Sequence[str], claim: Claim | None,
               v: int) -> tuple[CardView, ...]:
    """The cards of ``hand``, with values and working at the claim's X (if it allows one).

    >>> from companion.games.x21.table import inline_card
    >>> from companion.cardmath.hand import HandRules
    >>> known = {c: inline_card({"id": c, "text": c.upper()}) for c in ("3x", "x+5")}
    >>> from fractions import Fraction
    >>> [c.value for c in hand_cards(Cards(known, HandRules()), ["3x", "x+5"],
    ...                              Claim(Fraction(4)), 1)]
    ['12', '9']
    """
    known = [cards.card(card) for card in hand]
    plain = tuple(CardView(card.id, card.text) for card in known)
    if claim is None:
        return plain
    try:
        values = cards.values(hand, claim, v)
    except CompanionError:
        return plain
    substitute = bindings(claim.x, claim.y, len(hand), v)
    return tuple(
        CardView(card.id, card.text, number_text(value),
                 card_working(card.text, card.expression, substitute, value)
                 if card.expression is not None else None)
        for card, value in zip(known, values, strict=True))


def _expecting(state: X21State, seat: dict[str, int]) -> tuple[Expecting, ...]:
    chasers = tuple(seat[p] for p in state.chasers())
    if state.phase == "dealing":
        short = tuple(seat[p] for p in state.players if len(state.hands[p]) < 2)
        return (Expecting("deal", short, "two cards to each player"),)
    if state.phase == "playing":
        if state.calling is not None:
            return (Expecting("x", (seat[state.calling],),
                              f"{state.calling} called 21: everyone stops until X is stated"),)
        detail = "draw, call 21 or stand" if state.standing is None else "draw or call 21"
        return (Expecting("play", chasers, detail),)
    if state.phase == "stating":
        waiting = tuple(seat[p] for p in state.chasers() if p not in state.claims)
        return (Expecting("total", waiting, "the minute is up: state your best total"),
                Expecting("close", (), "the referee closes when everyone has spoken"))
    return ()


def _timers(state: X21State) -> tuple[TimerView, ...]:
    if state.timer is None or state.phase != "playing":
        return ()
    return (TimerView("stand", "countdown", state.timer.started_at, state.timer.ends_at,
                      paused=state.calling is not None),)


def _possible(state: X21State) -> dict[str, Any]:
    """The best X and total each hand could have made (what was possible)."""
    from companion.cardmath.solver import solve

    possible: dict[str, Any] = {}
    for player in state.players:
        expressions = [state.cards.card(card).expression for card in state.hands[player]]
        try:
            best = solve([e for e in expressions if e is not None], v=state.v[player],
                         rules=state.cards.hand_rules).best
        except CompanionError:
            best = None
        possible[player] = None if best is None else {
            "x": fraction_json(best.x), "total": fraction_json(best.total),
            **({"y": fraction_json(best.y)} if best.y is not None else {})}
    return possible


def x21_moves(state: X21State) -> PossibleMoves:
    """The moves each player can make now."""
    if state.phase == "dealing":
        return PossibleMoves(tuple(Possible("deal", p) for p in state.players
                                   if len(state.hands[p]) < 2))
    if state.phase == "playing":
        if state.calling is not None:
            return PossibleMoves((Possible("call", state.calling, {"needs": ["x"]}),))
        limit = state.cards.hand_rules.max_cards
        moves: list[Possible] = []
        for player in state.chasers():
            if limit is None or len(state.hands[player]) < limit:
                moves.append(Possible("draw", player, {"deck_left": len(state.deck)}))
            moves.append(Possible("call", player))
            if state.standing is None:
                moves.append(Possible("stand", player, {"needs": ["x", "total"]}))
        return PossibleMoves(tuple(moves))
    if state.phase == "stating":
        waiting = [p for p in state.chasers() if p not in state.claims]
        return PossibleMoves((
            *(Possible(kind, p) for p in waiting for kind in ("state", "pass")),
            Possible("close")))
    return PossibleMoves()

