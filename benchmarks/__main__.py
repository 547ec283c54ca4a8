"""Run every benchmark module's ``main()`` in name order; each prints its own figures."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main() -> int:
    """Run all benchmarks, or those whose names contain an argument."""
    wanted = sys.argv[1:]
    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        if wanted and not any(word in path.stem for word in wanted):
            continue
        print(f"== {path.stem}", flush=True)
        importlib.import_module(f"benchmarks.{path.stem}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
