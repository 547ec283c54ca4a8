"""21X for two or more players: make 21 (or get closest) with algebraic cards.

Play is simultaneous; the log records what each player does and the referee checks
every stated total against the player's cards with the card engine, never trusting
the player's arithmetic. Event kinds (``data`` fields):

``deal`` (player, card)
    Set-up: two cards to each player from the declared deck. Play begins once every
    player has two.
``draw`` (player, card)
    The player takes the card (a catalogue id, as the camera reads it) from the deck;
    at most ``max_cards``. N is the number of cards held. A standing player cannot draw.
``call`` (player[, x, y])
    Call 21. Without X (the call button) every player stops at once: nothing else is
    accepted, and the stand timer waits, until the caller's ``call`` with X (and Y)
    arrives. With X the call is checked: 21 exactly wins and ends the game; anything
    else (a wrong total, X = 0, a non-integer X when not allowed, Y <= 0) eliminates
    the player and, while the stand timer runs, restarts it from then.
``stand`` (player, x[, y], total)
    The player's total and X are locked and the shared stand timer starts. Only one
    player can stand; the stated total must be a valid total (at most 21, and not 20).
``timer_warning`` / ``timer_expired`` (timer="stand", remaining)
    Logged by the referee in the timer's last seconds and at its end; at the end
    every other player still in states a best total.
``state`` (player, x[, y], total) / ``pass`` (player)
    A best total stated at the end of the minute, or none (the player is out).
``close`` ()
    The referee stops waiting: anyone who has not stated a total is eliminated
    (hesitating), then the totals are checked.

Totals are checked from the best down: the standing player's total is beaten only by a
strictly higher valid total; equal totals rank the standing player first, then the
player with more difficulty icons; players still tied all win if correct. The first
rank with a correct total wins; a bust, a 20, or a total the cards do not give at the
stated X is "not correct" and that player is eliminated. The winners score the icons on
all their cards; the summary's ``why`` says why each eliminated player is out.

Options: ``non_integer_x``, ``max_cards``, ``stand_seconds``, ``warning_seconds``,
``last_player`` ("plays_on": the last player left must still call
21 or stand on a correct total, which is checked at once; "wins": they win outright),
``catalogue``. The start event carries each player's ``v`` (1 + games won this session).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from companion.cardmath.hand import Status, status_of
from companion.engine.events import Event
from companion.engine.timers import EXPIRED, WARNING, Countdown
from companion.engine.view import GameView
from companion.errors import IllegalMove
from companion.games.base import option, table_players
from companion.games.moves import MoveTable, NoData, PossibleMoves, TimerMove
from companion.games.x21.moves import Call, Seated, Stated, Take
from companion.games.x21.table import (
    Cards,
    Claim,
    fraction_text,
    read_setup,
    take_from_deck,
)
from companion.games.x21.view import x21_moves, x21_view

STAND_TIMER = "stand"
LAST_PLAYER_READINGS = ("plays_on", "wins")


@dataclass(frozen=True)
class X21State:
    """A multi-player 21X game at one moment."""

    players: tuple[str, ...]
    cards: Cards
    deck: frozenset[str]
    hands: Mapping[str, tuple[str, ...]]
    v: Mapping[str, int]
    stand_seconds: float
    warning_seconds: int
    last_player: str
    eliminated: tuple[str, ...] = ()
    why: Mapping[str, str] = field(default_factory=dict)
    standing: str | None = None
    calling: str | None = None
    claims: Mapping[str, Claim] = field(default_factory=dict)
    timer: Countdown | None = None
    phase: str = "dealing"
    winners: tuple[str, ...] = ()
    reason: str = ""
    t: float = 0.0

    def active(self) -> list[str]:
        """Players still in the game (not eliminated), in seat order."""
        return [p for p in self.players if p not in self.eliminated]

    def chasers(self) -> list[str]:
        """Players still in who are not the standing player."""
        return [p for p in self.active() if p != self.standing]

    def places(self) -> dict[str, str]:
        """Where every card outside the deck is: ``{card: "in ann's hand"}``."""
        return {card: f"in {player}'s hand" for player, hand in self.hands.items()
                for card in hand}

    def without(self, why: Mapping[str, str]) -> X21State:
        """This state with the players in ``why`` eliminated, for the reasons given."""
        return replace(self, eliminated=(*self.eliminated, *why), why={**self.why, **why})


class X21Rules:
    """The rules of multi-player 21X (see the module docstring)."""

    name = "21x"

    def start(self, event: Event) -> X21State:
        data = event.data
        players = table_players(event, self.name)
        setup = read_setup(data)
        v = data.get("v", {})
        if not isinstance(v, dict) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in v.values()):
            raise IllegalMove("'v' must map players to whole numbers >= 1")
        last_player = option(setup.options, "last_player", "plays_on", str)
        if last_player not in LAST_PLAYER_READINGS:
            raise IllegalMove(f"option 'last_player' must be one of {LAST_PLAYER_READINGS}")
        stand_seconds = option(setup.options, "stand_seconds", 60.0, float)
        if stand_seconds <= 0:
            raise IllegalMove("option 'stand_seconds' must be positive")
        return X21State(
            players=players, cards=setup.cards, deck=frozenset(setup.deck),
            hands={p: () for p in players}, v={p: int(v.get(p, 1)) for p in players},
            stand_seconds=stand_seconds,
            warning_seconds=option(setup.options, "warning_seconds", 10, int),
            last_player=last_player, t=event.t,
        )

    def apply(self, state: X21State, event: Event) -> X21State:
        if state.phase == "over":
            raise IllegalMove("the game is over")
        if event.kind in ("discard", "mulligan"):
            raise IllegalMove("in 21X no cards can be got rid of: a drawn card is kept")
        return MOVES.apply(replace(state, t=event.t), event)

    def due(self, state: X21State, now: float) -> list[Event]:
        if state.timer is None or state.phase != "playing" or state.calling is not None:
            return []
        return state.timer.due(STAND_TIMER, now)

    def summary(self, state: X21State) -> dict[str, Any]:
        points = {p: 0 for p in state.players}
        for winner in state.winners:
            points[winner] = state.cards.icons(state.hands[winner])
        return {
            "game": self.name,
            "players": list(state.players),
            "winners": list(state.winners),
            "eliminated": list(state.eliminated),
            "why": dict(state.why),
            "points": points,
            "over": state.phase == "over",
            "phase": state.phase,
            "reason": state.reason,
            "standing": state.standing,
            "calling": state.calling,
            "claims": {p: c.to_json() for p, c in state.claims.items()},
            "hands": {p: list(h) for p, h in state.hands.items()},
            "v": dict(state.v),
            "deck_left": len(state.deck),
            "timer_ends_at": None if state.timer is None else state.timer.ends_at,
        }

    def view(self, state: X21State) -> GameView:
        return x21_view(state, self.name)

    def moves(self, state: X21State) -> PossibleMoves:
        return x21_moves(state)


def _player(state: X21State, player: str) -> str:
    if player not in state.players:
        raise IllegalMove(f"{player!r} is not playing")
    if player in state.eliminated:
        raise IllegalMove(f"{player} has been eliminated")
    return player


def _playing(state: X21State, player: str) -> str:
    _player(state, player)
    if state.phase == "dealing":
        raise IllegalMove("play starts once every player has been dealt 2 cards")
    if state.phase != "playing":
        raise IllegalMove("the minute is up: players now state their best totals")
    if state.calling is not None and state.calling != player:
        raise IllegalMove(f"{state.calling} called 21: everyone stops until it is checked")
    if player == state.standing:
        raise IllegalMove(f"{player} is standing: their cards and total are locked")
    return player


MOVES: MoveTable[X21State] = MoveTable("21x")


@MOVES.handles("deal", Take)
def _deal(state: X21State, move: Take, t: float) -> X21State:
    player = _player(state, move.player)
    if state.phase != "dealing" or len(state.hands[player]) >= 2:
        raise IllegalMove(f"{player} has been dealt 2 cards already: draw instead")
    state = _take(state, player, move.card)
    dealt = all(len(hand) == 2 for hand in state.hands.values())
    return replace(state, phase="playing") if dealt else state


@MOVES.handles("draw", Take)
def _draw(state: X21State, move: Take, t: float) -> X21State:
    player = _playing(state, move.player)
    if state.calling is not None:
        raise IllegalMove(f"{player} called 21: state X, no more drawing")
    limit = state.cards.hand_rules.max_cards
    if limit is not None and len(state.hands[player]) >= limit:
        raise IllegalMove(f"{player} already has {limit} cards, the most allowed")
    return _take(state, player, move.card)


def _take(state: X21State, player: str, card: str) -> X21State:
    """``player`` takes ``card`` from the deck."""
    deck = take_from_deck(state.deck, card, state.places())
    hands = {**state.hands, player: (*state.hands[player], card)}
    return replace(state, deck=deck, hands=hands)


@MOVES.handles("call", Call)
def _call(state: X21State, move: Call, t: float) -> X21State:
    player = _playing(state, move.player)
    if move.x is None:
        if state.calling is not None:
            raise IllegalMove(f"{player} called 21 already: state X")
        return replace(state, calling=player)
    claim = Claim(x=move.x, y=move.y)
    total, fault = state.cards.judge(state.hands[player], claim, state.v[player], "called 21")
    claims = {**state.claims, player: replace(claim, total=total)}
    state = replace(state, calling=None, claims=claims)
    if not fault:
        return replace(state, winners=(player,), phase="over", timer=None,
                       reason=f"{player} called 21 with {claim.describe()} and made it")
    timer = state.timer.restarted(t) if state.timer is not None else None
    return _settle(replace(state.without({player: fault}), timer=timer))


@MOVES.handles("stand", Stated)
def _stand(state: X21State, move: Stated, t: float) -> X21State:
    player = _playing(state, move.player)
    if state.calling is not None:
        raise IllegalMove(f"{player} called 21: state X, not a total")
    if state.standing is not None:
        raise IllegalMove(f"{state.standing} is standing: nobody else can stand")
    claim = move.claim()
    if status_of(move.total) == Status.BUST:
        raise IllegalMove(f"cannot stand on {fraction_text(move.total)}: it is bust")
    timer = Countdown(started_at=t, duration=state.stand_seconds,
                      warnings=state.warning_seconds)
    return _settle(replace(state, standing=player, claims={**state.claims, player: claim},
                           timer=timer))


def _timer(state: X21State, move: TimerMove, t: float) -> X21State:
    event = Event(EXPIRED if move.remaining == 0 else WARNING,
                  {"timer": move.timer, "remaining": move.remaining}, t)
    if (state.timer is None or state.phase != "playing" or state.calling is not None
            or move.timer != STAND_TIMER or not state.timer.is_next(event)):
        raise IllegalMove(f"no timer event of the stand timer is due at {t}")
    timer = state.timer.logged(event)
    if move.remaining == 0:
        return _settle(replace(state, timer=timer, phase="stating"))
    return replace(state, timer=timer)


MOVES.add((WARNING, EXPIRED), TimerMove, _timer)


def _stating(state: X21State, player: str) -> str:
    _player(state, player)
    if state.phase != "stating":
        raise IllegalMove("best totals are stated when the stand timer runs out")
    if player == state.standing:
        raise IllegalMove(f"{player} is standing: their total is already stated")
    if player in state.claims:
        raise IllegalMove(f"{player} has already stated a total")
    return player


@MOVES.handles("state", Stated)
def _state_total(state: X21State, move: Stated, t: float) -> X21State:
    player = _stating(state, move.player)
    return _settle(replace(state, claims={**state.claims, player: move.claim()}))


@MOVES.handles("pass", Seated)
def _pass(state: X21State, move: Seated, t: float) -> X21State:
    player = _stating(state, move.player)
    return _settle(state.without({player: "passed: no total to state"}))


@MOVES.handles("close", NoData)
def _close(state: X21State, move: NoData, t: float) -> X21State:
    if state.phase != "stating":
        raise IllegalMove("only the statements at the end of the minute can be closed")
    silent = [p for p in state.chasers() if p not in state.claims]
    return _resolve(state.without({p: "stated no total when the minute ran out" for p in silent}))


def _settle(state: X21State) -> X21State:
    """Apply the end-of-game conditions that follow from who is still in."""
    active = state.active()
    if not active:
        return replace(state, phase="over", timer=None,
                       reason="every player was eliminated: no winner")
    if state.standing is None:
        if len(active) == 1 and state.last_player == "wins":
            return replace(state, phase="over", winners=(active[0],),
                           reason=f"{active[0]} is the last player left")
        return state
    waiting = [p for p in state.chasers() if p not in state.claims]
    if not state.chasers() or (state.phase == "stating" and not waiting):
        return _resolve(state)
    return state


def _rank(state: X21State, player: str) -> tuple[Fraction, bool, int]:
    """Where a stated total ranks: by total, then the standing player, then most icons."""
    total = state.claims[player].total
    assert total is not None
    return total, player == state.standing, state.cards.icons(state.hands[player])


def _fault(state: X21State, player: str) -> str:
    """Why the player's stated total is not correct (``""`` if it is)."""
    claim = state.claims[player]
    assert claim.total is not None
    said = "stood on" if player == state.standing else "stated"
    return state.cards.judge(state.hands[player], claim, state.v[player],
                             f"{said} {fraction_text(claim.total)}")[1]


