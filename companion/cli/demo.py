"""``companion demo``: the rulebook's worked example, checked and solved.

The hand 6X, 2X+4, X/2 is valued at X = 4 (bust), X = 1 (12.5, valid) and X = 2
(exactly 21), then searched for every X that makes 21. This is what ``make run``
shows until the touchscreen app exists.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

EXAMPLE_HAND = ("6x", "2x+4", "x/2")
EXAMPLE_XS = (4, 1, 2)


def register(subcommands: Any) -> None:
    """Add ``demo``."""
    demo = subcommands.add_parser(
        "demo", help="show the 21X rulebook example, checked and solved",
        description="Check the 21X rulebook's example hand at three values of X and solve it.")
    demo.set_defaults(handler=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    """Handler of ``companion demo``."""
    from companion.cardmath.catalogue import builtin
    from companion.cardmath.hand import evaluate_hand
    from companion.cardmath.solver import DEFAULT_SEARCH, solve
    from companion.cli.cards import describe_hand, solve_summary, working

    catalogue = builtin("21x")
    cards = [catalogue.card(card_id) for card_id in EXAMPLE_HAND]
    expressions = [card.expression for card in cards if card.expression is not None]
    print("21X rulebook example: a 3-card hand checked at three values of X.\n")
    for x in EXAMPLE_XS:
        result = evaluate_hand(expressions, x=x)
        print(describe_hand(cards, Fraction(x), None, 1))
        print("\n".join(working(cards, Fraction(x), None, 1, result)))
        print()
    solution = solve(expressions)
    print(f"Solver, searching 1 <= |X| <= {DEFAULT_SEARCH}:")
    print(solve_summary(solution))
    if solution.best is not None:
        print(f"Best valid total: {solution.best.total} with X = {solution.best.x}")
    return 0
