"""Scores: match standings in a session, leaderboards and ``companion scores``."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.scores import best_times, high_scores, leaderboards, match, standings
from companion.engine.store import Store

from .tables import Table


def quick_21x(tmp_path: Path, store: Store, session: int, winner_hand: bool) -> Table:
    """A 21X game in which ann calls 21 with 6X + 2X+4 + 9 (or ben with 3X + X+5)."""
    game = Table(tmp_path, "21x", {"players": ["ann", "ben"]}, session_id=session, store=store)
    game.deal({"ann": ["6x", "2x+4", "9"], "ben": ["3x", "x+5"]})
    if winner_hand:
        game.do("call", player="ann", x=1)
    else:
        game.do("call", player="ben", x=4)
    return game


def test_a_match_of_three_games_goes_to_the_most_points(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    session = store.new_session(started_at=0.0, games_planned=3)
    quick_21x(tmp_path, store, session, winner_hand=True)
    before = match(store, session)
    assert before.games_played == 1 and not before.over and before.leaders == ["ann"]
    quick_21x(tmp_path, store, session, winner_hand=False)
    quick_21x(tmp_path, store, session, winner_hand=False)
    result = match(store, session)
    assert result.over and result.games_played == 3
    assert [(s.player, s.wins, s.points) for s in result.standings] == [
        ("ben", 2, 4), ("ann", 1, 3)]
    assert result.leaders == ["ben"]


def test_points_in_a_session_never_decrease(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    session = store.new_session(started_at=0.0)
    totals: list[dict[str, int]] = []
    for round_ in range(4):
        quick_21x(tmp_path, store, session, winner_hand=round_ % 2 == 0)
        totals.append({s.player: s.points for s in standings(store, session_id=session)})
    for earlier, later in itertools.pairwise(totals):
        assert all(later.get(p, 0) >= n for p, n in earlier.items())


def test_leaderboards_rank_times_and_high_scores(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    for seconds, player in ((300.5, "ann"), (120.0, "ben"), (200.0, "ann")):
        game = store.new_game("21x-solo", started_at=0.0)
        store.finish(game, {"over": True, "winners": [player], "points": {player: 21},
                            "time": seconds})
    unfinished = store.new_game("21x-solo", started_at=0.0)
    store.finish(unfinished, {"over": False, "winners": [], "points": {"cat": 3}})
    for points in (35, 80):
        game = store.new_game("solitaire", started_at=0.0)
        store.finish(game, {"over": True, "winners": [], "points": {"dan": points}})
    assert [(e.player, e.value) for e in best_times(store)] == [
        ("ben", 120.0), ("ann", 200.0), ("ann", 300.5)]
    assert [e.value for e in high_scores(store, "solitaire")] == [80.0, 35.0]
    boards = leaderboards(store)
    assert boards["personal_bests"] == {"ben": 120.0, "ann": 200.0}
    assert set(boards["standings"]) == {"21x-solo", "solitaire"}


def test_scores_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store.open(tmp_path)
    session = store.new_session(started_at=0.0, games_planned=2)
    quick_21x(tmp_path, store, session, winner_hand=True)
    solo = Table(tmp_path, "21x-solo", {"players": ["cat"], "options": {"target": 4}}, store=store)
    for card in ("6x", "2x+4"):
        solo.at(3).do("deal", card=card)
    solo.do("draw", card="x/2")
    solo.at(45).do("make21", x=2)
    assert main(["scores", "--data-dir", str(tmp_path), "--json"]) == 0
    boards = json.loads(capsys.readouterr().out)
    assert boards["best_times"]["21x-solo"][0] == {"player": "cat", "value": 42.0,
                                                  "game_id": solo.referee.game_id}
    assert boards["standings"]["21x"][0]["player"] == "ann"
    assert boards["matches"][0]["leaders"] == ["ann"] and not boards["matches"][0]["over"]
    assert main(["scores", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "1. cat 42.0 s" in out and "personal bests: cat 42.0 s" in out
    assert "ann: 3 points, 1 won of 1 game" in out and "ben: 0 points, 0 won of 1 game" in out
    assert "match 1: 1 of 2 games, led by ann" in out
