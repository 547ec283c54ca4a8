"""The game store: every event log, session and result in one SQLite file.

The file lives in the user data directory (:func:`companion.paths.data_dir`,
overridable) as ``companion.sqlite3``. It runs in WAL mode with ``synchronous=FULL``:
each appended event is its own transaction, and FULL makes WAL fsync at every commit,
so an event the referee has acted on survives a power cut as well as a crash (NORMAL
would survive a crash but could lose the last commits on power loss). Events arrive
at human pace, so the fsync per event costs nothing that matters.

>>> store = Store(":memory:")
>>> game = store.new_game("21x", started_at=0.0)
>>> store.append(game, Event("start", {"game": "21x"}, t=0.0, seq=1))
>>> [e.kind for e in store.events(game)]
['start']
>>> store.unfinished()
[1]
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.closing import Closing
from companion.engine.events import Event
from companion.errors import LogError
from companion.paths import data_dir

FILE_NAME = "companion.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    started_at REAL NOT NULL,
    games_planned INTEGER
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    session_id INTEGER REFERENCES sessions(id),
    started_at REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    summary TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL REFERENCES players(name),
    points INTEGER NOT NULL,
    won INTEGER NOT NULL,
    time REAL,
    PRIMARY KEY (game_id, player)
);
"""


@dataclass(frozen=True)
class GameRecord:
    """One game row: its id, game name, session, start time and (once over) its summary."""

    id: int
    game: str
    session_id: int | None
    started_at: float
    finished: bool
    summary: dict[str, Any] | None


@dataclass(frozen=True)
class ResultRecord:
    """One player's result in one finished game."""

    game_id: int
    game: str
    session_id: int | None
    player: str
    points: int
    won: bool
    time: float | None


