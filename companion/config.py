"""The configuration file: TOML, one table per room (``[hardware]``, ``[vision]``, ``[games.*]``).

A missing file means defaults, unless the user named it; a corrupt one is a
:class:`ConfigError` naming the file and line. Every TOML file the companion reads
(configuration, pin maps, table layouts, deck catalogues) goes through
:func:`read_toml_text` and :func:`parse_toml`: at most ``MAX_TOML_BYTES`` and tables
and arrays nested at most ``MAX_TOML_DEPTH`` deep.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from companion.errors import ConfigError, LocatedError
from companion.jsonlines import depth as nesting_depth

MAX_TOML_BYTES = 1024 * 1024
MAX_TOML_DEPTH = 16
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)|\s*\(at end of document\)")


def parse_toml(
    text: str, *, path: str, error: type[LocatedError] = ConfigError
) -> dict[str, Any]:
    r"""Parse TOML text; a syntax error becomes ``error`` naming ``path``, the line and column.

    >>> parse_toml("a = 1", path="x.toml")
    {'a': 1}
    >>> parse_toml("a = 1\nb = ?", path="x.toml")
    Traceback (most recent call last):
    companion.errors.ConfigError: x.toml:2: invalid TOML: Invalid value (column 5)
    >>> parse_toml("a = " + "[" * 20 + "]" * 20, path="x.toml")
    Traceback (most recent call last):
    companion.errors.ConfigError: x.toml: tables and arrays nest too deeply (limit 16)
    """
    too_deep = error(f"tables and arrays nest too deeply (limit {MAX_TOML_DEPTH})", path=path)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        match = _TOML_WHERE.search(str(problem))
        line = int(match.group(1)) if match and match.group(1) else None
        column = f" (column {match.group(2)})" if match and match.group(2) else ""
        reason = _TOML_WHERE.sub("", str(problem))
        raise error(f"invalid TOML: {reason}{column}", path=path, line=line) from None
    except RecursionError:
        raise too_deep from None
    if nesting_depth(document) > MAX_TOML_DEPTH:
        raise too_deep
    return document


def read_toml_text(path: Path, *, error: type[LocatedError] = ConfigError) -> str:
    """The text of a TOML file of at most ``MAX_TOML_BYTES``; ``FileNotFoundError`` passes."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_TOML_BYTES + 1)
    except FileNotFoundError:
        raise
    except OSError as problem:
        raise error(f"cannot read the file: {problem.strerror or problem}",
                    path=str(path)) from None
    if len(data) > MAX_TOML_BYTES:
        raise error(f"the file is larger than {MAX_TOML_BYTES // 1024} KiB", path=str(path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error("the file is not UTF-8 text", path=str(path)) from None


def load_config(path: Path, *, required: bool = False) -> dict[str, Any]:
    """Read ``path`` as TOML; ``{}`` when the file does not exist, unless it is ``required``.

    >>> load_config(Path("/nonexistent/config.toml"))
    {}
    >>> load_config(Path("/nonexistent/config.toml"), required=True)
    Traceback (most recent call last):
    companion.errors.ConfigError: /nonexistent/config.toml: no such configuration file
    """
    try:
        text = read_toml_text(path)
    except FileNotFoundError:
        if required:
            raise ConfigError("no such configuration file", path=str(path)) from None
        return {}
    return parse_toml(text, path=str(path))


def section(config: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The nested table at ``keys`` (``{}`` if absent), checked to be a table.

    >>> section({"games": {"trick": {"target": 50}}}, "games", "trick")
    {'target': 50}
    """
    current: Any = config
    for depth, key in enumerate(keys):
        current = current.get(key, {})
        if not isinstance(current, dict):
            name = ".".join(keys[: depth + 1])
            raise ConfigError(f"[{name}] must be a table, not {type(current).__name__}")
    table: dict[str, Any] = current
    return table
