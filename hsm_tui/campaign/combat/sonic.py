"""The Sonic Relik's cone (rulebook, the card's Special): "The wielder user sets the Dmg.
to a die type and fires it in a direction. The sound fires as a cone. Everyone in that
cone who can hear must roll Stamina or take the die type of damage for each charge used."

Worked out before any die rolls, with exact odds (:class:`SonicPlan`), then rolled from
that plan (:func:`sonic_blast`). How the rule is read (docs/rules.md, "How the rules are read"):
- The blast is the wielder's Attack action (R-ACT-1) but no attack roll: the cone's
  Stamina rolls replace the to-hit and Defense rolls, so no Hero die of the wielder's
  calls the card's Special, Fortune or Misfortune (the GM plays them when it wants).
- Who is in the cone and can hear is the GM's call: the targets it names, anyone standing
  but the wielder (allies too), within the card's range (Medium).
- Charges: the wielder spends 1 to all it has left (R-ATK-3, no recharge).
- Each target rolls Stamina as any trait roll in a fight (:func:`~..conditions.trait_roll`:
  a Hero's wound marker and Hero die, Shaken, Encumbered, Painful, nausea, Fatigued).
- A failure is one hit that gets through (R-ATK-7): the chosen die once per charge, rolled
  together as one damage roll (3 charges of d8 = 3d8, each die exploding, R-DMG-1) against
  Health (R-DMG-2), then the wound track, the chart, one more Fear and Pinned (R-ATK-8),
  exactly as an attack's damage. Those who pass take nothing and gain no Fear.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from ...packs import Catalog, Weapon
from ...rules import Derived, RangeBand, RulesError
from ...rules.dice import Dice, parse
from ...rules.odds import percent, wound_odds
from ..conditions import (
    afflicted_success,
    level,
    nausea_holds,
    trait_roll,
    trait_tn,
)
from ..encounter import Combatant, Encounter, WeaponState, evolve
from .commands import SonicBlast
from .damage import hit_each
from .gear import edit_weapon, in_hand_refusal
from .outcome import (
    AttackState,
    Line,
    LogLines,
    Outcome,
    Rerolled,
    RollStage,
    ask_rerolls,
)
from .plans import RefusablePlan
from .turns import Held, pinned_check, pinned_stop, spend_action


def stamina_fails(c: Combatant) -> Fraction:
    """Exact chance ``c`` fails the cone's Stamina roll, as :func:`trait_roll` rolls it:
    the wound marker and §8 penalties on the TN, nausea's −1 when its d10 is above
    Stamina − 1, and Fatigued's confirmation of a success. Needs a decided Sidekick.
    """
    stamina = c.traits[Derived.STAMINA]
    nausea = nausea_holds(stamina) if level(c, "nauseated") else None
    tn = trait_tn(c, stamina)
    return 1 - afflicted_success(tn, c.rules_rank, 0, nausea, bool(level(c, "fatigued")))


@dataclass(frozen=True)
class SonicTarget:
    """One combatant as the cone would meet it: its band, and why the cone cannot hold it."""

    combatant: Combatant
    band: RangeBand | None
    reason: str = ""  # "" when the cone may hold it

    @property
    def band_label(self) -> str:
        return "no band" if self.band is None else self.band.label

    @property
    def fails(self) -> Fraction:
        """Exact chance it fails its Stamina roll (:func:`stamina_fails`)."""
        return stamina_fails(self.combatant)


@dataclass(frozen=True)
class SonicPlan(RefusablePlan):
    """The Sonic Relik's cone worked out before any die is rolled: who it could hold, the
    cone the command names, the damage a failure takes, exact odds, and the refusal.
    :func:`sonic_blast` rolls this plan, so the two never disagree.
    """

    wielder: Combatant
    weapon: Weapon
    state: WeaponState
    charges: int
    damage: str  # what one failure takes: the chosen die once per charge
    candidates: tuple[SonicTarget, ...]  # everyone standing but the wielder, nearest first
    cone: tuple[SonicTarget, ...]  # the command's targets in its order, once each

    @property
    def most_charges(self) -> int:
        """The most charges the wielder may spend now (R-ATK-3): all it has left."""
        have = self.state.charges
        return have if have is not None else self.weapon.power or 1

    @property
    def headline(self) -> str:
        return (
            f"{self.weapon.name}: {self.charges} charge(s), Stamina or {self.damage}"
            f" at {len(self.cone)} target(s)"
        )

    def wounded(self, target: SonicTarget) -> Fraction:
        """Exact chance ``target`` fails and takes at least one wound step (R-DMG-2)."""
        health = target.combatant.traits[Derived.HEALTH]
        return target.fails * (1 - wound_odds(self.damage, health)["0"])

    def forecast(self, target: SonicTarget) -> str:
        """A dialog row's odds in a few words: ``fails 40.0% · wounded 38.1%``."""
        try:
            return f"fails {percent(target.fails)} · wounded {percent(self.wounded(target))}"
        except RulesError:  # an undecided Sidekick (R-CHAR-8): the GM decides first
            return "fails ? · wounded ?"

    def preview(self) -> tuple[str, ...]:
        """The lines a GM reads before firing: each target's Stamina roll and the chance it
        fails, then takes a wound from the damage.
        """
        refused = self.refused_preview()
        if refused:
            return refused
        lines = [self.headline]
        for t in self.cone:
            c = t.combatant
            tn = trait_tn(c, c.traits[Derived.STAMINA])
            health = c.traits[Derived.HEALTH]
            lines.append(f"{c.name}: Stamina TN {tn}, Health {health}: {self.forecast(t)}")
        return tuple(lines)


