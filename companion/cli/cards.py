"""``companion check`` and ``companion solve``: value a 21X hand or search its X.

A CARD is a catalogue id (``fib``) or the text printed on the card (``"2X+4"``).
Numbers on the command line are exact: anything :class:`fractions.Fraction`
accepts (``21``, ``12.5``, ``25/3``). In JSON, card values and totals are exact
strings in Fraction's form (``"21"``, ``"25/2"``) with a ``"decimal"`` beside them
when the value is a finite decimal; X and Y are JSON numbers when whole.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from companion.cardmath.solver import MAX_SEARCH
from companion.cli.output import print_json

if TYPE_CHECKING:
    from companion.cardmath.catalogue import Card
    from companion.cardmath.hand import HandResult, HandRules
    from companion.cardmath.solver import Assignment, Solution

VERDICTS = {
    "twentyone": "21! Call 21 and win the game.",
    "bust": "Bust!",
    "valid": "Valid total: you could stand with it.",
}


def exact_number(text: str) -> Fraction:
    """An argparse type: an exact number such as ``2``, ``-3``, ``12.5`` or ``25/3``."""
    from companion.cardmath.bounds import read_number

    try:
        return read_number(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{error} (use e.g. 2, -3, 12.5 or 25/3)") from None


def whole_number(low: int, high: int = 10**6) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def convert(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if not digits.isdigit() or not digits.isascii():
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
        if len(digits) > len(str(high)):
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is too large (at most {high})")
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is too small (at least {low})")
        if value > high:
            raise argparse.ArgumentTypeError(f"{value} is too large (at most {high})")
        return value

    return convert


def register(subcommands: Any) -> None:
    """Add ``check`` and ``solve``."""
    check = subcommands.add_parser(
        "check", help="value a hand at a chosen X", description="Value each card and the total."
    )
    check.add_argument("--x", type=exact_number,
                       help="the value of X (default: the solver's best X)")
    check.add_argument("--y", type=exact_number, help="the value of Y (cards that use Y)")
    _common(check)
    check.set_defaults(handler=run_check)

    solve = subcommands.add_parser(
        "solve", help="find every X making 21 and the best total",
        description="Search X (and Y) for totals of exactly 21 and the best valid total.",
    )
    solve.add_argument("--range", type=whole_number(1, MAX_SEARCH), default=1000, dest="search",
                       help=f"search 1 <= |X| <= RANGE (and 1 <= Y <= RANGE); default 1000, "
                            f"at most {MAX_SEARCH}")
    _common(solve)
    solve.set_defaults(handler=run_solve)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--v", type=whole_number(1), default=1,
                        help="the value of V: 1 + games won this session (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--data-dir", help="where the owner's decks are (default: user data dir)")
    parser.add_argument("--catalogue", action="append", default=[], metavar="PATH",
                        help="an extra catalogue TOML file (repeatable)")
    parser.add_argument("--non-integer-x", action="store_true",
                        help="difficulty option: allow non-integer X (and Y)")
    parser.add_argument("--max-cards", type=whole_number(0), default=5,
                        help="difficulty option: most cards in a hand (0 = no limit; default 5)")
    parser.add_argument("cards", nargs="+", metavar="CARD",
                        help="a catalogue id or the printed text, e.g. 6X '2X+4' fib")


def _rules(args: argparse.Namespace) -> HandRules:
    from companion.cardmath.hand import HandRules

    return HandRules(non_integer_x=args.non_integer_x, max_cards=args.max_cards or None)


def _cards(args: argparse.Namespace) -> list[Card]:
    from companion.cardmath.catalogue import owner_catalogue
    from companion.errors import HandError
    from companion.paths import data_dir

    catalogue = owner_catalogue(args.catalogue, directory=data_dir(args.data_dir))
    cards = [catalogue.resolve(token) for token in args.cards]
    for card in cards:
        if card.expression is None:
            raise HandError(f"card {card.id!r} is a playing card, not a 21X card")
    return cards


def value_json(value: Fraction) -> dict[str, str]:
    """``{"value": "25/2", "decimal": "12.5"}`` (no decimal if it does not terminate)."""
    from companion.cardmath.bounds import exact_text
    from companion.cardmath.expr import decimal_text

    decimal = decimal_text(value)
    return {"value": exact_text(value), **({"decimal": decimal} if decimal else {})}


def working(
    cards: Sequence[Card], x: Fraction, y: Fraction | None, v: int, result: HandResult
) -> list[str]:
    """The rulebook-style working: one line per card, the total and the verdict."""
    from companion.cardmath.working import bindings, card_working, number_text

    substitute = bindings(x, y, len(cards), v)
    lines = []
    for card, value in zip(cards, result.values, strict=True):
        assert card.expression is not None
        lines.append("  " + card_working(card.text, card.expression, substitute, value))
    terms = " + ".join(f"({number_text(v)})" if v < 0 else number_text(v)
                       for v in result.values)
    lines.append(f"Total: {terms} = {number_text(result.total)}")
    verdict = VERDICTS[result.status.value]
    if result.total == 20:
        verdict = "Bust! A total of exactly 20 is bust."
    lines.append(verdict)
    return lines


def describe_hand(cards: Sequence[Card], x: Fraction, y: Fraction | None, v: int) -> str:
    """``Hand 6X, 2X+4, X/2 (N = 3) with X = 2``, plus Y and V when cards use them."""
    from companion.games.x21.table import fraction_text

    used = set().union(*(card.expression.variables for card in cards if card.expression))
    values = [f"X = {fraction_text(x)}"] if "X" in used else []
    if y is not None:
        values.append(f"Y = {fraction_text(y)}")
    if "V" in used:
        values.append(f"V = {v}")
    names = ", ".join(card.text for card in cards)
    with_values = f" with {', '.join(values)}" if values else ""
    return f"Hand {names} (N = {len(cards)}){with_values}"


def run_check(args: argparse.Namespace) -> int:
    """Handler of ``companion check``."""
    from companion.cardmath.hand import evaluate_hand
    from companion.cardmath.solver import DEFAULT_SEARCH, solve
    from companion.errors import HandError
    from companion.games.x21.table import fraction_json

    cards = _cards(args)
    expressions = [card.expression for card in cards if card.expression is not None]
    rules = _rules(args)
    x, y = args.x, args.y
    chosen = ""
    if x is None and not any(e.variables & {"X", "Y"} for e in expressions):
        x = Fraction(1)  # no card uses X or Y: any X gives the same total
    if x is None:
        best = solve(expressions, v=args.v, rules=rules).best
        if best is None:
            raise HandError(f"no X with 1 <= |X| <= {DEFAULT_SEARCH} gives a valid total: give --x")
        x, y, chosen = best.x, best.y if y is None else y, " (the best X found by solve)"
    result = evaluate_hand(expressions, x=x, y=y, v=args.v, rules=rules)
    if args.json:
        report: dict[str, Any] = {
            "cards": [
                {"card": token, "id": card.id, "text": card.text, "icons": card.icons,
                 **value_json(value)}
                for token, card, value in zip(args.cards, cards, result.values, strict=True)
            ],
            "n": len(cards),
            "x": fraction_json(x),
            **({"y": fraction_json(y)} if y is not None else {}),
            "v": args.v,
            "total": value_json(result.total)["value"],
            **({"decimal": d} if (d := value_json(result.total).get("decimal")) else {}),
            "status": result.status.value,
            "icons": sum(card.icons for card in cards),
        }
        print_json(report)
        return 0
    print(describe_hand(cards, x, y, args.v) + chosen)
    print("\n".join(working(cards, x, y, args.v, result)))
    return 0


def run_solve(args: argparse.Namespace) -> int:
    """Handler of ``companion solve``."""
    from companion.cardmath.hand import evaluate_hand
    from companion.cardmath.solver import solve
    from companion.games.x21.table import fraction_json, fraction_text

    cards = _cards(args)
    expressions = [card.expression for card in cards if card.expression is not None]
    rules = _rules(args)
    solution = solve(expressions, v=args.v, search=args.search, rules=rules)

    def assignment(a: Assignment) -> dict[str, Any]:
        found: dict[str, Any] = {"x": fraction_json(a.x)}
        if a.y is not None:
            found["y"] = fraction_json(a.y)
        return found | {"total": value_json(a.total)["value"]}

    if args.json:
        print_json({
            "cards": [{"card": token, "id": card.id, "text": card.text}
                      for token, card in zip(args.cards, cards, strict=True)],
            "n": len(cards),
            "v": args.v,
            "range": args.search,
            "twentyone": [assignment(a) for a in solution.twentyone],
            "best": assignment(solution.best) if solution.best else None,
        })
        return 0
    print(f"Hand {', '.join(c.text for c in cards)} (N = {len(cards)}), "
          f"searching 1 <= |X| <= {args.search}")
    print(solve_summary(solution))
    if solution.best is not None:
        best = solution.best
        result = evaluate_hand(expressions, x=best.x, y=best.y, v=args.v, rules=rules)
        print(f"Best total {fraction_text(best.total)} with {_xy(best.x, best.y)}:")
        print("\n".join(working(cards, best.x, best.y, args.v, result)))
    return 0


def _xy(x: Fraction, y: Fraction | None) -> str:
    from companion.games.x21.table import fraction_text

    return f"X = {fraction_text(x)}" + (f", Y = {fraction_text(y)}" if y is not None else "")


def solve_summary(solution: Solution, limit: int = 12) -> str:
    """One line listing the assignments that make 21 (the first ``limit`` of them)."""
    found = [_xy(a.x, a.y) for a in solution.twentyone[:limit]]
    if not found:
        return "No X in the range makes exactly 21."
    extra = len(solution.twentyone) - limit
    more = f" ... and {extra} more" if extra > 0 else ""
    return f"Exactly 21 with: {'; '.join(found)}{more}"
