"""What a hit meets and what it does, without rolling: the Defense it must beat, a dive
for cover, one hit's damage expression and the wound steps damage makes.

An attack's hits and the GM's damage from outside an attack (a fall, a blast) both wound
through :func:`take_wound`, so the wound track is applied one way (R-DMG-2, R-WOUND).
"""

from __future__ import annotations

from functools import lru_cache

from ...packs import Catalog, Weapon
from ...rules import (
    Cover,
    Derived,
    Modifier,
    Rank,
    Rating,
    RulesError,
    TargetNumber,
    Traits,
)
from ...rules.combat import WoundResult, apply_wound_steps
from ...rules.dice import Expression, parse
from ...rules.secret import secret
from ...rules.tasks import DamageRoll, PoolRoll, wound_steps
from ..conditions import penalty, wound_marker
from ..encounter import Combatant, Encounter, evolve
from .commands import Location
from .outcome import AttackState
from .turns import lose_next_turn

MAX_DAMAGE = 999
"""The most damage the GM may apply at once from outside an attack."""

_HERO, _SIDEKICK, _DODGE = Rank.HERO, Rank.SIDEKICK, Derived.DODGE
_HEALTH, _STAMINA, _HEAD = Derived.HEALTH, Derived.STAMINA, Location.HEAD
_POWER_NAME = Rating.POWER._value_  # _value_: a plain attribute, quicker than ``value``
"""Read for every hit: plain names, as in :mod:`..encounter`."""


def opponents(enc: Encounter, c: Combatant) -> int:
    """How many standing opponents ``c`` is engaged with (the fallen no longer fight)."""
    return len(enc.in_melee_with(c))


def defense_tn(enc: Encounter, target: Combatant, melee: bool, card_mod: int) -> TargetNumber:
    """R-ATK-6 Defense = Dodge + cover, and what adds to it (R-TASK-1): a Hero's wound
    marker (R-WOUND-3: Dodge is a trait, and the marker is on all of them), §8 Shaken and
    Encumbered, R-ATK-14 flanking in melee, R-ACT-5 full defense and the attacker's card.

    Cover counts against melee blows too: the book's Defense "is equal to the character's
    Dodge rating, plus any cover" for every attack (only diving is for ranged attacks); the
    GM takes cover off (``c``) where it does not stand between two fighters.
    """
    flank = 1 - opponents(enc, target) if melee else 0  # R-ATK-14: −1 per extra opponent
    flank = flank if flank < 0 else 0  # max(), uncalled: a Defense roll for most hits
    return _defense(
        target.traits[_DODGE],
        target.cover,
        wound_marker(target),
        penalty(target),
        flank,
        2 if "full-defense" in target.conditions else 0,
        card_mod,
    )


@lru_cache(maxsize=1024)  # a TN is immutable: each set of numbers is built once
def _defense(
    dodge: int, cover: Cover, wound: int, conditions: int, flank: int, full: int, card: int
) -> TargetNumber:
    return TargetNumber((Modifier("Dodge", dodge),)).plus(
        Modifier(f"{cover.label} cover", int(cover)),
        Modifier("wound", wound),
        Modifier("conditions", conditions),
        Modifier("flanked", flank),
        Modifier("full defense", full),
        Modifier("card", card),
    )


def defense_rerolls(c: Combatant, melee: bool) -> int:
    """The free re-rolls ``c`` has on a Defense roll: Dodge (R-ACT-2) and, in melee, a
    Parry source (R-ATK-9); one each (R-TASK-6).
    """
    if not c.conditions:  # most figures: no int() calls (a Defense roll for most hits)
        return 0
    return int("dodging" in c.conditions) + int(melee and "parry" in c.conditions)


def dive(c: Combatant, cover: Cover) -> Combatant:
    """R-ATK-5: ``c`` dives into ``cover`` (at least light): Prone, and it loses 1 action
    on its next turn. The one way a dive happens, for an attack and for suppressive fire.
    """
    return lose_next_turn(evolve(c, cover=max(c.cover, cover), prone=True), 1, "dive")


def is_melee(cat: Catalog, state: AttackState) -> bool:
    """A melee blow (flanking applies, no dive); a thrown or shot attack is ranged."""
    return (cat.weapons[state.weapon].kind == "melee" and not state.thrown) or state.club


def damage_expr(weapon: Weapon, style: str | None, damage: str, location: str) -> str:
    """One hit's damage: the card's (or the thrown / chosen one), R-ATK-1 Power adds the
    Strength die, R-ATK-10 a called shot at the head adds a d8.
    """
    expr = damage or weapon.damage.source
    if style == _POWER_NAME:
        expr += "+strdie"
    return expr + "+1d8" if location == _HEAD else expr


