"""Start-up: from spawning the process to systemd's READY=1, on a real notify socket.

The unit counts as started when the app sends ``READY=1`` (``Type=notify``). The app is not
in this checkout yet, so a stand-in does everything it does before its first frame except
open the window: set the kiosk environment, import numpy, OpenCV, Kivy's app module, the card
reader and the referee, open the SQLite store, configure logging, and notify. A second
stand-in leaves numpy, OpenCV, the card reader and the referee until after the first frame,
and each stage is timed alone in a fresh interpreter. Goal (issue 12): the app up within 3 s
of the unit starting on a Pi 4; the window and first frame on KMS/DRM come on top (not
measured here).
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 5
STAND_IN = """
import os, sys
from ui import kiosk
os.environ.update(kiosk.kivy_environment(False))
from ui.service import ServiceNotifier, configure_logging
configure_logging("WARNING")
import numpy, cv2
import kivy.app
import vision.cards, companion.engine.conductor
from companion.engine.store import Store
Store.open(sys.argv[1]).close()
ServiceNotifier().ready()
"""
UI_FIRST = """
import os, sys
from ui import kiosk
os.environ.update(kiosk.kivy_environment(False))
from ui.service import ServiceNotifier, configure_logging
configure_logging("WARNING")
import kivy.app
from companion.engine.store import Store
Store.open(sys.argv[1]).close()
ServiceNotifier().ready()
"""
STAGES = {
    "interpreter alone": "pass",
    "companion CLI parser": "from companion.cli import build_parser; build_parser()",
    "numpy + OpenCV": "import numpy, cv2",
    "Kivy app module (no window)": (
        "import os; from ui import kiosk; os.environ.update(kiosk.kivy_environment(False));"
        " import kivy.app"
    ),
    "card reader + referee and conductor": "import vision.cards, companion.engine.conductor",
}


def _spawn_to_ready(stand_in: str, data_dir: str) -> float:
    """Seconds from spawning ``stand_in`` to its READY=1 datagram."""
    with tempfile.TemporaryDirectory() as folder, socket.socket(
        socket.AF_UNIX, socket.SOCK_DGRAM
    ) as sock:
        path = os.path.join(folder, "notify")
        sock.bind(path)
        sock.settimeout(60)
        env = {**os.environ, "NOTIFY_SOCKET": path}
        began = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-c", stand_in, data_dir], cwd=ROOT, env=env,
            stderr=subprocess.DEVNULL,
        )
        message = sock.recv(64)
        elapsed = time.perf_counter() - began
        child.wait(timeout=60)
    if message != b"READY=1":
        raise RuntimeError(f"expected READY=1, got {message!r}")
    return elapsed


def _stage(code: str) -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def main() -> None:
    """Print the median and best of each figure over a few runs (a first run warms the disk
    cache); on a busy machine the best is the least disturbed."""
    for name, code in STAGES.items():
        _stage(code)
        runs = [_stage(code) for _ in range(REPEATS)]
        print(f"{name}: {statistics.median(runs) * 1000:.0f} ms median of {REPEATS},"
              f" best {min(runs) * 1000:.0f} ms")
    for name, stand_in in (("everything but the window", STAND_IN),
                           ("vision and referee loaded after the first frame", UI_FIRST)):
        with tempfile.TemporaryDirectory() as data_dir:
            _spawn_to_ready(stand_in, data_dir)
            runs = [_spawn_to_ready(stand_in, data_dir) for _ in range(REPEATS)]
        print(
            f"spawn to READY=1, {name}: {statistics.median(runs) * 1000:.0f} ms"
            f" median of {REPEATS}, best {min(runs) * 1000:.0f} ms, worst {max(runs) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
