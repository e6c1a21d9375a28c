"""Defense rolls, damage for each hit through, and the points an attack resumes from.

An attack's roll hands over to :func:`resolve`, which carries it to its end as a loop of
steps (a stray hit, Defense, damage, the next target), each able to pause for a decision
whose answer resumes at the step after; the GM's damage and chart rolls outside an
attack are here too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum
from functools import partial

from ...packs import Catalog
from ...rules import Cover, Derived, Rank, RulesError, Trait, roll_damage, roll_defense
from ...rules.combat import SEVERELY
from ...rules.rerolls import spend_free
from ...rules.secret import secret
from ...rules.tasks import PoolRoll
from ..conditions import trait_roll, with_condition
from ..encounter import Combatant, Encounter, evolve
from .chart import GRIP, apply_chart_row, chart_roll, grip_result, grip_roll
from .commands import AnswerDive, ApplyDamage, ChooseChartRow, Location, Reaction, RollChart
from .fear import fear_line, give_fear, spread_fear, unit_after_attack, unit_of
from .outcome import (
    AttackState,
    HitTail,
    Line,
    LogLines,
    Outcome,
    Pending,
    PendingChartChoice,
    PendingCombatRerolls,
    PendingDive,
    Rerolled,
    RollStage,
    ask_rerolls,
)
from .setup import cover_named
from .wounds import (
    damage_expr,
    defense_line,
    defense_rerolls,
    defense_tn,
    dive,
    health_against,
    hit_line,
    is_melee,
    outside_damage,
    resolved_damage,
    take_wound,
)


class Step(Enum):
    """Where an attack goes on from, after its roll or a decision (:func:`resolve`)."""

    STRAY = "stray"
    """R-ATK-13: a hit went astray on a Misfortune, into an ally in the melee."""
    DEFENSE = "defense"
    """R-ATK-6: the target rolls Defense against ``hits`` (after a dive, or none)."""
    DAMAGE = "damage"
    """R-ATK-7: ``hits`` got through: damage, Fear, wounds, the chart for each."""


# read per attack and hit: plain names, as in :mod:`..encounter`
_STRAY, _DEFENSE, _DAMAGE, _LIMB = Step.STRAY, Step.DEFENSE, Step.DAMAGE, Location.LIMB
_SIDEKICK, _OPEN, _ROLL_DEFENSE = Rank.SIDEKICK, Cover.NONE, RollStage.DEFENSE
_ZONE_OF_CONTROL = Reaction.ZONE_OF_CONTROL


def resolve(
    enc: Encounter,
    state: AttackState,
    rng: random.Random,
    cat: Catalog,
    step: Step,
    lines: Sequence[Line] = (),
    first: int = 1,
) -> Outcome:
    """Carry an attack from ``step`` to its end, one target at a time: the hit gone astray
    into the melee (R-ATK-13), the target's Defense, damage for each hit through, then the
    next target the same suppressive fire hit (R-ATK-16). A step may pause for a decision
    (Defense re-rolls, a 13 on the chart); its answer resumes here at the step after.
    ``lines`` and ``first`` carry the damage step's log lines and hit number so far.
    """
    log: list[LogLines] = []
    lines = list(lines)
    melee = is_melee(cat, state)  # one weapon for every target of the attack
    hits = state.hits  # through Defense: kept beside ``state``, not in a copy of it
    while True:
        if step is _STRAY:
            ally = enc.get(state.spill)
            if not ally.standing:
                return Outcome(enc, tuple(log))
            state = evolve(state, target=ally.id, hits=1, spill="", fear_before=ally.fear)
            fear = fear_line(enc, ally, 1, "R-ATK-4")
            enc = give_fear(enc, ally, 1)
            log.append(
                LogLines(
                    "Firing into melee (R-ATK-13)", (f"Misfortune: 1 hit goes to {ally.name}", fear)
                )
            )
            step = _DEFENSE
        elif step is _DEFENSE:
            hits, line, ask = _defend(enc, state, rng, melee)
            if ask is not None:
                return Outcome(enc, (*log, LogLines(ask.title, (line,))), ask)
            step, lines, first = _DAMAGE, [line], 1
        else:
            enc, done, pending = _damage(enc, state, hits, rng, cat, melee, lines, first)
            log += done
            if pending is not None:
                return Outcome(enc, tuple(log), pending)
            if state.spill:
                step = _STRAY
            elif state.queue:  # R-ATK-16: the next target the suppressive fire hit
                before = state.fears[0] if state.fears else state.fear_before
                state = evolve(
                    state,
                    target=state.queue[0],
                    queue=state.queue[1:],
                    hits=1,
                    fear_before=before,
                    fears=state.fears[1:],
                )
                lines, first, hits = [], 1, 1
            else:
                return Outcome(enc, tuple(log))


def hit_each(
    enc: Encounter,
    attack: AttackState,
    hits: Sequence[Combatant],
    rng: random.Random,
    cat: Catalog,
) -> Outcome:
    """One hit through on each of ``hits`` in turn (a cone's: suppressive fire, the
    Sonic Relik), ``attack`` giving the attacker, weapon and damage; each as it stood
    before the action, so its Fear then is what R-FEAR-2's panic counts from. The first
    is resolved now, the rest queued behind it.
    """
    queue = tuple(t.id for t in hits[1:])
    fears = tuple(t.fear for t in hits[1:])
    first = evolve(
        attack, target=hits[0].id, hits=1, queue=queue, fear_before=hits[0].fear, fears=fears
    )
    return resolve(enc, first, rng, cat, Step.DAMAGE)


def _defend(
    enc: Encounter, state: AttackState, rng: random.Random, melee: bool
) -> tuple[int, Line, PendingCombatRerolls | None]:
    """R-ATK-6 Defense (with R-ATK-14 flanking in ``melee``) against ``state.hits``: the
    hits through (handed on beside ``state``, not in a copy of it: some 30 Defense rolls a
    fight), the roll's line, and the question when the defender may spend re-rolls on it.
    """
    target = enc.get(state.target)
    defense = defense_tn(enc, target, melee, state.defense_mod)
    rank = target.rules_rank if target.rank is _SIDEKICK else target.rank  # the property: rare
    droll = roll_defense(rng, state.hits, defense.value, rank)
    free = defense_rerolls(target, melee)
    title = _title(target)
    ask = ask_rerolls(target, droll, free, _ROLL_DEFENSE, state, defense.value, title)
    if ask is None and free and droll.successes:  # spent to stop the most hits
        droll = spend_free(droll, rng, free).roll
    return droll.successes, partial(defense_line, defense, droll, not target.player), ask


def _damage(
    enc: Encounter,
    state: AttackState,
    hits: int,
    rng: random.Random,
    cat: Catalog,
    melee: bool,
    lines: list[Line],
    first: int,
) -> tuple[Encounter, list[LogLines], Pending | None]:
    """R-ATK-7 damage and Fear for each of the ``hits`` through, R-DMG/R-WOUND, §7.
    A 13 on the chart pauses the attack with the remaining hits; the GM's pick resumes it.
    ``melee``: a melee blow (no Pinned after it, R-ATK-8).
    """
    attacker, target = enc.get(state.attacker), enc.get(state.target)
    weapon = cat.weapons[state.weapon]
    source = damage_expr(weapon, state.style, state.damage, state.location)
    feared = 0  # hits through that gave a Fear token: the rest of the unit's too
    for n in range(hits):  # ``standing`` inlined below: read a few times per hit
        if target.out or target.unconscious:
            break
        expr = resolved_damage(source, attacker.traits)
        if state.grapple:  # R-ATK-17: compared with Strength instead of wounding
            target, line = _grab(target, attacker, roll_damage(rng, expr, 1).damage)
            lines.append(f"hit {first + n}: {line}")
            continue
        hit = roll_damage(rng, expr, health_against(target, weapon))
        total = hit.damage + state.damage_bonus
        wounded, result = take_wound(target, total, weapon.nonlethal)
        lines.append(partial(hit_line, first + n, hit, state.damage_bonus, weapon, target, result))
        target = wounded
        standing = not (target.out or target.unconscious)
        if standing:  # R-ATK-7: one more Fear per hit through
            target, feared = evolve(target, fear=target.fear + 1), feared + 1
        limb = total if state.location == _LIMB and standing and total > 0 else 0
        if limb or result.severe:
            rest = evolve(state, hits=hits - n - 1)
            tail = HitTail(result.severe, result.overflow, first + n + 1)
            target, pending = _hit_tail(target, limb, tail, rest, rng, cat, lines)
            if pending is not None:
                enc = spread_fear(enc, target, feared)
                return enc, [LogLines(_title(target), tuple(lines))], pending
    stopped = "grappled" in target.conditions  # R-OTHER-4: a grapple stops it outright
    passing = state.reaction == _ZONE_OF_CONTROL and hits
    if passing and target.standing and not stopped:
        target = with_condition(target, "slowed")
        lines.append(f"{target.name} is slowed: no Run this turn (R-OTHER-4)")
    enc, end_lines = unit_after_attack(enc, target, state, not melee, feared)
    shown = (*lines, *end_lines)
    return enc, [LogLines(_title(target), shown)] if shown else [], None


def ally_in_melee(enc: Encounter, state: AttackState, target: Combatant) -> Combatant | None:
    """R-ATK-13: the attacker's standing ally locked in melee with ``target``, if any."""
    side = enc.get(state.attacker).side
    allies = (enc.get(e) for e in target.engaged)
    return next((a for a in allies if a.side == side and a.standing), None)


