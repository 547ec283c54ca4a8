"""The app's own settings, kept in ``<data dir>/app.json``: sound and voice volume.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> Preferences.load(folder)
Preferences(sound=80, voice=80)
>>> Preferences(sound=30, voice=0).save(folder); Preferences.load(folder).sound
30
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from companion.errors import CompanionError

FILE_NAME = "app.json"


@dataclass(frozen=True)
class Preferences:
    """Volumes from 0 (off) to 100."""

    sound: int = 80
    voice: int = 80

    @classmethod
    def load(cls, folder: Path) -> Preferences:
        """The saved settings in ``folder`` (the defaults if none are saved)."""
        path = folder / FILE_NAME
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(**{key: _volume(data[key], key) for key in ("sound", "voice")
                          if key in data})
        except (json.JSONDecodeError, TypeError, AttributeError) as error:
            raise CompanionError(f"{path}: not the app's settings ({error})") from None

    def save(self, folder: Path) -> None:
        """Write the settings to ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        (folder / FILE_NAME).write_text(json.dumps(asdict(self)), encoding="utf-8")


def _volume(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise CompanionError(f"{FILE_NAME}: {key!r} must be a volume 0..100, not {value!r}")
    return value
