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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.closing import Closing
from companion.engine.events import Event
from companion.engine.storefile import connect, damaged
from companion.errors import LogError, StoreWriteError
from companion.jsonlines import MAX_LINE_CHARS, load_line
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
    """An open game store; ``Store(path)`` creates the file and tables if needed.

    Only the companion's own file is ever written, and a damaged one is refused (see
    :mod:`companion.engine.storefile`). ``read_only=True`` never writes (a missing
    store then reads as empty); ``check=False`` skips the integrity check, for
    recovering what a damaged store still holds.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False,
                 check: bool = True) -> None:
        self.path = str(path)
        self.read_only = read_only
        self._db = connect(self.path, SCHEMA, read_only=read_only, check=check)

    @classmethod
    def open(cls, directory: str | os.PathLike[str] | None = None, *,
             read_only: bool = False) -> Store:
        """The store in ``directory`` (default: the user data directory)."""
        return cls(Path(data_dir(directory)) / FILE_NAME, read_only=read_only)

    def close(self) -> None:
        """Close the database file."""
        self._db.close()

    def _rows(self, query: str, arguments: Sequence[Any] = ()) -> list[Any]:
        """Every row of a read query; a damaged file is a ``LogError`` naming it."""
        try:
            return self._db.execute(query, arguments).fetchall()
        except sqlite3.DatabaseError as error:
            raise damaged(self.path, error) from None
        except UnicodeDecodeError:
            raise damaged(self.path, "a text that is not UTF-8") from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise StoreWriteError("the game store was opened read-only", path=self.path)
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.IntegrityError:
            raise
        except sqlite3.DatabaseError as error:
            reason = str(error).lower()
            if "readonly" in reason or "read-only" in reason:
                raise StoreWriteError(f"cannot write the game store ({error})",
                                      path=self.path) from None
            if "full" in reason or "disk i/o" in reason:
                raise StoreWriteError(f"cannot write the game store: the disk is full or"
                                      f" failing ({error})", path=self.path) from None
            raise damaged(self.path, error) from None

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
        return [int(row[0]) for row in self._rows("SELECT id FROM sessions ORDER BY id")]

    def session_games_planned(self, session_id: int) -> int | None:
        """How many games the session's match was agreed to last (None: open-ended)."""
        rows = self._rows("SELECT games_planned FROM sessions WHERE id = ?", (session_id,))
        if not rows:
            raise LogError(f"no session {session_id} in the store", path=self.path)
        planned = rows[0][0]
        if planned is not None and not isinstance(planned, int):
            raise LogError(f"session {session_id} has a garbled games_planned", path=self.path)
        return planned

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
                    (game_id, start.seq, start.t, start.kind, _event_data(start, self.path)),
                )
        return game_id

    def append(self, game_id: int, event: Event) -> None:
        """Commit one event to the game's log (its own transaction, durable on return)."""
        data = _event_data(event, self.path)
        try:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO events (game_id, seq, t, kind, data) VALUES (?, ?, ?, ?, ?)",
                    (game_id, event.seq, event.t, event.kind, data),
                )
        except sqlite3.IntegrityError:
            raise LogError(f"game {game_id} already has an event {event.seq} "
                           "(or no such game)", path=self.path) from None

    def events(self, game_id: int) -> list[Event]:
        """The game's log in order; a corrupt record raises ``LogError``."""
        rows = self._rows(
            "SELECT seq, t, kind, data FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        where = f"{self.path}#game{game_id}"
        events: list[Event] = []
        for row in rows:
            event = _event(row, where)
            if events and event.t < events[-1].t:
                raise LogError(f"event {event.seq} goes back in time", path=where)
            events.append(event)
        return events

    def game_ids(self) -> list[int]:
        """Every game id the file still yields, from the games and the events tables (for
        recovering a damaged store: a table that cannot be read is skipped)."""
        found: set[int] = set()
        for query in ("SELECT id FROM games", "SELECT DISTINCT game_id FROM events"):
            try:
                found |= {row[0] for row in self._rows(query) if isinstance(row[0], int)}
            except LogError:
                continue
        return sorted(found)

    def salvage(self, game_id: int) -> list[Event]:
        """The game's events, or when the log cannot be read whole, its readable beginning."""
        try:
            return self.events(game_id)
        except LogError:
            pass
        events: list[Event] = []
        where = f"{self.path}#game{game_id}"
        while True:
            try:
                rows = self._rows("SELECT seq, t, kind, data FROM events WHERE game_id = ? "
                                  "AND seq > ? ORDER BY seq LIMIT 1",
                                  (game_id, events[-1].seq if events else -1))
                if not rows:
                    return events
                event = _event(rows[0], where)
            except LogError:
                return events
            if events and event.t < events[-1].t:
                return events
            events.append(event)

    def game(self, game_id: int) -> GameRecord:
        """One game's record; ``LogError`` if there is no such game."""
        rows = self._rows(
            "SELECT id, game, session_id, started_at, finished, summary FROM games WHERE id = ?",
            (game_id,))
        if not rows:
            raise LogError(f"no game {game_id} in the store", path=self.path)
        return _game_record(rows[0], self.path)

    def games(self, game: str | None = None) -> list[GameRecord]:
        """Every game (of one kind if ``game`` is given), oldest first."""
        query = "SELECT id, game, session_id, started_at, finished, summary FROM games"
        rows = (self._rows(query + " WHERE game = ? ORDER BY id", (game,))
                if game else self._rows(query + " ORDER BY id"))
        return [_game_record(row, self.path) for row in rows]

    def unfinished(self) -> list[int]:
        """Ids of games that have events but no recorded end, oldest first."""
        rows = self._rows(
            "SELECT id FROM games WHERE finished = 0 AND id IN (SELECT game_id FROM events) "
            "ORDER BY id")
        return [int(row[0]) for row in rows]

    def finish(self, game_id: int, summary: Mapping[str, Any]) -> None:
        """Record a game's outcome: its summary and one result row per player, atomically.

        ``summary["over"]`` marks the game finished (a later correction may reopen it);
        ``summary["points"]`` gives each player's points and ``summary["winners"]`` who
        won; a numeric ``summary["time"]`` (single-player 21X) is kept for best times.
        """
        with self._transaction() as db:
            _record_finish(db, game_id, summary)

    def add_game(self, events: Sequence[Event], summary: Mapping[str, Any]) -> int:
        """Store a whole replayed game (an imported log) and its outcome in one transaction."""
        start = events[0]
        with self._transaction() as db:
            cursor = db.execute("INSERT INTO games (game, session_id, started_at) VALUES (?, ?, ?)",
                                (start.data.get("game"), None, start.t))
            game_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO events (game_id, seq, t, kind, data) VALUES (?, ?, ?, ?, ?)",
                [(game_id, e.seq, e.t, e.kind, _event_data(e, self.path)) for e in events])
            _record_finish(db, game_id, summary)
        return game_id

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
        rows = self._rows(query + " ORDER BY r.game_id, r.player", arguments)
        return [_result_record(row, self.path) for row in rows]

    def session_wins(self, session_id: int, game: str) -> dict[str, int]:
        """How many games of ``game`` each player has won in the session."""
        wins: dict[str, int] = {}
        for result in self.results(game=game, session_id=session_id):
            if result.won:
                wins[result.player] = wins.get(result.player, 0) + 1
        return wins


