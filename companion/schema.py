"""Typed TOML files: read a file's text into a schema with msgspec, naming file, line and key.

The text is parsed by :func:`companion.config.parse_toml` (size and nesting limits,
syntax errors with their line), then converted to a schema of ``msgspec.Struct``
classes, strictly: a wrong type, a value out of range, a missing or an unknown key
is a :class:`~companion.errors.LocatedError` naming the key and the line it is on.

For a deck whose second ``[[card]]`` has ``level = "x"``, the error reads
``d.toml:5: card[1].level: Expected `int`, got `str```.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

import msgspec

from companion.config import parse_toml
from companion.errors import ConfigError, LocatedError

T = TypeVar("T")
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def load_toml(text: str, schema: type[T], *, path: str,
              error: type[LocatedError] = ConfigError) -> T:
    """The TOML ``text`` as an instance of ``schema``; any problem is an ``error``."""
    return convert(parse_toml(text, path=path, error=error), schema, text=text, path=path,
                   error=error)


def convert(document: Any, schema: type[T], *, text: str, path: str,
            error: type[LocatedError] = ConfigError) -> T:
    """A parsed TOML document as ``schema`` (strict), the problem named with key and line."""
    try:
        return msgspec.convert(document, schema, strict=True)
    except msgspec.ValidationError as problem:
        message, _, where = str(problem).partition(" - at `$")
        steps = [(key, int(index) if index else None)
                 for key, index in _STEP.findall(where.rstrip("`"))]
        unknown = re.search(r"unknown field `([^`]+)`", message)
        if unknown:
            steps.append((unknown.group(1), None))
        name = "".join(f".{key}" if index is None else f"[{index}]"
                       for key, index in steps).lstrip(".")
        raise error(f"{name}: {message}" if name else message, path=path,
                    line=line_of(text, steps)) from None


def line_of(text: str, steps: list[tuple[str, int | None]]) -> int | None:
    """The 1-based line of a key path in TOML ``text`` (best effort, None when not found).

    A step ``(key, None)`` is a key or a ``[table]``; an index step (``("", n)``) after a
    key is the n-th ``[[key]]`` table of that array.

    >>> line_of("a = 1\\n[[card]]\\nid = 1\\n[[card]]\\nid = 2\\n", [("card", None), ("", 1),
    ...                                                           ("id", None)])
    5
    """
    lines = text.splitlines()
    start, found, table = 0, None, ""
    for position, (key, index) in enumerate(steps):
        if index is not None:
            continue
        table = f"{table}.{key}" if table else key
        following = steps[position + 1][1] if position + 1 < len(steps) else None
        header = re.compile(rf"^\s*\[\[\s*{re.escape(table)}\s*\]\]")
        headers = [n for n in range(start, len(lines)) if header.match(lines[n])]
        if following is not None and headers:
            if following < len(headers):
                start = found = headers[following]
            continue
        pattern = re.compile(rf"^\s*(\[\s*{re.escape(table)}\s*\]|{re.escape(key)}\s*=)")
        for number in range(start, len(lines)):
            if pattern.match(lines[number]):
                start = found = number
                break
    return None if found is None else found + 1
