"""Where the companion keeps its data: the user data directory, overridable.

``COMPANION_DATA_DIR`` (or a ``--data-dir`` option passed down by the CLI) wins over
the platform default from platformdirs.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

APP_NAME = "table-companion"
DATA_DIR_ENV = "COMPANION_DATA_DIR"
CONFIG_ENV = "COMPANION_CONFIG"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The directory for logs, scores and taught decks (created on demand)."""
    chosen = override or os.environ.get(DATA_DIR_ENV) or user_data_dir(APP_NAME)
    path = Path(chosen)
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_path(override: str | os.PathLike[str] | None = None) -> Path:
    """The TOML configuration file (it may not exist: defaults then apply)."""
    chosen = override or os.environ.get(CONFIG_ENV)
    if chosen:
        return Path(chosen)
    return Path(user_config_dir(APP_NAME)) / "config.toml"
