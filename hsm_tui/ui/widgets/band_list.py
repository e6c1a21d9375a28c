"""The builder's bands: one row per pair of zones with the range band between them
(R-COMBAT-2), and the band ``b`` steps the highlighted pair to.
"""

from __future__ import annotations

from itertools import combinations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...campaign.encounter import Encounter
from ...rules import RangeBand, RulesError

BAND_CYCLE = (RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG, RangeBand.EXTRA_LONG)
"""What ``b`` steps through between two zones (R-COMBAT-2), nearest first; Melee is for
combatants, not places, so a zone pair never cycles to it."""

BAND_SHORT = {RangeBand.EXTRA_LONG: "x-long"}
"""Band labels fit seven columns in the bands list; ``?`` marks a pair not set yet."""


class BandList(OptionList):
    """``medium  ridge ↔ camp``: every pair of zones, a pair not set yet marked ``?``."""

    def show(self, enc: Encounter) -> None:
        """List ``enc``'s zone pairs, keeping the highlighted row where it was."""
        keep = self.highlighted
        options = []
        for i, (a, b) in enumerate(combinations(enc.zones, 2)):
            try:
                between = enc.zone_band(a, b)
            except RulesError:
                band = "?"
            else:
                band = BAND_SHORT.get(between, between.label)
            label = Text.assemble((f"{band:<7}", "bold"), f"{a} ↔ {b}")
            options.append(Option(label, id=str(i)))
        if not options:
            hint = "two zones needed" if enc.zones else "add zones first (z)"
            options.append(Option(Text(hint, "dim"), disabled=True))
        self.set_options(options)
        if options and not options[0].disabled:
            self.highlighted = min(keep or 0, len(options) - 1)

    def stepped(self, enc: Encounter, step: int) -> tuple[str, str, str] | None:
        """The highlighted pair and the next (``step`` 1) or previous (−1) band for it, a
        pair not set yet (or set outside the cycle) going to Short; None without a pair.
        """
        pairs = list(combinations(enc.zones, 2))
        index = self.highlighted
        if not pairs or index is None:
            return None
        a, b = pairs[index]
        try:
            now = BAND_CYCLE.index(enc.zone_band(a, b))
            band = BAND_CYCLE[(now + step) % len(BAND_CYCLE)]
        except (RulesError, ValueError):  # not set yet, or set to a band outside the cycle
            band = BAND_CYCLE[0]
        return a, b, band.label
