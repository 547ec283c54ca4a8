"""Solver and parser speed: a 5-card hand over |X| <= 1000 should solve in <= 5 ms."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from companion.cardmath.expr import parse
from companion.cardmath.solver import solve

GOAL_MS = 5.0
HANDS = {
    "5-card core hand": ["6X", "2X+4", "X/2", "3X²-7", "X/3+N"],
    "5-card hand with celebrity cards": ["6X", "2X+4", "Xth prime", "Fib(X)", "Sum of factors(X)"],
    "5-card hand with digit cards": ["X/2", "Xth digit of pi", "Xth digit of e",
                                     "Xth triangle", "7"],
    "5-card hand with divisions": ["6X", "12/X", "X/(X+1)", "2X+4", "X/2"],
    "5-card hand with 1/X and X!": ["1/X", "X!", "X", "X^2/7", "2"],
    "3-card hand with 2^X": ["2^X", "X", "3"],
    "3-card hand with Y (separable)": ["6X", "Y²", "Y/2"],
    "3-card hand with XY (mixed)": ["XY", "Y", "X/2"],
}
CARD_TEXTS = ["6X", "2X+4", "X/2", "3N² - 2X", "Xth prime", "Sum of factors(X)", "(X+1)(X-1)/4"]


def timings(action: Callable[..., object], repeat: int, *args: object) -> list[float]:
    """Seconds per call of ``action(*args)``, after one warm-up call (imports, caches of primes
    and digits)."""
    action(*args)
    result = []
    for _ in range(repeat):
        start = time.perf_counter()
        action(*args)
        result.append(time.perf_counter() - start)
    return result


def main() -> None:
    """Print median and worst solve times per hand and the parse time per card."""
    for name, texts in HANDS.items():
        cards = [parse(text) for text in texts]
        repeat = 50 if "mixed" not in name else 10
        seconds = timings(solve, repeat, cards)
        median, worst = statistics.median(seconds) * 1e3, max(seconds) * 1e3
        goal = f" (goal <= {GOAL_MS:g} ms)" if name == "5-card core hand" else ""
        print(f"solver: {name} |X|<=1000: median {median:.2f} ms, worst {worst:.2f} ms{goal}")
    seconds = timings(lambda: [parse(text) for text in CARD_TEXTS], 200)
    per_card = statistics.median(seconds) / len(CARD_TEXTS) * 1e6
    print(f"parser: median {per_card:.0f} us per card ({len(CARD_TEXTS)} card texts)")


if __name__ == "__main__":
    main()
