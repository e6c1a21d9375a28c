"""A combatant's weapons as the fight changes them: charges, fired, dropped, stuck.

Every change to a carried weapon goes through :func:`edit_weapon`, so a rule about what a
weapon's state may hold is written once.
"""

from __future__ import annotations

from typing import Any

from ...packs import Weapon
from ..encounter import Combatant, WeaponState, evolve

FISTS = "fists"
"""The unarmed weapon: grapples use it (R-ATK-17), and it can never be dropped."""


def weapon_state(weapon: Weapon) -> WeaponState:
    """A weapon as it joins the fight: full charges (R-ATK-3)."""
    return WeaponState(weapon.id, weapon.power, weapon.power, weapon.recharge)


def edit_weapon(c: Combatant, weapon: str, **changes: Any) -> Combatant:
    """``c`` with the weapon it carries named ``weapon`` changed; ``c`` as it is when it
    carries none (fists it does not list, say). A plain loop: every attack edits a weapon.
    """
    weapons, found = list(c.weapons), False
    for i, w in enumerate(weapons):
        if w.id == weapon:
            weapons[i], found = evolve(w, **changes), True
    return evolve(c, weapons=tuple(weapons)) if found else c


def charged(c: Combatant, weapon: str, delta: int) -> Combatant:
    """A card's recharge (``delta`` > 0) or extra charge spent (< 0), within 0 and the
    weapon's power; a weapon without charges is left alone.
    """
    w = next((w for w in c.weapons if w.id == weapon), None)
    if w is None or w.charges is None:
        return c
    top = w.power if w.power is not None else w.charges + max(delta, 0)
    return edit_weapon(c, weapon, charges=max(0, min(top, w.charges + delta)))


def held_weapon(c: Combatant) -> WeaponState | None:
    """The weapon in hand, which a severe wound may make ``c`` drop (R-WOUND-5).

    Interpretation: the first carried weapon not dropped (fists cannot be dropped); the
    others are stowed.
    """
    return next((w for w in c.weapons if not w.dropped and w.id != FISTS), None)


def ready_weapon(c: Combatant) -> WeaponState | None:
    """The weapon an attack picks first: the first one ``c`` can use now (neither dropped,
    stuck nor destroyed), else the first it carries; None for a combatant carrying none.
    """
    usable = [w for w in c.weapons if not (w.dropped or w.stuck or w.id in c.destroyed)]
    return next(iter(usable or c.weapons), None)


def handle_weapon(
    c: Combatant, weapon: WeaponState, name: str, action: str
) -> tuple[Combatant, str]:
    """Drop (free), or Interact: free a stuck weapon one action at a time, or pick a
    dropped one up (R-ACT-2/5); the action has checked it is stuck or dropped.
    """
    if action == "drop":
        return edit_weapon(c, weapon.id, dropped=True), f"{c.name} drops {name} (free)"
    if weapon.stuck:
        left = weapon.stuck - 1
        freed = edit_weapon(c, weapon.id, stuck=left)
        return freed, f"{c.name} works {name} free" + (f" ({left} more action(s))" if left else "")
    return edit_weapon(c, weapon.id, dropped=False), f"{c.name} picks up {name}"


def recharged(w: WeaponState) -> WeaponState:
    """R-ATK-3 at the end of its holder's turn: a weapon not fired regains 1 charge, up to
    its power; a fired one is ready to recharge from the next turn.
    """
    if w.fired:
        return evolve(w, fired=False)
    if w.recharge and w.charges is not None and w.power is not None and w.charges < w.power:
        return evolve(w, charges=w.charges + 1)
    return w


def destroyed_refusal(holder: Combatant, weapon: str, name: str) -> str:
    """Why ``holder`` cannot use ``weapon`` (named ``name``) at all: §7 row 6 destroyed it."""
    if weapon in holder.destroyed:
        return f"{name} was destroyed (§7 Equipment destroyed): it no longer works"
    return ""


def in_hand_refusal(holder: Combatant, weapon: Weapon, state: WeaponState) -> str:
    """Why ``holder`` cannot use ``weapon`` at all now, and what frees it ("" if it may):
    destroyed (§7 row 6, for good), dropped (R-WOUND-5, a Throw) or stuck (a Misfortune),
    each of those undone by Interact.
    """
    if holder.destroyed and state.id in holder.destroyed:
        return destroyed_refusal(holder, state.id, weapon.name)
    if state.dropped:
        return f"{holder.name} no longer holds {weapon.name}: Interact to pick it up"
    if state.stuck:
        return f"{weapon.name} is stuck: Interact to free it ({state.stuck} action(s))"
    return ""
