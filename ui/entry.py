"""What a keypad has typed so far: named number fields, one of them active (no Kivy).

The call and stand screens ask for X (and Y) and a total; the keypad writes into the
active field and the screen submits the numbers as a Tap's data.

>>> entry = NumberEntry(("x", "total"))
>>> for key in "-3": entry.press(key)
>>> entry.choose("total")
>>> for key in "17.5": entry.press(key)
>>> entry.values()
{'x': -3, 'total': '17.5'}
>>> entry.press(BACKSPACE); entry.text("total")
'17.'
>>> NumberEntry(("x",)).missing()
['x']
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

BACKSPACE = "DEL"
KEYS = ("7", "8", "9", BACKSPACE, "4", "5", "6", "-", "1", "2", "3", "/", "0", ".")
"""The keypad's keys, four to a row: digits, the sign, a fraction bar and a decimal point."""
MAX_LENGTH = 9


class NumberEntry:
    """Number fields filled key by key; :meth:`values` reads them as exact numbers."""

    def __init__(self, fields: Sequence[str]) -> None:
        if not fields:
            raise ValueError("a keypad needs at least one field")
        self.fields = tuple(fields)
        self.texts = dict.fromkeys(self.fields, "")
        self.active = self.fields[0]

    def choose(self, field: str) -> None:
        """Type into ``field`` from now on."""
        if field not in self.texts:
            raise KeyError(field)
        self.active = field

    def text(self, field: str) -> str:
        """What ``field`` shows."""
        return self.texts[field]

    def press(self, key: str) -> None:
        """One key: a digit, ``-`` (toggles the sign), ``.``, ``/`` or backspace."""
        text = self.texts[self.active]
        if key == BACKSPACE:
            text = text[:-1]
        elif key == "-":
            text = text[1:] if text.startswith("-") else "-" + text
        elif key == ".":
            text += key if "." not in text and "/" not in text else ""
        elif key == "/":
            text += key if text.lstrip("-") and "/" not in text and "." not in text else ""
        elif key.isdigit() and len(text) < MAX_LENGTH:
            text += key
        self.texts[self.active] = text

    def clear(self) -> None:
        """Empty every field and make the first one active."""
        self.texts = dict.fromkeys(self.fields, "")
        self.active = self.fields[0]

    def missing(self) -> list[str]:
        """The fields that do not yet hold a number."""
        return [name for name in self.fields if number_of(self.texts[name]) is None]

    def values(self) -> dict[str, int | str]:
        """Each field as a Tap's data wants it: an int when whole, else its text."""
        out: dict[str, int | str] = {}
        for name in self.fields:
            value = number_of(self.texts[name])
            if value is not None:
                out[name] = value.numerator if value.denominator == 1 else self.texts[name]
        return out


def number_of(text: str) -> Fraction | None:
    """The exact number ``text`` spells, or None while it is incomplete.

    >>> number_of("-5/2"), number_of("3."), number_of("-")
    (Fraction(-5, 2), Fraction(3, 1), None)
    """
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
