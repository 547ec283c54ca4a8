"""The start-up benchmark's stand-ins really start and send READY=1 (timed only in the bench)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_startup import STAND_IN, UI_FIRST, _spawn_to_ready
from companion.engine.store import FILE_NAME


@pytest.mark.parametrize("stand_in", [STAND_IN, UI_FIRST], ids=["everything", "ui-first"])
def test_the_stand_in_reaches_ready(tmp_path: Path, stand_in: str) -> None:
    assert _spawn_to_ready(stand_in, str(tmp_path)) > 0  # it raises unless READY=1 came
    assert (tmp_path / FILE_NAME).is_file()  # the stand-in opened the game store
