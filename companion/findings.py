"""What a check of the set-up found: ``companion doctor``'s checks and the camera's check of a
frame (``companion camera --check``) both say it this way.

>>> print(good("exposure", "card white 231").line())
exposure: card white 231 - ok
>>> problem("gpio", "no GPIO", "use a Pi").to_json()
{'check': 'gpio', 'ok': False, 'detail': 'no GPIO', 'fix': 'use a Pi'}
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Finding:
    """The outcome of one check: ``detail`` is what was found (a measure and its value),
    ``fix`` what to do ("" if ok)."""

    check: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        """The finding as one line: the check, what was found, ``ok`` or the fix."""
        verdict = "ok" if self.ok else f"FIX: {self.fix}"
        return f"{self.check}: {self.detail} - {verdict}"

    def to_json(self) -> dict[str, Any]:
        """The finding as a JSON object: check, ok, detail, fix."""
        return asdict(self)


def good(check: str, detail: str) -> Finding:
    """A passed check."""
    return Finding(check, True, detail)


def problem(check: str, detail: str, fix: str) -> Finding:
    """A failed check: what is wrong and what to do about it."""
    return Finding(check, False, detail, fix)
