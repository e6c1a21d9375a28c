"""Reading a campaign file: only a regular file of at most :data:`LIMIT` bytes (its size
checked before a byte is read), parsed with the long blocks of lines cut out first, an
older ``format_version`` brought up to date (``versions.py``) and its top checked; a bad
file is refused with its path and the line or key at fault (:class:`CampaignFileError`).
Writing is :mod:`.store`'s job; this module only reads.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import versions
from .codec import DataError, parse_toml
from .errors import CampaignFileError
from .lines import Block
from .safe_read import MB, read_regular

FORMAT = "hsm-tui campaign"
VERSION = versions.VERSION
LIMIT = 256 * MB
"""The largest campaign file read (10,000 log entries and their undo steps: 3.5 MB)."""
TOP_KEYS = ("format", "format_version", "saved", "header", "seed", "state", "undo", "redo")
"""The keys a campaign file's top level holds; any other is a mistake worth naming."""
META_KEYS = TOP_KEYS[:4]
"""The keys about the file, not the session."""
END = "# the end of an hsm-tui campaign file\n"
"""The last line of every save: a file that ends so was written whole (a TOML file cut
short between two tables would still parse)."""


def read(path: Path, *, as_bytes: bool = False) -> dict[str, Any]:
    """The checked top of a campaign file (format, version, keys); the rest is checked
    by :meth:`Session.load_data`. ``as_bytes``: the blocks of lines a save writes stay the
    file's bytes (each a :class:`~.lines.Block`, its UTF-8 checked), for open to split
    and read as the session needs them and a save to write again as they are; else they
    are text, as tomllib reads them.
    """
    try:
        raw = read_regular(path, LIMIT)
    except OSError as err:
        raise CampaignFileError(f"cannot open {path}: {err.strerror or err}") from None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CampaignFileError(f"{path}: UTF-16 text; a campaign file is UTF-8")
    try:
        data = _parse(raw, as_bytes)
    except UnicodeDecodeError as err:  # its place in the file (:func:`_utf8`)
        line = raw[: err.start].count(b"\n") + 1
        problem = f"not a text file (not UTF-8 at line {line}: byte 0x{raw[err.start]:02x})"
        raise CampaignFileError(f"{path}: {problem}") from None
    except ValueError as err:
        raise CampaignFileError(f"{path}: {err}") from None
    if data.get("format") != FORMAT:
        raise CampaignFileError(f"{path}: not an hsm-tui campaign (key 'format' is not {FORMAT!r})")
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise CampaignFileError(
            f"{path}: key format_version is {version!r}; this hsm-tui reads versions 1 to {VERSION}"
        )
    if version > VERSION:
        raise CampaignFileError(
            f"{path}: format_version {version} is newer than this hsm-tui reads ({VERSION}):"
            " open it with a newer hsm-tui"
        )
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise CampaignFileError(f"{path}: unknown key {unknown[0]!r} at the top of the file")
    data = versions.migrate(data)
    check_header(path, data.get("header"))
    return data


_BLOCKS = {
    "state.log": "\n[state]\nlog = '''\n",
    "undo.commands": "\n[undo]\ncommands = '''\n",
    "undo.start.log": "\n[undo.start]\nlog = '''\n",
    "undo.checkpoints": "'''\ncheckpoints = '''\n",
}
"""How each block of lines begins as a save writes it: its table, its key, its quotes."""
_ILLEGAL = bytes([*range(0x09), *range(0x0B, 0x20), 0x7F])
"""What TOML refuses in a literal string (tomllib reads CR LF as LF before it checks);
in UTF-8, none of these bytes is ever part of another character."""


def _parse(raw: bytes, as_bytes: bool = False) -> dict[str, Any]:
    """The file's bytes parsed as TOML, the blocks of lines a save writes (:data:`_BLOCKS`)
    cut out first and put back after: tomllib checks a literal string a character at a
    time, a third of the time of opening a long campaign. Here one pass finds the blocks,
    one call checks the file holds no byte TOML refuses there, and each block is decoded
    apart (a block of plain ASCII then stays one byte a character in memory), or only
    checked when ``as_bytes`` (:func:`read`). A file laid out otherwise, or refused, is
    parsed as it is by tomllib alone, which says what and where. UnicodeDecodeError: not
    UTF-8.
    """
    spans = _blocks(raw)
    if not spans or len(raw.translate(None, _ILLEGAL)) < len(raw):
        return _whole(raw)
    pieces, found, at = [], [], 0
    for start, end, path in spans:
        pieces.append(_utf8(raw, at, start))
        found.append((path, _block(raw, start, end) if as_bytes else _utf8(raw, start, end)))
        at = end
    pieces.append(_utf8(raw, at, len(raw)))
    try:
        data = parse_toml("".join(pieces), "a campaign")
    except ValueError:
        return _whole(raw)  # where the file breaks, as tomllib says it
    for path, lines in found:
        *tables, key = path.split(".")
        table: Any = data
        for name in tables:
            table = table.get(name) if isinstance(table, dict) else None
        if not isinstance(table, dict) or table.get(key) != "":
            return _whole(raw)  # not the string it looked like
        table[key] = lines
    return data