def _event(row: tuple[Any, ...], where: str) -> Event:
    """An event from its row; corrupt data is a ``LogError`` naming the game and event."""
    seq, t, kind, data = row
    if not isinstance(data, str):
        raise LogError(f"event {seq} has corrupt data", path=where)
    try:
        loaded = load_line(data, path=where, line=None)
    except LogError as error:
        raise LogError(f"event {seq} has corrupt data ({error.message})", path=where) from None
    return Event.from_dict({"seq": seq, "t": t, "kind": kind, "data": loaded},
                           path=where, line=None)


def _record_finish(db: sqlite3.Connection, game_id: int, summary: Mapping[str, Any]) -> None:
    over = bool(summary.get("over"))
    points = summary.get("points", {}) if over else {}
    winners = set(summary.get("winners", [])) if over else set()
    time = summary.get("time")
    db.execute("UPDATE games SET finished = ?, summary = ? WHERE id = ?",
               (over, json.dumps(dict(summary)), game_id))
    db.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
    for player in sorted(set(points) | winners):
        db.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (player,))
        db.execute(
            "INSERT INTO results (game_id, player, points, won, time) VALUES (?, ?, ?, ?, ?)",
            (game_id, player, int(points.get(player, 0)), player in winners,
             time if player in winners else None),
        )


def _event_data(event: Event, path: str) -> str:
    """The event's data as stored: JSON within the log-line limit."""
    try:
        data = json.dumps(dict(event.data), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise LogError(f"event {event.seq} has data that is not plain JSON ({error})",
                       path=path) from None
    if len(data) > MAX_LINE_CHARS:
        raise LogError(f"event {event.seq} has too much data ({len(data)} characters, limit "
                       f"{MAX_LINE_CHARS})", path=path)
    return data


def _game_record(row: tuple[Any, ...], path: str) -> GameRecord:
    game_id, game, session_id, started_at, finished, summary = row
    where = f"{path}#game{game_id}"
    summary_text = summary
    try:
        summary = load_line(summary_text, path=where, line=None) if summary_text else None
    except LogError as error:
        raise LogError(f"garbled summary ({error.message})", path=where) from None
    if summary is not None and not isinstance(summary, dict):
        raise LogError("garbled summary (not a JSON object)", path=where)
    if not isinstance(game, str) or not isinstance(started_at, int | float) or not (
            session_id is None or isinstance(session_id, int)):
        raise LogError("garbled game row", path=where)
    return GameRecord(id=game_id, game=game, session_id=session_id, started_at=started_at,
                      finished=bool(finished), summary=summary)


def _result_record(row: tuple[Any, ...], path: str) -> ResultRecord:
    game_id, game, session_id, player, points, won, time = row
    good = (isinstance(player, str) and isinstance(points, int) and won in (0, 1)
            and (time is None or (isinstance(time, int | float) and time == time)))
    if not good:
        raise LogError(f"garbled result row for player {player!r}", path=f"{path}#game{game_id}")
    return ResultRecord(game_id=game_id, game=game, session_id=session_id, player=player,
                        points=points, won=bool(won), time=time)
