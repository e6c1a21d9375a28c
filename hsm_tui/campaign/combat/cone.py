"""Suppressive fire's cone once fired (R-ATK-16): each target in turn dives or rolls
Defense + 2, then the shooter's Fear die and the hits' damage. A Defense roll is a roll
like any other (R-TASK-6): Dodge's re-roll is spent on it, and a Hero with Luck or Clues
is asked, which pauses the cone until :func:`resume_cone` goes on from the next target.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from ...packs import Catalog, Weapon
from ...rules import (
    Cover,
    Modifier,
    RangeBand,
    Rank,
    RulesError,
    TargetNumber,
    defense_odds,
    roll_defense,
)
from ...rules.odds import percent
from ...rules.rerolls import spend_free
from ...rules.secret import secret
from ...rules.tasks import PoolRoll
from ..encounter import Combatant, Encounter, evolve
from .commands import Suppress
from .damage import hit_each
from .fear import fear_line, give_fear, unit_after_attack, unit_key
from .outcome import AttackState, Line, LogLines, Outcome, RollStage, ask_rerolls
from .wounds import defense_rerolls, defense_tn, dive


@dataclass(frozen=True)
class SuppressTarget:
    """One combatant as suppressive fire would meet it (R-ATK-16): its band, the Defense
    it rolls against, whether it dives, and why the cone cannot hold it.
    """

    combatant: Combatant
    band: RangeBand | None  # None: no band set between the zones, or not an enemy
    tn: TargetNumber  # Defense + 2: a Defense die above it is a hit
    reason: str = ""  # the refusal naming it (out of range, no band, no enemy); "" if it may
    dives: bool = False  # dives for cover instead of rolling Defense (R-ATK-5)

    @property
    def eligible(self) -> bool:
        return not self.reason

    @property
    def band_label(self) -> str:
        return "no band" if self.band is None else self.band.label

    @property
    def fear_less(self) -> int:
        """How much less of the Fear die it gains: 0 at Short (or Melee), 1 at Medium, …"""
        return 0 if self.band is None else max(0, self.band - RangeBand.SHORT)

    def fear(self, die: int) -> int:
        """Fear tokens it gains when the shooter's Fear die shows ``die``."""
        return max(0, die - self.fear_less)

    @property
    def hit(self) -> Fraction:
        """Exact chance the fire hits it (1d4 damage, 1 more Fear): none for a diver, else
        its one Defense d10 showing more than Defense, Dodge's free re-roll spent (R-ACT-2).
        Needs a decided Sidekick (R-CHAR-8).
        """
        return self._hit(0)

    @property
    def hit_with_pools(self) -> Fraction:
        """:attr:`hit` when a Hero also spends all its Luck and Clues on the roll (R-CHAR-9)."""
        c = self.combatant
        return self._hit(c.luck + c.clues if c.rules_rank is Rank.HERO else 0)

    def _hit(self, paid: int) -> Fraction:
        if self.dives:
            return Fraction(0)
        free = defense_rerolls(self.combatant, False)
        return defense_odds(1, self.defense, self.combatant.rules_rank, free + paid).success

    @property
    def hit_text(self) -> str:
        """``hit 30.0%``, with what the re-rolls do: ``hit 9.0% (Dodge re-roll) · 2.7% with
        Luck and Clues`` (a Hero's pools are asked for after the roll, R-CHAR-9).
        """
        text = f"hit {percent(self.hit)}"
        if self.dives:
            return text
        if defense_rerolls(self.combatant, False):
            text += " (Dodge re-roll)"
        pools = self.hit_with_pools
        return text if pools == self.hit else f"{text} · {percent(pools)} with Luck and Clues"

    @property
    def defense(self) -> int:
        return self.tn.value

    @property
    def defense_text(self) -> str:
        return f"{self.combatant.name}: {self.tn.terms()}"

    def rolled(self, droll: PoolRoll) -> str:
        """The Defense roll's log line; a Minion's Defense is the GM's."""
        gms = not self.combatant.player
        head = secret(f"{self.tn.terms()} → ", gms, "")
        return f"{self.combatant.name}: {head}{droll.explain(gms)}"

    @property
    def dive_text(self) -> str:
        return f"{self.combatant.name} dives for cover: safe, Prone, loses 1 action (R-ATK-5)"


def suppress_target(
    enc: Encounter, shooter: Combatant, weapon: Weapon, c: Combatant
) -> SuppressTarget:
    """``c`` as ``shooter``'s suppressive fire with ``weapon`` meets it (R-ATK-16)."""
    try:
        band, reason = enc.band(shooter, c), ""
    except RulesError as no_band:
        band, reason = None, str(no_band)
    if not c.standing or c.side == shooter.side:
        band, reason = None, f"{c.name} is not a standing enemy"
    elif band is not None and band > weapon.range:
        reason = f"{c.name} is beyond {weapon.name}'s {weapon.range.label} range"
    defense = defense_tn(enc, c, False, 0).plus(Modifier("suppressive fire", 2))
    return SuppressTarget(c, band, defense, reason)