def answer_dive(
    enc: Encounter, cmd: AnswerDive, pending: PendingDive, rng: random.Random, cat: Catalog
) -> Outcome:
    """R-ATK-5: diving takes the cover, goes Prone and loses 1 action next turn; "This
    gives all figures in the unit, or the character, the cover it is diving behind, but
    the character or unit loses 1 action during its next turn, and is prone": with
    ``unit`` every standing figure of the target's Minion unit dives with it.
    """
    target = enc.get(pending.attack.target)
    cover = cover_named(cmd.cover)
    if cover is not _OPEN:
        if cover <= target.cover:
            raise RulesError(
                f"{target.name} is already in {target.cover.label} cover:"
                " dive only to better cover (R-ATK-5)"
            )
        divers = unit_of(enc, target) if cmd.unit else (target,)
        enc = enc.with_combatants(*[dive(diver, cover) for diver in divers])
        who = f"{target.name}'s unit ({len(divers)})" if cmd.unit else target.name
        line = (
            f"{who} dives into {cover.label} cover:"
            f" Prone, {'each ' if cmd.unit else ''}loses 1 action next turn (R-ATK-5)"
        )
    else:
        line = f"{target.name} stays put and defends (R-ATK-5: no dive)"
    finished = resolve(enc, pending.attack, rng, cat, _DEFENSE)
    return finished.after(LogLines("Dive for cover", (line,)))


