"""The configuration file: TOML, one table per room (``[hardware]``, ``[vision]``, ``[games.*]``).

A missing file means defaults, unless the user named it; a corrupt one is a
:class:`ConfigError` naming the file and line. The file is read like every TOML file of
the companion (:mod:`companion.tomlfile`: size and nesting limits, a typed model); each
room's table is validated by its owner (``[hardware]``: :func:`hardware.pins.load_pin_map`).
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from companion.errors import ConfigError
from companion.tomlfile import TomlModel, parse_toml, read_toml_text, validate


class ConfigFile(TomlModel):
    """The rooms of the configuration file; anything else at the top is a mistake.

    >>> validate({"hardwre": {}}, ConfigFile, path="config.toml")
    Traceback (most recent call last):
    companion.errors.ConfigError: config.toml: hardwre: unknown key (known: hardware, vision, games)
    """

    hardware: dict[str, Any] = field(default_factory=dict)
    vision: dict[str, Any] = field(default_factory=dict)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)


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
    document = parse_toml(text, path=str(path))
    validate(document, ConfigFile, text=text, path=str(path))
    return document
