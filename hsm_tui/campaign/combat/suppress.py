"""Suppressive fire (R-ATK-16): the cone worked out before any die rolls, with exact odds
(:class:`SuppressPlan`), then rolled from that plan.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...packs import Catalog, Weapon
from ...packs.model import Suppression
from ...rules import RangeBand, RulesError
from ...rules.odds import percent
from ..encounter import Combatant, Encounter, WeaponState, evolve
from .commands import Suppress
from .cone import SuppressTarget, aim_cone, roll_cone, suppress_target
from .gear import edit_weapon, in_hand_refusal
from .hands import main_hand_used
from .outcome import Outcome
from .plans import RefusablePlan
from .turns import Held, current_turn, pinned_check, pinned_stop, spend_action


@dataclass(frozen=True)
class SuppressPlan(RefusablePlan):
    """Suppressive fire worked out before any die is rolled (R-ATK-16): the standing
    enemies the cone could hold, the cone the command names with exact odds, and why the
    command would be refused. :func:`suppress` rolls this plan, so the two never disagree.
    """

    shooter: Combatant
    weapon: Weapon
    state: WeaponState
    candidates: tuple[SuppressTarget, ...]  # standing enemies, nearest band first, none diving
    cone: tuple[SuppressTarget, ...]  # the command's targets in its order, once each

    @property
    def rating(self) -> Suppression:
        assert self.weapon.suppression is not None  # plan_suppress refuses a weapon without
        return self.weapon.suppression

    def fear_odds(self, target: SuppressTarget) -> tuple[Fraction, ...]:
        """Exact distribution of the Fear tokens ``target`` gains (index = tokens)."""
        sides = self.rating.die
        odds = [Fraction(0)] * (sides + 1)
        for face in range(1, sides + 1):
            odds[target.fear(face)] += Fraction(1, sides)
        return tuple(odds)

    @property
    def any_hit(self) -> Fraction:
        """Exact chance at least one target in the cone is hit (one Defense roll each)."""
        miss = Fraction(1)
        for target in self.cone:
            miss *= 1 - target.hit
        return 1 - miss

    @property
    def headline(self) -> str:
        return f"{self.weapon.name}: suppressive fire {self.rating} at {len(self.cone)} target(s)"

    def forecast(self, target: SuppressTarget) -> str:
        """A dialog row's odds in a few words: ``hit 30.0% · Fear 0–7``."""
        try:
            hit = percent(target.hit)
        except RulesError:  # an undecided Sidekick (R-CHAR-8): the GM decides first
            hit = "?"
        return f"hit {hit} · Fear {target.fear(1)}–{target.fear(self.rating.die)}"

    def preview(self) -> tuple[str, ...]:
        """The lines a GM reads before firing: each target's Defense (or dive) and chance
        of a hit, the Fear die by band, and the chance that any target is hit.
        """
        refused = self.refused_preview()
        if refused:
            return refused
        lines = [self.headline]
        for t in self.cone:
            lines.append(
                t.dive_text
                if t.dives
                else f"{t.defense_text} = {t.defense}: {t.hit_text} (1d4 damage, 1 more Fear)"
            )
        die = self.rating.die
        for t in self.cone:
            expected = sum(k * p for k, p in enumerate(self.fear_odds(t)))
            less = f" − {t.fear_less}" if t.fear_less else ""
            lines.append(
                f"{t.combatant.name} ({t.band_label}) gains d{die}{less} Fear:"
                f" {t.fear(1)}–{t.fear(die)}, expected {float(expected):.2f}"
            )
        expected = float(sum(t.hit for t in self.cone))
        lines.append(f"≥1 target hit {percent(self.any_hit)} · expected {expected:.2f}")
        return tuple(lines)


def suppression_weapons(c: Combatant, cat: Catalog) -> tuple[str, ...]:
    """The weapons ``c`` carries that can lay down suppressive fire (a Suppression
    rating on the card, R-ATK-16); whether it may fire now is :func:`plan_suppress`'s.
    """
    return tuple(w.id for w in c.weapons if w.id in cat.weapons and cat.weapons[w.id].suppression)


