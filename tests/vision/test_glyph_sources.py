"""The quick glyph-model comparison loop: its command line."""

from __future__ import annotations

import pytest

from benchmarks.glyph_sources import main


def test_without_a_model_it_says_how_to_call_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: python -m benchmarks.glyph_sources MODEL" in capsys.readouterr().err
