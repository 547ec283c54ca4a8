"""Mountainside Math Medley rules: set-up, dice, claims, refills, jokers, corners, the end.

``autoplay`` plays a random legal game (the hypothesis tests and the example log use it):
draws come off the pile in order, claims are picked among the solver's hints.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.events import Event
from companion.engine.replay import read_jsonl, replay
from companion.errors import IllegalMove, MalformedMove
from companion.games.medley.rules import (
    BLOCKED,
    FULL_DECK,
    RULES,
    TIMEOUT,
    WON,
    Corner,
    MedleyState,
    hints,
    new_pile,
    target,
)
from companion.games.medley.solver import solve
from companion.games.registry import rules_for

LOG = Path(__file__).resolve().parents[2] / "docs" / "logs" / "medley.jsonl"
GRID = ["8h", "5c", "10d", "2s", "Qd", "Kh", "Jc", "9c", "3h"]


def start(options: Mapping[str, Any] | None = None, deck: list[str] | None = None,
          t: float = 0.0) -> MedleyState:
    data: dict[str, Any] = {"game": "medley", "players": ["mia"], "options": dict(options or {})}
    if deck is not None:
        data["deck"] = deck
    return RULES.start(Event("start", data, t=t))


def play(state: MedleyState, *events: tuple[str, dict[str, Any]], t: float = 1.0) -> MedleyState:
    for kind, data in events:
        state = RULES.apply(state, Event(kind, data, t=t))
    return state


def dealt(grid: list[str] = GRID, dice: list[int] | None = None,
          options: Mapping[str, Any] | None = None, deck: list[str] | None = None) -> MedleyState:
    """A game with ``grid`` dealt and, if given, the dice rolled."""
    state = start(options, deck)
    state = play(state, *[("draw", {"card": card, "cell": i}) for i, card in enumerate(grid)])
    return play(state, ("roll", {"dice": dice})) if dice else state


def check_invariants(state: MedleyState) -> None:
    """Every physical card is in exactly one place; the counts add up."""
    places = state.places()
    everywhere = Counter(card for cards in places.values() for card in cards)
    assert everywhere == Counter(state.deck)
    drawn = len(state.deck) - len(state.unseen)
    assert state.pile_left == state.options.pile_size - drawn
    assert 0 <= state.pile_left <= len(state.unseen)
    assert len(state.grid) == 9 and len(state.corners) == state.options.corners


# Set-up and target ------------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "expected"), [((4, 4), 44), ((5, 3), 53), ((2, 6), 62),
                                                ((1, 1), 11), ((6, 6), 66)])
def test_target_from_the_dice(dice: tuple[int, int], expected: int) -> None:
    assert target(dice) == expected
    assert dealt(dice=list(dice)).target == expected


def test_new_pile_puts_the_jokers_at_a_third_and_two_thirds() -> None:
    pile = new_pile(random.Random(3))
    assert len(pile) == 54 and Counter(pile) == Counter(FULL_DECK)
    assert [i for i, card in enumerate(pile) if card == "JK"] == [18, 36]
    short = new_pile(random.Random(3), 24)
    assert [i for i, card in enumerate(short) if card == "JK"] == [8, 16]
    with pytest.raises(IllegalMove, match="11 to 54"):
        new_pile(random.Random(3), 5)


def test_the_registry_plays_medley_with_these_rules() -> None:
    assert rules_for("medley") is RULES


def test_nine_cards_then_the_dice_before_any_claim() -> None:
    state = start()
    assert state.pile_left == 54 and state.grid == (None,) * 9
    with pytest.raises(IllegalMove, match="full grid and the dice rolled"):
        play(state, ("claim", {"expression": "8*5"}))
    state = dealt()
    assert state.pile_left == 45 and not state.ready
    with pytest.raises(IllegalMove, match="full grid and the dice rolled"):
        play(state, ("claim", {"expression": "5*9"}))
    state = play(state, ("roll", {"dice": [4, 5]}))
    assert state.ready and state.target == 54


@pytest.mark.parametrize("dice", [[0, 3], [7, 1], [3]])
def test_bad_dice_are_refused(dice: Any) -> None:
    with pytest.raises(IllegalMove, match="two numbers from 1 to 6"):
        play(dealt(), ("roll", {"dice": dice}))


@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [("roll", {"dice": "53"}, "'dice' of a 'roll' must be a list"),
     ("roll", {"dice": [True, 2]}, "must be a whole number, not True"),
     ("roll", {}, "a 'roll' needs 'dice'"),
     ("claim", {"text": "10*5+K"}, "a 'claim' needs 'expression'"),
     ("draw", {"card": 7, "cell": 1}, "'card' of a 'draw' must be text"),
     ("draw", {"card": "7s", "cell": "1"}, "'cell' of a 'draw' must be a whole number")],
)
def test_malformed_data_is_its_own_error(kind: str, data: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedMove, match=message):
        play(dealt(), (kind, data))


def test_the_dice_are_not_rolled_again_without_a_joker() -> None:
    with pytest.raises(IllegalMove, match="after a joker"):
        play(dealt(dice=[4, 5]), ("roll", {"dice": [6, 6]}))


# Claims, removal and refill ---------------------------------------------------------------


def test_a_claim_discards_its_cards_and_the_holes_are_refilled() -> None:
    state = play(dealt(dice=[4, 5]), ("claim", {"expression": "10*5+K"}))
    assert state.discard == ("5c", "10d", "Kh") and not state.ready
    assert [c.expression for c in state.claims] == ["10d*5c+Kh"]
    with pytest.raises(IllegalMove, match="full grid"):
        play(state, ("claim", {"expression": "9*Q*2"}))
    with pytest.raises(IllegalMove, match="cell 0 holds 8h"):
        play(state, ("draw", {"card": "7s", "cell": 0}))
    state = play(state, *[("draw", {"card": c, "cell": i}) for c, i in
                          [("7s", 1), ("4d", 2), ("6h", 5)]])
    assert state.ready and state.pile_left == 42
    check_invariants(state)


def test_a_wrong_claim_changes_nothing_and_says_why() -> None:
    state = dealt(dice=[4, 5])
    with pytest.raises(IllegalMove, match="makes 45, not the target 54"):
        play(state, ("claim", {"expression": "5*9"}))
    with pytest.raises(IllegalMove, match="only add or subtract once"):
        play(state, ("claim", {"expression": "10*5+2+J"}))
    with pytest.raises(IllegalMove, match="needs more cards than the board has"):
        play(state, ("claim", {"expression": "10*5+2+2"}))
    assert state.discard == () and state.claims == ()


def test_cards_must_come_from_the_pile() -> None:
    state = dealt(dice=[4, 5])
    state = play(state, ("claim", {"expression": "10*5+K"}))
    with pytest.raises(IllegalMove, match="8h is not in the draw pile: it is in grid"):
        play(state, ("draw", {"card": "8h", "cell": 1}))
    with pytest.raises(IllegalMove, match="10d is not in the draw pile: it is in discard"):
        play(state, ("draw", {"card": "10d", "cell": 1}))
    with pytest.raises(IllegalMove, match="unknown card"):
        play(state, ("draw", {"card": "1x", "cell": 1}))
    short = dealt(deck=[*GRID, "7s", "6h"], dice=[4, 5])
    with pytest.raises(IllegalMove, match="Ad is not in the draw pile: this game's deck has no"):
        play(short, ("draw", {"card": "Ad", "corner": 0}))
    with pytest.raises(IllegalMove, match="'cell' must be a number from 0 to 8"):
        play(state, ("draw", {"card": "7s", "cell": 9}))


# Jokers -----------------------------------------------------------------------------------


def test_a_joker_goes_into_the_grid_and_the_dice_are_rolled_again() -> None:
    state = play(dealt(dice=[4, 5]), ("claim", {"expression": "10*5+K"}))
    state = play(state, ("draw", {"card": "JK", "cell": 1}))
    assert state.reroll
    state = play(state, ("draw", {"card": "7s", "cell": 2}), ("draw", {"card": "6h", "cell": 5}))
    assert not state.ready
    with pytest.raises(IllegalMove, match="dice rolled"):
        play(state, ("claim", {"expression": "JK*9*Q"}))
    state = play(state, ("roll", {"dice": [2, 6]}))
    assert state.target == 62 and state.ready
    state = play(state, ("claim", {"expression": "JK(8)*8-2"}))
    assert "JK" in state.discard and state.claims[-1].expression == "JK(8)@g1*8h-2s"


def test_a_joker_drawn_as_corner_card_is_a_corner_and_the_dice_roll_again() -> None:
    state = dealt(dice=[1, 1])
    state = play(state, ("draw", {"card": "JK", "corner": 0}))
    assert state.corners[0] == Corner("JK") and state.reroll
    state = play(state, ("roll", {"dice": [3, 2]}))
    state = play(state, ("claim", {"expression": "10*3+JK(2)"}))
    assert state.corners[0] == Corner("JK", face_up=False)


# Corner cards ----------------------------------------------------------------------------


def test_a_used_corner_turns_face_down_and_stays_occupied() -> None:
    state = play(dealt(dice=[4, 4]), ("draw", {"card": "Ks", "corner": 2}))
    assert state.corners == (None, None, Corner("Ks"), None) and state.pile_left == 44
    state = play(state, ("claim", {"expression": "Ks+8*5"}))
    assert state.corners[2] == Corner("Ks", face_up=False)
    assert state.discard == ("8h", "5c")
    state = play(state, ("draw", {"card": "5s", "cell": 0}), ("draw", {"card": "4h", "cell": 1}))
    with pytest.raises(IllegalMove, match="no Ks on the board"):
        play(state, ("claim", {"expression": "Ks+8*5"}))
    with pytest.raises(IllegalMove, match="corner spot 2 is occupied"):
        play(state, ("draw", {"card": "6d", "corner": 2}))
    check_invariants(state)


def test_a_corner_card_used_inside_a_product_also_turns_face_down() -> None:
    state = play(dealt(dice=[6, 4]), ("draw", {"card": "Ks", "corner": 1}))
    state = play(state, ("claim", {"expression": "8*2*Ks"}))
    assert state.claims[-1].expression == "8h*2s*Ks"
    assert state.corners[1] == Corner("Ks", face_up=False)
    assert state.discard == ("8h", "2s")


def test_up_to_four_corner_cards_one_per_corner() -> None:
    stuck = ["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c"]
    state = dealt(stuck, dice=[6, 6])
    for spot, card in enumerate(["Jh", "Qh", "Kh", "Jd"]):
        state = play(state, ("draw", {"card": card, "corner": spot}))
    assert not state.over and hints(state, limit=1)
    with pytest.raises(IllegalMove, match="corner spot 0 is occupied"):
        play(state, ("draw", {"card": "Qc", "corner": 0}))
    with pytest.raises(IllegalMove, match="'corner' must be a number from 0 to 3"):
        play(state, ("draw", {"card": "Qc", "corner": 4}))


def test_number_of_corner_spots_is_an_option() -> None:
    state = dealt(dice=[4, 4], options={"corners": 6})
    assert len(state.corners) == 6
    state = play(state, ("draw", {"card": "Ks", "corner": 5}))
    with pytest.raises(IllegalMove, match="'corner' must be a number from 0 to 1"):
        play(dealt(dice=[4, 4], options={"corners": 2}), ("draw", {"card": "Ks", "corner": 3}))
    with pytest.raises(IllegalMove, match="'corners' must be 0 to 8"):
        start({"corners": 9})
    with pytest.raises(IllegalMove, match="no corner spots \\(option 'corners' is 0\\)"):
        play(dealt(dice=[4, 5], options={"corners": 0}), ("draw", {"card": "Ks", "corner": 0}))


def test_corner_card_needs_a_full_grid_and_dice() -> None:
    with pytest.raises(IllegalMove, match="full grid and the dice rolled"):
        play(dealt(), ("draw", {"card": "Ks", "corner": 0}))


def test_strict_play_refuses_a_corner_card_while_a_combination_exists() -> None:
    state = dealt(dice=[4, 5], options={"strict": True})
    with pytest.raises(IllegalMove, match="strict play: a combination exists"):
        play(state, ("draw", {"card": "Ks", "corner": 0}))
    relaxed = play(dealt(dice=[4, 5]), ("draw", {"card": "Ks", "corner": 0}))
    assert relaxed.corners[0] == Corner("Ks")


def test_strict_play_allows_a_corner_card_when_none_exists() -> None:
    stuck = ["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c"]
    state = dealt(stuck, dice=[6, 6], options={"strict": True})
    assert hints(state) == []
    state = play(state, ("draw", {"card": "Ks", "corner": 0}))
    assert state.corners[0] == Corner("Ks")


# Winning and losing -----------------------------------------------------------------------


def test_win_when_the_draw_pile_is_empty() -> None:
    state = dealt(dice=[4, 5], options={"pile_size": 11})
    assert state.pile_left == 2
    state = play(state, ("claim", {"expression": "10*5+K"}), ("draw", {"card": "7s", "cell": 1}))
    assert not state.over
    state = play(state, ("draw", {"card": "6h", "cell": 2}))
    summary = RULES.summary(state)
    assert state.ended == WON and summary["winners"] == ["mia"] and summary["over"]
    assert summary["pile_left"] == 0 and summary["grid"][5] is None
    with pytest.raises(IllegalMove, match="the game is over"):
        play(state, ("draw", {"card": "6d", "cell": 5}))


def test_the_last_card_drawn_as_a_corner_card_also_wins() -> None:
    state = dealt(dice=[4, 5], options={"pile_size": 10})
    state = play(state, ("draw", {"card": "Ks", "corner": 0}))
    assert state.ended == WON


def test_loss_when_no_combination_and_every_corner_is_occupied() -> None:
    stuck = ["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c"]
    state = dealt(stuck, dice=[6, 6], options={"corners": 2})
    state = play(state, ("draw", {"card": "Jh", "corner": 0}))
    assert not state.over
    state = play(state, ("draw", {"card": "Qh", "corner": 1}))
    assert solve(state.board(), 66) == []
    summary = RULES.summary(state)
    assert state.ended == BLOCKED and summary["eliminated"] == ["mia"] and summary["winners"] == []


def test_no_loss_while_a_face_up_corner_still_makes_a_combination() -> None:
    stuck = ["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c"]
    state = dealt(stuck, dice=[6, 6], options={"corners": 1})
    state = play(state, ("draw", {"card": "8h", "corner": 0}))
    assert not state.over and [c.short for c in hints(state, limit=1)] == ["2*2*2*8+2"]


def test_with_no_corners_a_board_without_combination_is_lost_at_once() -> None:
    stuck = ["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c"]
    assert dealt(stuck, dice=[6, 6], options={"corners": 0}).ended == BLOCKED


def test_timer_runs_out_and_the_game_is_lost() -> None:
    state = start({"time_limit": 60, "warnings": 2}, t=100.0)
    state = play(state, *[("draw", {"card": c, "cell": i}) for i, c in enumerate(GRID)], t=110.0)
    assert [(e.kind, e.t) for e in RULES.due(state, 159.0)] == [("timer_warning", 158.0),
                                                               ("timer_warning", 159.0)]
    with pytest.raises(IllegalMove, match="time is up at t=160"):
        play(state, ("roll", {"dice": [4, 5]}), t=161.0)
    for event in RULES.due(state, 170.0):
        state = RULES.apply(state, event)
    assert state.ended == TIMEOUT and RULES.summary(state)["eliminated"] == ["mia"]
    assert RULES.due(state, 500.0) == []


def test_a_timer_event_out_of_turn_is_refused() -> None:
    with pytest.raises(IllegalMove, match="not the countdown's next event"):
        RULES.apply(start(), Event("timer_expired", {"timer": "time", "remaining": 0}, t=5.0))


# Variants and options -------------------------------------------------------------------


def test_variants_reach_the_claims() -> None:
    grid = ["Ah", "5c", "9d", "3s", "Qd", "Kh", "Jc", "8c", "7h"]
    state = dealt(grid, dice=[4, 4], options={"aces_as_corners": True})
    state = play(state, ("claim", {"expression": "5*9-A"}))
    assert state.discard == ("Ah", "5c", "9d")
    state = dealt(grid, dice=[5, 5], options={"ace_eleven": True})
    state = play(state, ("claim", {"expression": "A(11)*5"}))
    assert state.claims[-1].expression == "Ah(11)*5c"
    corners = [("draw", {"card": "10s", "corner": 0}), ("draw", {"card": "8s", "corner": 1})]
    state = play(dealt(grid, dice=[1, 1]), *corners, ("claim", {"expression": "J-9+10s+8s"}))
    assert state.discard == ("9d", "Jc")
    with pytest.raises(IllegalMove, match="positive first product"):
        play(dealt(grid, dice=[1, 1], options={"allow_negative": False}), *corners,
             ("claim", {"expression": "J-9+10s+8s"}))


@pytest.mark.parametrize(
    ("options", "message"),
    [({"colour": 1}, "unknown medley option 'colour'"), ({"strict": 1}, "'strict' must be bool"),
     ({"pile_size": 9}, "'pile_size' must be 10 to 54"),
     ({"time_limit": -1}, "cannot be negative")],
)
def test_bad_options_are_named(options: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        start(options)


@pytest.mark.parametrize(
    ("data", "message"),
    [({"players": ["a", "b"]}, "exactly one player"), ({"deck": ["As", "As"]}, "2 of As"),
     ({"deck": ["Zz"]}, "unknown card"), ({"deck": "all"}, "list of card names"),
     ({"options": []}, "'options' must be an object")],
)
def test_bad_start_events_are_named(data: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        RULES.start(Event("start", {"game": "medley", "players": ["mia"], **data}))


def test_unknown_event_kind() -> None:
    with pytest.raises(IllegalMove, match="unknown medley event 'shuffle'"):
        play(start(), ("shuffle", {}))


# Random legal games ---------------------------------------------------------------------


def autoplay(rng: random.Random, options: Mapping[str, Any], pile: list[str]) -> Iterator[Event]:
    """Random legal events of one game to its end: draws in pile order, claims from hints."""
    state = start(options, pile)
    yield Event("start", {"game": "medley", "players": ["mia"], "options": dict(options),
                          "deck": pile}, t=0.0, seq=1)
    order, t = iter(pile), 0.0
    data: dict[str, Any]
    while not state.over:
        t += rng.choice((2.0, 3.5, 5.0))
        empty = [cell for cell, card in enumerate(state.grid) if card is None]
        if state.reroll and (not empty or rng.random() < 0.5):
            kind, data = "roll", {"dice": [rng.randint(1, 6), rng.randint(1, 6)]}
        elif empty:
            kind, data = "draw", {"card": next(order), "cell": rng.choice(empty)}
        else:
            found = hints(state, limit=12)
            free = [spot for spot, corner in enumerate(state.corners) if corner is None]
            if found and (not free or state.options.strict or rng.random() < 0.8):
                kind, data = "claim", {"expression": rng.choice(found).expression}
            else:
                kind, data = "draw", {"card": next(order), "corner": rng.choice(free)}
        event = Event(kind, data, t=t, seq=0)
        state = RULES.apply(state, event)
        yield event
        check_invariants(state)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(14, 54), corners=st.integers(0, 4),
       ace_eleven=st.booleans(), aces_as_corners=st.booleans(), strict=st.booleans())
def test_random_legal_games_keep_every_card_in_one_place(
    seed: int, size: int, corners: int, ace_eleven: bool, aces_as_corners: bool, strict: bool
) -> None:
    rng = random.Random(seed)
    options = {"corners": corners, "ace_eleven": ace_eleven, "aces_as_corners": aces_as_corners,
               "strict": strict}
    events = list(autoplay(rng, options, new_pile(rng, size)))
    final = replay([Event(e.kind, e.data, e.t, seq) for seq, e in enumerate(events, 1)]).state
    assert final.over
    if final.ended == BLOCKED:
        assert None not in final.corners and hints(final) == []
    else:
        assert final.ended == WON and final.pile_left == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 40),
       junk=st.sampled_from([("claim", {"expression": "K*K"}), ("roll", {"dice": [3, 3]}),
                             ("draw", {"card": "JK", "cell": 4}), ("draw", {"card": "As"}),
                             ("draw", {"card": "2c", "corner": 0})]))
def test_stray_events_in_random_games_are_refused_or_keep_the_invariants(
    seed: int, steps: int, junk: tuple[str, dict[str, Any]]
) -> None:
    rng = random.Random(seed)
    state = start({"pile_size": 20})
    for event in list(autoplay(rng, {"pile_size": 20}, new_pile(rng, 54)))[1 : steps + 1]:
        state = RULES.apply(state, event)
    try:
        after = RULES.apply(state, Event(*junk, t=1000.0))
    except IllegalMove as error:
        assert str(error) and "\n" not in str(error)
    else:
        check_invariants(after)


# The example log --------------------------------------------------------------------------


def test_the_example_log_replays_to_its_summary() -> None:
    events = read_jsonl(LOG)
    summary = replay(events).summary()
    assert events[0].data["game"] == "medley" and summary["over"] is True
    assert summary["ended"] == WON and summary["winners"] == ["mia"]
    assert summary["points"] == {"mia": summary["discard"]}
    assert {e.kind for e in events} >= {"start", "draw", "roll", "claim"}
    assert any(e.kind == "draw" and "corner" in e.data for e in events)
    assert any(e.kind == "draw" and e.data["card"] == "JK" for e in events)
    json.dumps(summary)