_OPENINGS = {opening.encode(): path for path, opening in _BLOCKS.items()}


def _blocks(raw: bytes) -> list[tuple[int, int, str]]:
    """Where each block of :data:`_BLOCKS` stands in ``raw`` (start, end, key), in one pass
    from one ``'''`` to the next (a block holds none); [] when one is found twice or
    never closes (the file is then left to tomllib)."""
    spans: list[tuple[int, int, str]] = []
    at = 0
    while (quotes := _quotes(raw, at)) >= 0:
        at = quotes + 3
        for opening, path in _OPENINGS.items():
            begins = quotes + 4 - len(opening)
            if begins >= 0 and raw.startswith(opening, begins):
                at = _quotes(raw, quotes + 4)
                if at < 0 or path in (span[2] for span in spans):
                    return []
                spans.append((quotes + 4, at, path))
                break
    return spans


def _quotes(raw: bytes, at: int) -> int:
    """Where the next ``'''`` from ``at`` begins (-1: none). A block holds no quote at all,
    so its end is found by looking for one quote, which C does a word at a time: a search
    for three read a long campaign's 26 MB at a third of the speed. A lone quote found
    first (a name with an apostrophe) is passed by the search for three."""
    found = raw.find(b"'", at)
    if found < 0 or raw.startswith(b"'''", found):
        return found
    return raw.find(b"'''", found + 1)


def _whole(raw: bytes) -> dict[str, Any]:
    """The file parsed by tomllib alone; ValueError says why it is not a campaign."""
    text = _utf8(raw, 0, len(raw))
    if not text.strip():
        raise ValueError("the file is empty (not a campaign)")
    return parse_toml(text, "a campaign")


def _block(raw: bytes, start: int, end: int) -> Block:
    """``raw[start:end]`` as a block of lines, its UTF-8 checked (ASCII is, at once)."""
    data = raw[start:end]
    if not data.isascii():
        _utf8(raw, start, end)
    return Block(data)


def _utf8(raw: bytes, start: int, end: int) -> str:
    """``raw[start:end]`` as text (decoded where it is, not copied first);
    UnicodeDecodeError names the place in all of ``raw``."""
    try:
        return str(memoryview(raw)[start:end], "utf-8")
    except UnicodeDecodeError as err:
        raise UnicodeDecodeError(
            "utf-8", raw, start + err.start, start + err.end, err.reason
        ) from None


HEADER_TYPES = {"name": str, "party": list, "adventure": int, "in_combat": bool}


def check_header(path: Path, head: Any) -> None:
    if not isinstance(head, dict):
        raise CampaignFileError(f"{path}: key header: missing, or not a table")
    for key, kind in HEADER_TYPES.items():
        value = head.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise CampaignFileError(f"{path}: key header.{key}: missing, or not a {kind.__name__}")
    if not all(isinstance(n, str) for n in head["party"]):
        raise CampaignFileError(f"{path}: key header.party: expected a list of names")


_IN_BLOCK = re.compile(f"({'|'.join(map(re.escape, _BLOCKS))})\\[(\\d+)\\]")
"""A bad value's key in one of :data:`_BLOCKS` (``state.log[3]``): its block and index."""


def problem(path: Path, err: DataError) -> str:
    """The message of a bad value in ``path``: the key, and the line of a log entry or an
    undo step in its block (the file is read again to find it: only when refused).
    """
    at = _IN_BLOCK.match(err.where)
    first = _first_line(path, at[1]) if at else None
    line = "" if first is None or at is None else f"line {first + int(at[2])}, "
    return f"{path}: {line}key {err.where}: {err.problem}"


def _first_line(path: Path, block: str) -> int | None:
    """The line of the file on which ``block``'s first entry stands, if written as a save
    writes it (a hand-made layout, or a version 2 file, has none to name)."""
    opening = _BLOCKS[block].encode()
    try:
        raw = read_regular(path, LIMIT)
    except OSError:
        return None
    at = raw.find(opening)
    return None if at < 0 else raw.count(b"\n", 0, at + len(opening)) + 1
