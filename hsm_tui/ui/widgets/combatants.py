"""The combatant table: one row per combatant, rebuilt from the encounter on every change.

The screen owns which row is selected (it passes ``selected`` down); the table never
takes focus, so every key reaches the screen's bindings.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...campaign.encounter import Combatant, Encounter
from ...rules import Cover, Derived, Rank
from ...rules.combat import severely_wounded
from .labels import fit, side_legend, side_tags, zone_text
from .marks import cond_cell
from .repaint import retitle
from .row_window import Fold, shown_rows

#: Column widths when compact (80 columns); wide tables size columns to their content.
NARROW = {"Name": 14, "Side": 4, "Zone": 7, "Cover": 5, "Wnd": 4, "F/M": 5, "Cond.": 6, "Chg": 2}

COVER_TEXT = {Cover.NONE: "–", Cover.LIGHT: "light", Cover.MEDIUM: "med", Cover.HEAVY: "heavy"}

WIDE_COND = 24
"""The widest a Cond. cell grows (``panicked, pinned, shaken``): more marks are counted
(``+N``) rather than squeezing the names."""

HIDDEN_MARK = "◌"
"""After the name of a combatant hidden from the players, in the builder too."""


def wound_text(c: Combatant) -> str:
    """R-WOUND-1/2/6: ``−1``/``−2``/``sev`` (Heroes), ``OUT`` (taken out), ``DEAD`` (a
    Hero, by the chart), ``unc``; non-lethal steps follow as ``s−1`` (Stamina track).
    """
    if c.out:  # a Hero is only ever out by the chart's Dead row (§7)
        return "DEAD" if c.rank is Rank.HERO or c.plays_as is Rank.HERO else "OUT"
    if c.unconscious:
        return "unc"
    parts = []
    if c.wounds:
        parts.append("sev" if severely_wounded(c.wounds) else f"−{c.wounds}")
    if c.nonlethal:
        parts.append(f"s−{c.nonlethal}")
    return " ".join(parts) or "–"


def fear_text(c: Combatant) -> str:
    """Fear tokens / Morale; ``!`` once Fear ≥ Morale (a Fear check next turn, R-FEAR-1)."""
    morale = c.traits[Derived.MORALE]
    return f"{c.fear}/{morale}" + ("!" if c.fear >= morale else "")


def charge_text(c: Combatant, compact: bool) -> str:
    """Charges of the first weapon (R-ATK-3); ``–`` for a weapon without a power track."""
    if not c.weapons or c.weapons[0].charges is None:
        return "–"
    w = c.weapons[0]
    return str(w.charges) if compact or w.power is None else f"{w.charges}/{w.power}"


def rank_text(c: Combatant) -> str:
    """Hero or Minion, and a Sidekick's choice for this encounter (R-CHAR-8)."""
    if c.rank is Rank.SIDEKICK:
        return f"sk:{c.plays_as.value}" if c.plays_as else "sidekick?"
    return c.rank.value


def marked_name(c: Combatant, width: int) -> str:
    """The name fitted to ``width``, ending in ◌ when the players do not see it yet: the
    mark is kept whatever the name loses to the width.
    """
    if not c.hidden:
        return fit(c.name, width)
    return f"{fit(c.name, width - 2)} {HIDDEN_MARK}"


SHRINK = ("Side", "Zone", "Name", "Rank", "Cond.")
"""Columns a wide table narrows, first to last, when its content is wider than the
panel: the side's tag has its legend in the title, and the conditions go last (what
a GM decides by)."""


def _fitted(headings: tuple[str, ...], widths: tuple[int, ...], room: int) -> tuple[int, ...]:
    """Column widths that fit ``room`` cells, narrowing the long-text columns down to
    their 80-column widths: the table never takes focus, so it cannot scroll sideways.
    """
    fitted = dict(zip(headings, widths, strict=True))
    over = sum(widths) - room
    for heading in SHRINK:
        if over <= 0:
            break
        if heading in fitted:
            cut = min(over, max(0, fitted[heading] - NARROW.get(heading, 8) - 1))
            fitted[heading] -= cut
            over -= cut
    return tuple(fitted.values())


