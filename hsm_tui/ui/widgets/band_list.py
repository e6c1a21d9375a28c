"""The builder's bands: one row per pair of zones with the range band between them
(R-COMBAT-2), and the band ``b`` steps the highlighted pair to.
"""

from __future__ import annotations

from itertools import combinations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...campaign.combat import on_the_way
from ...campaign.encounter import Encounter
from ...rules import RangeBand, RulesError
from .labels import zone_text, zone_whole

BAND_CYCLE = (RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG, RangeBand.EXTRA_LONG)
"""What ``b`` steps through between two zones (R-COMBAT-2), nearest first; Melee is for
combatants, not places, so a zone pair never cycles to it."""

BAND_SHORT = {RangeBand.EXTRA_LONG: "x-long"}
"""Band labels fit seven columns in the bands list; ``?`` marks a pair not set yet."""

BAND_W = 7
"""The band's column, before the pair."""


def pair_text(a: str, b: str, width: int, room_below: bool = False) -> tuple[str, bool]:
    """``a ↔ b`` in ``width`` cells, and whether every name in it is whole. A spot on the
    way is shortened by meaning, where it leads kept before any name is cut (``ruins ↔
    ruins→ridge S``, ``→ridge S``): never ``ridge →…``. When that does not fit one line,
    ``room_below`` puts the pair on two (``a ↔``, then ``b`` under it), else the spot is
    cut (``→ridg S``). Two zones of the scene are left whole for the list to cut at the
    row's end, as it cuts any row.
    """
    whole = f"{a} ↔ {b}"
    if len(whole) <= width or (on_the_way(a) is None and on_the_way(b) is None):
        return whole, True
    room = width - 3
    for first, other in ((a, b), (b, a)):  # one whole, the other shortened by meaning
        short = zone_whole(other, room - len(first))
        if short is not None:
            return (f"{first} ↔ {short}" if first is a else f"{short} ↔ {first}"), True
    if room_below:
        return f"{zone_text(a, width - 2)} ↔\n{' ' * BAND_W}{zone_text(b, width)}", True
    first, other = (b, a) if on_the_way(b) is None else (a, b)  # a zone of the scene first
    kept = zone_text(first, min(len(first), max(room - SPOT_MIN, room // 2)))
    cut = zone_text(other, room - len(kept))
    return (f"{kept} ↔ {cut}" if first is a else f"{cut} ↔ {kept}"), False


SPOT_MIN = 7
"""The fewest cells a spot on the way is shortened to beside another zone: ``→ridg S``."""


def _two_lines(pairs: list[tuple[str, str]], width: int, height: int) -> set[tuple[str, str]]:
    """The pairs that take two lines to keep their names whole, as many as the list's
    spare lines allow, those one line would cut most first."""
    cut = [(a, b) for a, b in pairs if not pair_text(a, b, width)[1]]
    cut.sort(key=lambda pair: len(pair_text(*pair, width)[0]) - len(" ↔ ".join(pair)))
    return set(cut[: max(0, height - len(pairs))])


class BandList(OptionList):
    """``medium  ridge ↔ camp``: every pair of zones, a pair not set yet marked ``?``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._enc = Encounter(zones=())

    def on_resize(self) -> None:
        """Its width known (or changed): the pairs fitted to it."""
        self.show(self._enc)

    def show(self, enc: Encounter) -> None:
        """List ``enc``'s zone pairs, keeping the highlighted row where it was."""
        self._enc = enc
        keep = self.highlighted
        pairs = list(combinations(enc.zones, 2))
        height = self.size.height or 8
        scrollbar = len(pairs) > height  # two lines only where no scrollbar comes of it
        width = max(12, (self.size.width or 22) - scrollbar - BAND_W)
        two_lines = _two_lines(pairs, width, height)
        options = []
        for i, (a, b) in enumerate(pairs):
            try:
                between = enc.zone_band(a, b)
            except RulesError:
                band = "?"
            else:
                band = BAND_SHORT.get(between, between.label)
            text, _ = pair_text(a, b, width, (a, b) in two_lines)
            label = Text.assemble((f"{band:<{BAND_W}}", "bold"), text)
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
