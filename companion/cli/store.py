"""``companion import`` and ``companion recover``: bring logs into the store, save a damaged one.

``companion import LOG.jsonl`` replays a log (refusing it if any event is illegal) and
stores it as a game, so ``companion scores`` counts it. ``companion recover`` saves every
game a damaged store still holds as JSON lines and starts a fresh store (see
:mod:`companion.engine.recovery`).
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.output import print_json, store_command


def register(subcommands: Any) -> None:
    """Add the ``import`` and ``recover`` commands."""
    imports = store_command(subcommands, "import",
                            "put a game log into the store so the scores count it",
                            "Replay a JSON-lines game log and store it as a game.", run_import)
    imports.add_argument("log", metavar="LOG.jsonl", help="a JSON-lines event log")
    store_command(subcommands, "recover", "save what a damaged store holds and start a fresh one",
                  "Export every readable game of a damaged store to JSON lines, move the "
                  "damaged file aside and start a fresh store with the games that replay.",
                  run_recover)


def run_import(args: argparse.Namespace) -> int:
    """Replay the log and store it."""
    from companion.engine.recovery import import_log
    from companion.engine.replay import read_jsonl, replay_file
    from companion.engine.store import Store

    replay_file(args.log)  # refuses an illegal event with its line
    with Store.open(args.data_dir) as store:
        game_id = import_log(store, read_jsonl(args.log))
    if args.json:
        print_json({"game_id": game_id, "log": args.log})
    else:
        print(f"imported {args.log} as game {game_id}")
    return 0


def run_recover(args: argparse.Namespace) -> int:
    """Save the damaged store's games and start a fresh store."""
    from companion.engine.recovery import recover

    result = recover(args.data_dir)
    if args.json:
        print_json({"folder": str(result.folder), "imported": result.imported,
                    "kept": {str(k): v for k, v in result.kept.items()}})
        return 0
    print(f"saved the readable games and the damaged store in {result.folder}")
    print(f"imported into a fresh store: {len(result.imported)} game(s)")
    for game_id, reason in result.kept.items():
        print(f"  game {game_id} kept only as JSON lines: {reason}")
    return 0