def sonic_weapons(c: Combatant, cat: Catalog) -> tuple[str, ...]:
    """The weapons ``c`` carries that fire a cone of damage options (the Sonic Relik)."""
    return tuple(w.id for w in c.weapons if _is_sonic(cat.weapons.get(w.id)))


def _is_sonic(weapon: Weapon | None) -> bool:
    return weapon is not None and weapon.area == "cone" and bool(weapon.damage_options)


def plan_sonic(enc: Encounter, cmd: SonicBlast, cat: Catalog) -> SonicPlan:
    """Every check and number of the cone, without spending the action or rolling. Raises
    RulesError only for a weapon that fires no such cone or a die it does not offer; every
    other refusal is the plan's ``refusal``, so an empty cone still lists the candidates.
    """
    wielder = enc.get(cmd.attacker)
    state = wielder.weapon(cmd.weapon)
    weapon = cat.weapons.get(state.id)
    if weapon is None or not _is_sonic(weapon):
        raise RulesError(f"{weapon.name if weapon else cmd.weapon} fires no sonic cone")
    options = weapon.damage_options
    if not 0 <= cmd.damage_choice < len(options):
        raise RulesError(f"{weapon.name} has {len(options)} damage option(s)")
    damage = _per_charge(str(options[cmd.damage_choice]), max(cmd.charges, 1))

    def target(c: Combatant) -> SonicTarget:
        return _target(enc, wielder, weapon, c)

    def nearest(t: SonicTarget) -> tuple[int, bool]:
        return len(RangeBand) if t.band is None else t.band, t.combatant.zone != wielder.zone

    others = (c for c in enc.combatants if c.id != wielder.id and c.standing)
    candidates = tuple(sorted(map(target, others), key=nearest))
    cone = tuple(target(enc.get(tid)) for tid in dict.fromkeys(cmd.targets))
    plan = SonicPlan(wielder, weapon, state, cmd.charges, damage, candidates, cone)
    plan = evolve(plan, fire_refusal=_fire_refusal(enc, plan))
    return evolve(plan, refusal=plan.fire_refusal or _cone_refusal(plan))


def _per_charge(die: str, charges: int) -> str:
    """The chosen die once per charge, as one roll: ``1d8`` × 3 → ``3d8``."""
    (sign, term), *more = parse(die).terms
    if not more and sign > 0 and isinstance(term, Dice) and term.count == 1:
        return str(Dice(charges, term.sides, term.explode))
    return "+".join([die] * charges)


def _target(enc: Encounter, wielder: Combatant, weapon: Weapon, c: Combatant) -> SonicTarget:
    """``c`` as the cone meets it: in range of the card, standing, not the wielder, and
    with its rules decided (R-CHAR-8: no Stamina roll before).
    """
    if c.id == wielder.id or not c.standing:
        return SonicTarget(c, None, f"{c.name} is not a standing combatant the cone can hold")
    try:
        band = enc.band(wielder, c)
        _ = c.rules_rank
    except RulesError as cannot:
        return SonicTarget(c, None, str(cannot))
    if band > weapon.range:
        beyond = f"{c.name} is beyond {weapon.name}'s {weapon.range.label} range"
        return SonicTarget(c, band, beyond)
    return SonicTarget(c, band)


