"""The actions without an attack roll (R-ACT-2/5/6): aim, dodge, full defense, reload,
stand, standby, interact, hide, task, draw, holster, drop, misc, and breaking free of a
grapple (R-ATK-17).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from ...packs import Catalog
from ...rules import Cover, Rank, RulesError, Trait
from ...rules.secret import secret
from ..conditions import with_condition
from ..encounter import Combatant, Encounter, WeaponState, evolve
from .commands import TakeAction
from .gear import destroyed_refusal, edit_weapon, handle_weapon
from .outcome import LogLines, Outcome
from .setup import cover_named
from .turns import actions_text, spend_action

_MARKS = {"dodge": "dodging", "full-defense": "full-defense", "standby": "standby"}


@dataclass(frozen=True)
class ActionKind:
    """One TakeAction action: its cost in actions, a line for menus, whether it names
    a weapon (R-ACT-2/5/6; dropping is free).
    """

    cost: int
    hint: str
    weapon: bool = False


ACTIONS: dict[str, ActionKind] = {
    "aim": ActionKind(1, "a free re-roll on a later attack this turn"),
    "dodge": ActionKind(1, "may re-roll Defense until its next turn"),
    "full-defense": ActionKind(2, "Dodge +2 until its next turn (Heroes)"),
    "reload": ActionKind(2, "a weapon back to full charges", weapon=True),
    "stand": ActionKind(1, "up from Prone"),
    "standby": ActionKind(1, "attack when someone comes within Short"),
    "interact": ActionKind(1, "free a stuck weapon, pick one up, equipment", weapon=True),
    "hide": ActionKind(1, "into the cover the GM names"),
    "task": ActionKind(1, "the task roller (F2) opens on the actor"),
    "draw": ActionKind(1, "a weapon", weapon=True),
    "holster": ActionKind(1, "put a weapon away", weapon=True),
    "drop": ActionKind(0, "what it holds (free)", weapon=True),
    "misc": ActionKind(1, "anything else the GM approves"),
    "break-free": ActionKind(1, "out of a grapple (R-ATK-17)"),
}


def action_cost(c: Combatant, action: str) -> int:
    """The actions ``action`` takes ``c`` (R-ACT-5): Reload's two, "the first is free with
    a quick-release" — the GM's ``quick-release`` marker (Kestrel Vance's Advantage, a
    magazine), as a Parry is a marker (R-ATK-9).
    """
    cost = ACTIONS[action].cost
    return cost - 1 if action == "reload" and "quick-release" in c.conditions else cost


class _Ready(NamedTuple):
    """An action every check has passed, its actions spent: what is left is its effect."""

    enc: Encounter
    c: Combatant
    action: str
    weapon: WeaponState | None
    name: str
    hidden: Cover | None


def _ready(enc: Encounter, cmd: TakeAction, cat: Catalog) -> _Ready:
    """Every check an action makes, then its actions spent (R-ACT-1/5); RulesError with
    the reason when the rules refuse it. Rolls nothing: a menu asks it of each entry.
    """
    c = enc.get(cmd.combatant)
    action = cmd.action.strip().lower()
    if action not in ACTIONS:
        raise RulesError(f"unknown action {cmd.action!r} ({', '.join(ACTIONS)})")
    weapon = c.weapon(cmd.weapon) if cmd.weapon else None
    name = cat.weapons[weapon.id].name if weapon and weapon.id in cat.weapons else ""
    if action == "stand" and not c.prone:
        raise RulesError(f"{c.name} is not Prone")
    if action == "full-defense" and c.rules_rank is not Rank.HERO:
        raise RulesError(f"{c.name}: full defense is for Heroes (R-ACT-5)")
    wrecked = destroyed_refusal(c, weapon.id, name or weapon.id) if weapon is not None else ""
    if wrecked and action in ("reload", "draw"):
        raise RulesError(wrecked)
    if action == "reload":
        if weapon is None:
            raise RulesError("Reload names the weapon it reloads (R-ACT-5)")
        if weapon.id not in reloadable(c, cat):
            why = "its card does not reload"
            if weapon.power is None:
                why = "it holds no charges"
            elif weapon.recharge:
                why = "it regains 1 charge each turn it does not fire (R-ATK-3)"
            raise RulesError(f"{name or weapon.id} is not reloaded: {why}")
    if action == "interact" and weapon is not None and not (weapon.stuck or weapon.dropped):
        raise RulesError(f"{name or weapon.id} is neither stuck nor dropped")
    if action == "drop" and weapon is not None and weapon.dropped:
        raise RulesError(f"{name or weapon.id} is dropped already")
    hidden = cover_named(cmd.cover) if cmd.cover else None
    if hidden is not None:
        if action != "hide":
            raise RulesError(f"only a Hide names a cover, not {action}")
        if hidden is Cover.NONE:
            raise RulesError("a Hide goes into light, medium or heavy cover (R-ATK-6)")
    if action == "break-free" and "grappled" not in c.conditions:
        raise RulesError(f"{c.name} is not grappled")
    cost = action_cost(c, action)
    for n in range(cost):
        enc = (
            spend_action(enc, c, action, cost=cost, what=f"{action} (R-ACT-5)")
            if n == 0
            else spend_action(enc, c, f"{action} (second action)")
        )
    return _Ready(enc, c, action, weapon, name, hidden)


def take_action_refusal(enc: Encounter, cmd: TakeAction, cat: Catalog) -> str:
    """Why the rules refuse ``cmd`` now, "" if they take it: what a menu shows beside an
    entry before it is picked. Changes nothing.
    """
    try:
        _ready(enc, cmd, cat)
    except RulesError as refused:
        return str(refused)
    return ""


def take_action(enc: Encounter, cmd: TakeAction, rng: random.Random, cat: Catalog) -> Outcome:
    """Every action without an attack roll (R-ACT-2/5/6, R-ATK-17 breaking free)."""
    enc, c, action, weapon, name, hidden = _ready(enc, cmd, cat)
    text = {
        "aim": f"{c.name} aims: 1 free re-roll on a later attack this turn (R-ACT-2)",
        "dodge": f"{c.name} dodges: may re-roll Defense until its next turn (R-ACT-2)",
        "full-defense": f"{c.name} goes into full defense: Dodge +2 until its next turn (R-ACT-5)",
        "stand": f"{c.name} stands up (R-ACT-6)",
        "standby": f"{c.name} stands by: may attack when someone comes within Short (R-ACT-2)",
        "interact": f"{c.name} interacts with equipment nearby (R-ACT-2)",
        "hide": f"{c.name} hides (the GM places it in cover)",
        "task": f"{c.name} spends an action on a task: roll it in the task roller (R-ACT-2)",
        "draw": f"{c.name} draws {name or 'a weapon'} (R-ACT-5)",
        "holster": f"{c.name} puts away {name or 'a weapon'} (R-ACT-5)",
        "drop": f"{c.name} drops {name or 'what it holds'} (a free action, R-ACT-5)",
        "misc": f"{c.name} does something the GM approves (R-ACT-2)",
    }.get(action, "")
    extra: list[str] = []
    if action == "reload" and weapon is not None:
        spent = actions_text(action_cost(c, action))
        text = f"{c.name} reloads {name}: {weapon.power} charges (R-ACT-5, {spent})"
    if hidden is not None:
        text = f"{c.name} hides in {hidden.label} cover (R-ACT-2, R-ATK-6 +{int(hidden)} Defense)"
    if action == "stand":
        c = evolve(c, prone=False)
    elif action == "reload" and weapon is not None:
        c = edit_weapon(c, weapon.id, charges=weapon.power)
    elif action in ("interact", "drop") and weapon is not None:
        c, text = handle_weapon(c, weapon, name, action)
    elif hidden is not None:
        c = evolve(c, cover=hidden)
    elif action == "break-free":
        c, extra = _break_free(enc, c, cmd.bonus, rng)
        text = f"{c.name} tries to break free (R-ATK-17)"
    if action in _MARKS:
        c = evolve(c, conditions=tuple(sorted({*c.conditions, _MARKS[action]})))
    return Outcome(enc.with_combatant(c), (LogLines(text, tuple(extra)),))


def _break_free(
    enc: Encounter, c: Combatant, bonus: int, rng: random.Random
) -> tuple[Combatant, list[str]]:
    """R-ATK-17: d10 + Strength + Escape Artist (``bonus``) against the grappler's
    d10 + Strength × 2; higher breaks free. Interpretation: both roll a d10 and add.
    """
    holders = enc.in_melee_with(c)
    strength = max((h.traits[Trait.STRENGTH] for h in holders), default=0)
    mine, theirs = rng.randint(1, 10), rng.randint(1, 10)
    me = mine + c.traits[Trait.STRENGTH] + bonus
    them = theirs + 2 * strength
    gms = not all(h.player for h in holders)  # a Minion's traits are the GM's
    own = secret(c.traits[Trait.STRENGTH], not c.player)
    line = f"d10 {mine} + Strength {own}" + (f" {bonus:+d}" if bonus else "")
    line += f" = {secret(me, not c.player)} vs grappler d10 {theirs}"
    line += f" + 2 × Strength {secret(strength, gms)} = {secret(them, gms)}"
    if me > them:
        return with_condition(c, "grappled", 0), [line + ": free"]
    return c, [line + ": still held"]


def reloadable(c: Combatant, cat: Catalog) -> tuple[str, ...]:
    """The weapons ``c`` may Reload (R-ACT-5): those whose card reloads and that hold
    charges; the others recharge on their own or have none.
    """
    return tuple(
        w.id
        for w in c.weapons
        if w.id in cat.weapons and cat.weapons[w.id].reload and w.power is not None
    )
