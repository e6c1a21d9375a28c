"""A table of one-line rows under a header, drawn line by line.

Twenty players' screens redraw on one loop at every change the GM makes. A Rich
``Table`` in a ``Static`` measured and rendered every cell again for each of them (most
of a player's frame), and repainted the whole box, so each change sent every row to
every client. Here each row is drawn once per change of its cells or of the width, and
a change repaints, and so sends, only the rows that differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from operator import itemgetter

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.events import Resize
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

GAP = 2
"""Spaces between two columns."""
BOLD = Style(bold=True)


@dataclass(frozen=True)
class Column:
    """A column's heading and its share of the width left once the fitted columns (share
    0: as wide as their widest cell, and at least ``least``) and the gaps are taken. A
    fitted column whose widest value is known keeps that width, so a new value never
    moves the columns (and repaints every row)."""

    heading: str
    share: int = 0
    least: int = 1
    own_bold: bool = False
    """The seat's own row shows this cell in bold (its hero's name)."""


@dataclass(frozen=True)
class Row:
    """A row's cells, one per column; ``own``: the seat's own (its hero)."""

    cells: tuple[str, ...]
    own: bool = False


def column_widths(width: int, columns: Sequence[Column], rows: Sequence[Row]) -> list[int]:
    """Each column's width within ``width``: a fitted column as wide as its widest cell or
    heading; the rest, gaps included, shared by the columns' shares in order, each taking
    its share of what is left rounded up (the first, the name, is the last to be cut).
    Each is at least one cell wide (the turn marker's column keeps its place while nobody
    acts).
    """
    last = len(columns) - 1
    gaps = [GAP // 2 * ((i > 0) + (i < last)) for i in range(len(columns))]
    fitted = [
        0
        if c.share
        else max(c.least, *(cell_len(t) for t in (c.heading, *(r.cells[i] for r in rows))))
        for i, c in enumerate(columns)
    ]
    left = width - sum(f + g for f, g, c in zip(fitted, gaps, columns, strict=True) if not c.share)
    shares = sum(c.share for c in columns)
    widths = []
    for c, fit, gap in zip(columns, fitted, gaps, strict=True):
        if c.share:
            fit = -(-left * c.share // shares)  # rounded up
            left, shares = left - fit, shares - c.share
            fit -= gap
        widths.append(max(1, fit))
    return widths


def fit(text: str, width: int) -> str:
    """``text`` in exactly ``width`` cells: padded, or cut with an ellipsis."""
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    return set_cell_size(text, max(0, width - 1)) + "…" if width else ""


@lru_cache(maxsize=512)
def row_line(cells: tuple[str, ...], widths: tuple[int, ...], bold: tuple[bool, ...]) -> Strip:
    """One row drawn in ``widths``, the columns ``GAP`` apart, the cells ``bold`` says in
    bold. Each run of text in one style is one segment: fewer to style, fewer to send.

    Kept for every table that shows an equal row: twenty players' tables draw the same
    changed row at once, and it is drawn (and styled for their screens) once. Equal cells
    only, so a seat is given back nothing but what it showed itself."""
    pieces: list[tuple[str, bool]] = []
    for i, (text, width, strong) in enumerate(zip(cells, widths, bold, strict=True)):
        if i:
            pieces.append((" " * GAP, strong and bold[i - 1]))
        pieces.append((fit(text, width), strong))
    segments = [
        Segment("".join(text for text, _ in run), BOLD if strong else None)
        for strong, run in groupby(pieces, key=itemgetter(1))
    ]
    return Strip(segments, sum(widths) + GAP * (len(widths) - 1))


class LineTable(Widget):
    """The rows under a bold header, one line each; rows past the height are cut."""

    def __init__(self, columns: Sequence[Column], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns = tuple(columns)
        self.rows: tuple[Row, ...] = ()
        self._widths: list[int] = []
        self._lines: list[Strip] = []
        self._paint = (Style(), 0)  # the style and width of the paint under way

    def show(self, rows: Sequence[Row]) -> None:
        """Show ``rows``: only the lines that changed are drawn and repainted (all of them
        when the columns' widths change)."""
        before, self.rows = self.rows, tuple(rows)
        width = self.content_region.width
        if width <= 0:
            return  # not laid out yet: the first resize draws it
        widths = column_widths(width, self.columns, self.rows)
        if widths != self._widths:
            self._draw(widths)
            self.refresh()
            return
        lines = self._lines[:1]
        for y, row in enumerate(self.rows, start=1):
            same = y <= len(before) and before[y - 1] == row
            lines.append(self._lines[y] if same else self._row_line(row, widths))
            if not same:
                self.refresh(Region(0, y, width, 1))
        for y in range(len(self.rows) + 1, len(before) + 1):  # rows gone: blank lines now
            self.refresh(Region(0, y, width, 1))
        self._lines = lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + len(self.rows)

    def on_resize(self, _event: Resize) -> None:
        width = self.content_region.width
        self._draw(column_widths(width, self.columns, self.rows) if width > 0 else [])
        self.refresh()

    def _draw(self, widths: list[int]) -> None:
        """Every line in ``widths``: the header, then one per row."""
        self._widths = widths
        if not widths:
            self._lines = []
            return
        headings = tuple(c.heading for c in self.columns)
        header = row_line(headings, tuple(widths), (True,) * len(widths))
        self._lines = [header, *(self._row_line(r, widths) for r in self.rows)]

    def _row_line(self, row: Row, widths: list[int]) -> Strip:
        bold = tuple(row.own and c.own_bold for c in self.columns)
        return row_line(row.cells, tuple(widths), bold)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in ``crop``, with the style and the width worked out once for all of
        them (the style walks every ancestor's; the width looks the widget up on screen)."""
        self._paint = (self.rich_style, self.content_region.width)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        style, width = self._paint
        if not 0 <= y < len(self._lines):
            return Strip.blank(width, style)
        return self._lines[y].apply_style(style).crop_extend(0, width, style)