class CombatantTable(ScrollView, can_focus=False):
    """Name, side, zone, cover, wounds, Fear/Morale, conditions, first weapon's charges.

    Drawn line by line with one cached strip per row: a key that changes two rows redraws
    two lines (a DataTable redraws all its rows after any cell update, ~10 ms for 40 at
    120×40). The header stays on the first line; rows that do not fit fold into
    ``⋯ N more`` lines around the selected, targeted and acting rows, which always show.
    """

    COMPONENT_CLASSES = {
        "combatants--header", "combatants--even", "combatants--cursor", "combatants--fold"
    }  # fmt: skip
    DEFAULT_CSS = """
    CombatantTable {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        & > .combatants--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .combatants--header { background: ansi_bright_blue; color: ansi_default; }
        & > .combatants--even { background: $surface-lighten-1 50%; }
        &:dark > .combatants--even { background: $surface-darken-1 40%; }
        & > .combatants--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: bold;
        }
        & > .combatants--fold { color: $text-muted; text-style: italic; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._headings: tuple[str, ...] = tuple(NARROW)
        self._rows: dict[str, tuple[Text, ...]] = {}
        self._order: list[str] = []
        self._widths: tuple[int, ...] = ()
        self._cursor: str | None = None
        self._keep: list[int] = []  # rows that must show, most important first
        self._view: list[int | Fold] = []  # what each line under the header draws
        self._strips: dict[str, tuple[object, Strip]] = {}  # row id → (what it drew, line)
        self._shown: tuple[Encounter, str | None, str | None, frozenset[str], bool] | None = None

    def show(
        self,
        enc: Encounter,
        selected: str | None,
        target: str | None,
        acting: frozenset[str],
        compact: bool,
    ) -> None:
        """▸ marks the selected row, ◎ the attack target, • the actors; those rows stay
        in view whatever the height, and only the lines whose text changed are redrawn.
        """
        self._shown = (enc, selected, target, acting, compact)
        tags = side_tags(c.side for c in enc.combatants)
        melee = {c.id: bool(enc.in_melee_with(c)) for c in enc.combatants}

        def marks(key: str) -> str:
            picked = "▸" if key == selected else "◎" if key == target else ""
            return picked or ("•" if key in acting else " ")

        def cells_in(room: dict[str, int] | None) -> dict[str, dict[str, str]]:
            return {
                c.id: _cells(c, melee[c.id], marks(c.id), tags, compact, room)
                for c in enc.combatants
            }

        cells = cells_in(dict(NARROW) if compact else None)
        headings = tuple(next(iter(cells.values()))) if cells else tuple(NARROW)
        if compact:
            widths = tuple(NARROW[h] + 1 for h in headings)
        else:
            widths = tuple(
                max([len(h) + 1, *(cell_len(row[h]) + 1 for row in cells.values())])
                for h in headings
            )
            room = self.scrollable_content_region.width
            fitted = _fitted(headings, widths, room) if room else widths
            if fitted != widths:  # shorten by meaning what the ellipsis would cut
                widths = fitted
                cells = cells_in({h: w - 1 for h, w in zip(headings, widths, strict=True)})
        tagged = any(cells[c.id]["Side"] != c.side for c in enc.combatants)
        legend = side_legend(tags) if tagged else ""
        retitle(self, f"Combatants · {legend}" if legend else "Combatants")
        rows = {c.id: self._texts(c, cells[c.id]) for c in enc.combatants}
        order = list(rows)
        pinned = [selected, target, *(key for key in order if key in acting)]
        self._keep = [order.index(key) for key in pinned if key in rows]
        view = self._fold(len(order))
        whole = (headings, widths, order, view) != (
            self._headings, self._widths, self._order, self._view
        )  # fmt: skip
        changed = {
            i
            for i, key in enumerate(rows)
            if self._rows.get(key) != rows[key] or (key == selected) != (key == self._cursor)
        }
        self._headings, self._widths, self._rows, self._order = headings, widths, rows, order
        self._view, self._cursor = view, selected if selected in rows else None
        if whole:
            self._strips.clear()
            self.virtual_size = Size(sum(widths), len(view) + 1)
            self.refresh()
        else:
            for line, entry in enumerate(view):
                if entry in changed:
                    self.refresh_line(line + 1)

    def _fold(self, count: int) -> list[int | Fold]:
        """The rows the lines under the header draw (every row before the first layout)."""
        lines = self.scrollable_content_region.height - 1
        return shown_rows(count, self._keep, lines) if lines > 0 else list(range(count))

    def on_resize(self) -> None:
        """A new height folds other rows; a new width fits the columns anew."""
        if self._shown is not None:
            self.show(*self._shown)

    def get_cell(self, row: str, heading: str) -> Text:
        """The text shown in a cell (tests and screens read the table through this)."""
        return self._rows[row][self._headings.index(heading)]

    @property
    def row_texts(self) -> list[tuple[Text, ...]]:
        """Every row's cells, top to bottom."""
        return [self._rows[key] for key in self._order]

    @property
    def shown_ids(self) -> list[str]:
        """The rows in view now, top to bottom (the folded ones left out)."""
        return [self._order[entry] for entry in self._view if isinstance(entry, int)]

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if y == 0:
            style = self.get_component_rich_style("combatants--header")
            texts = tuple(Text(h) for h in self._headings)
            return self._strip(texts, style).crop_extend(0, width, style)
        line = round(self.scroll_offset.y) + y - 1
        base = self.rich_style
        if not 0 <= line < len(self._view):
            return Strip.blank(width, base)
        entry = self._view[line]
        if isinstance(entry, tuple):
            first, last = entry
            style = base + self.get_component_rich_style("combatants--fold")
            text = Text(f" ⋯ {last - first + 1} more (↑ ↓ reach them)")
            segments = Segment.apply_style(text.render(self.app.console), style)
            return Strip(segments, text.cell_len).crop_extend(0, width, style)
        key = self._order[entry]
        if key == self._cursor:
            style = base + self.get_component_rich_style("combatants--cursor")
        elif entry % 2 == 0:
            style = base + self.get_component_rich_style("combatants--even")
        else:
            style = base
        drawn = (self._rows[key], style, self._widths)
        cached = self._strips.get(key)
        if cached is None or cached[0] != drawn:
            cached = (drawn, self._strip(self._rows[key], style))
            self._strips[key] = cached
        return cached[1].crop_extend(0, width, style)

    def _strip(self, texts: tuple[Text, ...], style: Style) -> Strip:
        line = Text(no_wrap=True, overflow="ellipsis")
        for text, width in zip(texts, self._widths, strict=False):
            cell = text.copy()
            cell.truncate(width, overflow="ellipsis", pad=True)
            line.append_text(cell)
        segments = line.render(self.app.console)
        return Strip(Segment.apply_style(segments, style), line.cell_len)

    @staticmethod
    def _texts(c: Combatant, cells: dict[str, str]) -> tuple[Text, ...]:
        style = "" if c.standing else "dim strike"
        return tuple(
            Text(v + " ", style=style, no_wrap=True, overflow="ellipsis") for v in cells.values()
        )


def _cells(
    c: Combatant,
    in_melee: bool,
    mark: str,
    tags: dict[str, str],
    compact: bool,
    room: dict[str, int] | None,
) -> dict[str, str]:
    """A row's cells, each in its column's ``room`` (the whole text when None): the side's
    tag, a spot's short name and the most pressing marks instead of a cut-off word.
    """
    width = dict.fromkeys((*NARROW, "Rank"), 10**6) | {"Cond.": WIDE_COND} | (room or {})
    return {
        "Name": mark + marked_name(c, min(25, width["Name"]) - len(mark)),
        "Side": c.side if len(c.side) <= width["Side"] else tags[c.side],
        **({} if compact else {"Rank": fit(rank_text(c), width["Rank"])}),
        "Zone": zone_text(c.zone, width["Zone"]),
        "Cover": COVER_TEXT[c.cover],
        "Wnd": wound_text(c),
        "F/M": fear_text(c),
        "Cond.": cond_cell(c, in_melee, width["Cond."]),
        "Chg": charge_text(c, compact),
    }
