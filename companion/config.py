"""The configuration file: TOML, one table per room (``[hardware]``, ``[vision]``, ``[games.*]``).

A missing file means defaults, unless the user named it; a corrupt one is a
:class:`ConfigError` naming the file and line.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from companion.errors import ConfigError, LocatedError

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
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        match = _TOML_WHERE.search(str(problem))
        line = int(match.group(1)) if match and match.group(1) else None
        column = f" (column {match.group(2)})" if match and match.group(2) else ""
        reason = _TOML_WHERE.sub("", str(problem))
        raise error(f"invalid TOML: {reason}{column}", path=path, line=line) from None


def load_config(path: Path, *, required: bool = False) -> dict[str, Any]:
    """Read ``path`` as TOML; ``{}`` when the file does not exist, unless it is ``required``.

    >>> load_config(Path("/nonexistent/config.toml"))
    {}
    >>> load_config(Path("/nonexistent/config.toml"), required=True)
    Traceback (most recent call last):
    companion.errors.ConfigError: /nonexistent/config.toml: no such configuration file
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if required:
            raise ConfigError("no such configuration file", path=str(path)) from None
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read the configuration: {error}", path=str(path)) from None
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
