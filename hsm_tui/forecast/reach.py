"""Which side can never hit which in a forecast fight, and why (:func:`unreached`), so a
forecast of zeros comes with its reason. Pure: it reads an encounter and the catalog.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..campaign.combat import weapon_style
from ..campaign.encounter import Combatant, Encounter
from ..packs import Catalog, Weapon
from ..rules import RangeBand, RulesError, attack_odds
from ..rules.combat import FIGHTING_STYLES, attack_dice, range_penalty


@dataclass(frozen=True)
class NoReach:
    """Side ``side`` can never hit side ``target`` in a forecast fight, and why."""

    side: str
    target: str
    why: str

    def __str__(self) -> str:
        return f"{self.side} can't reach {self.target}: {self.why}"

    def as_dict(self) -> dict[str, str]:
        return {"side": self.side, "target": self.target, "why": self.why}


def unreached(enc: Encounter, catalog: Catalog) -> tuple[NoReach, ...]:
    """Each side of ``enc`` that can never hit another side under the forecast's policy
    (``hsm_tui.forecast.simulate._act``), so a forecast of zeros comes with its reason.

    Generous on purpose, so "never" is true: a combatant may get to any zone joined to
    its own by bands of Short or less (the policy only closes in across such a band);
    melee needs a shared zone; a weapon counts when some hit is possible at the
    nearest band it could attack across (−1 per band beyond its range and no maximum,
    R-COMBAT-3; TN below 1: a Minion always fails, a Hero rarely hits, R-TASK-4).
    Charges are not counted; for a ranged weapon a band not set yet counts as within
    reach (the fight says so), while melee needs a path of set Short bands, as the
    policy never moves across a band that is not set.
    """
    near = _near_zones(enc)
    sides = list(dict.fromkeys(c.side for c in enc.combatants))
    found = []
    for side in sides:
        mine = [c for c in enc.combatants if c.side == side and c.standing]
        for target in sides:
            theirs = [c for c in enc.combatants if c.side == target and c.standing]
            if target == side or not mine or not theirs:
                continue
            if not any(_can_hit(enc, near, a, b, catalog) for a in mine for b in theirs):
                found.append(NoReach(side, target, _why(mine, catalog)))
    return tuple(found)


def _near_zones(enc: Encounter) -> dict[str, frozenset[str]]:
    """Each zone's group: the zones joined to it by bands of Short or less."""
    groups = {zone: {zone} for zone in enc.zones}
    for a, b, band in enc.bands:
        if band <= RangeBand.SHORT and groups[a] is not groups[b]:
            joined = groups[a] | groups[b]
            for zone in joined:
                groups[zone] = joined
    return {zone: frozenset(group) for zone, group in groups.items()}


def _can_hit(
    enc: Encounter,
    near: dict[str, frozenset[str]],
    me: Combatant,
    target: Combatant,
    catalog: Catalog,
) -> bool:
    mine, theirs = near[me.zone], near[target.zone]
    for state in me.weapons:
        weapon = catalog.weapons[state.id]
        if zone_bound(weapon):
            if not mine & theirs:
                continue
            band = RangeBand.MELEE
        else:
            try:
                band = min(
                    RangeBand.MELEE if a == b else enc.zone_band(a, b) for a in mine for b in theirs
                )
            except RulesError:  # a band not set yet: the fight will say so
                return True
        style = weapon_style(weapon)
        dice = attack_dice(style, me.traits, weapon.attacks)
        tn = me.ratings[style] + range_penalty(weapon.range, band) + max(0, target.size - me.size)
        if attack_odds(tn, dice, me.rules_rank).success > 0:
            return True
    return False


def _why(mine: list[Combatant], catalog: Catalog) -> str:
    weapons = [catalog.weapons[state.id] for c in mine for state in c.weapons]
    if not weapons:
        return "no weapon"
    if all(zone_bound(w) for w in weapons):
        return "melee only, and no Short band leads there"
    return "no weapon can hit at that range"


def zone_bound(weapon: Weapon) -> bool:
    """The policy attacks with a fighting style only within its own zone (melee)."""
    return weapon_style(weapon) in FIGHTING_STYLES
