"""Where the app's memory goes: its resident set split by mapping at each step of the preview.

``python -m benchmarks.app_memory`` runs :mod:`benchmarks.bench_app`'s preview scenario (the
app as ``companion run`` runs it, a 21X game on the simulated table, six cards dealt) in a
fresh process. That process copies its ``/proc/self/smaps`` at each step of the scenario;
this one polls the child's resident set every few milliseconds from outside and copies its
smaps whenever the resident set reaches a new high (so the peak moment is caught without a
sampling thread inside the app). Each copy is printed as the resident set split by mapping:
the library files (the top ones by size), ``[heap]``, glibc's per-thread malloc arenas (64
MB reservations), thread stacks, the other anonymous mappings by size, each with its
private dirty part (memory the process really holds; clean file pages are shared and can be
dropped under pressure).

``--top N`` sets how many library files are named (15), ``--steps`` prints only the steps'
totals and the peak.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from benchmarks import bench_app

ARENA_BYTES = 64 << 20
"""glibc's reservation for each malloc arena but the main one (64-bit: HEAP_MAX_SIZE)."""
STACK_KB = (8188, 8192)
"""A thread's stack (8 MB, ``ulimit -s``) less its guard page, or whole."""
POLL_SECONDS = 0.003
GROWTH_KB = 512
"""How much the resident set must have grown since the last copy before the next."""


@dataclass(frozen=True)
class Mapping:
    """One mapping of ``/proc/PID/smaps``: its address range, permissions, path and sizes (kB)."""

    start: int
    end: int
    perms: str
    path: str
    rss: int
    dirty: int
    anonymous: int

    @property
    def size_kb(self) -> int:
        """The mapping's address range in kB."""
        return (self.end - self.start) // 1024


def parse_smaps(text: str) -> list[Mapping]:
    """The mappings of a smaps listing.

    >>> text = ("7f0000000000-7f0000400000 rw-p 00000000 00:00 0 \\nRss: 12 kB\\n"
    ...         "Private_Dirty: 8 kB\\nAnonymous: 8 kB\\n")
    >>> parse_smaps(text)[0].size_kb, parse_smaps(text)[0].path, parse_smaps(text)[0].dirty
    (4096, '', 8)
    """
    mappings: list[Mapping] = []
    header: list[str] = []
    fields: dict[str, int] = {}

    def close() -> None:
        if header:
            low, high = (int(part, 16) for part in header[0].split("-"))
            path = header[5] if len(header) > 5 else ""
            mappings.append(Mapping(low, high, header[1], path, fields.get("Rss", 0),
                                    fields.get("Private_Dirty", 0), fields.get("Anonymous", 0)))

    for line in text.splitlines():
        key, colon, value = line.partition(":")
        if colon and " " not in key and value.strip().endswith("kB"):
            fields[key] = int(value.split()[0])
        elif "-" in line.split(" ", 1)[0]:
            close()
            header, fields = line.split(maxsplit=5), {}
    close()
    return mappings


def holder(mapping: Mapping, before: Mapping | None, after: Mapping | None) -> str:
    """What a mapping is, as the split names it: a library file by name, ``[heap]``, a malloc
    arena, a thread stack, or an anonymous mapping by size class."""
    if mapping.path.startswith("/") and not mapping.path.startswith("/memfd:"):
        return os.path.basename(mapping.path)
    if mapping.path:
        return mapping.path
    if mapping.start % ARENA_BYTES == 0 and (
            mapping.size_kb * 1024 == ARENA_BYTES
            or (after is not None and after.perms.startswith("---")
                and after.start == mapping.end and after.end - mapping.start == ARENA_BYTES)):
        return "malloc arena (a thread's, 64 MB reserved)"
    if mapping.size_kb in STACK_KB and before is not None and before.perms.startswith("---"):
        return "thread stack (8 MB reserved)"
    mb = mapping.size_kb / 1024
    size = "< 1 MB" if mb < 1 else "1-8 MB" if mb < 8 else "8-32 MB" if mb < 32 else ">= 32 MB"
    return f"anonymous mapping {size}"


@dataclass
class Share:
    """What one holder has resident: kB resident, private dirty kB, mappings."""

    rss: int = 0
    dirty: int = 0
    count: int = 0


def split(mappings: list[Mapping]) -> dict[str, Share]:
    """Resident kB by holder."""
    shares: dict[str, Share] = defaultdict(Share)
    for index, mapping in enumerate(mappings):
        if not mapping.rss:
            continue
        before = mappings[index - 1] if index else None
        after = mappings[index + 1] if index + 1 < len(mappings) else None
        share = shares[holder(mapping, before, after)]
        share.rss += mapping.rss
        share.dirty += mapping.dirty
        share.count += 1
    return dict(shares)


def is_file(name: str) -> bool:
    """Whether a holder is a mapped file (a library) rather than anonymous memory."""
    return not (name.startswith(("[", "malloc", "thread", "anonymous")))


