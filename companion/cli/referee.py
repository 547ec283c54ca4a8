"""``companion replay`` and ``companion scores``: game logs and leaderboards.

``companion replay LOG`` replays a JSON-lines log (or, with a number, a game in the
store) and prints its final state; ``companion scores`` prints the leaderboards.
Both take ``--json`` for machine-readable output and ``--data-dir`` for the store.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.cli.output import print_json, store_command


def register(subcommands: Any) -> None:
    """Add the ``replay`` and ``scores`` commands."""
    replay = store_command(
        subcommands, "replay", "replay a game log and print its outcome",
        "Replay a JSON-lines log (or a stored game, by its id) and print who won and why, "
        "the points and who was eliminated.", run_replay)
    replay.add_argument("log", help="a .jsonl event log, or the id of a game in the store")
    store_command(subcommands, "scores", "print leaderboards and standings",
                  "Print the best times, personal bests, high scores, standings and matches "
                  "from the game store.", run_scores)


def run_replay(args: argparse.Namespace) -> int:
    """Replay a log file or stored game and print its summary."""
    from companion.engine.replay import replay, replay_file
    from companion.engine.store import Store

    if args.log.isdigit() and not Path(args.log).exists():
        with Store.open(args.data_dir, read_only=True) as store:
            summary = replay(store.events(store.game(int(args.log)).id)).summary()
    else:
        summary = replay_file(args.log).summary()
    if args.json:
        print_json(summary)
    else:
        print(_describe(summary))
    return 0


def _describe(summary: dict[str, Any]) -> str:
    """The outcome for a person at the table: who won and why, points, who is out and why."""
    over = summary["over"]
    lines = [f"game: {summary['game']} ({'over' if over else 'in progress'})",
             f"winners: {', '.join(summary['winners']) or '-'}"]
    if summary.get("reason"):
        lines.append(f"reason: {summary['reason']}")
    lines.append("points: " + (", ".join(f"{p} {n}" for p, n in summary["points"].items())
                               or "-"))
    why = summary.get("why", {})
    if why:
        lines.append("eliminated:")
        lines += [f"  {player}: {why.get(player, '')}" for player in summary["eliminated"]]
    elif summary["eliminated"]:
        lines.append(f"eliminated: {', '.join(summary['eliminated'])}")
    if not over and summary.get("standing"):
        lines.append(f"standing: {summary['standing']}")
    if summary.get("calling"):
        lines.append(f"calling: {summary['calling']} (everyone stops until their X is checked)")
    if "scored" in summary:
        lines.append(f"hands scored: {len(summary['scored'])}")
    if summary.get("time") is not None:
        lines.append(f"time: {duration(summary['time'])}")
    if summary.get("miss") and not over:
        lines.append(f"last try: {summary['miss']}")
    return "\n".join(lines)


def duration(seconds: float) -> str:
    """Seconds as a stopwatch shows them.

    >>> duration(42.0), duration(188.25)
    ('42.0 s', '3 min 8.2 s')
    """
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)} min {rest:.1f} s" if minutes else f"{rest:.1f} s"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def run_scores(args: argparse.Namespace) -> int:
    """Print the leaderboards from the store."""
    from companion.engine.scores import leaderboards
    from companion.engine.store import Store

    with Store.open(args.data_dir, read_only=True) as store:
        boards = leaderboards(store)
    if args.json:
        print_json(boards)
        return 0
    print("21X single player, best times:")
    for rank, entry in enumerate(boards["best_times"]["21x-solo"], start=1):
        print(f"  {rank}. {entry['player']} {duration(entry['value'])} "
              f"(game {entry['game_id']})")
    if boards["personal_bests"]:
        print("21X single player, personal bests: " + ", ".join(
            f"{player} {duration(best)}" for player, best in boards["personal_bests"].items()))
    for game, entries in boards["high_scores"].items():
        print(f"{game}, high scores:")
        for rank, entry in enumerate(entries, start=1):
            print(f"  {rank}. {entry['player']} {entry['value']:.0f} (game {entry['game_id']})")
    for game, table in boards["standings"].items():
        print(f"{game}, standings:")
        for line in table:
            print(f"  {line['player']}: {_plural(line['points'], 'point')}, "
                  f"{line['wins']} won of {_plural(line['games'], 'game')}")
    for result in boards["matches"]:
        state = "won by" if result["over"] else "led by"
        print(f"match {result['session']}: {result['games_played']} of "
              f"{result['games_planned']} games, {state} {', '.join(result['leaders']) or '-'}")
    return 0
