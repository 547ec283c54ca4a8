"""Run every benchmark module's ``main()`` in name order; each prints its own figures.

``python -m benchmarks [NAME ...]`` runs those whose names contain a NAME (``solver``,
``cards`` ...); a NAME that matches none is one line on stderr and exit code 2.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from companion.cli import Parser

BENCHMARKS = sorted(path.stem for path in Path(__file__).parent.glob("bench_*.py"))


def main(argv: list[str] | None = None) -> int:
    """Run all benchmarks, or those whose names contain an argument."""
    names = [name.removeprefix("bench_") for name in BENCHMARKS]
    parser = Parser(prog="python -m benchmarks",
                    description="Print the speed and accuracy figures. Benchmarks: "
                                + ", ".join(names) + ".")
    parser.add_argument("wanted", nargs="*", metavar="NAME",
                        help="run only the benchmarks whose names contain NAME")
    wanted = parser.parse_args(sys.argv[1:] if argv is None else argv).wanted
    for word in wanted:
        if not any(word in name for name in names):
            parser.error(f"no benchmark matches {word!r} (choose from {', '.join(names)})")
    for module in BENCHMARKS:
        if wanted and not any(word in module.removeprefix("bench_") for word in wanted):
            continue
        print(f"== {module}", flush=True)
        importlib.import_module(f"benchmarks.{module}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
