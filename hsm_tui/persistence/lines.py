"""The long lists of a campaign file (``format_version`` 3): a snapshot's log and the undo
steps, one JSON value a line inside a TOML literal string (``log = '''`` … ``'''``).

Why: a campaign of 10,000 log entries holds as many entries and about as many undo steps.
As TOML tables they took 0.7 s to write and 2 s to read (tomli_w and tomllib are pure
Python, one call per value); a literal string is read with one search, and the C ``json``
module writes and reads the lines. The file stays text with one entry a line, to read,
grep and edit by hand.

- A log entry is ``[seq, issuer, title, [line, …], visibility]``, and its ``step`` in a
  fight after them when it has one (``session.log_step``), then what a set-up step sets
  when it sets something (``set_up_subject``, version 5); one moved over from a
  version 2 file (``versions.py``) is the table it was, as a JSON object.
- An undo step is its command's codec table (``_type`` and the fields) as a JSON object.

A literal string cannot hold ``'''`` nor control characters: JSON escapes them all but DEL,
and :func:`line` writes ``'`` and DEL as ``\\u`` escapes as well.
"""

from __future__ import annotations

import json
import json.encoder
import json.scanner
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..table.state import Command, LogEntry
from . import codec


class Block(str):
    """Lines of JSON that ``store.encode`` writes as a TOML literal string."""


_ENCODER = json.encoder.c_make_encoder
"""The C encoder behind ``json.dumps``, made once for every line: ``dumps`` with options
makes a new one a call, and that took 40% of the time of a line (no circular check: the
values are trees; ``str`` for a value JSON has no type for)."""
_ENCODE = (
    _ENCODER(None, str, json.encoder.encode_basestring, None, ": ", ", ", False, False, True)
    if _ENCODER is not None
    else json.JSONEncoder(ensure_ascii=False, default=str).iterencode
)


def line(value: Any) -> str:
    """``value`` as one line of JSON that a TOML literal string can hold (a date or time
    in a hand-edited older file becomes text, for the reader to refuse where it is)."""
    text = "".join(_ENCODE(value, 0))
    return text.replace("'", "\\u0027").replace("\x7f", "\\u007f")


def block(lines: Iterable[str]) -> Block:
    """The block of ``lines`` (each ends with a newline, so the closing ``'''`` has one)."""
    return Block("".join(f"{text}\n" for text in lines))


def split(text: Any, where: str) -> list[str]:
    """The lines of a block read from a file (key ``where``); a value that is not one is
    refused with its key."""
    if not isinstance(text, str):
        raise codec.DataError(where, f"expected lines of JSON in ''' quotes, found {text!r}")
    parts = text.split("\n")  # only "\n": JSON text may hold U+2028 and the like
    return parts[:-1] if parts[-1] == "" else parts


_DECODER = json.JSONDecoder()
_SCAN = json.scanner.make_scanner(_DECODER)
"""The C scanner behind ``json.loads``, called without its two Python wrappers: half the
time on a line as a save writes it (a line with spaces around goes the long way)."""


def values(lines: Sequence[str], where: str) -> list[Any]:
    """Each line's JSON value; a line that is not JSON is refused with its key and its
    line in the block (``state.log[3]``: line 4 of the block)."""
    out = []
    for i, text in enumerate(lines):
        try:
            value, end = _SCAN(text, 0)
            if end == len(text):
                out.append(value)
                continue
        except (StopIteration, ValueError, RecursionError):
            pass
        try:
            out.append(_DECODER.decode(text))
        except ValueError as err:
            problem = f"line {i + 1} of the block is not JSON: {err.msg} (column {err.colno})"
            raise codec.DataError(f"{where}[{i}]", problem) from None
        except RecursionError:
            raise codec.DataError(f"{where}[{i}]", "nested too deeply") from None
    return out


FIELDS = ("seq", "issuer", "title", "lines", "visibility", "step", "sets")
"""A log entry's fields in the order a line holds them (``step`` only when it has one,
``sets`` only when it sets something: a set-up step)."""


def entry_line(entry: LogEntry) -> str:
    """A log entry as its line."""
    row = [entry.seq, entry.issuer, entry.title, entry.lines, entry.visibility]
    if entry.sets:
        return line([*row, entry.step, entry.sets])
    return line([*row, entry.step] if entry.step else row)


def log_from(text: Any, where: str) -> tuple[LogEntry, ...]:
    """The log a block holds; a bad entry is refused with its key (``state.log[3].title``)
    as the codec names it. Well-formed lines are read directly: the codec takes 30 µs an
    entry, 0.3 s for a long campaign's log.
    """
    out = []
    for i, row in enumerate(values(split(text, where), where)):
        if (
            type(row) is list
            and len(row) == 5
            and type(row[0]) is int
            and type(row[1]) is str
            and type(row[2]) is str
            and type(row[3]) is list
            and type(row[4]) is str
            and all(type(text) is str for text in row[3])
        ):
            out.append(LogEntry(row[0], row[1], row[2], tuple(row[3]), row[4]))
            continue
        if type(row) is list and len(FIELDS) - 2 <= len(row) <= len(FIELDS):
            row = dict(zip(FIELDS, row, strict=False))
        elif type(row) is list:
            problem = (
                f"expected [{', '.join(FIELDS[:-2])}] (and a step, and what it sets),"
                f" found {len(row)} item(s)"
            )
            raise codec.DataError(f"{where}[{i}]", problem)
        out.append(codec.from_data(row, LogEntry, {}, f"{where}[{i}]"))
    return tuple(out)


class Memo:
    """The line last written for each item of a list, by position and identity (items are
    frozen): a save writes again only what changed since the last one. The autosave writes
    after every change, and 10,000 entries and steps took 0.2 s to write each time.
    """

    def __init__(self, encode: Callable[[Any], str]) -> None:
        self._encode = encode
        self._last: tuple[Sequence[Any], list[str]] = ((), [])

    def lines(self, items: Sequence[Any]) -> list[str]:
        """Each item's line, from the last call where the item is the same object."""
        old, done = self._last  # read once: a save on another thread may replace it
        encode = self._encode
        kept = min(len(old), len(items))
        out = [done[i] if items[i] is old[i] else encode(items[i]) for i in range(kept)]
        out += map(encode, items[kept:])
        self._last = (tuple(items), out)
        return out


def step_line(command: Command) -> str:
    """An undo step as its line: the command's codec table."""
    return line(codec.to_data(command, Command))
