"""Medley at the table: the recorded game through the conductor, the claim inference from
lifted cards, the dice, every attention item, the view, the moves and the replay catch-up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.events import Event
from companion.engine.observations import ButtonPress, Observation, Sighting, TableStart, Tap
from companion.engine.replay import ReplayError, read_jsonl, replay
from companion.engine.store import Store
from companion.games.medley.claims import resolve_claim
from companion.games.medley.rules import RULES, MedleyState
from tests.games.recordings import conduct, moves, recording

DOCS = Path(__file__).resolve().parents[2] / "docs"
GRID = ["8h", "5c", "10d", "2s", "Qd", "Kh", "Jc", "9c", "3h"]
"""8h 5c 10d / 2s Qd Kh / Jc 9c 3h: with the dice 4 and 5 (target 54) 5c 10d Kh is one
combination (5 x 10 + K), and 8h 10d Qd 3h makes 54 in two ways (10 x Q + 8 x 3 and
8 x Q + 10 x 3)."""


def placed(card: str, zone: str | None, t: float) -> Sighting:
    return Sighting("placed", card, zone, t)


def lifted(card: str, cell: int, t: float) -> Sighting:
    return Sighting("moved", card, "discard", t, from_zone=f"cell-{cell}")


def dice(a: int, b: int, t: float) -> list[Sighting]:
    return [Sighting("rolled", "die", "dice", t, value=a),
            Sighting("rolled", "die", "dice", t + 0.3, value=b)]


SET_UP = [*(placed(card, f"cell-{cell}", 1.0 + cell) for cell, card in enumerate(GRID)),
          *dice(4, 5, 11.0)]


def table(tmp_path: Path, *observations: Observation,
          **options: Any) -> tuple[Any, list[str], list[str]]:
    start = TableStart("medley", ("mia",), options=options)
    return conduct(tmp_path / "games.db", start, [*SET_UP, *observations])


def state(conductor: Any) -> MedleyState:
    found: MedleyState = conductor.referee.state
    return found


def cards_used(expression: str, before: MedleyState) -> list[str]:
    """The cards a claim uses on the board before it (however it was written)."""
    assert before.target is not None
    claim = resolve_claim(expression, before.board(), before.extras(), before.target,
                          before.options.combinations)
    return sorted(f.card for t in claim.terms for f in t.factors)


def test_the_recorded_game_is_won_through_the_conductor_as_in_the_example_log(
        tmp_path: Path) -> None:
    start, observations = recording("medley")
    conductor, asked, refused = conduct(tmp_path / "games.db", start, observations)
    assert (asked, refused) == ([], [])
    outcome = conductor.view.outcome
    assert outcome.over and outcome.winners == ("mia",) and outcome.points == {"mia": 42}
    log = read_jsonl(DOCS / "logs" / "medley.jsonl")
    got = conductor.referee.events
    assert [(e.kind, e.data) for e in got if e.kind != "claim"] == [
        (e.kind, e.data) for e in log if e.kind != "claim"]
    claims = [i for i, e in enumerate(log) if e.kind == "claim"]
    ours = [i for i, e in enumerate(got) if e.kind == "claim"]
    assert ours == claims
    for mine, theirs in zip(ours, claims, strict=True):
        before = replay(log[:theirs]).state
        assert cards_used(got[mine].data["expression"], before) == cards_used(
            log[theirs].data["expression"], before)
    expected = replay(log).summary()
    summary = RULES.summary(state(conductor))
    assert {k: v for k, v in summary.items() if k != "claims"} == {
        k: v for k, v in expected.items() if k != "claims"}
    stored = Store(tmp_path / "games.db").events(conductor.referee.game_id)
    assert [e.kind for e in stored] == [e.kind for e in got]


def test_cards_into_cells_are_draws_and_two_settled_dice_are_the_roll(tmp_path: Path) -> None:
    conductor, asked, _ = table(tmp_path)
    assert moves(conductor)[:2] == [("draw", {"card": "8h", "cell": 0}),
                                    ("draw", {"card": "5c", "cell": 1})]
    assert moves(conductor)[-1] == ("roll", {"dice": [4, 5]})
    assert state(conductor).target == 54 and asked == []


def test_the_first_die_waits_for_the_second(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path)
    start = TableStart("medley", ("mia",))
    half, _, _ = conduct(tmp_path / "half.db", start, [*SET_UP[:9], SET_UP[9]])
    assert moves(half)[-1][0] == "draw"
    assert [e.what for e in half.view.expecting][:2] == ["roll", "roll"]
    assert half.view.expecting[0].detail == "one die reads 4: waiting for the other"
    assert moves(conductor)[-1][0] == "roll"


def test_one_combination_lifted_is_claimed_at_the_first_deal_into_a_gap(tmp_path: Path) -> None:
    conductor, asked, _ = table(tmp_path, lifted("5c", 1, 20.0), lifted("10d", 2, 20.5),
                                lifted("Kh", 5, 21.0), placed("7s", "cell-1", 24.0))
    assert moves(conductor)[-2:] == [("claim", {"expression": "5c*10d+Kh"}),
                                     ("draw", {"card": "7s", "cell": 1})]
    assert state(conductor).discard == ("5c", "10d", "Kh") and asked == []


def test_the_button_claims_the_lifted_cards_too(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, Sighting("removed", "2s", "cell-3", 20.0),
                            Sighting("removed", "Qd", "cell-4", 20.2),
                            Sighting("removed", "9c", "cell-7", 20.4),
                            ButtonPress(1, "press", 22.0))
    assert moves(conductor)[-1] == ("claim", {"expression": "2s*Qd*9c"})


def test_several_combinations_are_asked_one_choice_each_and_the_deals_wait(
        tmp_path: Path) -> None:
    conductor, asked, _ = table(tmp_path, *(lifted(GRID[c], c, 20.0 + c / 10) for c in
                                            (0, 2, 4, 8)),
                                placed("7s", "cell-0", 25.0), placed("4d", "cell-2", 26.0))
    assert asked == ["the lifted cards 8h 10d Qd 3h make 54 in 2 ways: which one?"]
    item = conductor.attention[-1]
    assert [c.label for c in item.choices] == ["10d*Qd+8h*3h", "8h*Qd+10d*3h", "none of these"]
    assert moves(conductor)[-1] == ("roll", {"dice": [4, 5]})
    assert conductor.view.expecting[0].detail == "which combination did you lift?"
    conductor.resolve(item.id, 1)
    conductor.step()
    assert moves(conductor)[-3:] == [("claim", {"expression": "8h*Qd+10d*3h"}),
                                     ("draw", {"card": "7s", "cell": 0}),
                                     ("draw", {"card": "4d", "cell": 2})]


def test_none_of_these_lets_the_waiting_deals_go_to_the_referee(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, *(lifted(GRID[c], c, 20.0 + c / 10) for c in
                                        (0, 2, 4, 8)), placed("7s", "cell-0", 25.0))
    item = conductor.attention[-1]
    conductor.resolve(item.id, 2)
    update = conductor.step()
    assert [s.detail for s in update.signals if s.kind == "refused"] == [
        "cell 0 holds 8h: only empty cells are filled"]


def test_lifted_cards_that_make_nothing_are_asked_about(tmp_path: Path) -> None:
    _, asked, _ = table(tmp_path, lifted("8h", 0, 20.0), lifted("5c", 1, 20.5),
                        ButtonPress(1, "press", 22.0))
    assert asked == ["the lifted cards 8h 5c make no combination of 54: put them back"]


def test_a_lifted_card_put_back_is_no_longer_lifted(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, lifted("5c", 1, 20.0), lifted("10d", 2, 20.5),
                            lifted("Kh", 5, 21.0), lifted("9c", 7, 21.5),
                            placed("9c", "cell-7", 22.0), ButtonPress(1, "press", 23.0))
    assert moves(conductor)[-1] == ("claim", {"expression": "5c*10d+Kh"})


def test_a_corner_card_is_a_draw_onto_its_spot_and_is_used_face_down(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, placed("Ad", "corner-2", 20.0),
                            Sighting("removed", "Ad", "corner-2", 25.0),
                            lifted("5c", 1, 25.2), lifted("10d", 2, 25.4),
                            lifted("Kh", 5, 25.6), placed("7s", "cell-1", 28.0))
    assert moves(conductor)[-2] == ("claim", {"expression": "5c*10d+Kh*Ad"})
    assert state(conductor).discard == ("5c", "10d", "Kh")
    corner = state(conductor).corners[2]
    assert corner is not None and (corner.card, corner.face_up) == ("Ad", False)


def test_every_attention_item(tmp_path: Path) -> None:
    _, asked, refused = table(
        tmp_path,
        *dice(6, 6, 15.0),                                       # no roll is due
        Sighting("rolled", "die", "dice", 16.0),                 # a die without its pips
        placed("7s", "draw", 17.0),                              # on the draw pile
        placed("6s", "dice", 17.5),                              # in the dice tray
        placed("4s", "discard", 18.0),                           # on the discard, not lifted
        placed("3s", None, 18.5),                                # in no zone
        Sighting("moved", "Kd", "discard", 19.0, from_zone="cell-5"),  # not what is there
        Sighting("placed", "2d", "corner-0", 19.5, unsure=True),  # an unsure read
        ButtonPress(1, "press", 20.0),                           # nothing lifted
        Tap("shuffle", 20.5, seat=1),                            # a tap medley does not have
        placed("10d", "corner-1", 21.0),                         # a card already in the grid
    )
    assert asked == [
        "a die was rolled (6), but the dice are rolled only at the start and after a joker",
        "a die settled but its pips were not read: enter the roll by touch",
        "7s is on the draw pile: cards go into the grid or onto a corner spot",
        "6s is in the dice tray: cards go into the grid or onto a corner spot",
        "4s is on the discard pile: cards go into the grid or onto a corner spot",
        "3s is in no zone: cards go into the grid or onto a corner spot",
        "Kd left cell-5, but the referee has Kh there",
        "is the card in corner-0 2d?",
        "nothing is lifted: lift the cards of a combination, or put a corner card on a free"
        " spot",
        "medley has no 'shuffle' on the screen",
        "10d in corner-1 was refused: 10d is not in the draw pile: it is in grid",
    ]
    assert refused == []


def test_a_card_in_no_zone_goes_where_the_player_says(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, lifted("5c", 1, 20.0), lifted("10d", 2, 20.5),
                            lifted("Kh", 5, 21.0), ButtonPress(1, "press", 22.0),
                            placed("7s", None, 24.0))
    item = conductor.attention[-1]
    assert [c.label for c in item.choices] == ["it went to cell-1", "it went to cell-2",
                                               "it went to cell-5", "ignore"]
    conductor.resolve(item.id, 1)
    conductor.step()
    assert moves(conductor)[-1] == ("draw", {"card": "7s", "cell": 2})


def test_the_view_and_the_moves(tmp_path: Path) -> None:
    conductor, _, _ = table(tmp_path, time_limit=300, warnings=3)
    view = conductor.view.to_json()
    assert view["phase"] == "claiming"
    assert view["table"]["grid"][4] == {"card": "Qd", "text": "Qd", "value": "3"}
    assert (view["table"]["target"], view["table"]["pile_left"]) == (54, 45)
    assert view["timers"] == [{"name": "time", "kind": "countdown", "started_at": 0.0,
                               "ends_at": 300.0, "paused": False}]
    possible = RULES.moves(state(conductor))
    claims = [m.detail["short"] for m in possible.moves if m.kind == "claim"]
    assert claims[:3] == ["5*10+K", "2*Q*9", "Q*J*9"]
    assert sorted(m.detail["corner"] for m in possible.moves if m.kind == "draw") == [0, 1, 2, 3]
    assert possible.unknown == ("which card comes off the draw pile",)


def test_a_blocked_game_says_why_in_the_outcome(tmp_path: Path) -> None:
    stuck = ["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c"]
    start = TableStart("medley", ("mia",), options={"corners": 0})
    observations: list[Observation] = [
        *(placed(card, f"cell-{i}", 1.0 + i) for i, card in enumerate(stuck)), *dice(6, 6, 11.0)]
    conductor, _, _ = conduct(tmp_path / "games.db", start, observations)
    outcome = conductor.view.outcome
    assert outcome.over and outcome.eliminated == {
        "mia": "no combination makes the target and every corner spot is occupied"}
    assert conductor.view.seats[0].status == "eliminated"


def timed_log(*, with_warnings: bool) -> list[Event]:
    """A game with a 60 s countdown (2 warnings), set up, that runs out at t=60."""
    start = Event("start", {"game": "medley", "players": ["mia"],
                            "options": {"time_limit": 60, "warnings": 2}}, 0.0, 1)
    draws = [Event("draw", {"card": card, "cell": cell}, 1.0 + cell, 2 + cell)
             for cell, card in enumerate(GRID)]
    timer = [Event("timer_warning", {"timer": "time", "remaining": n}, 60.0 - n)
             for n in (2, 1)] if with_warnings else []
    expiry = Event("timer_expired", {"timer": "time", "remaining": 0}, 60.0)
    events = [start, *draws, *timer, expiry]
    return [Event(e.kind, e.data, e.t, seq) for seq, e in enumerate(events, start=1)]


def test_a_log_without_the_warnings_is_judged_as_if_they_came_first() -> None:
    full, without = timed_log(with_warnings=True), timed_log(with_warnings=False)
    assert replay(without).summary() == replay(full).summary()
    assert replay(without).state.ended == "timeout"


def test_a_move_after_a_missing_expiry_is_refused_as_after_a_logged_one() -> None:
    late = Event("roll", {"dice": [4, 5]}, 61.0)
    logged = timed_log(with_warnings=True)
    missing = logged[:-3]
    messages = []
    for events in (logged, missing):
        with pytest.raises(ReplayError) as caught:
            replay([*events, Event(late.kind, late.data, late.t, len(events) + 1)])
        messages.append(str(caught.value).split(": ", 1)[1])
    assert messages[0] == messages[1] == "the game is over (timeout): no 'roll' allowed"


def test_a_claim_entered_by_touch_takes_the_place_of_the_lifted_cards(tmp_path: Path) -> None:
    conductor, asked, _ = table(tmp_path, lifted("5c", 1, 20.0), lifted("10d", 2, 20.5),
                                lifted("Kh", 5, 21.0),
                                Tap("claim", 22.0, seat=1, data={"expression": "10*5+K"}),
                                placed("7s", "cell-1", 24.0))
    assert moves(conductor)[-2:] == [("claim", {"expression": "10*5+K"}),
                                     ("draw", {"card": "7s", "cell": 1})]
    assert asked == [] and conductor.view.expecting[0].what == "draw"
