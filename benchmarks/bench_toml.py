"""TOML files: the cost of reading them through the typed models, and of writing layouts.

Prints, for each file the companion reads at start or on a game's start, the median time of
one read (text -> tomllib -> model -> the typed object) over many, and the import cost of
the reader (:mod:`companion.tomlmodel` and the models) in a fresh interpreter. Figures are
from this machine; on a Pi 4 expect roughly 3-5 times these (estimated, not measured).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from companion.cardmath.catalogue import builtin, load_catalogue
from companion.config import load_config
from hardware.pins import load_pin_map
from vision.layout import DEFAULT_LAYOUTS, Calibration, TableLayout

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 200
IMPORTS = 5
CONFIG = """\
[hardware]
hold_time = 0.8
[hardware.buzzer]
pin = 12
type = "tonal"
[hardware.players.1]
button = 17
stand = 4
led = 27
[hardware.players.2]
button = 22
"""
OWNER_DECK = "".join(
    f'[[card]]\nid = "c{n}"\ntext = "{n}X+{n}"\nlevel = {1 + n % 3}\nset = "core"\n\n'
    for n in range(1, 101)
)


def _median_ms(action: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000.0


def _import_ms() -> float:
    """Median wall time of importing the reader and its models in a fresh interpreter."""
    code = (
        "import time; t = time.perf_counter();"
        " import companion.tomlfile, companion.config, companion.cardmath.catalogue,"
        " hardware.pins; print(time.perf_counter() - t)"
    )
    runs = [
        float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout)
        for _ in range(IMPORTS)
    ]
    return statistics.median(runs) * 1000.0


def main() -> None:
    """Print the figures."""
    print(f"import the TOML models (fresh interpreter): {_import_ms():.0f} ms")
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "config.toml"
        config.write_text(CONFIG, encoding="utf-8")
        deck = Path(folder) / "owner.toml"
        deck.write_text(OWNER_DECK, encoding="utf-8")
        layout = DEFAULT_LAYOUTS["21x"]()
        marks = [(0.0, 0.0), (layout.width, 0.0), (layout.width, layout.height),
                 (0.0, layout.height)]
        layout = layout.calibrated(
            Calibration.from_points([(80, 60), (560, 70), (600, 430), (40, 420)], marks)
        )
        saved = Path(folder) / "21x.toml"
        layout.save(saved)
        text = layout.dumps()
        rows = {
            "config.toml + its [hardware] pin map": lambda: load_pin_map(
                load_config(config), path=str(config)
            ),
            "built-in 21x catalogue": lambda: builtin("21x"),
            "built-in standard catalogue (54 cards)": lambda: builtin("standard"),
            "owner's catalogue of 100 cards": lambda: load_catalogue(deck),
            f"21x layout, calibrated ({len(layout.zones)} zones)": lambda: TableLayout.load(saved),
            "21x layout written (dumps)": layout.dumps,
        }
        for name, action in rows.items():
            print(f"{name}: {_median_ms(action):.2f} ms (median of {REPEATS})")
        print(f"21x layout file: {len(text.encode())} bytes, {text.count(chr(10))} lines")
