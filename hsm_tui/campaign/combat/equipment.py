"""What a character carries and §7 row 6, "Equipment destroyed": "Randomly choose one
piece of equipment carried by the character. It no longer operates."

Reading: the pieces carried are its weapons (bare fists are none) and the equipment its
pack entry lists (an item named as one of its weapons is that weapon). The chart's row
picks one still working at random with the session's dice; the GM may pick instead, or
undo a pick, with :class:`SetDestroyed`. A destroyed weapon is refused for every use
(attack, suppressive fire, the Sonic Relik's cone, Reload, Draw); the record goes with a
party Hero from fight to fight in the campaign.
"""

from __future__ import annotations

import random

from ...packs import Catalog
from ...rules import RulesError
from ..encounter import Combatant, Encounter, evolve
from .commands import SetDestroyed
from .gear import FISTS
from .outcome import LogLines, Outcome


def carried_items(c: Combatant, cat: Catalog) -> tuple[tuple[str, str], ...]:
    """Every piece ``c`` carries, destroyed or not, as (key, name): a weapon by its id, an
    item of the pack's equipment list by its name.
    """
    entry = cat.kind(c.rank.value).get(c.entry)
    weapons = [w.id for w in c.weapons] + list(entry.weapons if entry is not None else ())
    items: dict[str, str] = {}
    for weapon in weapons:
        if weapon != FISTS:
            card = cat.weapons.get(weapon)
            items[weapon] = card.name if card is not None else weapon
    named = {name.casefold() for name in items.values()}
    for item in getattr(entry, "equipment", ()):
        if item.name.casefold() not in named:
            items.setdefault(item.name, item.name)
    return tuple(items.items())


def item_name(c: Combatant, key: str, cat: Catalog) -> str:
    """The name of ``c``'s piece ``key`` (its key when the packs no longer list it)."""
    return dict(carried_items(c, cat)).get(key, key)


def destroy_at_random(c: Combatant, rng: random.Random, cat: Catalog) -> tuple[Combatant, str]:
    """§7 row 6: one piece still working, picked at random with the session's dice."""
    working = [(key, name) for key, name in carried_items(c, cat) if key not in c.destroyed]
    if not working:
        return c, f"{c.name} carries nothing that still works: nothing more to destroy"
    key, name = working[rng.randint(1, len(working)) - 1]
    picked = f"a random pick of {len(working)}" if len(working) > 1 else "the only piece"
    return evolve(c, destroyed=(*c.destroyed, key)), f"{name} no longer works ({picked})"


def set_destroyed(enc: Encounter, cmd: SetDestroyed, _rng: random.Random, cat: Catalog) -> Outcome:
    """The GM's pick for §7 row 6, or a piece mended: ``cmd.item`` destroyed or working."""
    c = enc.get(cmd.combatant)
    items = dict(carried_items(c, cat))
    if cmd.item not in items:
        listed = ", ".join(items.values()) or "nothing"
        raise RulesError(f"{c.name} carries no {cmd.item!r} (carried: {listed})")
    name = items[cmd.item]
    if (cmd.item in c.destroyed) == cmd.destroyed:
        state = "destroyed already" if cmd.destroyed else "not destroyed"
        raise RulesError(f"{c.name}'s {name} is {state}")
    if cmd.destroyed:
        c, text = evolve(c, destroyed=(*c.destroyed, cmd.item)), "no longer works"
    else:
        kept = tuple(k for k in c.destroyed if k != cmd.item)
        c, text = evolve(c, destroyed=kept), "works again"
    line = f"{c.name}'s {name} {text} (§7 Equipment destroyed, the GM's call)"
    return Outcome(enc.with_combatant(c), (LogLines(line, ()),))
