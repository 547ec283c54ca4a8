"""The configuration file: TOML, one table per room (``[hardware]``, ``[vision]``, ``[games.*]``).

A missing file means defaults; a corrupt one is a :class:`ConfigError` naming the file and line.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from companion.errors import ConfigError

_LINE = re.compile(r"\(at line (\d+), column \d+\)")


def load_config(path: Path) -> dict[str, Any]:
    """Read ``path`` as TOML; ``{}`` when the file does not exist.

    >>> load_config(Path("/nonexistent/config.toml"))
    {}
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read the configuration: {error}", path=str(path)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = _LINE.search(str(error))
        message = _LINE.sub("", str(error)).strip()
        line = int(match.group(1)) if match else None
        raise ConfigError(f"invalid TOML: {message}", path=str(path), line=line) from None


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