@lru_cache(maxsize=1024)
def resolved_damage(source: str, traits: Traits) -> Expression:
    """``source`` (see :func:`damage_expr`) with the attacker's traits filled in: parsed
    and resolved once per expression and character, not on every hit.
    """
    return parse(source).resolve(traits.as_values())


def health_against(target: Combatant, weapon: Weapon) -> int:
    """R-DMG-2 against Health; non-lethal damage against Stamina (R-WOUND-6)."""
    return health(target, weapon.nonlethal)


def health(c: Combatant, nonlethal: bool) -> int:
    """The trait damage is counted against: Health, or Stamina when non-lethal (R-WOUND-6)."""
    return c.traits[_STAMINA if nonlethal else _HEALTH]


def take_wound(c: Combatant, damage: int, nonlethal: bool) -> tuple[Combatant, WoundResult]:
    """``damage`` against ``c`` (R-DMG-2): a wound step each time it exceeds another
    multiple of Health (Stamina when non-lethal), applied to the track (R-WOUND-1/2/6);
    a Hero loses an action on its next turn for each step (R-WOUND-4). A severe wound's
    chart roll is the caller's (``result.severe``): it may pause for the GM.
    """
    per_step, rank = health(c, nonlethal), c.rank
    if rank is _SIDEKICK:  # ``rules_rank`` asked only of a Sidekick (a property call a hit)
        rank = c.rules_rank
    steps = wound_steps(damage, per_step)
    if not steps:  # no wound step, about half of all hits: the figure as it is, uncopied
        return c, apply_wound_steps(rank, 0, (), c.wounds, c.nonlethal, not nonlethal)
    # each step's overflow, damage − k × per_step for k = 1..steps (§7), made in C
    overflows = tuple(range(damage - per_step, damage - (steps + 1) * per_step, -per_step))
    result = apply_wound_steps(rank, steps, overflows, c.wounds, c.nonlethal, not nonlethal)
    wounded = evolve(
        c,
        wounds=result.wounds,
        nonlethal=result.nonlethal,
        out=c.out or result.taken_out,
        unconscious=c.unconscious or result.unconscious,
    )
    if rank is _HERO:
        wounded = lose_next_turn(wounded, result.steps_taken, "wound")
    return wounded, result


def wound_text(target: Combatant, result: WoundResult) -> str:
    """What a hit's wound steps did, in the log's words."""
    if result.taken_out:
        return f"{target.name} is taken out (R-WOUND-2)"
    if not result.steps_taken:
        return "no wound"
    if result.unconscious:
        return "knocked unconscious (non-lethal past −2)"
    if result.severe:
        return "severely wounded (R-WOUND-1)"
    track = result.nonlethal if result.nonlethal > target.nonlethal else result.wounds
    return f"{result.steps_taken} wound step(s): now at −{track}"


def hit_line(
    number: int,
    hit: DamageRoll,
    bonus: int,
    weapon: Weapon,
    target: Combatant,
    result: WoundResult,
) -> str:
    """One hit's damage line (written when the log is read: :class:`~.outcome.LogLines`)."""
    total = hit.damage + bonus
    steps = wound_steps(total, hit.health)
    # the card's bonus is part of the total the steps were counted from (R-DMG-2)
    added = f", {bonus:+d} = {total}" if bonus else ""
    track = "Stamina" if weapon.nonlethal else "Health"  # R-WOUND-6
    health = secret(hit.health, not target.player)
    return (
        f"hit {number}: damage {hit.roll.explain()}{added} vs {track} {health}"
        f" → {steps} wound step{'s' if steps != 1 else ''} → {wound_text(target, result)}"
    )


def defense_line(defense: TargetNumber, roll: PoolRoll, gms: bool) -> str:
    """The Defense roll's line, its TN the GM's for a Minion; written when the
    log is read (:class:`~.outcome.LogLines`).
    """
    return secret(f"{defense.terms()} → ", gms, "") + roll.explain(gms)


def outside_damage(
    c: Combatant, damage: int, nonlethal: bool
) -> tuple[Combatant, WoundResult, str]:
    """``c`` after ``damage`` from outside an attack (R-DMG-2, R-WOUND), what it did, and
    the line that says so: the damage dialog shows it before Enter, the handler logs it.
    """
    if not 0 <= damage <= MAX_DAMAGE:
        raise RulesError(f"damage is 0 to {MAX_DAMAGE}, not {damage}")
    if not c.standing:
        raise RulesError(f"{c.name} is already out of the fight")
    track = "Stamina" if nonlethal else "Health"
    wounded, result = take_wound(c, damage, nonlethal)
    line = f"{damage} damage vs {track} {health(c, nonlethal)} → {wound_text(c, result)}"
    return wounded, result, line


def damage_outcome(c: Combatant, damage: int, nonlethal: bool) -> tuple[WoundResult, str]:
    """The preview of :func:`outside_damage`: what it does and the line, nothing changed."""
    _, result, line = outside_damage(c, damage, nonlethal)
    return result, line
