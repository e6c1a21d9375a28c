"""The range board (R-COMBAT-2): zones, who stands in each, and the band between each
pair, as a text table (imagination mode has no grid).
"""

from __future__ import annotations

from itertools import combinations

from rich.text import Text
from textual.widgets import Static

from ...campaign.encounter import Encounter
from ...rules import RulesError
from .labels import side_tags, zone_text

UNSET = "not set"
"""A pair's band before the GM sets one (F7 b)."""


class RangeBoard(Static):
    """Zones with their occupants by side; ▸ marks the selected combatant's zone."""

    def show(self, enc: Encounter, zone: str | None, width: int | None = None) -> None:
        """Redraw in ``width`` cells (the board's own width when None); a new layout
        only when the board's height (its line count) changes, since a layout pass
        re-renders the whole screen (≈40 ms at 120×40).
        """
        board = self.render_board(enc, zone, width or self.content_size.width or None)
        if board == self.content:
            return
        lines = board.plain.count("\n")
        self.update(board, layout=lines != getattr(self, "_lines", None))
        self._lines = lines

    @staticmethod
    def render_board(enc: Encounter, zone: str | None, width: int | None = None) -> Text:
        """Each band leads its line and each zone's name is shortened by meaning:
        a long spot name never cuts off the band or who stands there."""
        text = Text(no_wrap=True, overflow="ellipsis")
        if not enc.zones:
            text.append("No zones yet", style="dim")
            return text
        room = width or 10**6
        tags = side_tags(c.side for c in enc.combatants)
        who = {}
        for z in enc.zones:
            here = [c for c in enc.combatants if c.zone == z and c.standing]
            sides = dict.fromkeys(c.side for c in here)
            counts = (f"{tags[side]} {sum(c.side == side for c in here)}" for side in sides)
            who[z] = " · ".join(counts) or "—"
        name_width = max(len(z) for z in enc.zones)
        name_width = max(5, min(name_width, room - 4 - max(len(w) for w in who.values())))
        for z in enc.zones:
            mine = z == zone
            text.append("▸ " if mine else "  ", style="bold")
            text.append(zone_text(z, name_width).ljust(name_width), style="bold" if mine else "")
            text.append(f"  {who[z]}\n", style="dim")
        text.append("\n")
        bands = {}
        for a, b in combinations(enc.zones, 2):
            try:
                bands[a, b] = enc.zone_band(a, b).label
            except RulesError:
                bands[a, b] = UNSET
        band_width = max((len(band) for band in bands.values()), default=0)
        side = max(5, (room - 2 - band_width - 2 - 3) // 2)  # each zone of a pair
        for (a, b), band in bands.items():
            mine = zone in (a, b)
            text.append("▸ " if mine else "  ", style="bold")
            text.append(band.ljust(band_width), style="bold" if mine else "")
            text.append(f"  {zone_text(a, side)} ↔ {zone_text(b, side)}\n")
        text.rstrip()
        return text
