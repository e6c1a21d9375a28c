"""The session log as a readable story: Markdown export and text search.

Pure functions over :class:`~hsm_tui.session.LogEntry` values, so the same export
serves the log screen, a CLI command or a shared view. Log text comes from packs and
from whatever a GM typed, so every piece of it is escaped: a line can never become a
heading, a list, a link or a code block and break the document around it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .rules.secret import plain
from .session import LogEntry

#: Characters Markdown (CommonMark + GitHub tables/strikethrough) reads as inline markup.
_INLINE = re.compile(r"([\\`*_\[\]<>|~&#])")
#: Markers that only mean something at the start of a line (block structure).
_BLOCK_START = re.compile(r"^([-+=>])|^(\d+)([.)])")


def _one_line(text: str) -> str:
    """Control characters and line/paragraph separators become spaces: one log line
    stays one Markdown line whatever it contains."""
    return "".join(
        " " if ch in "\t\v\f" or unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
    ).strip()


def escape(text: str) -> str:
    """``text`` as literal Markdown inline text on one line (it reads back unchanged)."""
    flat = _INLINE.sub(r"\\\1", _one_line(text))
    return _BLOCK_START.sub(lambda m: f"\\{m[1]}" if m[1] else f"{m[2]}\\{m[3]}", flat)


def entry_markdown(entry: LogEntry) -> str:
    """One entry: a level-2 heading with its number and title, its lines as bullets."""
    parts = [f"## #{entry.seq} {escape(entry.title)}"]
    if entry.issuer != "gm":
        parts.append(f"*issued by {escape(entry.issuer)}*")
    if entry.lines:
        parts.append("\n".join(f"- {escape(plain(line))}".rstrip() for line in entry.lines))
    return "\n\n".join(parts)


def to_markdown(entries: Sequence[LogEntry], title: str) -> str:
    """The whole log as a Markdown document, oldest entry first."""
    count = len(entries)
    intro = f"{count} log entr{'y' if count == 1 else 'ies'}." if count else "The log is empty."
    blocks = [f"# {escape(title) or 'Session log'}", intro, *map(entry_markdown, entries)]
    return "\n\n".join(blocks) + "\n"


def search(entries: Sequence[LogEntry], text: str) -> tuple[LogEntry, ...]:
    """Entries whose title or any line contains ``text``, ignoring case; blank: all."""
    needle = text.strip().casefold()
    if not needle:
        return tuple(entries)
    return tuple(
        e
        for e in entries
        if needle in e.title.casefold() or any(needle in plain(line).casefold() for line in e.lines)
    )
