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
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from ..table.state import GM, Command, LogEntry, read_later
from ..table.visibility import GM_ONLY
from . import codec
from .references import check_entry


@dataclass(frozen=True)
class Block:
    """Lines of JSON that ``store.encode`` writes as a TOML literal string, as the UTF-8
    bytes of the file (each line ends with a newline): a save joins them as they are."""

    data: bytes


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
    return Block(_joined(lines))


def _joined(lines: Iterable[str]) -> bytes:
    return "\n".join([*lines, ""]).encode()


class Lines(Sequence[str]):
    """The lines of a block read from a file, kept as its bytes, each line decoded when
    read: a long campaign's undo steps are 12 MB, of which the first undo reads a few
    hundred lines, and :attr:`data` is the block a save writes again as it is (at 50,000
    steps, splitting it on open and joining it again on save took 60 ms). A cut near
    either end (:meth:`__getitem__`) is found without splitting the rest.
    """

    def __init__(
        self, data: bytes = b"", rows: list[bytes] | None = None, count: int | None = None
    ) -> None:
        """``data``: the block; or ``rows``, its lines; ``count``: how many, when known."""
        if data and not data.endswith(b"\n"):  # its last line as a hand edit may leave it
            data += b"\n"
        self._data = data if rows is None else None
        self._rows = rows
        self._count = len(rows) if rows is not None else count

    @property
    def data(self) -> bytes:
        """The block: the lines, each ending with a newline."""
        if self._data is None:
            self._data = b"".join([b"\n".join(self._split()), b"\n"]) if self._rows else b""
        return self._data

    def _split(self) -> list[bytes]:
        """The lines, split once (whole before they are kept: the autosave thread may ask
        at the same time)."""
        if self._rows is None:
            rows = self.data.split(b"\n")  # only "\n": JSON may hold U+2028 and the like
            rows.pop()  # after the last newline
            self._rows = rows
        return self._rows

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.data.count(b"\n")
        return self._count

    def __bool__(self) -> bool:
        return bool(self._rows) if self._data is None else bool(self._data)

    def __iter__(self) -> Iterator[str]:
        return map(bytes.decode, self._split())

    @overload
    def __getitem__(self, at: int) -> str: ...
    @overload
    def __getitem__(self, at: slice) -> Lines: ...
    def __getitem__(self, at: int | slice) -> str | Lines:
        if not isinstance(at, slice):
            return self._split()[at].decode()
        if self._rows is not None or at.step not in (None, 1):
            return Lines(rows=self._split()[at])
        start, stop, _ = at.indices(len(self))
        stop = max(start, stop)
        return Lines(self.data[self._offset(start) : self._offset(stop)], count=stop - start)

    def _offset(self, line: int) -> int:
        """Where line ``line`` (from 0; the count: the end) begins in :attr:`data`, found
        from the nearer end, one newline at a time."""
        data, count = self.data, len(self)
        if line > count // 2:
            at = len(data)
            for _ in range(count - line):
                at = data.rfind(b"\n", 0, at - 1) + 1
            return at
        at = 0
        for _ in range(line):
            at = data.find(b"\n", at) + 1
        return at


def lines_of(block: Any, where: str) -> Lines:
    """The lines of a block read from a file (key ``where``); a value that is not one is
    refused with its key."""
    return Lines(_bytes(block, where))


def _bytes(block: Any, where: str) -> bytes:
    """A block's UTF-8: as read from a file (:class:`Block`, or text), or as
    ``Session.to_data`` gave it; anything else is refused with its key."""
    return block.data if isinstance(block, Block) else _text(block, where).encode()


def _text(block: Any, where: str) -> str:
    """A block's text: as read from a file, or a :class:`Block` as ``Session.to_data`` gave
    it; anything else is refused with its key."""
    if isinstance(block, Block):
        return block.data.decode()
    if not isinstance(block, str):
        raise codec.DataError(where, f"expected lines of JSON in ''' quotes, found {block!r}")
    return block


_DECODER = json.JSONDecoder()
_SCAN = json.scanner.make_scanner(_DECODER)
"""The C scanner behind ``json.loads``, called without its two Python wrappers: half the
time on a line as a save writes it (a line with spaces around goes the long way)."""


def values(lines: Sequence[str], where: str) -> list[Any]:
    """Each line's JSON value; a line that is not JSON is refused with its key and its
    line in the block (``state.log[3]``: line 4 of the block)."""
    return [_value(text, i, where) for i, text in enumerate(lines)]


