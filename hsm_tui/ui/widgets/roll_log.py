"""The session log, newest at the bottom; re-rendered from the session, never edited."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import RichLog

from ...session import LogEntry


class RollLog(RichLog):
    """Shows every log entry with the lines that explain it."""

    def show(self, entries: Sequence[LogEntry]) -> None:
        self.clear()
        for entry in entries:
            self.write(Text.assemble((f"#{entry.seq} ", "dim"), (entry.title, "bold")))
            for line in entry.lines:
                self.write(Text("  " + line))
