"""One way to read and write the companion's TOML files: bytes -> tomllib -> a typed model.

Every TOML file (configuration, pin maps, table layouts, deck catalogues) is read with
:func:`read_toml_text` (at most ``MAX_TOML_BYTES``, UTF-8), parsed with :func:`parse_toml`
(tables and arrays nested at most ``MAX_TOML_DEPTH`` deep) and validated against a
model (a :class:`~companion.tomlmodel.TomlModel`: strict types, no unknown keys) by
:func:`validate`.
A problem becomes ONE line naming the file, the line of the key, the dotted key path and
what is wrong, raised as the caller's :class:`~companion.errors.LocatedError` subclass:

>>> class Buttons(TomlModel):
...     buttons: dict[str, Annotated[int, whole_number(0, 27)]]
>>> load_model('[buttons]\\n1 = 4\\n2 = "x"\\n', Buttons, path="config.toml")
Traceback (most recent call last):
companion.errors.ConfigError: config.toml:3: buttons.2: must be a whole number 0-27, not "x"

Items of an array of tables are numbered from 1 in the key path (``zone.2.polygon`` is
the polygon of the second ``[[zone]]``). Files the companion writes go through
:func:`dump_model` (the ``tomli_w`` writer), so any text survives a round trip.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import tomli_w

from companion.errors import ConfigError, LocatedError
from companion.jsonlines import depth as nesting_depth
from companion.tomlmodel import Check, Invalid, Key, TomlModel, problem

__all__ = ["Check", "Key", "TomlModel", "problem"]  # the models' parts, from here too

MAX_TOML_BYTES = 1024 * 1024
MAX_TOML_DEPTH = 16
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)|\s*\(at end of document\)")

ModelT = TypeVar("ModelT", bound=TomlModel)


def parse_toml(
    text: str, *, path: str, error: type[LocatedError] = ConfigError
) -> dict[str, Any]:
    r"""Parse TOML text; a syntax error becomes ``error`` naming ``path``, the line and column.

    >>> parse_toml("a = 1", path="x.toml")
    {'a': 1}
    >>> parse_toml("a = 1\nb = ?", path="x.toml")
    Traceback (most recent call last):
    companion.errors.ConfigError: x.toml:2: invalid TOML: Invalid value (column 5)
    >>> parse_toml("a = " + "[" * 20 + "]" * 20, path="x.toml")
    Traceback (most recent call last):
    companion.errors.ConfigError: x.toml: tables and arrays nest too deeply (limit 16)
    """
    too_deep = error(f"tables and arrays nest too deeply (limit {MAX_TOML_DEPTH})", path=path)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        match = _TOML_WHERE.search(str(problem))
        line = int(match.group(1)) if match and match.group(1) else None
        column = f" (column {match.group(2)})" if match and match.group(2) else ""
        reason = _TOML_WHERE.sub("", str(problem))
        raise error(f"invalid TOML: {reason}{column}", path=path, line=line) from None
    except RecursionError:
        raise too_deep from None
    if nesting_depth(document) > MAX_TOML_DEPTH:
        raise too_deep
    return document


def read_toml_text(path: Path, *, error: type[LocatedError] = ConfigError) -> str:
    """The text of a TOML file of at most ``MAX_TOML_BYTES``; ``FileNotFoundError`` passes."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_TOML_BYTES + 1)
    except FileNotFoundError:
        raise
    except OSError as problem:
        raise error(f"cannot read the file: {problem.strerror or problem}",
                    path=str(path)) from None
    if len(data) > MAX_TOML_BYTES:
        raise error(f"the file is larger than {MAX_TOML_BYTES // 1024} KiB", path=str(path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error("the file is not UTF-8 text", path=str(path)) from None


# --- models ---------------------------------------------------------------------------


def whole_number(low: int, high: int) -> Check:
    """A whole number from ``low`` to ``high`` (not a boolean, not a float)."""

    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise problem(f"must be a whole number {low}-{high}, not {show(value)}")
        return value

    return Check(check)


def quantity(
    low: float | None = None, high: float | None = None, *, above: float | None = None,
    unit: str = "",
) -> Check:
    """A finite number (int or float, read as float): ``low``..``high``, or more than ``above``."""
    of = f" of {unit}" if unit else ""
    if above is not None:
        wanted = "a positive number" if above == 0 else f"a number more than {above}"
        wanted += of
    elif low is not None and high is not None:
        wanted = f"a number{of} from {low} to {high}"
    else:
        wanted = f"a number{of}"

    def check(value: Any) -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or (above is not None and not value > above)
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            raise problem(f"must be {wanted}, not {show(value)}")
        return float(value)

    return Check(check)


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise problem(f"must be non-empty text, not {show(value)}")
    return value


#: Non-empty text (not only spaces).
Text = Annotated[str, Check(_text)]


def as_pair(value: Any) -> tuple[float, float] | None:
    """``value`` as a point ``(x, y)`` if it is a list or tuple of two finite numbers.

    >>> as_pair([1, 2.5]), as_pair([1, True]), as_pair((1, float("inf"))), as_pair("ab")
    ((1.0, 2.5), None, None, None)
    """
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(v) for v in value)
    ):
        return None
    return (float(value[0]), float(value[1]))