LIMB = "Limb hit: Stamina − damage"
"""The limb roll's label in the log (R-ATK-10)."""


def _hit_tail(
    target: Combatant,
    limb: int,
    tail: HitTail,
    rest: AttackState,
    rng: random.Random,
    cat: Catalog,
    lines: list[Line],
) -> tuple[Combatant, Pending | None]:
    """What a hit does after its wound: R-ATK-10 a limb hit's Stamina − ``limb`` roll, then
    a severe wound's grip roll and chart (:func:`_severe_tail`). A Hero may stop at a failed
    Stamina roll to spend re-rolls (R-TASK-6); the answer goes on from there
    (:func:`hit_rerolled`), then with the ``rest`` of the attack.
    """
    if limb:
        base = target.traits[Derived.STAMINA] - limb
        roll, _, line = trait_roll(target, base, LIMB, rng)
        lines.append(line)
        ask = ask_rerolls(
            target, roll, 0, RollStage.LIMB, rest, roll.target, _title(target), tail=tail
        )
        if ask is not None:
            return target, ask
        target, lines[-1] = _limb_result(target, roll, line)
    return _severe_tail(target, tail, rest, rng, cat, lines, _title(target))


def _severe_tail(
    target: Combatant,
    tail: HitTail,
    rest: AttackState | None,
    rng: random.Random,
    cat: Catalog,
    lines: list[Line],
    title: str,
    grip: tuple[PoolRoll, str] | None = None,
) -> tuple[Combatant, Pending | None]:
    """R-WOUND-5 on a severe wound: the grip roll (``grip`` when made and re-rolled), which
    may pause for re-rolls (R-TASK-6: a Hero's Luck serves any roll, an attack's or not),
    then the chart, which may pause for the GM's pick; then the ``rest`` of the attack
    (None: damage from outside one), logged under ``title``."""
    if not tail.severe:
        return target, None
    if grip is None:
        grip = grip_roll(target, rng)
        if grip is not None:
            roll, line = grip
            ask = ask_rerolls(target, roll, 0, RollStage.GRIP, rest, roll.target, title, tail=tail)
            if ask is not None:
                lines.append(line)
                return target, ask
    if grip is not None:
        target, line = grip_result(target, *grip, cat)
        lines.append(line)
    target, chart_lines, pending = chart_roll(target, tail.overflow, rng, cat)
    lines += chart_lines
    if pending is not None:
        pending = evolve(pending, resume=rest, next_hit=tail.next_hit)
    return target, pending


def hit_rerolled(answer: Rerolled, rng: random.Random, cat: Catalog) -> Outcome:
    """The hit a Hero's limb or grip roll paused, gone on with the roll as it stands,
    then the rest of the attack (none after damage from outside one)."""
    pending, roll = answer.pending, answer.roll
    lines: list[Line] = [*answer.lines]
    tail, rest, target = pending.tail, pending.attack, answer.roller
    assert tail is not None  # a limb or grip roll's question
    label = LIMB if pending.stage is RollStage.LIMB else GRIP
    line = f"{label} roll: {roll.explain(not target.player)}"
    if pending.stage is RollStage.LIMB:
        target, line = _limb_result(target, roll, line)
        lines.append(line)
        target, paused = _severe_tail(target, tail, rest, rng, cat, lines, pending.title)
    else:
        target, paused = _severe_tail(
            target, tail, rest, rng, cat, lines, pending.title, (roll, line)
        )
    enc = answer.enc.with_combatant(target)
    if paused is not None or rest is None:
        return Outcome(enc, (LogLines(pending.title, tuple(lines)),), paused)
    return resolve(enc, rest, rng, cat, Step.DAMAGE, lines, first=tail.next_hit)