def report(title: str, mappings: list[Mapping], top: int, previous: dict[str, Share] | None
           ) -> Iterator[str]:
    """The lines printed for one copy of smaps: totals, then the holders by size."""
    shares = split(mappings)
    files = sum(share.rss for name, share in shares.items() if is_file(name))
    total = sum(share.rss for share in shares.values())
    dirty = sum(share.dirty for share in shares.values())
    yield (f"-- {title}: {total / 1024:.1f} MB resident = {files / 1024:.1f} files +"
           f" {(total - files) / 1024:.1f} anonymous; private dirty {dirty / 1024:.1f} MB")
    ranked = sorted(shares.items(), key=lambda item: -item[1].rss)
    named = [item for item in ranked if not is_file(item[0])]
    named += [item for item in ranked if is_file(item[0])][:top]
    for name, share in sorted(named, key=lambda item: -item[1].rss):
        before = None if previous is None else previous.get(name, Share()).rss
        grew = "" if before is None else f" ({(share.rss - before) / 1024:+.1f})"
        yield (f"   {share.rss / 1024:7.1f} MB{grew:>9}  dirty {share.dirty / 1024:6.1f}"
               f"  {name} [{share.count}]")


def large_mappings(steps: list[tuple[str, list[Mapping]]]) -> Iterator[str]:
    """Each anonymous mapping of 1 MB resident or more in the last step, with its holder
    and the first step it was (at its start address) 1 MB resident at."""
    first: dict[int, str] = {}
    for name, mappings in steps:
        for mapping in mappings:
            if not mapping.path and mapping.rss >= 1024:
                first.setdefault(mapping.start, name)
    mappings = steps[-1][1]
    for index, mapping in enumerate(mappings):
        if not mapping.path and mapping.rss >= 1024:
            kind = holder(mapping, mappings[index - 1] if index else None,
                          mappings[index + 1] if index + 1 < len(mappings) else None)
            yield (f"   {mapping.start:012x} {mapping.size_kb / 1024:7.1f} MB mapped"
                   f" {mapping.rss / 1024:6.1f} resident  {kind}; since {first[mapping.start]}")


def watch(process: subprocess.Popen[str]) -> tuple[int, float, str]:
    """Poll ``process``'s resident set until it ends; its highest, when, and the smaps then."""
    highest, when, peak_smaps = 0, 0.0, ""
    status, smaps = f"/proc/{process.pid}/status", f"/proc/{process.pid}/smaps"
    while process.poll() is None:
        try:
            with open(status, encoding="ascii") as lines:
                rss = next(int(line.split()[1]) for line in lines if line.startswith("VmRSS:"))
            if rss >= highest + GROWTH_KB:
                with open(smaps, encoding="utf-8", errors="replace") as listing:
                    text = listing.read()
                highest = rss
                if resident_kb(text) >= resident_kb(peak_smaps):  # not one read while exiting
                    peak_smaps, when = text, time.time()
        except (OSError, StopIteration):
            break
        time.sleep(POLL_SECONDS)
    return highest, when, peak_smaps


def resident_kb(smaps: str) -> int:
    """The resident set of a smaps listing, kB."""
    return sum(mapping.rss for mapping in parse_smaps(smaps))


def copies(folder: Path) -> Iterable[tuple[float, str, str]]:
    """The child's step copies, in order: (when, step, smaps text)."""
    for path in sorted(folder.glob("step-*.smaps")):
        head, text = path.read_text(encoding="utf-8").split("\n", 1)
        when, name = head.split(" ", 1)
        yield float(when), name, text


def in_child(scratch: str) -> None:
    """The measured process: the preview scenario, smaps copied at each step."""
    folder = Path(scratch)
    counter = iter(range(100))

    def step(name: str) -> None:
        text = Path("/proc/self/smaps").read_text(encoding="utf-8", errors="replace")
        (folder / f"step-{next(counter):02d}.smaps").write_text(f"{time.time()} {name}\n{text}",
                                                                 encoding="utf-8")

    step("interpreter started")
    bench_app.child("preview", scratch, step)


def main(argv: list[str] | None = None) -> None:
    """Run the preview in a child and print its resident set at each step and at the peak."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.app_memory",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--top", type=int, default=15, help="library files named (15)")
    parser.add_argument("--steps", action="store_true", help="only the totals per step")
    parser.add_argument("--mappings", action="store_true",
                        help="also each anonymous mapping of 1 MB or more at the end, with the"
                             " step it first held that much at")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-app-memory-") as scratch:
        process = subprocess.Popen([sys.executable, "-m", "benchmarks.app_memory", "--child",
                                    scratch], stdout=subprocess.PIPE, text=True)
        highest, peak_at, peak_smaps = watch(process)
        out, _ = process.communicate(timeout=180)
        steps = [*copies(Path(scratch))]
    figures = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    began = steps[0][0]
    steps.append((peak_at, "the peak (highest resident set seen)", peak_smaps))
    previous: dict[str, Share] | None = None
    for when, step, text in sorted(steps):
        mappings = parse_smaps(text)
        name = f"{when - began:5.2f} s {step}"
        lines = list(report(name, mappings, args.top, previous))
        print("\n".join(lines[:1] if args.steps else lines))
        previous = split(mappings)
    if args.mappings:
        print("\n".join(large_mappings([(name, parse_smaps(text)) for _, name, text in steps])))
    print(f"peak RSS {figures['rss_mb']:.1f} MB (VmHWM; {highest / 1024:.1f} MB the highest"
          f" seen from outside), live view {figures['preview_fps']:.1f} frames/s")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        in_child(sys.argv[2])
    else:
        main()
