"""The conductor and the 21X translator: observations in; moves, attention and signals out."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.engine.clock import ManualClock
from companion.engine.conductor import Conductor, Update
from companion.engine.observations import (
    ButtonPress,
    CameraStatus,
    Observation,
    Sighting,
    TableStart,
    Tap,
)
from companion.engine.replay import read_jsonl, replay
from companion.engine.store import Store
from companion.errors import StoreWriteError
from tests.games.recordings import play
from tests.referee.tables import ALL_IDS, INLINE_CARDS

ROOT = Path(__file__).resolve().parents[2]
RECORDING = ROOT / "docs" / "observations" / "21x.jsonl"


class Game:
    """A 21X game of ann, ben and cat on a real store file, driven by observations."""

    def __init__(self, tmp_path: Path, **start: Any) -> None:
        self.clock = ManualClock(0.0)
        self.store = Store.open(tmp_path)
        extra = {"deck": ALL_IDS, "cards": INLINE_CARDS}
        table = TableStart("21x", ("ann", "ben", "cat"), extra=extra, **start)
        self.conductor = Conductor.start(self.store, self.clock, table)

    def feed(self, *observations: Observation) -> Update:
        for observation in observations:
            self.clock.now = max(self.clock.now, observation.t)
            self.conductor.post(observation)
        return self.conductor.step()

    def deal(self) -> None:
        cards = {"seat-1": ["10", "4"], "seat-2": ["3x", "x+5"], "seat-3": ["9", "5"]}
        self.feed(*(Sighting("placed", hand[i], zone, 1.0 + i)
                    for i in range(2) for zone, hand in cards.items()))

    def kinds(self) -> list[str]:
        return [event.kind for event in self.conductor.referee.events]


def test_the_recorded_game_logs_the_example_log(tmp_path: Path) -> None:
    played = play("21x", tmp_path)
    example = read_jsonl(ROOT / "docs" / "logs" / "21x.jsonl")
    assert played.logged() == [(e.kind, dict(e.data)) for e in example[1:]]
    assert played.conductor.view.outcome.winners == ("cat",)


def test_play_prints_the_final_view(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "21x", "--observations", str(RECORDING), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["outcome"]["over"] and view["outcome"]["winners"] == ["cat"]
    assert view["outcome"]["points"] == {"ann": 0, "ben": 0, "cat": 4}
    cat = view["seats"][2]
    assert cat["status"] == "won" and cat["total"] == "19"
    assert [card["working"] for card in cat["cards"]][2] == "7-X = 7 - 6 = 1"
    assert view["table"]["possible"]["ann"] == {"x": 2, "total": 21}


@pytest.mark.parametrize(("line", "message"), [
    ('{"t": 1, "type": "sighting", "kind": "placed", "card": 5}', ":2: 'card' must be"),
    ('{"t": -1, "type": "tap", "action": "x"}', ":2: 't' must be a finite number"),
    ('{"t": 1, "type": "telepathy"}', ":2: 'type' must be sighting, button, tap or camera"),
    ('not json', ":2: not JSON"),
])
def test_a_bad_line_is_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          line: str, message: str) -> None:
    recording = tmp_path / "bad.jsonl"
    recording.write_text('{"type": "start", "game": "21x", "players": ["a", "b"]}\n' + line)
    assert main(["play", "--observations", str(recording)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"bad.jsonl{message}" in error


def test_the_recording_must_be_of_the_named_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "trick", "--observations", str(RECORDING)]) == 2
    assert "a game of 21x, not trick" in capsys.readouterr().err


def test_deals_then_draws_from_the_seat_zones(tmp_path: Path) -> None:
    game = Game(tmp_path)
    game.deal()
    update = game.feed(Sighting("placed", "7-x", "seat-3", 9.0))
    assert game.kinds() == ["start", *["deal"] * 6, "draw"]
    assert update.view.phase == "playing"
    assert update.view.seat_of("cat").cards[-1].text == "7-X"


def test_a_card_in_no_seat_zone_is_asked_about_and_placed_by_touch(tmp_path: Path) -> None:
    game = Game(tmp_path)
    update = game.feed(Sighting("placed", "10", "deck", 1.0))
    (item,) = update.attention
    assert item.message == "10 is in deck, not in front of a seat"
    assert [choice.label for choice in item.choices] == [
        "ann took it", "ben took it", "cat took it", "ignore"]
    game.conductor.resolve(item.id, 1)
    update = game.feed()
    assert update.attention == ()
    assert [dict(e.data) for e in update.events] == [{"player": "ben", "card": "10"}]


def test_an_unsure_read_is_confirmed_before_it_counts(tmp_path: Path) -> None:
    game = Game(tmp_path)
    (item,) = game.feed(Sighting("placed", "9", "seat-1", 1.0, unsure=True)).attention
    assert item.message == "the camera is unsure of the card in seat-1: is it 9?"
    assert item.seat == 1
    assert game.kinds() == ["start"]
    game.conductor.resolve(item.id, 0)
    assert game.feed().events[0].data == {"player": "ann", "card": "9"}


def test_refused_cards_leaving_hands_and_dice_are_attention(tmp_path: Path) -> None:
    game = Game(tmp_path)
    game.deal()
    update = game.feed(Sighting("placed", "10", "seat-2", 9.0),
                       Sighting("removed", "4", "seat-1", 9.5),
                       Sighting("rolled", "die", "deck", 9.6, value=3))
    assert [item.message for item in update.attention] == [
        "10 in seat-2 was refused: card '10' is not in the deck (in ann's hand)",
        "4 left ann's hand: in 21X a card drawn is kept",
        "a die (3) is on the table: 21X uses no dice",
    ]
    assert [signal.kind for signal in update.signals] == ["attention"] * 3
    assert game.kinds() == ["start", *["deal"] * 6]


def test_call_then_x_is_checked_with_signals(tmp_path: Path) -> None:
    game = Game(tmp_path)
    game.deal()
    buzz = game.feed(ButtonPress(2, "press", 10.0, late_ms=0.0),
                     ButtonPress(1, "press", 10.05, late_ms=48.0))
    assert [(s.kind, s.seat) for s in buzz.signals] == [("buzz", 2), ("late", 1),
                                                       ("refused", 1)]
    assert buzz.view.expecting[0].what == "x" and buzz.view.expecting[0].seats == (2,)
    verdict = game.feed(Tap("x", 12.0, seat=2, data={"x": 4}))
    assert [(s.kind, s.seat) for s in verdict.signals] == [("right", 2), ("over", None)]
    assert verdict.view.outcome.winners == ("ben",)
    assert verdict.view.outcome.reason == "ben called 21 with X = 4 and made it"


def test_a_hold_awaits_x_and_total_then_the_minute_runs(tmp_path: Path) -> None:
    game = Game(tmp_path, options={"stand_seconds": 60, "warning_seconds": 2})
    game.deal()
    held = game.feed(ButtonPress(1, "hold", 10.0))
    assert held.view.expecting[0].what == "total" and held.view.expecting[0].seats == (1,)
    stood = game.feed(Tap("total", 11.0, seat=1, data={"x": 1, "total": 14}))
    (timer,) = stood.view.timers
    assert (timer.name, timer.ends_at) == ("stand", 71.0)
    assert all(item.what != "total" for item in stood.view.expecting)
    game.clock.now = 75.0
    ticked = game.feed()
    assert [s.kind for s in ticked.signals] == ["warning", "warning", "expired"]
    assert ticked.view.phase == "stating"
    assert ticked.view.expecting[0].seats == (2, 3)
    game.feed(Tap("pass", 76.0, seat=2), ButtonPress(None, "press", 77.0))
    assert game.kinds()[-2:] == ["pass", "close"]
    view = game.conductor.view
    assert view.outcome.over and view.outcome.winners == ("ann",)
    assert view.outcome.eliminated == {"ben": "passed: no total to state",
                                       "cat": "stated no total when the minute ran out"}


def test_a_correction_tap_is_logged_and_a_bad_one_refused(tmp_path: Path) -> None:
    game = Game(tmp_path)
    game.deal()
    game.feed(Sighting("placed", "6", "seat-1", 9.0))
    update = game.feed(Tap("correct", 10.0, data={
        "target": 8, "replacement": {"kind": "draw", "data": {"player": "ann", "card": "n"}}}))
    assert update.events[0].kind == "correction"
    assert [c.card for c in update.view.seat_of("ann").cards] == ["10", "4", "n"]
    bad = game.feed(Tap("correct", 11.0, data={"target": "eight"}))
    assert [s.kind for s in bad.signals] == ["refused"]


def test_camera_and_unknown_inputs_never_crash(tmp_path: Path) -> None:
    game = Game(tmp_path)
    update = game.feed(CameraStatus(True, 1.0, "unplugged"), CameraStatus(False, 2.0),
                       ButtonPress(7, "press", 3.0), Tap("juggle", 4.0, seat=1),
                       Tap("choose", 5.0, data={"item": 99, "choice": 0}))
    assert [s.kind for s in update.signals][:2] == ["camera_lost", "camera_back"]
    assert [item.message for item in update.attention] == [
        "button 7 has no player", "21X has no 'juggle' on the screen"]
    assert update.signals[-1].kind == "refused"


def test_a_resumed_conductor_carries_on(tmp_path: Path) -> None:
    game = Game(tmp_path)
    game.deal()
    from companion.engine.referee import Referee

    referee = Referee.resume(Store.open(tmp_path), game.conductor.referee.game_id, game.clock)
    conductor = Conductor.resume(referee)
    conductor.post(Sighting("placed", "n", "seat-3", 9.0))
    assert conductor.step().events[0].data == {"player": "cat", "card": "n"}


def test_replay_judges_a_call_after_the_minute_as_the_live_referee(tmp_path: Path) -> None:
    game = Game(tmp_path, options={"stand_seconds": 60, "warning_seconds": 0})
    game.deal()
    game.feed(ButtonPress(1, "hold", 10.0), Tap("total", 10.0, seat=1,
                                                 data={"x": 1, "total": 14}))
    events = list(game.conductor.referee.events)
    from companion.engine.events import Event
    from companion.errors import IllegalMove

    late_call = Event("call", {"player": "ben"}, t=75.0, seq=events[-1].seq + 1)
    with pytest.raises(IllegalMove, match="the minute is up"):
        replay([*events, late_call])
    game.clock.now = 75.0
    refused = game.feed(ButtonPress(2, "press", 75.0))
    assert refused.signals[-1].detail == "the minute is up: players now state their best totals"


def test_a_game_the_timer_ends_signals_over(tmp_path: Path) -> None:
    clock = ManualClock(0.0)
    start = TableStart("solitaire", ("sol",), options={"time_limit": 30, "warnings": 0})
    conductor = Conductor.start(Store.open(tmp_path), clock, start)
    conductor.post(Sighting("placed", "Kd", "draw", 1.0))
    assert "over" not in [s.kind for s in conductor.step().signals]
    clock.now = 31.0
    update = conductor.step()
    assert [s.kind for s in update.signals] == ["expired", "over"]
    assert update.view.outcome.over


def test_a_full_disk_loses_nothing_and_says_so(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path)
    game.deal()
    full = StoreWriteError("cannot write the game store: the disk is full", path="s.sqlite3")

    def refuse(game_id: int, event: Any) -> None:
        raise full

    monkeypatch.setattr(game.store, "append", refuse)
    blocked = game.feed(Sighting("placed", "n", "seat-1", 9.0), ButtonPress(2, "press", 9.5))
    assert blocked.trouble == "s.sqlite3: cannot write the game store: the disk is full"
    assert blocked.events == () and game.feed().trouble
    monkeypatch.undo()
    resumed = game.feed()
    assert resumed.trouble == ""
    assert [(e.kind, dict(e.data)) for e in resumed.events] == [
        ("draw", {"player": "ann", "card": "n"}), ("call", {"player": "ben"})]


def test_the_store_names_a_full_disk(tmp_path: Path) -> None:
    store = Store.open(tmp_path)

    class FullDisk:
        def execute(self, sql: str, *args: Any) -> Any:
            if sql.startswith("INSERT"):
                raise sqlite3.OperationalError("database or disk is full")
            return real.execute(sql, *args)

    real = store._db
    store._db = FullDisk()  # type: ignore[assignment]
    with pytest.raises(StoreWriteError, match="the disk is full or failing"):
        store.new_session(started_at=0.0)
    store._db = real
