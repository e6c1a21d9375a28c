"""The builder's encounter list: the combatants under their sides, each with its zone and
its cover (or why it is out of the fight), and who stands where.

The screen shows it the encounter after every change; the list remembers the combatant
the GM highlighted (a view of the encounter, not state) so a redraw keeps the place.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...campaign.encounter import Combatant, Encounter
from ...rules import Rank
from .combatants import COVER_TEXT, HIDDEN_MARK, marked_name, wound_text
from .labels import fit, zone_text

ROW_FIXED = 9
"""A roster row's cells besides the name and the zone: the mark, spaces, the cover."""


def zone_width(width: int, zones: list[str]) -> int:
    """The zone column of a roster ``width`` wide: 7 when narrow, else as wide as the
    longest zone shown needs (a spot shortened by meaning), up to half of what name and
    zone share.
    """
    if width < 36:
        return 7
    half = (width - ROW_FIXED) // 2
    return max(7, max((len(zone_text(zone, half)) for zone in zones), default=7))


def roster_row(c: Combatant, width: int, zone_w: int = 7) -> Text:
    """``? Name  zone  cover``: the mark flags a Sidekick's rules (? undecided, h / m), ◌
    after the name one hidden from the players; one out of the fight reads ``OUT`` (or
    ``unc``) in place of its cover, dimmed (R-WOUND-2). A spot on the way keeps where
    it leads (``→dig S``, ``ridge→dig S``), never ``ridge…``.
    """
    mark = " "
    if c.rank is Rank.SIDEKICK:
        mark = c.plays_as.value[0] if c.plays_as else "?"
    name_w = max(6, width - zone_w - ROW_FIXED)
    return Text.assemble(
        (mark, "bold"),
        f" {marked_name(c, name_w):<{name_w}} ",
        (f"{zone_text(c.zone, zone_w):<{zone_w}} ", "dim"),
        COVER_TEXT[c.cover] if c.standing else (wound_text(c), "bold"),
        style="" if c.standing else "dim",
        no_wrap=True,
        overflow="ellipsis",
    )


def rank_note(c: Combatant) -> str:
    """The highlighted combatant's rank, for a Sidekick whether its rules are decided, and
    whether the players see it yet.
    """
    hidden = f", hidden {HIDDEN_MARK}" if c.hidden else ""
    if c.rank is not Rank.SIDEKICK:
        return c.rank.value.title() + hidden
    if c.plays_as is None:
        return f"Sidekick, rules undecided (d){hidden}"
    return f"Sidekick as {c.plays_as.value.title()}{hidden}"


def who_is_there(zone: str, enc: Encounter) -> str:
    """``pirates (3)`` or ``empty``: the party's zone is chosen knowing who waits there."""
    sides: dict[str, int] = {}
    for c in enc.combatants:
        if c.zone == zone and c.standing:
            sides[c.side] = sides.get(c.side, 0) + 1
    return ", ".join(f"{side} ({n})" for side, n in sides.items()) or "empty"


class EncounterList(OptionList):
    """The encounter's combatants, a ruled heading per side; the subtitle names the
    highlighted one's rank (and the key that changes its cover).
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.picked: str | None = None
        """The id of the combatant highlighted, kept across redraws (the screen sets it to
        a combatant just added, or to a neighbour of one leaving)."""
        self._shown: dict[str, Combatant] = {}
        self._enc = Encounter(zones=())

    def on_resize(self) -> None:
        """Its width known (or changed): the rows fitted to it."""
        self.show(self._enc)

    def show(self, enc: Encounter) -> None:
        """List ``enc``'s combatants by side, the picked one highlighted (else the first)."""
        self._enc = enc
        width = max(20, self.scrollable_content_region.width or 26)
        zone_w = zone_width(width, [c.zone for c in enc.combatants])
        options: list[Option] = []
        for side in dict.fromkeys(c.side for c in enc.combatants):
            members = [c for c in enc.combatants if c.side == side]
            down = sum(not c.standing for c in members)
            count = f"{len(members)}" + (f", {down} out" if down else "")
            head = Text(f"{fit(side, width - len(count) - 3)} · {count}", "bold underline")
            options.append(Option(head, disabled=True))
            options += [Option(roster_row(c, width, zone_w), id=c.id) for c in members]
        if not options:
            options.append(Option(Text("No combatants yet", "dim"), disabled=True))
        self._shown = {c.id: c for c in enc.combatants}
        picked = self.picked
        self.set_options(options)
        ids = [o.id for o in options if o.id is not None]
        if ids:
            self.highlighted = self.get_option_index(picked if picked in ids else ids[0])
        self.border_title = f"Encounter ({len(enc.combatants)})"
        self._show_picked()

    def pick_neighbour(self, cid: str) -> None:
        """``cid`` is leaving: the highlight goes to the next row, else the one before."""
        ids = [o.id for o in self.options if o.id is not None]
        at = ids.index(cid)
        self.picked = (ids[at + 1 : at + 2] or ids[at - 1 : at] or [None])[0]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The GM's ↑ ↓ (or a redraw) picks the combatant the next key acts on."""
        self.picked = event.option.id
        self._show_picked()

    def _show_picked(self) -> None:
        c = self._shown.get(self.picked) if self.picked is not None else None
        self.border_subtitle = f"{rank_note(c)} · c cover" if c else ""
