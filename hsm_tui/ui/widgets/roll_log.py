"""The session log, newest at the bottom; re-rendered from the session, never edited."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.events import Resize
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from ...rules.secret import spans
from ...table.session import LogEntry
from ...table.state import UndoneEntry
from ...table.visibility import GM_ONLY, OPEN, RECORD, seen_by

SEEN_BY = {GM_ONLY: "GM only", OPEN: "open", RECORD: "GM only"}
"""Who sees an entry besides the GM, ahead of its title: the GM's alone (the players see
nothing of it) or opened to every seat (F6 ``o``), and the seats it was opened to (F6
``O``). A public entry reads as it always did.
"""


def seen_label(visibility: str) -> str:
    """``[GM only] ``, ``[open] ``, ``[GM only · open to player:kara] `` or nothing."""
    base, seats = seen_by(visibility)
    parts = [SEEN_BY.get(base, "")]
    if seats:
        parts.append(f"open to {', '.join(seats)}")
    label = " · ".join(part for part in parts if part)
    return f"[{label}] " if label else ""


def entry_heading(entry: LogEntry) -> Text:
    """``#5 [GM only] 3 × Pirate raider join …``: number, who sees it, title; an entry
    the GM undid is struck through and says so (a word, for a terminal without strike).
    """
    if isinstance(entry, UndoneEntry):
        return Text.assemble(
            (f"#{entry.seq} ", "dim"), ("[undone] ", "italic"), line_text(entry.title, "dim strike")
        )
    return Text.assemble(
        (f"#{entry.seq} ", "dim"),
        (seen_label(entry.visibility), "italic"),
        line_text(entry.title, "bold"),
    )


def line_text(line: str, style: str = "") -> Text:
    """A log line as the GM reads it: the numbers the players' screens hide (a Minion's
    Defense, Health, Morale; a GM roll's TN) in italic.
    """
    return Text.assemble(
        *((part, "italic" if gms else "") for part, gms in spans(line)), style=style
    )


_WRAPPER = Console(file=io.StringIO(), color_system=None, legacy_windows=False, emoji=False)
"""Wraps entries for every app's log: wrapping reads only the width (the colours an app's
console writes in come later, at its output)."""


@lru_cache(maxsize=256)
def wrap_entry(entry: LogEntry, width: int) -> tuple[Strip, ...]:
    """``entry``'s lines wrapped to ``width``, kept for every log that shows an equal entry:
    twenty players' screens read the same new entry at once, and it is wrapped once. Equal
    entries only, so a seat is given back nothing but what it showed itself.
    """
    options = _WRAPPER.options.update_width(width)
    style = "strike dim" if isinstance(entry, UndoneEntry) else ""
    texts = [entry_heading(entry), *(line_text("  " + line, style) for line in entry.lines)]
    return tuple(
        Strip(segments, width)
        for text in texts
        for segments in _WRAPPER.render_lines(text, options, pad=True)
    )


class RollLog(ScrollView):
    """Shows every log entry with the lines that explain it, wrapped to the log's width.

    Each entry is wrapped once per width and kept (entries never change except the
    newest, which gains a re-roll note, and undo drops the newest), so a new entry costs
    its own lines only. A resize wraps everything again. While the view is at the end
    it follows new entries; scrolled back, it stays where the GM is reading.
    """

    DEFAULT_CSS = """
    RollLog {
        background: $surface;
        color: $foreground;
        scrollbar-gutter: stable;
        overflow-x: hidden;
    }
    """

    def __init__(self, *, id: str | None = None, focusable: bool = True) -> None:
        super().__init__(id=id)
        self.can_focus = focusable
        self._entries: tuple[LogEntry, ...] = ()
        self._wrapped: dict[tuple[int, type], tuple[LogEntry, int, tuple[Strip, ...]]] = {}
        self.lines: list[Strip] = []
        """Every line shown, top to bottom, wrapped to the current width."""
        self._at_end = True
        """Following the newest entry: kept across a resize, lost when the GM scrolls back."""
        self._paint = (Style(), 0)  # the style and width of the paint under way

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._at_end = round(new_value) >= self.max_scroll_y

    def show(self, entries: Sequence[LogEntry]) -> None:
        self._entries = tuple(entries)
        self._reflow()

    def on_resize(self, _event: Resize) -> None:
        self._reflow()

    def _reflow(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0:
            return  # not laid out yet: the first resize draws it
        wrapped = {}
        lines: list[Strip] = []
        for entry in self._entries:
            key = (entry.seq, type(entry))  # an undone entry and its successor: two
            kept = self._wrapped.get(key)
            # equal, not only the same: a seat's view makes its redacted entries anew
            if kept is None or kept[1] != width or (kept[0] is not entry and kept[0] != entry):
                kept = (entry, width, wrap_entry(entry, width))
            wrapped[key] = kept
            lines += kept[2]
        self._wrapped, self.lines = wrapped, lines
        size = Size(width, len(lines))
        if size != self.virtual_size:
            # The box keeps its size; only what scrolls in it grows. Setting virtual_size
            # asks for a layout pass and a full-screen repaint (~10 KB to an SSH terminal)
            # for every new entry; updating the scrollbar in place does not (Textual 8.2).
            self.set_reactive(Widget.virtual_size, size)
            self._scroll_update(size)
            self._at_end = self._at_end or self.max_scroll_y == 0  # all of it fits again
        if self._at_end:  # now, in this frame: scroll_to waits for the scrollbar's layout
            self.set_scroll(None, self.max_scroll_y)
            if self.show_vertical_scrollbar:
                self.vertical_scrollbar.position = self.max_scroll_y
        self.refresh(Region(0, 0, *self.scrollable_content_region.size))  # not the border

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in ``crop``, with the style and the width worked out once for all of
        them (the style walks every ancestor's; the width looks the widget up on screen)."""
        self._paint = (self.rich_style, self.scrollable_content_region.width)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        style, width = self._paint
        index = round(self.scroll_offset.y) + y
        if not 0 <= index < len(self.lines):
            return Strip.blank(width, style)
        return self.lines[index].apply_style(style).crop_extend(0, width, style)
