"""Where the companion keeps its data: the user data directory, overridable.

``COMPANION_DATA_DIR`` (or a ``--data-dir`` option passed down by the CLI) wins over
the platform default from platformdirs.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

from companion.errors import DataDirError

APP_NAME = "table-companion"
DATA_DIR_ENV = "COMPANION_DATA_DIR"
CONFIG_ENV = "COMPANION_CONFIG"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The directory for logs, scores and taught decks (created on demand).

    A path that cannot be a directory is a :class:`DataDirError` naming it and where
    it came from:

    >>> try:
    ...     data_dir("/dev/null/x")
    ... except DataDirError as error:
    ...     print(error.path, "|", error.message)
    /dev/null/x | cannot use this as the data directory (given by --data-dir): Not a directory
    """
    source = "--data-dir"
    chosen: str | os.PathLike[str] | None = override
    if not chosen:
        chosen, source = os.environ.get(DATA_DIR_ENV), DATA_DIR_ENV
    if not chosen:
        chosen, source = user_data_dir(APP_NAME), "the platform default"
    path = Path(chosen)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = "it is a file" if isinstance(error, FileExistsError) else error.strerror
        raise DataDirError(f"cannot use this as the data directory (given by {source}): "
                           f"{reason or error}", path=str(path)) from None
    return path


def config_path(override: str | os.PathLike[str] | None = None) -> Path:
    """The TOML configuration file (it may not exist: defaults then apply)."""
    chosen = override or os.environ.get(CONFIG_ENV)
    if chosen:
        return Path(chosen)
    return Path(user_config_dir(APP_NAME)) / "config.toml"
