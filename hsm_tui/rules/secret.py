"""The GM's numbers inside a log line: a Minion's Defense, Health or Morale,
the TN and odds of a roll the GM makes. The engine wraps each as it writes the line, so
one entry serves every seat: the GM reads it whole, a player reads it with each secret
replaced by what the player may know ("hidden", or nothing).

A secret travels inside the line's own text (three control characters no pack or name
may hold), so it survives undo, campaign files and exports with the line it belongs to.
"""

from __future__ import annotations

import re

START, SPLIT, END = "\x0e", "\x1f", "\x0f"
HIDDEN = "hidden"

_SPAN = re.compile(f"{START}([^{SPLIT}]*){SPLIT}([^{END}]*){END}")


def secret(value: object, hide: bool = True, instead: str = HIDDEN) -> str:
    """``value`` as text, readable by the GM alone when ``hide``; the other seats read
    ``instead`` in its place.
    """
    if not hide:
        return str(value)
    return f"{START}{instead}{SPLIT}{value}{END}"


def plain(line: str) -> str:
    """The line as the GM reads it: every secret shown."""
    return _SPAN.sub(r"\2", line) if START in line else line


def redact(line: str) -> str:
    """The line as a player reads it: every secret replaced."""
    return _SPAN.sub(r"\1", line) if START in line else line


def spans(line: str) -> list[tuple[str, bool]]:
    """The line in pieces as the GM reads it, each marked secret or not (to style them)."""
    pieces: list[tuple[str, bool]] = []
    at = 0
    for found in _SPAN.finditer(line):
        pieces += [(line[at : found.start()], False), (found.group(2), True)]
        at = found.end()
    pieces.append((line[at:], False))
    return [(text, hidden) for text, hidden in pieces if text]
