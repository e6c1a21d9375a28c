"""The session log, newest at the bottom; re-rendered from the session, never edited."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from ...session import LogEntry


class RollLog(RichLog):
    """Shows every log entry with the lines that explain it.

    Log entries never change once written except the newest (a re-roll note) and undo
    only drops the newest ones, so while the last entry shown is still in the log only
    the entries after it are written; otherwise the log is drawn again.
    """

    _last_shown: LogEntry | None = None

    def __init__(self, *, max_lines: int = 5000, **kwargs: Any) -> None:
        super().__init__(max_lines=max_lines, **kwargs)  # a long evening stays bounded

    def show(self, entries: Sequence[LogEntry]) -> None:
        start = next(
            (i + 1 for i in range(len(entries) - 1, -1, -1) if entries[i] is self._last_shown),
            None,
        )
        if start is None:
            self.clear()
            start = 0
        for entry in entries[start:]:
            self.write(Text.assemble((f"#{entry.seq} ", "dim"), (entry.title, "bold")))
            for line in entry.lines:
                self.write(Text("  " + line))
        self._last_shown = entries[-1] if entries else None
