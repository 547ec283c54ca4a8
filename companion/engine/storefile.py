"""Opening the store's SQLite file so that only the companion's own file is ever written.

A store file carries the SQLite application id ``APPLICATION_ID`` and the schema
version in ``user_version``. Before anything is written, the file is looked at:

- missing, or empty (0 bytes): a fresh store; its id, version and tables are created
  in one transaction before it is switched to WAL, so a crash leaves either an empty
  file or a marked store;
- not starting with the SQLite header: refused, untouched;
- an SQLite database with another application id, or without the id and without the
  store's tables: another program's database, refused, untouched;
- without the id but with the store's tables (a store made before the id existed):
  adopted, the id is set;
- a newer schema version: refused;
- damaged (``PRAGMA quick_check`` fails): refused, with the way out
  (``companion recover``).

The examination runs on a read-only connection. Read-only stores (``read_only=True``)
are opened with ``mode=ro`` and, when even that is impossible (a WAL file in a
directory nobody may write), as immutable.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.errors import LogError

APPLICATION_ID = 0x54424C43
"""``TBLC``: the table companion's game store."""
SCHEMA_VERSION = 1
TABLES = frozenset({"players", "sessions", "games", "events", "results"})
MAGIC = b"SQLite format 3\x00"
RECOVER_HINT = "`companion recover` saves what can be read and starts a fresh store"


def damaged(path: str, error: sqlite3.Error | str) -> LogError:
    """The error for a store SQLite cannot read, in one line.

    >>> damaged("s.sqlite3", "*** in database main ***  Page 9: bad").message[:36]
    'the game store is damaged (Page 9: b'
    """
    reason = " ".join(str(error).replace("*** in database main ***", "").split())
    return LogError(f"the game store is damaged ({reason}); {RECOVER_HINT}", path=path)


def _read_only(path: str) -> sqlite3.Connection:
    uri = Path(path).resolve().as_uri()
    try:
        connection = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return connection
    except sqlite3.OperationalError:
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)


def _is_fresh(path: str) -> bool:
    """True when there is no file yet or it is empty; refuses what is not an SQLite file."""
    file = Path(path)
    if not file.exists():
        return True
    if not file.is_file():
        raise LogError("the game store must be a file", path=path)
    with file.open("rb") as handle:
        head = handle.read(len(MAGIC))
    if not head:
        return True
    if head != MAGIC:
        raise LogError("not an SQLite database, so not a game store (left untouched)", path=path)
    return False


def _examine(connection: sqlite3.Connection, path: str) -> str:
    """``"fresh"``, ``"ours"`` or ``"legacy"`` (our tables, no id); refuses anything else."""
    application_id = connection.execute("PRAGMA application_id").fetchone()[0]
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    tables = {row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if application_id == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise LogError(f"the game store has schema version {version}, newer than this "
                           f"companion's {SCHEMA_VERSION}: update the companion", path=path)
        return "ours"
    if application_id == 0 and not tables:
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        if pages <= 1:
            return "fresh"
    if application_id == 0 and tables >= TABLES:
        return "legacy"
    owner = f"application id {application_id:#x}" if application_id else "no application id"
    raise LogError(f"an SQLite database of another program ({owner}, tables: "
                   f"{', '.join(sorted(tables)) or 'none'}): not a game store, left untouched",
                   path=path)


def _check(connection: sqlite3.Connection, path: str) -> None:
    result = connection.execute("PRAGMA quick_check(1)").fetchone()[0]
    if result != "ok":
        raise damaged(path, result)


def connect(path: str, schema: str, *, read_only: bool, check: bool = True) -> sqlite3.Connection:
    """An open connection to the store at ``path`` (see the module docstring)."""
    if path == ":memory:":
        read_only = False
    elif not read_only and not (folder := Path(path).absolute().parent).is_dir():
        raise LogError(f"cannot open the game store: its folder {folder} does not exist",
                       path=path)
    try:
        fresh = path == ":memory:" or _is_fresh(path)
        kind = "fresh"
        if not fresh:
            examiner = _read_only(path)
            try:
                kind = _examine(examiner, path)
                if check:
                    _check(examiner, path)
            finally:
                examiner.close()
        if read_only:
            if fresh:
                connection = sqlite3.connect(":memory:", isolation_level=None)
                _create(connection, schema)
                return connection
            return _read_only(path)
        connection = sqlite3.connect(path, isolation_level=None)
        if kind != "ours":
            _create(connection, schema)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        return connection
    except sqlite3.OperationalError as error:
        if str(error) == "unable to open database file":  # the folder or file, not the data
            raise LogError(
                "cannot open the game store (unable to open database file): "
                "check that its folder can be written",
                path=path,
            ) from None
        raise damaged(path, error) from None
    except sqlite3.DatabaseError as error:
        raise damaged(path, error) from None
    except UnicodeDecodeError:
        raise damaged(path, "a text that is not UTF-8") from None
    except OSError as error:
        raise LogError(f"cannot open the game store: {error.strerror or error}",
                       path=path) from None


def _create(connection: sqlite3.Connection, schema: str) -> None:
    """Mark the file as ours and create the tables, in one rollback-journal transaction."""
    connection.execute("BEGIN IMMEDIATE")
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    for statement in schema.split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute("COMMIT")
