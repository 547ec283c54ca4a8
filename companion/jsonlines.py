"""Reading JSON from logs and the store within size and nesting limits.

A log line is at most ``MAX_LINE_CHARS`` characters (a start event with a whole deck
of inline cards is about 10,000), a log file at most ``MAX_LOG_BYTES``, and values nest
at most ``MAX_DEPTH`` deep (an event needs 6). Numbers must be finite: ``NaN``,
``Infinity`` and ``1e999`` are refused, as is an integer of more than ``MAX_INT_DIGITS``
digits. Every refusal is a :class:`~companion.errors.LogError` naming the file and line.

>>> load_line('{"a": [1, 2.5]}', path="x.jsonl", line=3)
{'a': [1, 2.5]}
>>> load_line('{"t": NaN}', path="x.jsonl", line=3)
Traceback (most recent call last):
companion.errors.LogError: x.jsonl:3: not valid JSON (NaN is not a number)
>>> load_line("[" * 40 + "]" * 40, path="x.jsonl", line=4)
Traceback (most recent call last):
companion.errors.LogError: x.jsonl:4: values nest too deeply (more than 16 levels)
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

from companion.errors import LogError

MAX_LINE_CHARS = 65_536
MAX_LOG_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 16
MAX_INT_DIGITS = 30


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits is too long")
    return int(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0), without recursion.

    >>> depth(1), depth([]), depth({"a": [{"b": 1}]})
    (0, 1, 3)
    """
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level + 1)
            stack.extend((child, level + 1) for child in item)
    return deepest


def load_line(text: str, *, path: str, line: int | None) -> Any:
    """One JSON value from ``text``, within the limits; ``LogError`` names ``path:line``."""
    if len(text) > MAX_LINE_CHARS:
        raise LogError(f"line too long ({len(text)} characters, limit {MAX_LINE_CHARS})",
                       path=path, line=line)
    try:
        value = json.loads(text, parse_float=_finite, parse_int=_integer,
                           parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise LogError(f"not valid JSON ({error.msg})", path=path, line=line) from None
    except ValueError as error:
        raise LogError(f"not valid JSON ({error})", path=path, line=line) from None
    except RecursionError:
        raise _too_deep(path, line) from None
    if depth(value) > MAX_DEPTH:
        raise _too_deep(path, line)
    return value


def _too_deep(path: str, line: int | None) -> LogError:
    return LogError(f"values nest too deeply (more than {MAX_DEPTH} levels)", path=path, line=line)


def read_log_text(path: str | os.PathLike[str]) -> str:
    """The text of a log file of at most ``MAX_LOG_BYTES``, read without reading more."""
    name = str(path)
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_LOG_BYTES + 1)
    except OSError as error:
        raise LogError(f"cannot read the log: {error.strerror or error}", path=name) from None
    if len(data) > MAX_LOG_BYTES:
        raise LogError(f"the log is larger than {MAX_LOG_BYTES // 2**20} MiB", path=name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LogError("cannot read the log: it is not UTF-8 text", path=name) from None
