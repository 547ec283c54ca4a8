"""Shared test fixtures: where the shared photos and rule texts are."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data"
RULES = SHARED / "rules"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` beside the checkout; tests needing it skip with a reason if absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared photos not found at {SHARED_DATA} (CI always has them)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def rules_dir() -> Path:
    """``../shared/rules``: the four game texts."""
    if not RULES.is_dir():
        pytest.skip(f"rule texts not found at {RULES}")
    return RULES
