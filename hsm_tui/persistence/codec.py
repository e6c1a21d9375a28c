"""Game state to TOML-ready plain data and back, driven by the dataclasses' type hints.

Campaign files (``store.py``) write what :func:`to_data` returns and read it
back through :func:`from_data`, which checks every value against its field's type (and
the dataclasses' own checks) so that a hand-edited or damaged file is refused with the key
at fault (``encounter.combatants[2].rank``). It checks types, not the rules: a Fear of
900 reads back as written, as the engine would have kept it.

TOML has no null: a field holding ``None`` is left out and reads back as ``None``.
A dataclass whose type the hint leaves open (a union, or ``Any``) carries its class
name under ``_type``; enums are written by their lower-case name.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import tomllib
import types
import typing
from enum import Enum
from typing import Any

TYPE_KEY = "_type"


class DataError(ValueError):
    """A value that does not fit its field; ``where`` is the dotted key path."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where or 'top level'}: {problem}")
        self.where = where
        self.problem = problem


def registry(*roots: Any) -> dict[str, type]:
    """Every dataclass reachable from ``roots`` (type hints), by class name: the classes
    ``_type`` may name. Two classes of one name would make a file ambiguous: refused.
    """
    found: dict[str, type] = {}

    def walk(hint: Any) -> None:
        if dataclasses.is_dataclass(hint) and isinstance(hint, type):
            if found.setdefault(hint.__name__, hint) is not hint:
                raise TypeError(f"two dataclasses named {hint.__name__}")
            if hint in seen:
                return
            seen.add(hint)
            for field_hint in _hints(hint).values():
                walk(field_hint)
            return
        for arg in typing.get_args(hint):
            walk(arg)

    seen: set[type] = set()
    for root in roots:
        walk(root)
    return found


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """A class's resolved field types, worked out once: a save walks thousands of tables."""
    return typing.get_type_hints(cls)


@functools.cache
def _fields(cls: type) -> dict[str, dataclasses.Field[Any]]:
    """A dataclass's fields by name, looked up once per class (not once per record)."""
    return {f.name: f for f in dataclasses.fields(cls)}


@functools.cache
def _options(hint: Any) -> tuple[Any, ...]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return (hint,)


@functools.cache
def _kinds(hint: Any) -> tuple[list[Any], Any]:
    """The types a hint allows but None (a shared list: never changed), and the origin of
    the one when there is one."""
    options = [o for o in _options(hint) if o is not type(None)]
    return options, typing.get_origin(options[0]) if len(options) == 1 else None


_PLAIN = frozenset({bool, int, float, str})
"""The types written as they are, tested first: most values of a campaign are one."""


def to_data(value: Any, hint: Any = Any, where: str = "") -> Any:
    """``value`` as TOML-ready data (tables, lists, str, int, float, bool); a value TOML
    cannot hold raises :class:`DataError` naming its key path (``where`` is the prefix).
    """
    kind = type(value)
    if kind in _PLAIN:
        return value
    sort = _sort(kind)
    if sort == "enum":
        return value.name.lower()
    if sort == "plain":
        return value
    if sort == "list":
        args = _item_hints(hint, len(value)) if _sequence_hint(hint) else ()
        out = []
        for i, item in enumerate(value):
            if type(item) in _PLAIN:
                out.append(item)
                continue
            at = f"{where}[{i}]"
            if item is None:
                raise DataError(at, "TOML cannot hold None in a list")
            out.append(to_data(item, args[i] if i < len(args) else Any, at))
        return out
    if sort == "table":
        table: dict[str, Any] = {}
        if _open(hint, kind):
            table[TYPE_KEY] = kind.__name__
        for name, field_hint in _field_hints(kind):
            item = getattr(value, name)
            if type(item) in _PLAIN:
                table[name] = item
            elif item is not None:
                table[name] = to_data(item, field_hint, _join(where, name))
        return table
    raise DataError(where, f"cannot save a {kind.__name__}")


@functools.cache
def _sort(kind: type) -> str:
    """How a value of type ``kind`` is written, worked out once per type."""
    if issubclass(kind, Enum):
        return "enum"
    if issubclass(kind, bool | int | float | str):
        return "plain"
    if issubclass(kind, tuple | list):
        return "list"
    return "table" if dataclasses.is_dataclass(kind) else ""


@functools.cache
def _sequence_hint(hint: Any) -> bool:
    return typing.get_origin(hint) in (tuple, list)


@functools.cache
def _field_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    """A dataclass's field names and types, in order."""
    hints = _hints(cls)
    return tuple((name, hints[name]) for name in _fields(cls))


@functools.cache
def _open(hint: Any, cls: type) -> bool:
    """Whether the reader could not tell ``cls`` from the hint alone."""
    return _kinds(hint)[0] != [cls]


_AS_READ = frozenset({bool, int, str})
"""The types whose values are read as they are when TOML gives exactly that type."""


