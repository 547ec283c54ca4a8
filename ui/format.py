"""How the screens word and number things (no Kivy): timers, seats, cards, buzzes.

>>> timer_text(TimerView("stand", "countdown", 0.0, ends_at=60.0), now=12.3)
'0:48'
>>> timer_text(TimerView("game", "stopwatch", 100.0), now=225.0)
'2:05'
>>> card_text(CardView("6x", "6X", "12"))
'6X = 12'
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from companion.engine.view import CardView, Expecting, GameView, SeatView, TimerView

GAME_NAMES = {
    "21x": "21X",
    "21x-solo": "21X single player",
    "trick": "Twenty One (trick game)",
    "solitaire": "Twenty One solitaire",
    "medley": "Mountainside Math Medley",
}


def clock_text(seconds: float) -> str:
    """Seconds as ``m:ss`` (never negative).

    >>> clock_text(59.2), clock_text(-3), clock_text(3600)
    ('0:59', '0:00', '60:00')
    """
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def timer_text(timer: TimerView, now: float) -> str:
    """What a timer shows at ``now``: a countdown's seconds left (rounded up) or a
    stopwatch's time so far."""
    if timer.kind == "countdown" and timer.ends_at is not None:
        return clock_text(math.ceil(max(0.0, timer.ends_at - now)))
    return clock_text(now - timer.started_at)


def main_timer(view: GameView) -> TimerView | None:
    """The timer the screen shows big: a running countdown first, else the first timer."""
    countdowns = [t for t in view.timers if t.kind == "countdown" and not t.paused]
    chosen = countdowns or list(view.timers)
    return chosen[0] if chosen else None


def card_text(card: CardView) -> str:
    """A card as shown in a hand: what it reads and, where known, its value."""
    name = card.text or card.card
    return f"{name} = {card.value}" if card.value is not None and card.value != name else name


def seat_line(seat: SeatView) -> str:
    """A seat's one-line status: total and status words."""
    parts = [seat.status] if seat.status != "playing" else []
    if seat.total is not None:
        parts.insert(0, f"total {seat.total}")
    return ", ".join(parts)


def expected(view: GameView, *what: str) -> list[Expecting]:
    """The items of ``view.expecting`` whose ``what`` is one of ``what``."""
    return [item for item in view.expecting if item.what in what]


def seats_of(items: Iterable[Expecting]) -> list[int]:
    """Every seat named by ``items``, in order, each once.

    >>> seats_of([Expecting("x", (2,)), Expecting("total", (1, 2))])
    [2, 1]
    """
    seen: list[int] = []
    for item in items:
        seen.extend(seat for seat in item.seats if seat not in seen)
    return seen


def late_text(late_ms: float) -> str:
    """How much later a buzz came: ``+132 ms``.

    >>> late_text(131.6)
    '+132 ms'
    """
    return f"+{round(late_ms)} ms"
