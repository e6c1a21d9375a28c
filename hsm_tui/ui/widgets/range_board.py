"""The range board (R-COMBAT-2): zones, who stands in each, and the band between each
pair, as a text table (imagination mode has no grid).
"""

from __future__ import annotations

from itertools import combinations

from rich.text import Text
from textual.widgets import Static

from ...campaign.encounter import Encounter
from ...rules import RulesError


class RangeBoard(Static):
    """Zones with their occupants by side; ▸ marks the selected combatant's zone."""

    def show(self, enc: Encounter, zone: str | None) -> None:
        """Redraw; a new layout only when the board's height (its line count) changes,
        since a layout pass re-renders the whole screen (≈40 ms at 120×40).
        """
        board = self.render_board(enc, zone)
        lines = board.plain.count("\n")
        self.update(board, layout=lines != getattr(self, "_lines", None))
        self._lines = lines

    @staticmethod
    def render_board(enc: Encounter, zone: str | None) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        if not enc.zones:
            text.append("No zones yet", style="dim")
            return text
        width = max(len(z) for z in enc.zones)
        for z in enc.zones:
            here = [c for c in enc.combatants if c.zone == z and c.standing]
            sides = dict.fromkeys(c.side for c in here)
            who = " · ".join(f"{side[:3]} {sum(c.side == side for c in here)}" for side in sides)
            text.append("▸ " if z == zone else "  ", style="bold")
            text.append(z.ljust(width), style="bold" if z == zone else "")
            text.append(f"  {who or '—'}\n", style="dim")
        text.append("\n")
        pairs = [(a, b, f"{a} ↔ {b}") for a, b in combinations(enc.zones, 2)]
        width = max((len(label) for *_, label in pairs), default=0)
        for a, b, label in pairs:
            try:
                band = enc.zone_band(a, b).label
            except RulesError:
                band = "? (not set)"
            mine = zone in (a, b)
            text.append("▸ " if mine else "  ", style="bold")
            text.append(label.ljust(width), style="bold" if mine else "")
            text.append(f"  {band}\n")
        text.rstrip()
        return text
