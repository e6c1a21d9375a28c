"""What the two cone weapons' plans share (suppressive fire, R-ATK-16; the Sonic Relik's
cone): a plan is worked out before any die rolls, with the reason the command would be
refused, so a dialog shows the refusal and the handler raises the very same one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...packs import Weapon
from ...rules import RulesError
from ..encounter import Combatant, WeaponState


@dataclass(frozen=True, kw_only=True)
class RefusablePlan:
    """A plan's refusals; a subclass gives the ``headline`` its preview opens with."""

    refusal: str = ""  # what RulesError the command meets; "" when it may fire
    fire_refusal: str = ""  # the part of it no cone changes: weapon, charges, turn

    @property
    def headline(self) -> str:
        raise NotImplementedError

    def check(self) -> None:
        """Raise the refusal, if any, before anything changes."""
        if self.refusal:
            raise RulesError(self.refusal)

    def refused_preview(self) -> tuple[str, ...] | None:
        """The preview of a plan that cannot fire (None when it may): why not."""
        return (self.headline, f"cannot fire: {self.refusal}") if self.refusal else None


def in_hand_refusal(holder: Combatant, weapon: Weapon, state: WeaponState) -> str:
    """Why ``holder`` cannot fire ``weapon`` at all now ("" if it may): dropped or stuck."""
    if state.dropped or state.stuck:
        return f"{holder.name} cannot fire {weapon.name} now (dropped or stuck)"
    return ""
