"""Reading one entry's keys: typed parsers that fail with a precise, located problem.

A parser takes the raw TOML value and a ``warn`` callback and returns the parsed
value, or raises :class:`FieldError` (an error: the entry is left out). ``warn`` records
problems that still let the entry load (an unknown key inside a table).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..rules import RulesError, parse
from ..rules.dice import Expression
from ..rules.errors import DiceSyntaxError
from .problems import Code, Problem, Severity
from .toml_lines import LineIndex, Path


class Warn(Protocol):
    """Report a problem inside a value without stopping: a warning by default, or an
    error when a table or list has several (all are reported, the last one is raised).
    """

    def __call__(
        self, code: Code, message: str, path: Path, severity: Severity = Severity.WARNING
    ) -> None: ...


Parser = Callable[[Any, Warn], Any]

KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


class FieldError(Exception):
    """An error in a value; ``subpath`` points inside it (a list index, a table key)."""

    def __init__(self, code: Code, message: str, subpath: Path = ()) -> None:
        super().__init__(message)
        self.code, self.message, self.subpath = code, message, subpath


def type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    return {
        int: "a whole number",
        float: "a decimal number",
        str: "text",
        list: "a list",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def did_you_mean(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _expect(value: Any, kind: type, what: str) -> None:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise FieldError(Code.TYPE, f"expected {what}, got {type_name(value)}")


def text(value: Any, _warn: Warn) -> str:
    _expect(value, str, "text")
    return value


def boolean(value: Any, _warn: Warn) -> bool:
    _expect(value, bool, "true or false")
    return value


def whole(low: int | None = None, high: int | None = None) -> Parser:
    def parse_whole(value: Any, _warn: Warn) -> int:
        _expect(value, int, "a whole number")
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                bound = f"at least {low}"
            elif low is None:
                bound = f"at most {high}"
            else:
                bound = f"from {low} to {high}"
            raise FieldError(Code.RANGE, f"must be {bound}, got {value}")
        return value

    return parse_whole


def choice(options: Iterable[str]) -> Parser:
    allowed = tuple(options)

    def parse_choice(value: Any, _warn: Warn) -> str:
        _expect(value, str, f"one of {', '.join(allowed)}")
        if value not in allowed:
            hint = did_you_mean(value, allowed)
            raise FieldError(
                Code.VALUE, f"expected one of {', '.join(allowed)}, got {value!r}{hint}"
            )
        return value

    return parse_choice


def kebab_id(value: Any, _warn: Warn) -> str:
    _expect(value, str, "a kebab-case id")
    if not KEBAB.match(value):
        raise FieldError(Code.ID, f"{value!r} is not a kebab-case id (like 'laser-pistol')")
    return value


def reference(value: Any, _warn: Warn) -> str:
    """An entry id, or ``pack-id:entry-id``; whether it exists is checked later."""
    _expect(value, str, "an entry id")
    parts = value.split(":")
    if len(parts) > 2 or not all(KEBAB.match(p) for p in parts):
        raise FieldError(Code.ID, f"{value!r} is not an id or pack-id:entry-id")
    return value


def dice(value: Any, _warn: Warn) -> Expression:
    _expect(value, str, 'a dice expression such as "2d6"')
    try:
        return parse(value)
    except DiceSyntaxError as exc:
        raise FieldError(Code.DICE, exc.short) from None


def count_or_dice(value: Any, warn: Warn) -> Expression:
    """A whole number ≥ 1 or an expression over traits (``"1+agility"``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        whole(1, 100)(value, warn)
        return parse(str(value))
    if isinstance(value, str):
        return dice(value, warn)
    raise FieldError(Code.TYPE, f"expected a whole number or an expression, got {type_name(value)}")


def list_of(item: Parser) -> Parser:
    def parse_list(value: Any, warn: Warn) -> tuple[Any, ...]:
        _expect(value, list, "a list")
        out, errors = [], []
        for i, element in enumerate(value):
            try:
                out.append(item(element, _inside(warn, (i,))))
            except FieldError as exc:
                errors.append(
                    FieldError(exc.code, f"item {i + 1}: {exc.message}", (i, *exc.subpath))
                )
        raise_all(errors, warn)
        return tuple(out)

    return parse_list


def _inside(warn: Warn, prefix: Path) -> Warn:
    def nested(code: Code, message: str, path: Path, severity: Severity = Severity.WARNING) -> None:
        warn(code, message, (*prefix, *path), severity)

    return nested  # type: ignore[return-value]


def raise_all(errors: list[FieldError], warn: Warn) -> None:
    """Report every error but the last, then raise the last: none is hidden."""
    for error in errors[:-1]:
        warn(error.code, error.message, error.subpath, Severity.ERROR)
    if errors:
        raise errors[-1]


def table(
    fields: Mapping[str, Parser],
    required: Iterable[str] = (),
    aliases: Mapping[str, str] | None = None,
) -> Parser:
    """A table with known keys; unknown keys warn (with did-you-mean), missing required fail."""
    aliases = aliases or {}
    needed = tuple(required)

    def parse_table(value: Any, warn: Warn) -> dict[str, Any]:
        _expect(value, dict, "a table")
        out: dict[str, Any] = {}
        errors: list[FieldError] = []
        for key, raw in value.items():
            name = aliases.get(key, key)
            if name not in fields:
                hint = did_you_mean(key, [*fields, *aliases])
                warn(Code.UNKNOWN_KEY, f"unknown key{hint}", (key,))
                continue
            try:
                out[name] = fields[name](raw, _inside(warn, (key,)))
            except FieldError as exc:
                errors.append(FieldError(exc.code, exc.message, (key, *exc.subpath)))
        missing = [
            k for k in needed if k not in out and not any(e.subpath[:1] == (k,) for e in errors)
        ]
        if missing:
            errors.append(FieldError(Code.MISSING_KEY, f"missing {', '.join(missing)}"))
        raise_all(errors, warn)
        return out

    return parse_table


@dataclass(frozen=True)
class Field:
    parse: Parser
    required: bool = False
    default: Any = None


@dataclass
class EntryReader:
    """Reads one ``[[kind]]`` entry, recording every problem with its line."""

    path: str
    lines: LineIndex
    kind: str
    base: Path
    data: dict[str, Any]
    problems: list[Problem] = field(default_factory=list)
    """Where problems go: pass the loader's shared list."""
    failed: bool = False

    @property
    def id(self) -> str | None:
        value = self.data.get("id")
        return value if isinstance(value, str) else None

    @property
    def label(self) -> str:
        if self.id:
            return f"{self.kind} {self.id!r}"
        index = self.base[-1] if self.base else None  # not an index for [pack]
        return f"{self.kind} #{index + 1}" if isinstance(index, int) else self.kind

    def report(
        self, code: Code, message: str, key: Path = (), severity: Severity = Severity.ERROR
    ) -> None:
        """Record a problem at the line of ``key`` (or the entry header)."""
        if severity is Severity.ERROR:
            self.failed = True
        dotted = ".".join(str(k) for k in key if isinstance(k, str)) or None
        where = f"{dotted}: " if dotted else ""
        self.problems.append(
            Problem(
                self.path,
                self.lines.line((*self.base, *key)),
                severity,
                code,
                f"{self.label}: {where}{message}",
                self.id,
                dotted,
            )
        )

    def read(self, fields: Mapping[str, Field]) -> dict[str, Any]:
        """Every field parsed (defaults filled); unknown keys are warnings."""
        out: dict[str, Any] = {}
        for key in self.data:
            if key not in fields:
                hint = did_you_mean(key, fields)
                self.report(Code.UNKNOWN_KEY, f"unknown key{hint}", (key,), Severity.WARNING)
        for key, spec in fields.items():
            if key not in self.data:
                if spec.required:
                    self.report(Code.MISSING_KEY, "required key is missing", (key,))
                out[key] = spec.default
                continue
            try:
                out[key] = spec.parse(self.data[key], self._warn_at(key))
            except FieldError as exc:
                self.report(exc.code, exc.message, (key, *exc.subpath))
                out[key] = spec.default
            except DiceSyntaxError as exc:
                self.report(Code.DICE, exc.short, (key,))
                out[key] = spec.default
            except RulesError as exc:  # a rules check inside a parser
                self.report(Code.VALUE, str(exc), (key,))
                out[key] = spec.default
        return out

    def _warn_at(self, key: str) -> Warn:
        def warn(
            code: Code, message: str, sub: Path, severity: Severity = Severity.WARNING
        ) -> None:
            self.report(code, message, (key, *sub), severity)

        return warn  # type: ignore[return-value]
