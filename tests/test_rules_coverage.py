"""The rules-coverage map names only tests that exist, and covers every rule text."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = ROOT / "docs" / "rules-coverage.md"
TEST_NAME = re.compile(r"\btest_\w+")
DEFINED = re.compile(r"^\s*(?:async\s+)?def (test_\w+)", re.MULTILINE)
RULE_TEXTS = (
    "21x-rulebook.txt",
    "twenty-one-trick-game.txt",
    "twenty-one-solitaire.txt",
    "mountainside-math-medley.txt",
)


def _defined_tests() -> set[str]:
    """Names of every test function and test module."""
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.add(path.stem)
        names.update(DEFINED.findall(path.read_text(encoding="utf-8")))
    return names


def test_every_test_named_in_the_coverage_map_exists() -> None:
    named = set(TEST_NAME.findall(COVERAGE.read_text(encoding="utf-8")))
    missing = sorted(named - _defined_tests())
    assert named, "the coverage map names no tests"
    assert missing == [], f"docs/rules-coverage.md names tests that do not exist: {missing}"


def test_the_coverage_map_has_a_section_for_every_rule_text() -> None:
    text = COVERAGE.read_text(encoding="utf-8")
    for name in RULE_TEXTS:
        assert name in text, f"docs/rules-coverage.md does not cover {name}"
