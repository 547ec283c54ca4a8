"""``companion play``: the table loop without a screen.

``companion play GAME --players A,B --camera SPEC`` referees a real table: the camera
(``auto``, ``picamera2``, a device, or a replayed video or folder) over the game's
calibrated layout, the wired buttons, and typed entries for what a screen would take
(:mod:`ui.live`); each event is printed as it is logged and the game is kept in the store.
``companion play --observations FILE.jsonl`` feeds a recorded game (its first line is the
start: game, players, seats, options) through the conductor, exactly as the camera, the
buttons and the screen would at a table, and prints each event as it is logged, each
attention item and refusal, and the outcome; ``--json`` prints the final
:class:`~companion.engine.view.GameView` with its attention items instead. A recorded game
is played in memory unless ``--keep`` puts it in the store (then ``companion scores``
counts it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import ObservationError

if TYPE_CHECKING:
    from companion.engine.conductor import Update

MAX_RECORDING_BYTES = 16 * 1024 * 1024
"""The largest recorded game read (hours of play are well under 1 MB)."""


def register(subcommands: Any) -> None:
    """Add the ``play`` command."""
    play = subcommands.add_parser(
        "play", help="referee a game without the screen: from a recorded observations file",
        description="Feed a recorded game (JSON lines of observations, the first line its "
                    "start) through the table loop and print what the referee logs.")
    play.add_argument("game", nargs="?", help="the game (optional with a recording: it names it)")
    source = play.add_mutually_exclusive_group(required=True)
    source.add_argument("--observations", metavar="FILE.jsonl",
                        help="a recorded game: see docs/observations.md")
    source.add_argument("--camera", metavar="SPEC",
                        help="referee a real table seen by this camera (auto, picamera2, a"
                             " device, or a video or folder replayed)")
    play.add_argument("--players", help="with --camera: the players, in seat order (A,B,...)")
    play.add_argument("--options", default="{}", help="with --camera: game options as JSON")
    play.add_argument("--layout", help="with --camera: the calibrated layout (default: the"
                                       " app's, <data dir>/layouts/GAME.toml)")
    play.add_argument("--deck", help="with --camera: a taught deck to read (21X cards)")
    play.add_argument("--json", action="store_true", help="print the final game view as JSON")
    play.add_argument("--keep", action="store_true",
                      help="keep a recorded game in the store, so scores count it")
    play.add_argument("--data-dir", help="where the game store is (default: user data dir)")
    play.set_defaults(handler=run_play)


def run_play(args: argparse.Namespace) -> int:
    """Handler of ``companion play``."""
    if args.camera is not None:
        return _play_live(args)
    return _play_recording(args)


def _play_live(args: argparse.Namespace) -> int:
    from companion.engine.observations import TableStart
    from ui.live import run_live

    if not args.game or not args.players:
        raise ObservationError("with --camera, name the GAME and its --players")
    players = tuple(name.strip() for name in args.players.split(",") if name.strip())
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as error:
        raise ObservationError(f"not JSON: {error.msg}", where="--options") from None
    if not isinstance(options, dict):
        raise ObservationError("must be a JSON object", where="--options")
    start = TableStart(args.game, players, options=options)
    last = run_live(start, camera=args.camera, layout=args.layout, deck=args.deck,
                    data=args.data_dir, show_from=_printer)
    print(_outcome_lines(last.view.to_json()["outcome"]))
    return 0


def _play_recording(args: argparse.Namespace) -> int:
    from companion.engine.clock import ManualClock
    from companion.engine.conductor import Conductor, play_recorded
    from companion.engine.observations import read_recording
    from companion.engine.store import Store

    path = Path(args.observations)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_RECORDING_BYTES + 1)
    except OSError as error:
        raise ObservationError(f"cannot read it: {error.strerror or error}",
                               where=str(path)) from None
    if len(data) > MAX_RECORDING_BYTES:
        raise ObservationError(f"larger than {MAX_RECORDING_BYTES // 2**20} MB", where=str(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ObservationError("not UTF-8 text", where=str(path)) from None
    start, observations = read_recording(text, path=str(path))
    if args.game and args.game != start.game:
        raise ObservationError(f"the recording is a game of {start.game}, not {args.game}",
                               where=str(path))
    clock = ManualClock(start.t)
    with Store.open(args.data_dir) if args.keep else Store(":memory:") as store:
        conductor = Conductor.start(store, clock, start)
        if not args.json:
            conductor.listen(_printer(start.t))
            _print_events(conductor.referee.events, start.t)
        last: Update | None = None
        for update in play_recorded(conductor, clock, observations):
            last = update  # only the last is shown: the others are not kept
        if last is None:
            last = conductor.step()
    if args.json:
        print(json.dumps({**last.view.to_json(),
                          "attention": [item.to_json() for item in last.attention]}, indent=2))
    else:
        print(_outcome_lines(last.view.to_json()["outcome"]))
    return 0


def _print_events(events: Any, since: float) -> None:
    """Each event: its seq, its time in seconds since the start, its kind and data."""
    for event in events:
        data = json.dumps(dict(event.data), separators=(",", ":"))
        print(f"{event.seq:>4} {event.t - since:9.2f} {event.kind} {data}")


def _printer(since: float) -> Callable[[Update], None]:
    """A conductor listener printing new events, attention items and refusals."""
    def show(update: Update) -> None:
        _print_events(update.events, since)
        for item in update.attention:
            if item.id not in shown:
                shown.add(item.id)
                choices = "; ".join(f"{n}: {c.label}" for n, c in enumerate(item.choices))
                print(f"     attention {item.id}: {item.message} ({choices})")
        for signal in update.signals:
            if signal.kind == "refused":
                print(f"     refused: {signal.detail}")
        sys.stdout.flush()

    shown: set[int] = set()
    return show


def _outcome_lines(outcome: dict[str, Any]) -> str:
    lines = [f"over: {'yes' if outcome['over'] else 'no'}",
             f"winners: {', '.join(outcome['winners']) or '-'}"]
    if outcome["reason"]:
        lines.append(f"reason: {outcome['reason']}")
    lines.append("points: " + (", ".join(f"{p} {n}" for p, n in outcome["points"].items())
                               or "-"))
    lines += [f"eliminated: {player}: {why}" for player, why in outcome["eliminated"].items()]
    return "\n".join(lines)