class Store(Closing):
    """An open game store; ``Store(path)`` creates the file and tables if needed."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise LogError(f"not a usable game store ({error})", path=self.path) from None

    @classmethod
    def open(cls, directory: str | os.PathLike[str] | None = None) -> Store:
        """The store in ``directory`` (default: the user data directory)."""
        return cls(Path(data_dir(directory)) / FILE_NAME)

    def close(self) -> None:
        """Close the database file."""
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def new_session(self, started_at: float, games_planned: int | None = None) -> int:
        """Open a session (a sitting of games; a match if ``games_planned`` is set)."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO sessions (started_at, games_planned) VALUES (?, ?)",
                (started_at, games_planned),
            )
        return int(cursor.lastrowid or 0)

    def sessions(self) -> list[int]:
        """Ids of every session, oldest first."""
        return [int(row[0]) for row in self._db.execute("SELECT id FROM sessions ORDER BY id")]

    def session_games_planned(self, session_id: int) -> int | None:
        """How many games the session's match was agreed to last (None: open-ended)."""
        row = self._db.execute(
            "SELECT games_planned FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        if row is None:
            raise LogError(f"no session {session_id} in the store", path=self.path)
        return None if row[0] is None else int(row[0])

    def new_game(self, game: str, started_at: float, session_id: int | None = None,
                 start: Event | None = None) -> int:
        """Register a game and return its id; its ``start`` event, if given, is committed
        in the same transaction, so a crash never leaves a game without its start."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, session_id, started_at) VALUES (?, ?, ?)",
                (game, session_id, started_at),
            )
            game_id = int(cursor.lastrowid or 0)
            if start is not None:
                db.execute(
                    "INSERT INTO events (game_id, seq, t, kind, data) VALUES (?, ?, ?, ?, ?)",
                    (game_id, start.seq, start.t, start.kind, json.dumps(dict(start.data))),
                )
        return game_id

    def append(self, game_id: int, event: Event) -> None:
        """Commit one event to the game's log (its own transaction, durable on return)."""
        try:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO events (game_id, seq, t, kind, data) VALUES (?, ?, ?, ?, ?)",
                    (game_id, event.seq, event.t, event.kind, json.dumps(dict(event.data))),
                )
        except sqlite3.IntegrityError:
            raise LogError(f"game {game_id} already has an event {event.seq} "
                           "(or no such game)", path=self.path) from None

    def events(self, game_id: int) -> list[Event]:
        """The game's log in order; a corrupt record raises ``LogError``."""
        rows = self._db.execute(
            "SELECT seq, t, kind, data FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        where = f"{self.path}#game{game_id}"
        events = []
        for seq, t, kind, data in rows:
            try:
                loaded = json.loads(data)
            except (TypeError, json.JSONDecodeError):
                raise LogError(f"event {seq} has corrupt data", path=where) from None
            events.append(Event.from_dict({"seq": seq, "t": t, "kind": kind, "data": loaded},
                                          path=where, line=None))
        return events

    def game(self, game_id: int) -> GameRecord:
        """One game's record; ``LogError`` if there is no such game."""
        row = self._db.execute(
            "SELECT id, game, session_id, started_at, finished, summary FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise LogError(f"no game {game_id} in the store", path=self.path)
        return _game_record(row)

    def games(self, game: str | None = None) -> list[GameRecord]:
        """Every game (of one kind if ``game`` is given), oldest first."""
        query = "SELECT id, game, session_id, started_at, finished, summary FROM games"
        rows = (self._db.execute(query + " WHERE game = ? ORDER BY id", (game,))
                if game else self._db.execute(query + " ORDER BY id"))
        return [_game_record(row) for row in rows.fetchall()]

    def unfinished(self) -> list[int]:
        """Ids of games that have events but no recorded end, oldest first."""
        rows = self._db.execute(
            "SELECT id FROM games WHERE finished = 0 AND id IN (SELECT game_id FROM events) "
            "ORDER BY id"
        ).fetchall()
        return [int(row[0]) for row in rows]

    def finish(self, game_id: int, summary: Mapping[str, Any]) -> None:
        """Record a game's outcome: its summary and one result row per player, atomically.

        ``summary["over"]`` marks the game finished (a later correction may reopen it);
        ``summary["points"]`` gives each player's points and ``summary["winners"]`` who
        won; a numeric ``summary["time"]`` (single-player 21X) is kept for best times.
        """
        over = bool(summary.get("over"))
        points = summary.get("points", {}) if over else {}
        winners = set(summary.get("winners", [])) if over else set()
        time = summary.get("time")
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET finished = ?, summary = ? WHERE id = ?",
                (over, json.dumps(dict(summary)), game_id),
            )
            db.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
            for player in sorted(set(points) | winners):
                db.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (player,))
                db.execute(
                    "INSERT INTO results (game_id, player, points, won, time) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (game_id, player, int(points.get(player, 0)), player in winners,
                     time if player in winners else None),
                )

    def results(self, game: str | None = None, session_id: int | None = None,
                ) -> list[ResultRecord]:
        """Results of finished games, filtered by game and/or session, oldest first."""
        query = ("SELECT r.game_id, g.game, g.session_id, r.player, r.points, r.won, r.time "
                 "FROM results r JOIN games g ON g.id = r.game_id WHERE 1 = 1")
        arguments: list[Any] = []
        if game is not None:
            query += " AND g.game = ?"
            arguments.append(game)
        if session_id is not None:
            query += " AND g.session_id = ?"
            arguments.append(session_id)
        rows = self._db.execute(query + " ORDER BY r.game_id, r.player", arguments).fetchall()
        return [ResultRecord(game_id=row[0], game=row[1], session_id=row[2], player=row[3],
                             points=row[4], won=bool(row[5]), time=row[6]) for row in rows]

    def session_wins(self, session_id: int, game: str) -> dict[str, int]:
        """How many games of ``game`` each player has won in the session."""
        wins: dict[str, int] = {}
        for result in self.results(game=game, session_id=session_id):
            if result.won:
                wins[result.player] = wins.get(result.player, 0) + 1
        return wins


def _game_record(row: tuple[Any, ...]) -> GameRecord:
    summary = json.loads(row[5]) if row[5] else None
    return GameRecord(id=row[0], game=row[1], session_id=row[2], started_at=row[3],
                      finished=bool(row[4]), summary=summary)
