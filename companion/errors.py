"""Errors a user can cause, each with a one-line message that says what and where.

Every error the CLI reports to a person derives from :class:`CompanionError`;
the specific kinds are also :class:`ValueError` subclasses, in the manner of
python-chess, so callers can catch either.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Base of all user-facing errors; ``str(error)`` is one line."""


class ExpressionError(CompanionError, ValueError):
    """A card expression that cannot be parsed or evaluated.

    ``position`` is the 0-based character index in ``text`` where the problem is.

    >>> str(ExpressionError("unknown name 'Z'", text="2Z", position=1))
    "unknown name 'Z' at position 2 in '2Z'"
    """

    def __init__(self, message: str, *, text: str = "", position: int | None = None) -> None:
        self.message = message
        self.text = text
        self.position = position
        where = ""
        if position is not None:
            where = f" at position {position + 1}"
        if text:
            where += f" in {text!r}"
        super().__init__(f"{message}{where}")


class LocatedError(CompanionError, ValueError):
    """A problem in a file: names the file, the line (1-based) when known, and what is wrong.

    >>> str(CatalogueError("card 'c7' has no text", path="decks/21x.toml", line=12))
    "decks/21x.toml:12: card 'c7' has no text"
    """

    def __init__(self, message: str, *, path: str = "", line: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        where = path
        if line is not None:
            where = f"{where}:{line}" if where else f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)


class CatalogueError(LocatedError):
    """A deck catalogue that fails to load, or an unknown card id."""


class ConfigError(LocatedError):
    """A corrupt or invalid configuration file or key."""


class DataDirError(LocatedError):
    """A data directory that cannot be used (a file, unwritable, ...)."""


class LogError(LocatedError):
    """A malformed event log line or record."""


class StoreWriteError(LogError):
    """A store that cannot be written now (a full disk, a read-only folder): the event at
    hand is not logged, and nothing already logged is lost."""


class HandError(CompanionError, ValueError):
    """A hand or variable binding the rules do not allow (X = 0, six cards, ...)."""


class IllegalMove(CompanionError, ValueError):
    """An event the rules of the game in progress do not allow."""


class DeviceError(CompanionError):
    """A camera, GPIO pin or other device that is missing or failed."""


class MalformedMove(CompanionError, ValueError):
    """An event whose data is not the shape of its move (a missing field, a wrong type).

    Distinct from :class:`IllegalMove`, a well-formed move the rules forbid.
    """


class ObservationError(CompanionError, ValueError):
    """A malformed observation (a recorded-game line, a sighting, a press or a tap).

    >>> str(ObservationError("'t' must be a number", where="game.jsonl:4"))
    "game.jsonl:4: 't' must be a number"
    """

    def __init__(self, message: str, *, where: str = "") -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)