def _value(text: str, i: int, where: str) -> Any:
    """The JSON value of line ``i`` of the block ``where`` (spaces around it allowed)."""
    try:
        value, end = _SCAN(text, 0)
        if end == len(text):
            return value
    except (StopIteration, ValueError, RecursionError):
        pass
    try:
        return _DECODER.decode(text)
    except ValueError as err:
        problem = f"line {i + 1} of the block is not JSON: {err.msg} (column {err.colno})"
        raise codec.DataError(f"{where}[{i}]", problem) from None
    except RecursionError:
        raise codec.DataError(f"{where}[{i}]", "nested too deeply") from None


FIELDS = ("seq", "issuer", "title", "lines", "visibility", "step", "sets")
"""A log entry's fields in the order a line holds them (``step`` only when it has one,
``sets`` only when it sets something: a set-up step)."""


def entry_line(entry: LogEntry) -> str:
    """A log entry as its line."""
    row = [entry.seq, entry.issuer, entry.title, entry.lines, entry.visibility]
    if entry.sets:
        return line([*row, entry.step, entry.sets])
    return line([*row, entry.step] if entry.step else row)


def log_from(
    text: Any, where: str, memo: Memo | None = None, *, first: int = 1, later: bool = False
) -> tuple[LogEntry, ...]:
    """The log a block holds; a bad entry is refused with its key (``state.log[3].title``)
    as the codec names it. ``first``: the number its first entry must have. ``later``: when
    every line begins with its entry's number, the entries are read when something first
    asks for them (:func:`_later`). When every line is one entry as a save writes it,
    ``memo`` learns the block as the lines of these entries, so the next save writes it
    as it is.
    """
    if later:
        data = _bytes(text, where)
        log = _later(data, first)
        if log is not None:
            if memo is not None:
                memo.seed(log, data)
            return log
    text = _text(text, where)
    log, whole = _by_line(text, where)
    if memo is not None and whole and text.endswith("\n"):
        memo.seed(log, text)
    return log


def _later(data: bytes, first: int) -> tuple[LogEntry, ...] | None:
    """The entries of a block as a save writes it, each read from its line when something
    first asks for it (:func:`~hsm_tui.table.state.read_later`): opening a campaign of
    50,000 entries read them all in 0.3 s. Only the numbers are checked now (each line
    begins ``[1, ``, ``[2, `` …); a line that does not read later is an entry that says so
    (:func:`read_entry`), and ``hsm campaign check`` reads every line. None: not such a
    block (read now).
    """
    rows = data.split(b"\n")  # as bytes: half the memory of text, and split in half the time
    if rows.pop() != b"":
        return None
    seqs = range(first, first + len(rows))
    if not all(map(bytes.startswith, rows, [b"[%d, " % seq for seq in seqs])):
        return None
    return read_later(read_entry, seqs, rows)


def read_entry(data: bytes) -> dict[str, Any]:
    """The fields of the log entry a line holds, its number checked before
    (:func:`_later`); a line that is not one reads as an entry for the GM alone that says
    so, as it can no longer be refused: the campaign is open.
    """
    line = data.decode()  # the file's UTF-8 was checked on open
    try:
        row, end = _SCAN(line, 0)
        if end != len(line):
            row = _DECODER.decode(line)  # spaces around it, or not JSON
        entry = _row_entry(row)
        if entry is None:
            entry = _entry(row, "log")
        check_entry(entry, "log")
        return vars(entry)  # its own dict: the entry made here goes at once
    except StopIteration:  # the scanner's word for no JSON value at all
        problem = "not JSON: Expecting value (column 1)"
    except json.JSONDecodeError as err:
        problem = f"not JSON: {err.msg} (column {err.colno})"
    except RecursionError:
        problem = "nested too deeply"
    except codec.DataError as err:
        problem = err.problem
    seq = int(line[1 : line.index(",")])  # as checked on open
    title = f"Log entry {seq} could not be read (hsm campaign check names its line)"
    return vars(LogEntry(seq, GM, title, (problem,), GM_ONLY))