def plan_suppress(enc: Encounter, cmd: Suppress, cat: Catalog) -> SuppressPlan:
    """Every check and number of suppressive fire (R-ATK-16), without spending the action
    or rolling. Raises RulesError only for a weapon that cannot lay any down; every other
    refusal is the plan's ``refusal``, so an empty cone still lists the candidates.
    """
    shooter = enc.get(cmd.attacker)
    state = shooter.weapon(cmd.weapon)
    weapon = cat.weapons.get(state.id)
    if weapon is None or weapon.suppression is None:
        raise RulesError(f"{weapon.name if weapon else cmd.weapon} has no Suppression rating")

    def nearest(t: SuppressTarget) -> tuple[int, bool]:  # R-COMBAT-2, own zone first
        return len(RangeBand) if t.band is None else t.band, t.combatant.zone != shooter.zone

    enemies = [
        suppress_target(enc, shooter, weapon, c)
        for c in enc.combatants
        if c.side != shooter.side and c.standing
    ]
    candidates = tuple(sorted(enemies, key=nearest))
    plan = SuppressPlan(shooter, weapon, state, candidates, aim_cone(enc, cmd, weapon))
    plan = evolve(plan, fire_refusal=_fire_refusal(enc, plan))
    return evolve(plan, refusal=plan.fire_refusal or _cone_refusal(plan, cmd.dive))


def _fire_refusal(enc: Encounter, plan: SuppressPlan) -> str:
    """Why the shooter cannot fire this weapon now whatever the cone ("" if it may): the
    weapon in hand, its charges, the turn and once per turn, in the order the GM meets them.
    """
    shooter, weapon, state, n = plan.shooter, plan.weapon, plan.state, plan.rating.charges
    if in_hand := in_hand_refusal(shooter, weapon, state):
        return in_hand
    if state.charges is not None and state.charges < n:
        return f"{weapon.name} needs {n} charges for suppressive fire, has {state.charges}"
    try:
        turn = current_turn(enc)
    except RulesError as idle:
        return str(idle)
    if shooter.id in turn.suppressed:
        return "suppressive fire once per turn: the only such attack (R-ATK-16)"
    return ""


def _cone_refusal(plan: SuppressPlan, dive: Sequence[str]) -> str:
    """The first rule the cone breaks ("" if none): its size, its divers, its targets."""
    n = plan.rating.charges
    if not 1 <= len(plan.cone) <= n:
        return f"suppressive fire covers 1 to {n} targets, not {len(plan.cone)}"
    if not set(dive) <= {t.combatant.id for t in plan.cone}:
        return "only targets in the cone may dive for cover"
    blocked = next((t.reason for t in plan.cone if t.reason), "")
    if blocked:
        return blocked
    for t in plan.cone:  # R-CHAR-8: no Defense roll before its rules are decided (a dive is)
        try:
            _ = t.dives or t.combatant.rules_rank
        except RulesError as undecided:
            return str(undecided)
    return ""


def suppress(
    enc: Encounter, cmd: Suppress, rng: random.Random, cat: Catalog, held: Held | None = None
) -> Outcome:
    """R-ATK-16, rolled from :func:`plan_suppress`. Interpretation (RULES.md): a Defense die
    above Defense + cover + 2 is a hit: 1d4 damage and 1 more Fear; then every target gains
    the Fear die at Short (and Melee), one fewer at Medium, two fewer at Long, three fewer
    at Extra-long. The cone itself is :func:`~.cone.roll_cone` (Dodge, Luck and Clues).
    ``held``: a Pinned shooter's Morale roll, made (and re-rolled) already.
    """
    plan = plan_suppress(enc, cmd, cat)
    plan.check()
    shooter, state, rating = plan.shooter, plan.state, plan.rating
    spent = spend_action(enc, shooter, "attack")
    held = held or pinned_check(shooter, rng, cmd)  # §8: shooting back
    stopped = pinned_stop(enc, spent, held)
    if stopped is not None:
        return stopped
    enc = spent
    turn = current_turn(enc)  # the other weapon may fire after it (aiming.second_weapon)
    marked = evolve(turn, suppressed=(*turn.suppressed, shooter.id))
    enc = enc.with_turn(main_hand_used(marked, shooter.id, state.id))
    charges = None if state.charges is None else state.charges - rating.charges
    enc = enc.with_combatant(
        edit_weapon(enc.get(shooter.id), state.id, charges=charges, fired=True)
    )
    title = f"{shooter.name} lays down suppressive fire (R-ATK-16)"
    fired = roll_cone(enc, cmd, rng, cat, title, [plan.headline])
    return fired.after(held.log) if held is not None else fired  # the Morale roll first
