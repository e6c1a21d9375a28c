"""F4 and F7 ``J``: a side's standing answer to its Minions' dive questions (R-ATK-5),
asked once instead of at every hit: pick the side, then the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import SessionScreen


def ask_dive_policy(screen: SessionScreen) -> None:
    """The two questions, on the decision dialog; the answer goes to the engine."""
    from ...campaign.combat import Option, SetDivePolicy
    from ...campaign.combat.dives import said
    from ...campaign.encounter import DIVE_POLICIES
    from .decision_dialog import DecisionDialog

    enc = screen.session.encounter
    sides = list(dict.fromkeys(c.side for c in enc.combatants))
    if not sides:
        screen.notify("No side in the encounter yet", severity="warning")
        return
    now = dict(enc.dive_policy)
    side_options = [
        Option(str(n), f"{side}: Minions {said(now.get(side, DIVE_POLICIES[0]))}", side)
        for n, side in enumerate(sides, 1)
    ]

    def picked(side: str | None) -> None:
        if side is None:
            return
        options = [
            Option(str(n), said(policy), SetDivePolicy(side, policy))
            for n, policy in enumerate(DIVE_POLICIES, 1)
        ]
        screen.choose(f"Dive policy: {side}", "When one of its Minions is hit, it …", options)

    question = "Whose Minions answer dive questions once for all? (Heroes are always asked)"
    screen.app.push_screen(DecisionDialog("Dive policy (R-ATK-5)", question, side_options), picked)
