"""The worst inputs the limits allow: how long each takes and how much memory it needs.

Each case is the largest (or most hostile) input a bound lets through, or one it
refuses, run once in a fresh process through the real ``companion`` command, with
its wall time and peak resident memory (the child's own ``VmHWM``: Linux keeps
``ru_maxrss`` across exec, so it would count this process too). Goal: every
command answers any input within 10 s here and under 1 GB.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_SECONDS = 10.0
GOAL_MB = 1024.0
CELEBRITY = ["Xth prime", "fib(X)", "sum of factors(X)", "Xth digit of pi", "Xth digit of e"]


def cases(folder: Path) -> dict[str, list[str]]:
    """Name -> command line of each worst case."""
    big = folder / "big.png"
    import cv2
    import numpy as np

    cv2.imwrite(str(big), np.full((5000, 7000, 3), 90, np.uint8))  # 35 megapixels
    return {
        "check X^-99999 at X = 2 (refused)": ["check", "--x", "2", "X^-99999"],
        "check 9^9^9 (refused)": ["check", "9^9^9"],
        "check the 100,000th digit of pi": ["check", "--x", "100000", "Xth digit of pi"],
        "check X^X at X = 1000 (3,000 digits)": ["check", "--x", "1000", "X^X"],
        "solve 5 celebrity cards, range 50,000": ["solve", "--range", "50000", *CELEBRITY],
        "solve X*Y, Y^2, range 2,000": ["solve", "--range", "2000", "X*Y", "Y^2"],
        "solve X!*X, range 8,695 (tree work limit)": ["solve", "--range", "8695", "X!*X"],
        "recognize a 35-megapixel PNG": ["recognize", str(big)],
    }


MEASURED = """
import sys
from companion.cli import main
try:
    code = main(sys.argv[1:])
finally:
    status = open("/proc/self/status").read().split("VmHWM:")[1]
    print(status.split()[0], file=sys.stderr)
sys.exit(code)
"""


def run(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak MB and exit code of ``companion ARGV`` in a fresh process."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", MEASURED, *argv], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    seconds = time.perf_counter() - began
    peak_kb = int(done.stderr.strip().splitlines()[-1])
    return seconds, peak_kb / 1024, done.returncode


def main() -> None:
    """Print the time and memory of each worst case."""
    with tempfile.TemporaryDirectory() as folder:
        for name, argv in cases(Path(folder)).items():
            seconds, megabytes, code = run(argv)
            print(f"limits: {name}: {seconds:.2f} s, peak {megabytes:.0f} MB, exit {code}"
                  f" (goal < {GOAL_SECONDS:g} s, < {GOAL_MB:g} MB)")