def _title(target: Combatant) -> str:
    return f"{target.name} defends"


def _limb_result(target: Combatant, roll: PoolRoll, line: str) -> tuple[Combatant, str]:
    """R-ATK-10: the limb roll as it stands: the limb still used, or useless."""
    if roll.success:
        return target, f"{line}: keeps using the limb"
    return with_condition(target, "lamed"), f"{line}: the limb is useless (drops or falls)"


def _grab(target: Combatant, attacker: Combatant, damage: int) -> tuple[Combatant, str]:
    """R-ATK-17: the damage roll against the defender's Strength; above it, grappled."""
    strength = target.traits[Trait.STRENGTH]
    shown = secret(strength, not target.player)  # a Minion's traits are the GM's
    if damage <= strength or "grappled" in target.conditions:
        return target, f"grab {damage} vs Strength {shown}: breaks loose"
    grabbed = with_condition(target, "grappled")
    return grabbed, f"grab {damage} vs Strength {shown}: {target.name} is grappled (R-ATK-17)"


def choose_chart_row(
    enc: Encounter,
    cmd: ChooseChartRow,
    pending: PendingChartChoice,
    rng: random.Random,
    cat: Catalog,
) -> Outcome:
    """§7 erratum: the GM picks a row, or ``random`` rolls 50/50; the attack then goes on."""
    picked = rng.choice(pending.rows) if cmd.row == "random" else cmd.row
    if picked not in pending.rows:
        raise RulesError(f"pick one of {', '.join(pending.rows)}, or random")
    row = next(r for r in cat.chart if r.id == picked)
    how = "random pick" if cmd.row == "random" else "GM picks"
    line = f"{how} on {pending.total}"
    target, lines = apply_chart_row(enc.get(pending.target), row, line, rng, cat)
    enc = enc.with_combatant(target)
    head = LogLines(f"{target.name}: Severe Wound chart", tuple(lines))
    if pending.resume is None:
        return Outcome(enc, (head,))
    rest = resolve(enc, pending.resume, rng, cat, Step.DAMAGE, first=pending.next_hit)
    return rest.after(head)


def apply_damage(enc: Encounter, cmd: ApplyDamage, rng: random.Random, cat: Catalog) -> Outcome:
    """Damage the GM rolled outside an attack, then the chart if it is a severe wound."""
    c, result, line = outside_damage(enc.get(cmd.combatant), cmd.damage, cmd.nonlethal)
    lines: list[Line] = [line]
    if not result.severe:
        return Outcome(enc.with_combatant(c), (LogLines(f"{c.name} takes damage", (line,)),))
    return _severe_outside(enc, c, result.overflow, rng, cat, lines, f"{c.name} takes damage")


def roll_chart(enc: Encounter, cmd: RollChart, rng: random.Random, cat: Catalog) -> Outcome:
    """§7 for a Hero the GM names: d10 + overflow + 2 × earlier severe wounds."""
    c = enc.get(cmd.combatant)
    if c.rules_rank is not Rank.HERO:
        raise RulesError(f"{c.name} is taken out by a wound: the chart is for Heroes (R-WOUND-2)")
    if c.out:
        raise RulesError(f"{c.name} is dead (§7): no more rolls on the chart")
    if not 0 <= cmd.overflow <= 99:
        raise RulesError(f"overflow past Health is 0 to 99, not {cmd.overflow}")
    if not cat.chart:
        raise RulesError("no Severe Wound chart in the loaded packs")
    c = evolve(c, wounds=max(c.wounds, SEVERELY))  # a chart roll is a severe wound (R-WOUND-1)
    return _severe_outside(enc, c, cmd.overflow, rng, cat, [], f"{c.name}: Severe Wound")


def _severe_outside(
    enc: Encounter,
    c: Combatant,
    overflow: int,
    rng: random.Random,
    cat: Catalog,
    lines: list[Line],
    title: str,
) -> Outcome:
    """R-WOUND-5 and §7 for a severe wound from outside an attack (the GM's damage, a
    chart roll): Prone, the grip roll (a Hero's re-rolls asked), then the chart."""
    tail = HitTail(severe=True, overflow=overflow, next_hit=1)
    c, pending = _severe_tail(c, tail, None, rng, cat, lines, title)
    return Outcome(enc.with_combatant(c), (LogLines(title, tuple(lines)),), pending)
