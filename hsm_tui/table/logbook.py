"""The session log as a readable story: Markdown export and text search.

Pure functions over :class:`~hsm_tui.table.session.LogEntry` values, so the same export
serves the log screen, a CLI command or a shared view. Log text comes from packs and
from whatever a GM typed, so every piece of it is escaped: a line can never become a
heading, a list, a link or a code block and break the document around it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from ..rules.secret import plain
from .state import LogEntry, UndoneEntry

#: Characters Markdown (CommonMark + GitHub tables/strikethrough) reads as inline markup.
_INLINE = re.compile(r"([\\`*_\[\]<>|~&#])")
#: Markers that only mean something at the start of a line (block structure).
_BLOCK_START = re.compile(r"^([-+=>])|^(\d+)([.)])")


LINE_BREAKING = frozenset({"Cc", "Zl", "Zp"})
"""Control characters (tab, newline, escape …) and line and paragraph separators."""


def one_line(text: str, dropped: frozenset[str] = LINE_BREAKING) -> str:
    """``text`` with every character of a ``dropped`` Unicode category made a space,
    trimmed: one log line stays one line (of Markdown, of a terminal) whatever it holds."""
    return "".join(" " if unicodedata.category(ch) in dropped else ch for ch in text).strip()


def escape(text: str) -> str:
    """``text`` as literal Markdown inline text on one line (it reads back unchanged)."""
    flat = _INLINE.sub(r"\\\1", one_line(text))
    return _BLOCK_START.sub(lambda m: f"\\{m[1]}" if m[1] else f"{m[2]}\\{m[3]}", flat)


def entry_markdown(entry: LogEntry) -> str:
    """One entry: a level-2 heading with its number and title, its lines as bullets."""
    parts = [f"## #{entry.seq} {escape(entry.gm_title)}"]
    if entry.issuer != "gm":
        parts.append(f"*issued by {escape(entry.issuer)}*")
    if entry.lines:
        parts.append("\n".join(f"- {escape(plain(line))}".rstrip() for line in entry.lines))
    return "\n\n".join(parts)


SET_UP_TITLE = "Encounter set up"
"""The one entry an export makes of an encounter's set-up steps."""


def setup_markdown(run: Sequence[LogEntry]) -> str:
    """Set-up steps (zones, bands, who joins where, cover) as one entry, a bullet each,
    as the set-up stood at its last step (:func:`as_set_up`)."""
    heading = f"## #{run[0].seq}–#{run[-1].seq} {SET_UP_TITLE}"
    kept = as_set_up(run)
    replaced = len(run) - len(kept)
    note = (
        f"*as it stood at the end: {replaced} earlier setting(s) left out*\n\n" if replaced else ""
    )
    return f"{heading}\n\n{note}" + "\n".join(f"- {escape(e.title)}" for e in kept)


def as_set_up(run: Sequence[LogEntry]) -> list[LogEntry]:
    """The steps of one set-up that still held at its end: a later step with the same
    subject (``LogEntry.sets``: a band stepped again, a cover changed) replaces an earlier
    one, and a combatant leaving drops what was set for it; the steps that add stay.
    """
    seen: set[str] = set()
    gone: set[str] = set()
    kept: list[LogEntry] = []
    for entry in reversed(run):
        kind, _, who = entry.sets.partition(" ")
        if entry.sets in seen or (who in gone and kind != "leaves"):
            continue
        if entry.sets:
            seen.add(entry.sets)
        if kind == "leaves":
            gone.add(who)
        kept.append(entry)
    return kept[::-1]


def _blocks(entries: Sequence[LogEntry]) -> list[str]:
    """Each entry's Markdown, a run of two or more set-up steps folded into one."""
    blocks: list[str] = []
    run: list[LogEntry] = []
    for entry in (*entries, None):
        if entry is not None and entry.step == "setup":
            run.append(entry)
            continue
        blocks.extend([setup_markdown(run)] if len(run) > 1 else map(entry_markdown, run))
        run = []
        if entry is not None:
            blocks.append(entry_markdown(entry))
    return blocks


def to_markdown(entries: Sequence[LogEntry], title: str) -> str:
    """The log as a Markdown document, oldest entry first, the set-up steps folded."""
    count = len(entries)
    intro = f"{count} log entr{'y' if count == 1 else 'ies'}." if count else "The log is empty."
    blocks = [f"# {escape(title) or 'Session log'}", intro, *_blocks(entries)]
    return "\n\n".join(blocks) + "\n"


def as_read(entries: Sequence[LogEntry]) -> tuple[LogEntry, ...]:
    """A seat's log for a recap: the entries it reads, not those the GM took back."""
    return tuple(e for e in entries if not isinstance(e, UndoneEntry))


def fights(entries: Sequence[LogEntry]) -> list[tuple[LogEntry, ...]]:
    """Each fight's entries, oldest first: the set-up just before it, the initiative,
    and everything up to its end (or up to the next fight's set-up, or the log's end).
    """
    starts = [
        i
        for i, e in enumerate(entries)
        if e.step == "start" and (i == 0 or entries[i - 1].step != "start")
    ]
    begins = []
    for start in starts:
        begin = start
        while begin and entries[begin - 1].step == "setup":
            begin -= 1
        begins.append(begin)
    found = []
    for start, begin, stop in zip(starts, begins, [*begins[1:], len(entries)], strict=True):
        ends = [i for i in range(start, stop) if entries[i].step == "end"]
        found.append(tuple(entries[begin : ends[-1] + 1 if ends else stop]))
    return found


def search(entries: Sequence[LogEntry], text: str) -> tuple[LogEntry, ...]:
    """Entries whose title or any line contains ``text``, ignoring case; blank: all."""
    needle = text.strip().casefold()
    if not needle:
        return tuple(entries)
    return tuple(
        e for e in entries if any(needle in plain(line).casefold() for line in (e.title, *e.lines))
    )