def aim_cone(enc: Encounter, cmd: Suppress, weapon: Weapon) -> tuple[SuppressTarget, ...]:
    """The command's targets in its order, once each, with the divers marked."""
    shooter = enc.get(cmd.attacker)
    return tuple(
        evolve(suppress_target(enc, shooter, weapon, enc.get(tid)), dives=tid in cmd.dive)
        for tid in dict.fromkeys(cmd.targets)
    )


def roll_cone(
    enc: Encounter,
    cmd: Suppress,
    rng: random.Random,
    cat: Catalog,
    title: str,
    lines: list[Line],
    start: int = 0,
    hit: tuple[str, ...] = (),
) -> Outcome:
    """R-ATK-16 from the cone's target ``start`` on (``hit``: those hit before it): a
    diver dives, the others roll Defense + 2; then the Fear die by band and the damage.
    """
    weapon = cat.weapons[enc.get(cmd.attacker).weapon(cmd.weapon).id]
    cone = aim_cone(enc, cmd, weapon)
    for aim in cone[start:]:
        t = enc.get(aim.combatant.id)
        if aim.dives:
            enc = enc.with_combatant(dive(t, Cover.LIGHT))
            lines.append(aim.dive_text)
            continue
        droll = roll_defense(rng, 1, aim.defense, t.rules_rank)
        free = defense_rerolls(t, False)
        paused = AttackState(cmd.attacker, t.id, weapon.id, 1, damage="1d4", queue=hit, cone=cmd)
        ask = ask_rerolls(t, droll, free, RollStage.DEFENSE, paused, aim.defense, title)
        if ask is None and free and droll.successes:  # Dodge's re-roll (R-ACT-2)
            droll = spend_free(droll, rng, free).roll
        lines.append(aim.rolled(droll))
        if ask is not None:
            return Outcome(enc, (LogLines(title, tuple(lines)),), ask)
        hit = (*hit, t.id) if droll.successes else hit
    return _fear_and_damage(enc, cmd, cone, hit, rng, cat, title, lines)


def resume_cone(
    enc: Encounter,
    state: AttackState,
    roll: PoolRoll,
    rng: random.Random,
    cat: Catalog,
    title: str,
    lines: list[Line],
) -> Outcome:
    """The cone after a Hero's Defense re-rolls (``roll``): on from the next target."""
    cmd = state.cone
    assert cmd is not None  # only a cone's Defense roll resumes here
    hit = (*state.queue, state.target) if roll.successes else state.queue
    start = list(dict.fromkeys(cmd.targets)).index(state.target) + 1
    return roll_cone(enc, cmd, rng, cat, title, lines, start, hit)


def _fear_and_damage(
    enc: Encounter,
    cmd: Suppress,
    cone: tuple[SuppressTarget, ...],
    hit: tuple[str, ...],
    rng: random.Random,
    cat: Catalog,
    title: str,
    lines: list[Line],
) -> Outcome:
    """The Fear die: the full roll at Short (and Melee), one fewer at Medium, two fewer at
    Long, three fewer at Extra-long; R-ATK-8 Pinned; then 1d4 damage per target hit.
    """
    weapon = cat.weapons[enc.get(cmd.attacker).weapon(cmd.weapon).id]
    assert weapon.suppression is not None  # plan_suppress fired only such a weapon
    sides = weapon.suppression.die
    before = {aim.combatant.id: aim.combatant for aim in cone}  # no Fear given yet
    die = rng.randint(1, sides)
    lines.append(f"Fear die d{sides}: {die}")
    most: dict[str, SuppressTarget] = {}  # a unit's Fear: the most any of its figures takes
    for aim in cone:
        key = unit_key(aim.combatant)
        if key not in most or aim.fear(die) > most[key].fear(die):
            most[key] = aim
    for aim in most.values():
        tid = aim.combatant.id
        lines.append(fear_line(enc, enc.get(tid), aim.fear(die), at=aim.band_label))
        enc = give_fear(enc, enc.get(tid), aim.fear(die))
        fired = AttackState(cmd.attacker, tid, weapon.id, 0, fear_before=before[tid].fear)
        enc, more = unit_after_attack(enc, enc.get(tid), fired, shot=True)
        lines += more
    head = LogLines(title, tuple(lines))
    if not hit:
        return Outcome(enc, (head,))
    fired = AttackState(cmd.attacker, "", weapon.id, 1, damage="1d4")
    return hit_each(enc, fired, [before[t] for t in hit], rng, cat).after(head)