def _pair(value: Any) -> tuple[float, float]:
    pair = as_pair(value)
    if pair is None:
        raise problem(f"must be a pair of numbers [x, y], not {show(value)}")
    return pair


#: A point ``[x, y]`` of two finite numbers.
Pair = Annotated[tuple[float, float], Check(_pair)]


# --- reading --------------------------------------------------------------------------


def load_model(
    text: str, model: type[ModelT], *, path: str, error: type[LocatedError] = ConfigError
) -> ModelT:
    """Parse TOML ``text`` and validate it as ``model``."""
    return validate(parse_toml(text, path=path, error=error), model, text=text, path=path,
                    error=error)


def read_model(path: Path, model: type[ModelT], *, error: type[LocatedError]) -> ModelT:
    """Read, parse and validate the file at ``path``; ``FileNotFoundError`` passes."""
    return load_model(read_toml_text(path, error=error), model, path=str(path), error=error)


def validate(
    document: Any,
    model: type[ModelT],
    *,
    text: str | Callable[[], str] = "",
    path: str,
    error: type[LocatedError] = ConfigError,
    within: Key = (),
) -> ModelT:
    """``document`` (parsed from ``text``, found at key path ``within``) as ``model``.

    The first problem found becomes ``error``: ``path:line: key.path: what is wrong``.
    ``text`` may be a function giving the text, called only when there is a line to find.
    """
    try:
        return model.from_toml(document)
    except Invalid as failure:
        location = within + failure.loc
        found = failure.found
        key = location + (found.at if found is not None else ())
        source = text() if callable(text) else text
        line = key_line(source, key)
        if line is None and found is not None and found.also:
            line = key_line(source, location + found.also)
        where = f"{dotted(key)}: " if key else ""
        raise error(f"{where}{_wording(failure)}", path=path, line=line) from None


def dotted(key: Sequence[str | int]) -> str:
    """A key path as text; array items are numbered from 1.

    >>> dotted(("zone", 0, "polygon")), dotted(("games", "21x", "a b"))
    ('zone.1.polygon', 'games.21x."a b"')
    """
    return ".".join(str(part + 1) if isinstance(part, int) else _show_key(part) for part in key)


def _show_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else show(key)


