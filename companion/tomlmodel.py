"""Typed models of TOML tables: frozen dataclasses checked field by field, strictly.

A :class:`TomlModel` subclass declares its keys as annotated fields (a default makes a key
optional; ``dataclasses.field(default_factory=...)`` for lists and tables). Reading a
parsed document with :meth:`TomlModel.from_toml` accepts values of exactly the declared
types (no bool for a number, no number for text), no keys but the declared ones, and runs
the model's own :meth:`TomlModel.check` last. The first problem found, in the order the
keys are declared, is raised as :class:`Invalid`: where (the key path), what kind of
problem, the value. :mod:`companion.tomlfile` words it as the companion's one-line messages.

Annotations understood: ``str``, ``int``, ``float``, ``bool``, ``Any``, ``Literal[...]``,
``list[T]``, ``dict[K, V]``, ``X | None``, another model, and ``Annotated[T, Check(f)]``:
then ``f`` alone checks (and may convert) the value, raising :func:`problem`.

>>> class Seat(TomlModel):
...     name: str
...     button: int = 4
>>> Seat.from_toml({"name": "ann"})
Seat(name='ann', button=4)
>>> Seat.from_toml({"name": "ann", "button": True})
Traceback (most recent call last):
companion.tomlmodel.Invalid: button: int_type (True)
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal, TypeVar, Union, dataclass_transform

Key = tuple[str | int, ...]
ModelT = TypeVar("ModelT", bound="TomlModel")


class Problem(Exception):
    """A value or a table that is wrong, as a check says it (raise :func:`problem`)."""

    def __init__(self, message: str, at: Key = (), also: Key = ()) -> None:
        super().__init__(message)
        self.message = message
        self.at = at
        self.also = also


def problem(message: str, *, at: Key = (), also: Key = ()) -> Problem:
    """A problem worded ``message``, blaming the key at ``at`` (from the model that raises
    it); the line is that of ``at``, or of ``also`` (another key in the same model) where
    ``at`` is not written."""
    return Problem(message, at, also)


class Invalid(Exception):
    """The first problem of a document: its key path ``loc``, ``kind`` (``missing``,
    ``int_type``, ``literal_error``, ... or ``companion`` for a check's :class:`Problem`),
    the value, and the problem or the allowed literals."""

    def __init__(self, loc: Key, kind: str, value: Any = None, *,
                 found: Problem | None = None, expected: tuple[Any, ...] = ()) -> None:
        super().__init__(f"{'.'.join(map(str, loc))}: {kind} ({value!r})")
        self.loc = loc
        self.kind = kind
        self.value = value
        self.found = found
        self.expected = expected


@dataclasses.dataclass(frozen=True)
class Check:
    """``Annotated[T, Check(f)]``: ``f`` checks a value on its own (raising :func:`problem`)
    and returns it as the model keeps it."""

    function: Callable[[Any], Any]


_KINDS: dict[type, str] = {str: "string_type", int: "int_type", float: "float_type",
                           bool: "bool_type"}


@dataclass_transform(kw_only_default=True, frozen_default=True,
                     field_specifiers=(dataclasses.field,))
class TomlModel:
    """A TOML table: values of exactly the declared types, and no keys but the declared
    ones (fields whose names start with ``_`` are the model's own, set by :meth:`check`)."""

    _hints: ClassVar[dict[str, Any] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._hints = None
        dataclasses.dataclass(frozen=True, kw_only=True)(cls)

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """The model's own checks across its keys, after each key was checked (raise
        :func:`problem`); nothing by default."""

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """The keys of the table, in the order they are declared."""
        return tuple(field.name for field in dataclasses.fields(cls)  # type: ignore[arg-type]
                     if not field.name.startswith("_"))

    @classmethod
    def from_toml(cls: type[ModelT], document: Any, loc: Key = ()) -> ModelT:
        """``document`` (a parsed table, found at ``loc``) as this model; :class:`Invalid`
        names the first problem."""
        if not isinstance(document, dict):
            raise Invalid(loc, "model_type", document)
        known = cls.keys()
        for key in document:
            if key not in known:
                raise Invalid(loc, "companion", document,
                              found=problem(f"unknown key (known: {', '.join(known)})", at=(key,)))
        hints = cls._annotations()
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):  # type: ignore[arg-type]
            if field.name.startswith("_"):
                continue
            if field.name in document:
                values[field.name] = convert(hints[field.name], document[field.name],
                                             (*loc, field.name))
            elif (field.default is dataclasses.MISSING
                  and field.default_factory is dataclasses.MISSING):
                raise Invalid((*loc, field.name), "missing")
        try:
            return cls(**values)
        except Problem as found:
            raise Invalid(loc, "companion", document, found=found) from None

    def to_toml(self) -> dict[str, Any]:
        """The table as plain values for a TOML writer (keys whose value is None left out)."""
        return {key: _plain(value) for key in self.keys()
                if (value := getattr(self, key)) is not None}

    def _set(self, name: str, value: Any) -> None:
        """Keep ``value`` as the model's own ``name`` (from :meth:`check`: the model is frozen)."""
        object.__setattr__(self, name, value)

    @classmethod
    def _annotations(cls) -> dict[str, Any]:
        if cls._hints is None:
            cls._hints = typing.get_type_hints(cls, include_extras=True)
        return cls._hints


def convert(annotation: Any, value: Any, loc: Key) -> Any:
    """``value`` found at ``loc`` checked as ``annotation`` says (see the module's list)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is Any:
        return value
    if origin is Annotated:
        check = next((extra for extra in annotation.__metadata__ if isinstance(extra, Check)),
                     None)
        if check is None:
            return convert(args[0], value, loc)
        try:
            return check.function(value)
        except Problem as found:
            raise Invalid(loc, "companion", value, found=found) from None
    if origin in (Union, types.UnionType):
        others = [arg for arg in args if arg is not type(None)]
        if len(others) != 1 or len(args) != 2:
            raise TypeError(f"only X | None unions are understood, not {annotation}")
        return None if value is None else convert(others[0], value, loc)
    if origin is Literal:
        if any(value == allowed and type(value) is type(allowed) for allowed in args):
            return value
        raise Invalid(loc, "literal_error", value, expected=args)
    if origin is list:
        if not isinstance(value, list):
            raise Invalid(loc, "list_type", value)
        return [convert(args[0], item, (*loc, index)) for index, item in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise Invalid(loc, "dict_type", value)
        return {convert(args[0], key, (*loc, key)): convert(args[1], item, (*loc, key))
                for key, item in value.items()}
    if isinstance(annotation, type) and issubclass(annotation, TomlModel):
        return value if isinstance(value, annotation) else annotation.from_toml(value, loc)
    return _simple(annotation, value, loc)


def _simple(annotation: Any, value: Any, loc: Key) -> Any:
    """A str, int, float or bool value, strictly (an int is a float too, a bool no number)."""
    kind = _KINDS.get(annotation)
    if kind is None:
        raise TypeError(f"a TOML model cannot check {annotation}")
    if isinstance(value, bool) and annotation is not bool:
        raise Invalid(loc, kind, value)
    if annotation is float and isinstance(value, int):
        return float(value)
    if not isinstance(value, annotation):
        raise Invalid(loc, kind, value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, TomlModel):
        return value.to_toml()
    if isinstance(value, list | tuple):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items() if item is not None}
    return value
