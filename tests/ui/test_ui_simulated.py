"""A card laid by touch on the simulated table reaches the game through the camera pipeline."""

from __future__ import annotations

import time
from typing import Any

from tests.ui.test_ui_21x import logged, place
from ui.loop import default_start

PIPELINE_SECONDS = 20.0


def test_touch_deals_on_the_simulated_table_and_the_camera_reads_it(driver: Any) -> None:
    app = driver.app
    app.camera = "sim"
    try:
        app.start_game(default_start("21x", 2))
        place(driver, "ann", "6X")
        place(driver, "ben", "Fib(X)")
        assert [p.card for p in app.simulated.placements] == ["6x", "fib"]
        deadline = time.monotonic() + PIPELINE_SECONDS
        while len(logged(driver, "deal")) < 2 and time.monotonic() < deadline:
            driver.tick()
            time.sleep(0.02)
        assert sorted((d["player"], d["card"]) for d in logged(driver, "deal")) == [
            ("ann", "6x"), ("ben", "fib")]
        assert app.preview.frames_shown > 0
        assert app.screens["table"].preview is app.preview
    finally:
        app.camera = None
        app.simulated = None
        app.watcher.stop()
