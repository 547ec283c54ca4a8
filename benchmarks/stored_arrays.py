"""``save FILE`` / ``check FILE``: named arrays made by a benchmark's code, stored once and
compared with fresh ones after a change (used by :mod:`benchmarks.candidate_features` and
:mod:`benchmarks.card_reads`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.cli import Parser

Arrays = dict[str, np.ndarray]


def save_or_check(
    prog: str,
    description: str | None,
    collect: Callable[[], Arrays],
    differing: Callable[[Arrays, Arrays], list[str]],
    argv: Sequence[str] | None = None,
) -> int:
    """Parse ``save FILE`` or ``check FILE`` from ``argv`` (the command line by default),
    make the arrays (``collect``, OpenCV on one thread) and store them, or print how many of
    them are bit-equal to the stored ones and name those that ``differing`` finds; returns
    the exit code (1 when some differ)."""
    parser = Parser(prog=prog, description=description)
    parser.add_argument("action", choices=("save", "check"))
    parser.add_argument("file", type=Path, help="the .npz file of stored arrays")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.action == "check" and not args.file.is_file():
        parser.error(f"nothing stored at {args.file} (make it with save first)")
    cv2.setNumThreads(1)
    fresh = collect()
    if args.action == "save":
        np.savez_compressed(args.file, allow_pickle=False, **fresh)
        print(f"saved {len(fresh)} arrays to {args.file}")
        return 0
    with np.load(args.file) as stored_file:
        stored = {name: stored_file[name] for name in stored_file.files}
    bad = differing(stored, fresh)
    equal = sum(np.array_equal(stored[name], fresh[name]) for name in set(stored) & set(fresh))
    print(f"{len(fresh)} arrays, {equal} bit-equal, {len(bad)} differing: {bad[:20]}")
    return 1 if bad else 0