def from_data(data: Any, hint: Any, known: dict[str, type], where: str = "") -> Any:
    """The value of type ``hint`` that ``data`` describes; :class:`DataError` if it
    does not fit. ``known`` is the :func:`registry` of classes a ``_type`` may name.
    """
    if hint in _AS_READ and type(data) is hint:
        return data
    options, origin = _kinds(hint)
    if len(options) > 1 or hint is Any:
        return _tagged(data, options, known, where)
    (kind,) = options
    if origin in (tuple, list):
        return _sequence(data, kind, known, where)
    if isinstance(kind, type) and _sort(kind) == "table":
        return _table(data, kind, known, where)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return _enum(data, kind, where)
    if kind is bool:
        if not isinstance(data, bool):
            raise DataError(where, f"expected true or false, found {data!r}")
        return data
    if kind is int or kind is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise DataError(where, f"expected a number, found {data!r}")
        if kind is int and not isinstance(data, int):
            raise DataError(where, f"expected a whole number, found {data!r}")
        if kind is float and abs(data) > sys.float_info.max:
            raise DataError(where, f"the number {data} is too large")
        return float(data) if kind is float else data
    if kind is str:
        if not isinstance(data, str):
            raise DataError(where, f"expected text, found {data!r}")
        return data
    raise DataError(where, f"cannot read a {kind!r}")


@functools.cache
def _item_hints(hint: Any, count: int) -> tuple[Any, ...]:
    """Each item's hint: ``tuple[X, ...]`` and ``list[X]`` repeat X; a fixed tuple
    (``tuple[X]`` too: one item) lists them.
    """
    args = typing.get_args(hint)
    if typing.get_origin(hint) is list or (len(args) == 2 and args[1] is Ellipsis):
        return (args[0],) * count
    return args


def _tagged(data: Any, options: list[Any], known: dict[str, type], where: str) -> Any:
    if not isinstance(data, dict):
        if len(options) > 1:  # a union of plain values (int | str …): the first that fits
            for option in options:
                try:
                    return from_data(data, option, known, where)
                except DataError:
                    continue
            if not any(o is Any or dataclasses.is_dataclass(o) for o in options):
                kinds = " or ".join(getattr(o, "__name__", str(o)) for o in options)
                raise DataError(where, f"expected {kinds}, found {data!r}")
        raise DataError(where, f"expected a table, found {data!r}")
    name = data.get(TYPE_KEY)
    cls = known.get(name) if isinstance(name, str) else None
    if cls is None:
        raise DataError(_join(where, TYPE_KEY), f"unknown or missing type {name!r}")
    if options and options != [Any] and not any(cls is o for o in options):
        raise DataError(_join(where, TYPE_KEY), f"{name} does not belong here")
    return _table(data, cls, known, where)


def _sequence(data: Any, kind: Any, known: dict[str, type], where: str) -> Any:
    if not isinstance(data, list):
        raise DataError(where, f"expected a list, found {data!r}")
    args = _item_hints(kind, len(data))
    if len(args) != len(data):
        raise DataError(where, f"expected {len(args)} items, found {len(data)}")
    items = [from_data(d, args[i], known, f"{where}[{i}]") for i, d in enumerate(data)]
    return items if _kinds(kind)[1] is list else tuple(items)


@functools.cache
def _keys(cls: type) -> frozenset[str]:
    """The keys a table of ``cls`` may hold: its fields, and ``_type``."""
    return frozenset(_fields(cls)) | {TYPE_KEY}


def _table(data: Any, cls: type, known: dict[str, type], where: str) -> Any:
    if not isinstance(data, dict):
        raise DataError(where, f"expected a table, found {data!r}")
    hints = _hints(cls)
    fields = _fields(cls)
    if not data.keys() <= _keys(cls):
        extra = sorted(set(data) - _keys(cls))
        raise DataError(_join(where, extra[0]), f"unknown key for {cls.__name__}")
    values: dict[str, Any] = {}
    for name, f in fields.items():
        if name in data:
            value = data[name]
            hint = hints[name]
            if hint in _AS_READ and type(value) is hint:
                values[name] = value
            else:
                values[name] = from_data(value, hint, known, _join(where, name))
        elif type(None) in _options(hints[name]):
            values[name] = None
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise DataError(_join(where, name), "missing")
    try:
        return cls(**values)
    except (TypeError, ValueError) as err:
        raise DataError(where, str(err)) from None


def _enum(data: Any, kind: type[Enum], where: str) -> Enum:
    """A member by its lower-case name (``zone_of_control``, as written) or, for a text
    enum, by its value (``zone-of-control``, as files before it was an enum held it).
    """
    names = [m.name.lower() for m in kind]
    if isinstance(data, str) and data.lower() in names:
        return kind[data.upper()]
    by_value = {m.value: m for m in kind if isinstance(m.value, str)}
    if isinstance(data, str) and data in by_value:
        return by_value[data]
    raise DataError(where, f"expected one of {', '.join(names)}, found {data!r}")


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def parse_toml(text: str, what: str) -> dict[str, Any]:
    """``text`` parsed as TOML, or a ValueError in a reader's words: where the syntax
    breaks, or that it nests too deeply to be ``what`` (``a campaign``).
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"not valid TOML: {err}") from None
    except RecursionError:
        raise ValueError(f"not {what}: nested too deeply") from None