def _resolve(state: X21State) -> X21State:
    """Check the stated totals from the best rank down; the first rank with a correct
    total wins (everyone correct in it). Those checked and wrong are eliminated."""
    ranks = {p: _rank(state, p) for p in state.active() if p in state.claims}
    faults: dict[str, str] = {}
    winners: tuple[str, ...] = ()
    for rank in sorted(set(ranks.values()), reverse=True):
        group = [p for p in ranks if ranks[p] == rank]
        faults.update({p: _fault(state, p) for p in group})
        winners = tuple(p for p in group if not faults[p])
        if winners:
            break
    over = replace(state.without({p: why for p, why in faults.items() if why}),
                   phase="over", winners=winners, timer=None)
    return replace(over, reason=_resolved_reason(over, ranks))


def _resolved_reason(state: X21State, ranks: Mapping[str, tuple[Fraction, bool, int]]) -> str:
    """Who won the checking of stated totals, and over whom."""
    if not state.winners or state.standing is None:
        return "no stated total was correct"
    stand_total = state.claims[state.standing].total
    assert stand_total is not None
    stand = f"{state.standing}'s stand on {fraction_text(stand_total)}"
    if state.standing in state.winners:
        return f"nobody beat {stand}"
    names = " and ".join(state.winners)
    total, _, icons = ranks[state.winners[0]]
    if state.standing in state.eliminated:
        reason = f"{names} had the best correct total, {fraction_text(total)} ({stand} was wrong)"
    else:
        reason = f"{names} beat {stand} with {fraction_text(total)}"
    fewer = [p for p, (t, standing, n) in ranks.items()
             if t == total and not standing and n < icons]
    return reason + (f" (more difficulty icons than {', '.join(fewer)})" if fewer else "")



RULES = X21Rules()
