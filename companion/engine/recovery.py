"""Recover a damaged game store: save what it still holds, then start a fresh one.

Every game the damaged file still yields (its whole log, or the readable beginning
of it) is written as JSON lines to a new folder ``recovered-N`` beside the store; the
damaged file (with its ``-wal`` and ``-shm``) is moved into that folder, untouched;
a fresh store takes its place and every saved log that replays is imported into it,
so finished games count in the scores again and an unfinished one can be resumed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from companion.engine.events import Event
from companion.engine.replay import replay, write_jsonl
from companion.engine.store import FILE_NAME, Store
from companion.errors import CompanionError, LogError
from companion.paths import data_dir


@dataclass
class Recovery:
    """What a recovery did: where it saved logs, which games were imported, which not."""

    folder: Path
    imported: list[int] = field(default_factory=list)
    kept: dict[int, str] = field(default_factory=dict)
    """Games saved only as JSON lines, with the reason they were not imported."""


def free_folder(parent: Path, stem: str) -> Path:
    """``parent/stem-N`` for the smallest N >= 1 that does not exist yet."""
    number = 1
    while (parent / f"{stem}-{number}").exists():
        number += 1
    return parent / f"{stem}-{number}"


def import_log(store: Store, events: list[Event]) -> int:
    """Replay a log and store it as a game; ``CompanionError`` if it does not replay, or if
    the same game is already in the store."""
    summary = replay(events).summary()
    for record in store.games(str(events[0].data.get("game"))):
        if record.started_at == events[0].t and store.salvage(record.id) == events:
            raise LogError(f"this game is already in the store as game {record.id}",
                           path=store.path)
    return store.add_game(events, summary)


def recover(directory: str | os.PathLike[str] | None = None) -> Recovery:
    """Save the readable games of the store in ``directory`` and start a fresh store."""
    folder = data_dir(directory)
    path = folder / FILE_NAME
    if not path.exists():
        raise LogError("there is no game store here to recover", path=str(path))
    with Store(path, read_only=True, check=False) as damaged:
        logs = {game_id: damaged.salvage(game_id) for game_id in damaged.game_ids()}
    recovery = Recovery(free_folder(folder, "recovered"))
    recovery.folder.mkdir()
    for game_id, events in logs.items():
        if events:
            write_jsonl(events, recovery.folder / f"game-{game_id}.jsonl")
    for suffix in ("", "-wal", "-shm"):
        side = folder / (FILE_NAME + suffix)
        if side.exists():
            side.rename(recovery.folder / (FILE_NAME + suffix))
    with Store(path) as fresh:
        for game_id, events in logs.items():
            try:
                recovery.imported.append(import_log(fresh, events))
            except (CompanionError, IndexError) as error:
                recovery.kept[game_id] = str(error) if events else "no readable events"
    return recovery