def _fire_refusal(enc: Encounter, plan: SonicPlan) -> str:
    """Why the wielder cannot fire now whatever the cone ("" if it may): the weapon in
    hand, the charges, and the turn's Attack action (R-ACT-1).
    """
    wielder, weapon, state, n = plan.wielder, plan.weapon, plan.state, plan.charges
    if in_hand := in_hand_refusal(wielder, weapon, state):
        return in_hand
    if plan.most_charges < 1:
        return f"{weapon.name} has no charges left (R-ATK-3)"
    if not 1 <= n <= plan.most_charges:
        return f"{weapon.name} spends 1 to {plan.most_charges} charge(s), not {n}"
    try:
        spend_action(enc, wielder, "attack")
    except RulesError as no_action:
        return str(no_action)
    return ""


def _cone_refusal(plan: SonicPlan) -> str:
    """The first rule the cone breaks ("" if none): at least one target, each one in it."""
    if not plan.cone:
        return "the cone needs at least one target who can hear"
    return next((t.reason for t in plan.cone if t.reason), "")


def sonic_blast(
    enc: Encounter, cmd: SonicBlast, rng: random.Random, cat: Catalog, held: Held | None = None
) -> Outcome:
    """The cone rolled from :func:`plan_sonic` (module docstring for the reading): the
    Attack action and charges spent, a Stamina roll per target, then the damage of each
    failure as an attack's hits through. ``held``: a Pinned wielder's Morale roll, made.
    """
    plan = plan_sonic(enc, cmd, cat)
    plan.check()
    wielder, state = plan.wielder, plan.state
    spent = spend_action(enc, wielder, "attack")
    held = held or pinned_check(wielder, rng, cmd)  # §8: it exposes it
    stopped = pinned_stop(enc, spent, held)
    if stopped is not None:
        return stopped
    enc = spent
    charges = None if state.charges is None else state.charges - plan.charges
    enc = enc.with_combatant(edit_weapon(wielder, state.id, charges=charges, fired=True))
    blast = AttackState(wielder.id, "", plan.weapon.id, 1, damage=plan.damage, cone=cmd)
    title = f"{wielder.name} fires the {plan.weapon.name} (Stamina or damage)"
    head = (held.log,) if held is not None else ()  # the Morale roll (if Pinned) first
    targets = tuple(aim.combatant.id for aim in plan.cone)
    return _stamina_rolls(enc, blast, targets, (), rng, cat, title, [plan.headline]).after(*head)


def sonic_rerolled(answer: Rerolled, rng: random.Random, cat: Catalog) -> Outcome:
    """The cone a Hero's Stamina roll paused, gone on with the roll as it stands: the
    targets after it roll, then the failures take damage."""
    state, roll, t = answer.pending.attack, answer.roll, answer.roller
    assert state is not None and isinstance(state.cone, SonicBlast)  # a Sonic question
    shown = f"Stamina roll: {roll.explain(not t.player)}"
    lines = [*answer.lines, _verdict(t, shown, roll.success, state)]
    failed = tuple(answer.enc.get(cid) for cid in state.queue) + (() if roll.success else (t,))
    targets = state.cone.targets
    return _stamina_rolls(answer.enc, state, targets, failed, rng, cat, answer.title, lines)


def _stamina_rolls(
    enc: Encounter,
    blast: AttackState,
    targets: tuple[str, ...],
    failed: tuple[Combatant, ...],
    rng: random.Random,
    cat: Catalog,
    title: str,
    lines: list[Line],
) -> Outcome:
    """§10: each of ``targets`` rolls Stamina in turn (a Hero may stop at a failure to
    spend re-rolls, R-TASK-6); then each failure (``failed`` so far) is a hit through."""
    for i, tid in enumerate(targets):
        t = enc.get(tid)
        roll, ok, line = trait_roll(t, t.traits[Derived.STAMINA], "Stamina", rng)
        rest = evolve(blast.cone, targets=targets[i + 1 :])
        paused = evolve(blast, target=t.id, queue=tuple(f.id for f in failed), cone=rest)
        ask = ask_rerolls(t, roll, 0, RollStage.SONIC, paused, roll.target, title)
        if ask is not None:
            return Outcome(enc, (LogLines(title, (*lines, f"{t.name}: {line}")),), ask)
        lines.append(_verdict(t, line, ok, blast))
        failed += () if ok else (t,)
    done = LogLines(title, tuple(lines))
    if not failed:
        return Outcome(enc, (done,))
    return hit_each(enc, evolve(blast, cone=None), failed, rng, cat).after(done)


def _verdict(t: Combatant, line: str, ok: bool, blast: AttackState) -> str:
    return f"{t.name}: {line}: {'holds' if ok else f'fails, takes {blast.damage}'}"
