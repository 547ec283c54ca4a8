"""Which rules module plays which game: ``rules_for("21x")``.

Rules modules are imported only when asked for, so a game that fails to import
never stops the others. Each module exports its rules object as ``RULES``.

>>> rules_for("21x").name
'21x'
>>> sorted(GAMES)
['21x', '21x-solo', 'medley', 'solitaire', 'trick']
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.errors import IllegalMove
from companion.games.base import GameRules
from companion.games.translate import Translator

GAMES = {
    "21x": "companion.games.x21.rules",
    "21x-solo": "companion.games.x21_solo.rules",
    "trick": "companion.games.trick.rules",
    "solitaire": "companion.games.solitaire.rules",
    "medley": "companion.games.medley.rules",
}


def rules_for(name: str) -> GameRules[Any]:
    """The rules object of game ``name``; ``IllegalMove`` for an unknown game."""
    module = GAMES.get(name)
    if module is None:
        known = ", ".join(sorted(GAMES))
        raise IllegalMove(f"unknown game {name!r} (known: {known})")
    rules: GameRules[Any] = importlib.import_module(module).RULES
    return rules


def translator_for(name: str) -> Translator[Any]:
    """The table translator of game ``name`` (``TRANSLATOR`` in its ``translator`` module)."""
    rules_for(name)
    package = GAMES[name].rsplit(".", 1)[0]
    translator: Translator[Any] = importlib.import_module(f"{package}.translator").TRANSLATOR
    return translator
