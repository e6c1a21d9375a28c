"""The initiative order (R-INIT-1/2): who acts when, whose turn it is, actions left.

Rendered from the encounter on every change; the widget keeps no state of its own.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ...campaign.combat import actor_name
from ...campaign.encounter import Combatant, Encounter
from .labels import fit, side_tags


def group_name(enc: Encounter, actor: str) -> str:
    """``Pirate raider ×5`` for a group, ``×3/5`` once some are down, the name for one
    combatant: the engine's :func:`actor_name` counting every member.
    """
    return actor_name(enc, actor, tally=True)


def pips(left: int, declared: int) -> str:
    """● per action left, ○ per action used or lost: ``●○`` is one left of two."""
    return "●" * left + "○" * max(0, declared - left)


class InitiativeList(Static):
    """Order of play with ▶ on the current turn and the acting members' actions."""

    def show(self, enc: Encounter, compact: bool) -> None:
        order = self.render_order(enc, compact)
        if order != self.content:
            self.update(order, layout=False)  # its box never resizes

    def render_order(self, enc: Encounter, compact: bool) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        if not enc.active:
            text.append("Not in combat\n", style="bold")
            text.append("s starts: initiative\nis rolled (R-INIT-1)", style="dim")
            return text
        width = 16 if compact else 20
        # numbered in the combatants' order, as the table and the range board number them
        tags = side_tags([*(c.side for c in enc.combatants), *(r.side for r in enc.order)])
        for index, roll in enumerate(enc.order):
            current = index == enc.turn_index
            members = enc.members(roll.actor)
            style = "bold reverse" if current else ("" if members else "dim strike")
            text.append("▶" if current else " ", style="bold")
            text.append(f"{roll.total:>2} ", style="dim")
            text.append(fit(group_name(enc, roll.actor), width).ljust(width), style=style)
            if not compact:
                text.append(f" {tags[roll.side]}", style="dim")
            text.append("\n")
            if current and enc.turn is not None:
                for member in members:
                    text.append_text(self._member_line(enc, member, width, len(members) > 1))
        text.rstrip()
        return text

    @staticmethod
    def _member_line(enc: Encounter, member: Combatant, width: int, group: bool) -> Text:
        """``●○ Pirate raider 2`` per group member; ``●● 2 left`` for one combatant."""
        turn = enc.turn
        assert turn is not None
        left = turn.left(member.id)
        line = Text("    ")
        line.append(pips(left, turn.declared), style="bold")
        label = fit(member.name, width - 3 - turn.declared) if group else f"{left} left"
        line.append(f"  {label}\n", style="" if left else "dim")
        return line
