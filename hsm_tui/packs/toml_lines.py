"""Where each key of a TOML document stands: ``tomllib`` parses, but keeps no lines.

The text has already parsed with ``tomllib``, so this scanner can assume valid TOML. It
maps key paths such as ``("weapon", 2, "traits", "luck")`` (arrays of tables and array
elements are indexed from 0) to 1-based line numbers; :meth:`LineIndex.line` falls back
to the nearest enclosing table or entry header.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import suppress

Path = tuple[str | int, ...]

# Whitespace and a comment are consumed as the prefix of the next token instead of as
# tokens of their own, which halves the matches in the loader's hottest loop; ``end``
# takes spaces or a comment left at the very end of the text.
_TOKEN = re.compile(
    r"[ \t\r]*(?:#[^\n]*)?"
    r'(?:(?P<mlb>"""(?:\\.|[^\\])*?""")|(?P<mll>\'\'\'.*?\'\'\')'
    r'|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<lit>\'[^\'\n]*\')'
    r"|(?P<nl>\n)|(?P<punct>[\[\]{}=,])|(?P<bare>[^\s\[\]{}=,#\"']+)|(?P<end>\Z))",
    re.DOTALL,
)
_KIND = {"mlb": "str", "mll": "str", "str": "str", "lit": "str", "nl": "nl"}


def _tokens(text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, text, line) with whitespace and comments dropped; newlines kept."""
    line = 1
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind is None or kind == "end":
            continue
        value = m.group(kind)
        yield _KIND.get(kind, kind), value, line
        if kind == "nl":
            line += 1
        elif kind in ("mlb", "mll"):
            line += value.count("\n")


def _key_part(kind: str, value: str) -> list[str]:
    if kind == "str":
        return [value.strip("\"'")]
    return value.split(".")


class LineIndex:
    """Line numbers of the keys, headers and array elements of one TOML text.

    The full index is built on first use: a pack without problems never needs it,
    which keeps loading a clean pack close to the cost of ``tomllib`` alone.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._lines: dict[Path, int] | None = None

    @property
    def lines(self) -> dict[Path, int]:
        if self._lines is None:
            self._lines, self._counts = {}, {}
            self._toks = list(_tokens(self._text))
            self._i = 0
            with suppress(IndexError, RecursionError):  # keep what could be indexed
                self._document()
        return self._lines

    def array_headers(self, name: str) -> list[int]:
        """Lines of the ``[[name]]`` headers, by a quick scan (no full index)."""
        pattern = re.compile(rf"^[ \t]*\[\[[ \t]*{re.escape(name)}[ \t]*\]\]", re.MULTILINE)
        out, line, pos = [], 1, 0
        for match in pattern.finditer(self._text):
            line += self._text.count("\n", pos, match.start())
            pos = match.start()
            out.append(line)
        return out

    def line(self, path: Path) -> int:
        """Line of ``path``, else of its nearest indexed parent; 0 if none."""
        for end in range(len(path), 0, -1):
            found = self.lines.get(path[:end])
            if found:
                return found
        return 0

    # -- a tiny recursive-descent reader over valid TOML --------------------------------
    def _peek(self) -> tuple[str, str, int]:
        return self._toks[self._i]

    def _next(self) -> tuple[str, str, int]:
        tok = self._toks[self._i]
        self._i += 1
        return tok

    def _skip_newlines(self) -> None:
        while self._i < len(self._toks) and self._toks[self._i][0] == "nl":
            self._i += 1

    def _document(self) -> None:
        table: Path = ()
        while True:
            self._skip_newlines()
            if self._i >= len(self._toks):
                return
            if self._peek()[1] == "[":
                table = self._header()
            else:
                self._keyval(table)

    def _header(self) -> Path:
        _, _, line = self._next()
        is_array = self._peek()[1] == "["
        if is_array:
            self._next()
        parts: list[str] = []
        while self._peek()[1] != "]":
            kind, value, _ = self._next()
            parts += _key_part(kind, value)
        self._next()
        if is_array:
            self._next()
        path = (*self._resolve(parts[:-1]), parts[-1]) if is_array else self._resolve(parts)
        if is_array:
            self._lines.setdefault(path, line)
            index = self._counts.get(path, 0)
            self._counts[path] = index + 1
            path = (*path, index)
        self._lines.setdefault(path, line)
        return path

    def _resolve(self, parts: list[str]) -> Path:
        """Insert the current index of every array of tables along ``parts``."""
        path: Path = ()
        for part in parts:
            path = (*path, part)
            if path in self._counts:
                path = (*path, self._counts[path] - 1)
        return path

    def _keyval(self, table: Path) -> None:
        parts: list[str] = []
        line = self._peek()[2]
        while self._peek()[1] != "=":
            kind, value, _ = self._next()
            parts += _key_part(kind, value)
        self._next()
        path = (*table, *parts)
        self._lines.setdefault(path, line)
        self._value(path)

    def _value(self, path: Path) -> None:
        value = self._peek()[1]
        if value == "[":
            self._next()
            index = 0
            while True:
                self._skip_newlines()
                if self._peek()[1] == "]":
                    self._next()
                    return
                self._lines.setdefault((*path, index), self._peek()[2])
                self._value((*path, index))
                self._skip_newlines()
                if self._peek()[1] == ",":
                    self._next()
                index += 1
        elif value == "{":
            self._next()
            while self._peek()[1] != "}":
                if self._peek()[1] == ",":
                    self._next()
                    continue
                self._keyval(path)
            self._next()
        else:
            self._next()
