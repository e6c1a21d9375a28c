"""The combatant table: one row per combatant, rebuilt from the encounter on every change.

The screen owns which row is selected (it passes ``selected`` down); the table never
takes focus, so every key reaches the screen's bindings.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from ...campaign.encounter import Combatant, Encounter
from ...rules import Cover, Derived, Rank
from .initiative import fit

#: Column widths when compact (80 columns); wide tables size columns to their content.
NARROW = {"Name": 14, "Side": 5, "Zone": 7, "Cover": 5, "Wnd": 4, "F/M": 4, "Cond.": 6, "Chg": 2}

COVER_TEXT = {Cover.NONE: "–", Cover.LIGHT: "light", Cover.MEDIUM: "med", Cover.HEAVY: "heavy"}


def wound_text(c: Combatant) -> str:
    """R-WOUND-1/2/6: ``−1``/``−2``/``sev`` (Heroes), ``OUT`` (taken out), ``unc``;
    non-lethal steps follow as ``s−1`` (Stamina track).
    """
    if c.out:
        return "OUT"
    if c.unconscious:
        return "unc"
    parts = []
    if c.wounds:
        parts.append("sev" if c.wounds >= 3 else f"−{c.wounds}")
    if c.nonlethal:
        parts.append(f"s−{c.nonlethal}")
    return " ".join(parts) or "–"


def fear_text(c: Combatant) -> str:
    """Fear tokens / Morale; ``!`` once Fear ≥ Morale (a Fear check next turn, R-FEAR-1)."""
    morale = c.traits[Derived.MORALE]
    return f"{c.fear}/{morale}" + ("!" if c.fear >= morale else "")


def condition_text(c: Combatant, in_melee: bool) -> str:
    marks = [*(["prone"] if c.prone else []), *c.conditions]
    if in_melee:
        marks.append("melee")
    return ",".join(marks) or "–"


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


class CombatantTable(DataTable[Text]):
    """Name, side, zone, cover, wounds, Fear/Morale, conditions, first weapon's charges."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True, cell_padding=0)
        self.can_focus = False

    def show(
        self,
        enc: Encounter,
        selected: str | None,
        target: str | None,
        acting: frozenset[str],
        compact: bool,
    ) -> None:
        """▸ marks the selected row, ◎ the attack target, • the actors. Only the cells that
        changed are redrawn (a key press must stay well inside a frame with 40 rows); a new
        set of combatants or columns rebuilds the table.
        """
        cells = {
            c.id: self._cells(c, bool(enc.in_melee_with(c)), selected, target, acting, compact)
            for c in enc.combatants
        }
        rows = {c.id: self._texts(c, cells[c.id]) for c in enc.combatants}
        headings = list(next(iter(cells.values()))) if cells else list(NARROW)
        layout = (tuple(headings), tuple(rows))
        if layout != getattr(self, "_layout", None):
            self._rebuild(rows, headings, compact)
            self._layout = layout
        else:
            shown: dict[str, tuple[Text, ...]] = self._shown
            for key, texts in rows.items():
                for column, (old, new) in enumerate(zip(shown[key], texts, strict=True)):
                    if old != new:
                        self.update_cell(key, self._columns[column], new)
        self._shown = rows
        ids = list(rows)
        if selected in ids:
            self.move_cursor(row=ids.index(selected), animate=False)

    def _rebuild(
        self, rows: dict[str, tuple[Text, ...]], headings: list[str], compact: bool
    ) -> None:
        self.clear(columns=True)
        self._columns = headings
        for heading in headings:
            width = NARROW.get(heading) if compact else None
            self.add_column(
                Text(heading + " ", style="bold"), width=width and width + 1, key=heading
            )
        for key, texts in rows.items():
            self.add_row(*texts, key=key)

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
            "Name": mark + c.name,
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
            cells = {k: fit(v, NARROW[k]) for k, v in cells.items()}
        else:
            cells["Name"] = fit(cells["Name"], 25)
        return cells