def show(value: Any) -> str:
    """A value as it would be written in TOML, shortened.

    >>> show("x"), show(True), show(3), show([1, "a"]), show({"a": 1})
    ('"x"', 'true', '3', '[1, "a"]', 'a table')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = json.dumps(value, ensure_ascii=False)
        return shown if len(shown) <= 40 else shown[:36] + '..."'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list | tuple):
        shown = "[" + ", ".join(show(item) for item in value) + "]"
        return shown if len(shown) <= 60 else shown[:56] + "...]"
    return repr(value)


_KINDS = {
    "int_type": "a whole number",
    "float_type": "a number",
    "string_type": "text",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "a table",
    "model_type": "a table",
}


def _wording(failure: Invalid) -> str:
    """What is wrong, in the words of the companion's messages."""
    if failure.found is not None:
        return failure.found.message
    if failure.kind == "missing":
        return "is required"
    if failure.kind == "literal_error":
        choices = [show(choice) for choice in failure.expected]
        expected = " or ".join(filter(None, (", ".join(choices[:-1]), choices[-1])))
        return f"must be {expected}, not {show(failure.value)}"
    return f"must be {_KINDS[failure.kind]}, not {show(failure.value)}"


# --- finding the line of a key --------------------------------------------------------

_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_KEY = rf"(?:{_BARE}|{_QUOTED})(?:\s*\.\s*(?:{_BARE}|{_QUOTED}))*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_KEY})\s*\]\]?")
_ASSIGNMENT = re.compile(rf"^\s*({_KEY})\s*=")
_PART = re.compile(rf"{_BARE}|{_QUOTED}")


def key_line(text: str, key: Sequence[str | int]) -> int | None:
    """The 1-based line where ``key`` (or the nearest table holding it) is written; best effort.

    >>> text = 'top = 1\\n[[zone]]\\nname = "a"\\n[[zone]]\\nname = "b"\\n[t."x.y"]\\nk = 2\\n'
    >>> key_line(text, ("zone", 1, "name")), key_line(text, ("t", "x.y", "k"))
    (5, 7)
    >>> key_line(text, ("zone", 1, "kind")), key_line(text, ("nowhere",))
    (4, None)
    """
    lines = key_lines(text) if text else {}
    for length in range(len(key), 0, -1):
        line = lines.get(tuple(key[:length]))
        if line is not None:
            return line
    return None


def key_lines(text: str) -> dict[Key, int]:
    """Every table and key of ``text`` by its key path, with its first 1-based line."""
    found: dict[Key, int] = {}
    counts: dict[Key, int] = {}  # arrays of tables: how many items so far
    table: Key = ()
    in_multiline = False
    for number, line in enumerate(text.splitlines(), start=1):
        quotes = line.count('"""') + line.count("'''")
        if in_multiline:
            in_multiline = quotes % 2 == 0
            continue
        header = _HEADER.match(line)
        assignment = None if header else _ASSIGNMENT.match(line)
        if header:
            table = _indexed(_parts(header.group(2)), counts)
            if header.group(1) == "[[":
                plain = tuple(part for part in table if isinstance(part, str))
                counts[plain] = counts.get(plain, 0) + 1
                table = (*table, counts[plain] - 1)
            found.setdefault(table, number)
        elif assignment:
            found.setdefault((*table, *_parts(assignment.group(1))), number)
        in_multiline = quotes % 2 == 1
    return found


def _parts(key: str) -> tuple[str, ...]:
    return tuple(_unquote(part) for part in _PART.findall(key))


def _unquote(part: str) -> str:
    if part.startswith('"'):
        try:
            unquoted: str = tomllib.loads(f"k = {part}")["k"]
        except tomllib.TOMLDecodeError:
            return part
        return unquoted
    return part[1:-1] if part.startswith("'") else part


def _indexed(parts: tuple[str, ...], counts: Mapping[Key, int]) -> Key:
    """A table's key path with the current item number after each array of tables in it."""
    path: list[str | int] = []
    for depth, part in enumerate(parts):
        path.append(part)
        plain = parts[: depth + 1]
        if plain in counts and depth < len(parts) - 1:
            path.append(counts[plain] - 1)
    return tuple(path)


# --- writing --------------------------------------------------------------------------


def dump_model(model: TomlModel) -> str:
    """The model as TOML text (keys left out where the value is None)."""
    return tomli_w.dumps(model.to_toml())
