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


def read(path: Path) -> dict[str, Any]:
    """The checked top of a campaign file (format, version, keys); the rest is checked
    by :meth:`Session.load_data`.
    """
    try:
        text = _text(path, read_regular(path, LIMIT))
    except OSError as err:
        raise CampaignFileError(f"cannot open {path}: {err.strerror or err}") from None
    if not text.strip():
        raise CampaignFileError(f"{path}: the file is empty (not a campaign)")
    try:
        data = _parse(text)
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
_ILLEGAL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
"""What TOML refuses in a literal string (tomllib reads CR LF as LF before it checks)."""


def _parse(text: str) -> dict[str, Any]:
    """``text`` parsed as TOML, the blocks of lines a save writes (:data:`_BLOCKS`) cut
    out first and put back after: tomllib checks a literal string a character at a time,
    a third of the time of opening a long campaign; one regular expression checks them
    here. Anything laid out otherwise (or refused) is parsed as it is, by tomllib alone.
    """
    cut, found = text, []
    for path, opening in _BLOCKS.items():
        at = cut.find(opening)
        if at < 0:
            continue
        start = at + len(opening)
        end = cut.find("'''", start)
        if end < 0 or _ILLEGAL.search(cut, start, end):
            return parse_toml(text, "a campaign")  # tomllib says what and where
        stand_in = "\n" * cut.count("\n", start, end)  # each line stays where it was
        found.append((path, cut[start:end], stand_in))
        cut = f"{cut[:start]}{stand_in}{cut[end:]}"
    try:
        data = parse_toml(cut, "a campaign")
    except ValueError:
        return parse_toml(text, "a campaign")  # where the file breaks, as tomllib says it
    for path, lines, stand_in in found:
        *tables, key = path.split(".")
        table: Any = data
        for name in tables:
            table = table.get(name) if isinstance(table, dict) else None
        if not isinstance(table, dict) or table.get(key) != stand_in:
            return parse_toml(text, "a campaign")  # not the string it looked like
        table[key] = lines
    return data


def _text(path: Path, raw: bytes) -> str:
    """The file's bytes as UTF-8 text, or the reason they are not (UTF-16 included)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CampaignFileError(f"{path}: UTF-16 text; a campaign file is UTF-8")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        problem = f"not a text file (not UTF-8 at line {line}: byte 0x{raw[err.start]:02x})"
        raise CampaignFileError(f"{path}: {problem}") from None


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
    opening = _BLOCKS[block]
    try:
        text = read_regular(path, LIMIT).decode("utf-8")
    except (OSError, ValueError):
        return None
    at = text.find(opening)
    return None if at < 0 else text.count("\n", 0, at + len(opening)) + 1
