"""The combatant table: one row per combatant, rebuilt from the encounter on every change.

The screen owns which row is selected (it passes ``selected`` down); the table never
takes focus, so every key reaches the screen's bindings.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...campaign.encounter import Combatant, Encounter
from ...rules import Cover, Derived, Rank
from ...rules.combat import severely_wounded
from .initiative import fit

#: Column widths when compact (80 columns); wide tables size columns to their content.
NARROW = {"Name": 14, "Side": 4, "Zone": 7, "Cover": 5, "Wnd": 4, "F/M": 5, "Cond.": 6, "Chg": 2}

COVER_TEXT = {Cover.NONE: "–", Cover.LIGHT: "light", Cover.MEDIUM: "med", Cover.HEAVY: "heavy"}

HIDDEN_MARK = "◌"
"""After the name of a combatant hidden from the players (issue 21), in the builder too."""


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


MOST_PRESSING = (
    "hidden", "dying", "pinned", "panicked", "shaken", "stunned", "grappled", "dazed",
    "bleeding", "confused", "nauseated", "prone", "melee",
)  # fmt: skip
"""Marks in the order a narrow column shows them: what changes the GM's next call first."""

SHORT = {
    "hidden": "hid", "dying": "DYI", "pinned": "PIN", "panicked": "PAN", "shaken": "shk",
    "stunned": "stn", "grappled": "grp", "dazed": "daz", "bleeding": "bld", "confused": "cnf",
    "nauseated": "nau", "prone": "prn", "melee": "mel", "encumbered": "enc", "fatigued": "fat",
}  # fmt: skip
"""Three letters a mark in the 80-column table (F1 lists them); the gravest in capitals."""


def _marks(c: Combatant, in_melee: bool) -> list[str]:
    marks = [*(["hidden"] if c.hidden else []), *(["prone"] if c.prone else []), *c.conditions]
    return [*marks, "melee"] if in_melee else marks


def condition_text(c: Combatant, in_melee: bool) -> str:
    """``hidden`` (from the players) first, then prone, the §8 conditions, ``melee``."""
    return ",".join(_marks(c, in_melee)) or "–"


def short_conditions(c: Combatant, in_melee: bool, width: int) -> str:
    """The marks in ``width`` cells, most pressing first, each in three letters, and
    ``+N`` for those that do not fit (issue 19 #8: ``prone…`` hid a Pinned combatant).
    """
    order = {name: i for i, name in enumerate(MOST_PRESSING)}
    marks = sorted(_marks(c, in_melee), key=lambda m: order.get(m.partition(":")[0], 99))
    shown: list[str] = []
    for index, mark in enumerate(marks):
        name, _, level = mark.partition(":")
        word = SHORT.get(name, name[:3]) + level
        rest = len(marks) - index - 1
        text = "".join(shown) + word + (f"+{rest}" if rest else "")
        if len(text) > width:
            return "".join(shown) + f"+{len(marks) - index}"
        shown.append(word)
    return "".join(shown) or "–"


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


SHRINK = ("Cond.", "Name", "Side", "Zone", "Rank")
"""Columns a wide table narrows first when its content is wider than the panel."""


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
    120×40). The header stays on the first line while the rows scroll under it.
    """

    COMPONENT_CLASSES = {"combatants--header", "combatants--even", "combatants--cursor"}
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
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._headings: tuple[str, ...] = tuple(NARROW)
        self._rows: dict[str, tuple[Text, ...]] = {}
        self._order: list[str] = []
        self._widths: tuple[int, ...] = ()
        self._cursor: str | None = None
        self._strips: dict[str, tuple[object, Strip]] = {}  # row id → (what it drew, line)

    def show(
        self,
        enc: Encounter,
        selected: str | None,
        target: str | None,
        acting: frozenset[str],
        compact: bool,
    ) -> None:
        """▸ marks the selected row, ◎ the attack target, • the actors; only the lines
        whose text changed are redrawn, and the selected row is scrolled into view.
        """
        cells = {
            c.id: self._cells(c, bool(enc.in_melee_with(c)), selected, target, acting, compact)
            for c in enc.combatants
        }
        rows = {c.id: self._texts(c, cells[c.id]) for c in enc.combatants}
        headings = tuple(next(iter(cells.values()))) if cells else tuple(NARROW)
        widths = tuple(
            NARROW[h] + 1
            if compact
            else max([len(h) + 1, *(row[i].cell_len for row in rows.values())])
            for i, h in enumerate(headings)
        )
        room = self.scrollable_content_region.width
        if room and not compact:
            widths = _fitted(headings, widths, room)
        whole = (headings, widths, list(rows)) != (self._headings, self._widths, self._order)
        changed = [
            i
            for i, key in enumerate(rows)
            if whole
            or self._rows.get(key) != rows[key]
            or (key == selected) != (key == self._cursor)
        ]
        self._headings, self._widths, self._rows, self._order = headings, widths, rows, list(rows)
        self._cursor = selected if selected in rows else None
        if whole:
            self._strips.clear()
            self.virtual_size = Size(sum(widths), len(rows) + 1)
            self.refresh()
        else:
            for i in changed:
                self.refresh_line(i + 1)
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        if self._cursor is None:
            return
        index = self._order.index(self._cursor)
        shown = max(1, self.scrollable_content_region.height - 1)  # rows under the header
        top = round(self.scroll_offset.y)
        if index < top:
            self.scroll_to(y=index, animate=False)
        elif index >= top + shown:
            self.scroll_to(y=index - shown + 1, animate=False)

    def get_cell(self, row: str, heading: str) -> Text:
        """The text shown in a cell (tests and screens read the table through this)."""
        return self._rows[row][self._headings.index(heading)]

    @property
    def row_texts(self) -> list[tuple[Text, ...]]:
        """Every row's cells, top to bottom."""
        return [self._rows[key] for key in self._order]

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if y == 0:
            style = self.get_component_rich_style("combatants--header")
            texts = tuple(Text(h) for h in self._headings)
            return self._strip(texts, style).crop_extend(0, width, style)
        index = round(self.scroll_offset.y) + y - 1
        base = self.rich_style
        if not 0 <= index < len(self._order):
            return Strip.blank(width, base)
        key = self._order[index]
        if key == self._cursor:
            style = base + self.get_component_rich_style("combatants--cursor")
        elif index % 2 == 0:
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

    @staticmethod
    def _cells(
        c: Combatant,
        in_melee: bool,
        selected: str | None,
        target: str | None,
        acting: frozenset[str],
        compact: bool,
    ) -> dict[str, str]:
        mark = (
            "▸" if c.id == selected else "◎" if c.id == target else "•" if c.id in acting else " "
        )
        cells = {
            "Name": mark + marked_name(c, (NARROW["Name"] if compact else 25) - len(mark)),
            "Side": c.side,
            **({} if compact else {"Rank": rank_text(c)}),
            "Zone": c.zone,
            "Cover": COVER_TEXT[c.cover],
            "Wnd": wound_text(c),
            "F/M": fear_text(c),
            "Cond.": condition_text(c, in_melee),
            "Chg": charge_text(c, compact),
        }
        if compact:
            cells = {k: v if k == "Name" else fit(v, NARROW[k]) for k, v in cells.items()}
            cells["Cond."] = short_conditions(c, in_melee, NARROW["Cond."])
        return cells
