"""The entries a game waits for that the screen offers as one-tap buttons (no Kivy).

What the referee expects (``GameView.expecting``) and, for Medley's claims, the moves the
rules list, become buttons: the trick game's deal, swapping and swap counts; Medley's dice
(two taps: the first die, then the second) and its combinations. Each button submits one
``Tap`` (a ``die`` entry only remembers the first die on the screen).

>>> from companion.engine.view import Expecting, SeatView
>>> view = GameView("trick", "swapping", seats=(SeatView(1, "ann"), SeatView(2, "ben")),
...                 expecting=(Expecting("swap", (2,)),))
>>> [e.caption for e in entries(view)]
['ben swaps 0', 'ben swaps 1', 'ben swaps 2', 'ben swaps 3']
>>> view = GameView("medley", "rolling", expecting=(Expecting("roll", (1,)),))
>>> [e.caption for e in entries(view, first_die=4)][:2]
['4 + 1', '4 + 2']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.view import Expecting, GameView
from companion.games.moves import PossibleMoves

MAX_SWAP = 3
"""The most cards a seat trades when swapping (the screen offers 0 to this)."""
MAX_CLAIMS = 4
"""Combinations offered at once (fewest cards first, as the rules list them)."""
DIE_FACES = range(1, 7)
FIRST_DIE = "die"
"""The action of an entry that only picks the first die."""


@dataclass(frozen=True)
class Entry:
    """One button: its caption and the tap it submits (``action`` for ``seat``, ``data``)."""

    caption: str
    action: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


def entries(view: GameView, moves: PossibleMoves | None = None,
            first_die: int | None = None) -> list[Entry]:
    """The buttons for what ``view`` expects (``moves`` gives Medley's combinations)."""
    found: list[Entry] = []
    for item in view.expecting:
        found += _for(view, item, moves, first_die)
    return found


def _for(view: GameView, item: Expecting, moves: PossibleMoves | None,
         first_die: int | None) -> list[Entry]:
    names = {seat.seat: seat.player for seat in view.seats}
    seat = item.seats[0] if item.seats else None
    who = names.get(seat or 0, "")
    if view.game == "trick" and item.what == "deal":
        return [Entry("deal", "deal")]
    if view.game == "trick" and item.what == "swapping":
        return [Entry(f"{who}: swapping", "swapping", seat, {"open": True}),
                Entry(f"{who}: no swapping", "swapping", seat, {"open": False})]
    if view.game == "trick" and item.what == "swap":
        return [Entry(f"{who} swaps {n}", "swap", seat, {"count": n})
                for n in range(MAX_SWAP + 1)]
    if view.game == "medley" and item.what == "roll":
        if first_die is None:
            return [Entry(f"die {n}", FIRST_DIE, None, {"value": n}) for n in DIE_FACES]
        return [Entry(f"{first_die} + {n}", "roll", None, {"dice": [first_die, n]})
                for n in DIE_FACES]
    if view.game == "medley" and item.what == "claim" and moves is not None:
        claims = [m for m in moves.moves if m.kind == "claim"][:MAX_CLAIMS]
        return [Entry(str(m.detail.get("short") or m.detail["expression"]), "claim", seat,
                      {"expression": m.detail["expression"]}) for m in claims]
    return []