def _by_line(text: str, where: str) -> tuple[tuple[LogEntry, ...], bool]:
    """The log a block holds, read a line at a time (a line as a save writes it directly,
    any other by the codec, which names what is wrong with it), and whether every line was
    one as a save writes it."""
    out: list[LogEntry] = []
    at, size, whole = 0, len(text), True
    while at < size:
        end_of_line = text.find("\n", at)
        if end_of_line < 0:
            end_of_line = size
        try:
            row, end = _SCAN(text, at)
        except (StopIteration, ValueError, RecursionError):
            row, end = None, -1
        entry = _row_entry(row) if end == end_of_line else None
        if entry is None:
            i = len(out)
            entry = _entry(_value(text[at:end_of_line], i, where), f"{where}[{i}]")
            whole = False
        out.append(entry)
        at = end_of_line + 1
    return tuple(out), whole


def _row_entry(row: Any) -> LogEntry | None:
    """The entry a line's JSON value holds when it is one as a save writes it (None: the
    codec reads it, and names what is wrong)."""
    if (
        type(row) is list
        and 5 <= len(row) <= 7
        and type(row[0]) is int
        and type(row[1]) is str
        and type(row[2]) is str
        and type(row[3]) is list
        and type(row[4]) is str
        and (len(row) == 5 or type(row[5]) in _STEP)
        and (len(row) < 7 or type(row[6]) is str)
        and _TEXT.issuperset(map(type, row[3]))
    ):
        step = row[5] if len(row) > 5 else None
        sets = row[6] if len(row) == 7 else ""
        return LogEntry(row[0], row[1], row[2], tuple(row[3]), row[4], step, sets)
    return None


_TEXT = frozenset({str})
"""The types a log entry's lines may have (a check of all of them in one call)."""
_STEP = frozenset({str, type(None)})
"""The types a line's step may have (none when the line goes on to what it sets)."""


def _entry(row: Any, where: str) -> LogEntry:
    """A log entry read by the codec, which names what is wrong with it."""
    if type(row) is list and len(FIELDS) - 2 <= len(row) <= len(FIELDS):
        row = dict(zip(FIELDS, row, strict=False))
    elif type(row) is list:
        problem = (
            f"expected [{', '.join(FIELDS[:-2])}] (and a step, and what it sets),"
            f" found {len(row)} item(s)"
        )
        raise codec.DataError(where, problem)
    return codec.from_data(row, LogEntry, {}, where)


class Memo:
    """The block last written of a list, and its lines, by each item's position and
    identity (items are frozen): a save encodes only the items that changed since the
    last one, and adds the lines of those added at the end to the block it wrote then.
    The autosave writes after every change: 50,000 entries took 0.5 s to encode each time.
    """

    def __init__(self, encode: Callable[[Any], str]) -> None:
        self._encode = encode
        self._last: tuple[tuple[Any, ...], list[bytes] | None, bytes | None] = ((), [], b"")
        """The items, their lines as UTF-8 (None: not split from the block yet), their block
        (None: not joined yet). Bytes, as open keeps a file's: a log half replayed by the
        first undo took 0.1 s more to write again when its block was decoded to be split."""

    def seed(self, items: Sequence[Any], block: bytes | str) -> None:
        """``items`` were read from ``block`` (its lines, each ending with a newline)."""
        self._last = (tuple(items), None, block if isinstance(block, bytes) else block.encode())

    def lines(self, items: Sequence[Any]) -> list[bytes]:
        """Each item's line, from the last call where the item is the same object."""
        old, done, block = self._last  # read once: a save on another thread may replace it
        if done is None:
            done = (block or b"").split(b"\n")
        encode = self._encode

        def line(item: Any) -> bytes:
            return encode(item).encode()

        kept = min(len(old), len(items))
        out = [done[i] if items[i] is old[i] else line(items[i]) for i in range(kept)]
        out += map(line, items[kept:])
        self._last = (tuple(items), out, None)
        return out

    def block(self, items: Sequence[Any]) -> Block:
        """The block of ``items``' lines: the last one and the lines added since, when the
        items before are the same."""
        old, _, data = self._last
        if data is not None and len(old) <= len(items) and all(map(operator.is_, old, items)):
            data += _joined(map(self._encode, items[len(old) :]))
        else:
            data = b"\n".join([*self.lines(items), b""])
        self._last = (tuple(items), None, data)
        return Block(data)


def step_line(step: str | Command) -> str:
    """An undo step as its line: the command's codec table, or the line a file held (a
    step not read yet)."""
    return step if type(step) is str else line(codec.to_data(step, Command))
