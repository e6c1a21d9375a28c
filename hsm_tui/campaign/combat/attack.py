"""The attack (§5): spend the action, roll the plan's dice, the Hero's re-rolls, the card's
effects and Fear per hit; then a dive for cover, or straight on to Defense
(:func:`~.damage.resolve`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache, partial

from ...packs import Catalog
from ...rules import (
    Cover,
    Modifier,
    RangeBand,
    Rank,
    Rating,
    TargetNumber,
    attack_odds,
    roll_attack,
)
from ...rules.odds import percent
from ...rules.rerolls import spend_free, spend_rerolls
from ...rules.secret import secret
from ...rules.tasks import HeroFace, PoolRoll
from ..conditions import nausea
from ..encounter import Encounter, evolve
from .aiming import plan_attack, take_attack_action
from .cards import apply_card_effects, face_effects
from .commands import Attack, CloseIn, EndTurn, Move, SonicBlast, SpendCombatRerolls, Suppress
from .cone import resume_cone
from .damage import Step, ally_in_melee, answer_dive, hit_rerolled, resolve
from .dives import policy_answer
from .fear import fear_line, give_fear, unit_after_attack, unit_of
from .gear import edit_weapon
from .groups import retarget
from .movement import close_in, move
from .outcome import (
    AttackState,
    Line,
    LogLines,
    Outcome,
    PendingCombatRerolls,
    PendingDive,
    Rerolled,
    RollStage,
    ask_rerolls,
)
from .rounds import end_turn
from .sonic import sonic_blast, sonic_rerolled
from .suppress import suppress
from .turn_start import turn_start_rerolled
from .turns import Held, current_turn, pinned_check, pinned_stop, pinned_verdict
from .wounds import is_melee

# read per attack: plain names, as in :mod:`..encounter`
_WILD, _MISFORTUNE, _DEFENSE = Rating.WILD, HeroFace.MISFORTUNE, Step.DEFENSE
_ATTACK, _SIDEKICK, _HEAVY, _OPEN = RollStage.ATTACK, Rank.SIDEKICK, Cover.HEAVY, Cover.NONE


def attack(
    enc: Encounter, cmd: Attack, rng: random.Random, cat: Catalog, held: Held | None = None
) -> Outcome:
    """§5: declare, build the TN, roll the attack dice, Fear per hit, then Defense.
    ``held``: a Pinned attacker's Morale roll, made (and re-rolled) already.
    """
    # a group member's aim only may turn (or_nearest); every attack passes here
    cmd, turned = retarget(enc, cmd, cat) if cmd.or_nearest else (cmd, ())
    plan = plan_attack(enc, cmd, cat)
    spent = take_attack_action(enc, plan.attacker, cmd)
    target, weapon, style, dice, band = plan.target, plan.weapon, plan.style, plan.dice, plan.band
    lines: list[Line] = [partial(_aim_line, weapon.name, style, dice, target.name, band), *turned]
    marked = plan.attacker.conditions  # most attackers hold none: no Pinned or nausea roll
    held = held or (pinned_check(plan.attacker, rng, cmd) if marked else None)
    if held is not None:  # §8 Pinned: the Morale roll may stop the attack
        stopped = pinned_stop(enc, spent, held)
        if stopped is not None:
            return stopped
        lines += held.log.lines
    enc, tn = spent, plan.tn
    if marked:
        sick, note = nausea(plan.attacker, rng)
        tn = tn.plus(Modifier("nausea", sick)) if sick else tn
        if note:
            lines.append(note)
    # Standby's reaction took its mark off the attacker; any other attack left it as planned
    attacker = enc.get(plan.attacker.id) if cmd.reaction else plan.attacker
    state, melee, cost, aim, rank = plan.state, plan.melee, plan.cost, plan.aim, attacker.rank
    rank = attacker.rules_rank if rank is _SIDEKICK else rank  # the property for the rare case
    roll = roll_attack(rng, tn.value, dice, rank)
    if aim:  # R-ACT-2 Aim: one free re-roll on this attack
        turn = current_turn(enc)
        enc = enc.with_turn(evolve(turn, aim_used=(*turn.aim_used, attacker.id)))
    attacker = edit_weapon(
        attacker,
        state.id,
        charges=None if state.charges is None else state.charges - cost,
        fired=not cmd.club,  # a gun swung as a club has not fired (R-ATK-3 recharge)
        dropped=cmd.throw,  # a thrown weapon lies where it landed (R-ATK-1 Throw)
    )
    if melee:  # the blow engages the two; most blows land on an opponent engaged already
        if target.id not in attacker.engaged:
            attacker = evolve(attacker, engaged=(*attacker.engaged, target.id))
        if attacker.id not in target.engaged:
            target = evolve(target, engaged=(*target.engaged, attacker.id))
    enc = enc.with_combatants(attacker, target) if melee else enc.with_combatants(attacker)
    if style is _WILD:
        turn = current_turn(enc)
        enc = enc.with_turn(evolve(turn, wild=(*turn.wild, attacker.id)))
    gms = not attacker.player  # a GM's roll: its TN and odds are the GM's
    lines += (partial(_tn_line, tn, gms), partial(_odds_line, tn.value, dice, rank, plan.free, gms))
    title = f"{attacker.name} attacks {target.name}"
    paused = AttackState(
        attacker.id,
        target.id,
        weapon.id,
        roll.successes,
        style=style._value_,  # quicker than ``value`` (a descriptor)
        fear_before=target.fear,
        damage=plan.damage,
        location=cmd.location,
        grapple=cmd.grapple,
        reaction=cmd.reaction,
        thrown=cmd.throw,
        club=cmd.club,
    )
    free = aim + cmd.rerolls
    ask = ask_rerolls(attacker, roll, free, _ATTACK, paused, tn.value, title)
    if ask is not None:
        lines.append(partial(_roll_line, roll, gms))
        return Outcome(enc, (LogLines(title, tuple(lines)),), ask)
    # no pool to spend: the free re-rolls go as the odds policy would (R-TASK-6)
    spent = spend_free(roll, rng, free) if free else None
    roll = roll if spent is None else spent.roll
    lines.append(partial(_roll_line, roll, gms))
    if spent is not None:
        lines.append(_free_line(aim, cmd.rerolls, spent.d10, spent.hero))
    return _resolve_attack(enc, paused, roll, tn.value, title, lines, rng, cat, melee)


def spend_combat_rerolls(
    enc: Encounter,
    cmd: SpendCombatRerolls,
    pending: PendingCombatRerolls,
    rng: random.Random,
    cat: Catalog,
) -> Outcome:
    """R-TASK-6: roll every chosen re-roll at once, pay Luck/Clues, then finish the attack."""
    roller = enc.get(pending.roller)
    spent = spend_rerolls(pending.roll, rng, cmd, pending.free, roller.luck, roller.clues)
    roll = spent.roll
    if spent.total:
        paid = evolve(roller, luck=roller.luck - spent.luck, clues=roller.clues - spent.clues)
        enc = enc.with_combatant(paid)
        line: Line = partial(_rerolled_line, spent.cost, roll, not roller.player)
    else:
        line = "keeps the roll"
    answer = Rerolled(enc, pending, roll, (line,))
    return _RESUMES[pending.stage](answer, rng, cat)


def _attack_rerolled(answer: Rerolled, rng: random.Random, cat: Catalog) -> Outcome:
    """The attack after its roll's re-rolls: card effects, Fear, dive, Defense."""
    state, pending = answer.pending.attack, answer.pending
    assert state is not None  # an attack roll's question holds the attack
    lines: list[Line] = [*answer.lines]
    return _resolve_attack(
        answer.enc,
        state,
        answer.roll,
        pending.tn,
        answer.title,
        lines,
        rng,
        cat,
        is_melee(cat, state),
    )


def _defense_rerolled(answer: Rerolled, rng: random.Random, cat: Catalog) -> Outcome:
    """The hits through after a Defense roll's re-rolls; a cone goes on to its next target."""
    state = answer.pending.attack
    assert state is not None  # a Defense roll's question holds the attack
    lines = [*answer.lines]
    if state.cone is not None:  # suppressive fire: on to the cone's next target
        return resume_cone(answer.enc, state, answer.roll, rng, cat, answer.title, lines)
    return resolve(
        answer.enc, evolve(state, hits=answer.roll.successes), rng, cat, Step.DAMAGE, lines
    )


def _panic_rerolled(answer: Rerolled, rng: random.Random, cat: Catalog) -> Outcome:
    """§8 Panicked: the turn ends with the Morale roll as it stands."""
    shown = answer.roll.explain(not answer.roller.player)
    panic = (answer.roll, f"Panicked: Morale roll: {shown}")
    ended = end_turn(answer.enc, EndTurn(), rng, cat, panic)
    return ended.after(LogLines(answer.title, answer.lines))


def _pinned_rerolled(answer: Rerolled, rng: random.Random, cat: Catalog) -> Outcome:
    """§8 Pinned: the action the Morale roll held up, now that its re-rolls are spent."""
    then, roll = answer.pending.then, answer.roll
    assert then is not None  # a Pinned roll's question holds up its action
    shown = roll.explain(not answer.roller.player)
    verdict = pinned_verdict(roll.success, then)
    held = Held(
        roll.success, LogLines(answer.title, (*answer.lines, f"Morale: {shown}: {verdict}"))
    )
    act = {
        Attack: attack,
        Suppress: suppress,
        SonicBlast: sonic_blast,
        Move: move,
        CloseIn: close_in,
    }[type(then)]
    return act(answer.enc, then, rng, cat, held)


_RESUMES: dict[RollStage, Callable[[Rerolled, random.Random, Catalog], Outcome]] = {
    RollStage.ATTACK: _attack_rerolled,
    RollStage.DEFENSE: _defense_rerolled,
    RollStage.MORALE: turn_start_rerolled,
    RollStage.BLEEDING: turn_start_rerolled,
    RollStage.CONFUSED: turn_start_rerolled,
    RollStage.PANICKED: _panic_rerolled,
    RollStage.PINNED: _pinned_rerolled,
    RollStage.LIMB: hit_rerolled,
    RollStage.GRIP: hit_rerolled,
    RollStage.SONIC: sonic_rerolled,
}
"""Where each question's answer goes on from (R-TASK-6): one resume per stage."""


def _rerolled_line(cost: str, roll: PoolRoll, gms: bool) -> str:
    return f"re-rolls ({cost}): {roll.explain(gms)}"


def _roll_line(roll: PoolRoll, gms: bool) -> str:
    """The attack roll's line (written when the log is read: :class:`LogLines`)."""
    return f"roll {roll.explain(gms)}"


def _aim_line(weapon: str, style: Rating, dice: int, target: str, band: RangeBand) -> str:
    """What the attack fires at whom (the lines of an attack are written when the log is
    read: :class:`LogLines`)."""
    return f"{weapon} ({style.value}, {dice} d10) at {target}, {band.label} range"


def _tn_line(tn: TargetNumber, gms: bool) -> str:
    return secret(f"TN {tn.explain()}", gms, "TN hidden")


def _odds_line(tn: int, dice: int, rank: Rank, free: int, gms: bool) -> str:
    return secret(_odds_text(tn, dice, rank, free), gms, "")


@lru_cache(maxsize=1024)
def _odds_text(tn: int, dice: int, rank: Rank, free: int) -> str:
    """The attack's odds as logged, worked out once per TN, dice, rank and re-rolls."""
    odds = attack_odds(tn, dice, rank, free)
    return f"odds: ≥1 hit {percent(odds.success)} · expected {float(odds.expected):.2f} hits"


def _free_line(aim: int, granted: int, d10: int, hero: int) -> str:
    sources = [*(["Aim"] if aim else []), *([f"{granted} granted"] if granted else [])]
    return f"{' + '.join(sources)}: {d10 + hero} free re-roll(s) ({d10} d10, {hero} Hero die)"


def _resolve_attack(
    enc: Encounter,
    state: AttackState,
    roll: PoolRoll,
    tn: int,
    title: str,
    lines: list[Line],
    rng: random.Random,
    cat: Catalog,
    melee: bool,
) -> Outcome:
    """After the attack roll (and its re-rolls): card effects, Fear per hit, dive, Defense.
    ``melee``: a melee blow (:func:`is_melee`; the plan's, when the attack has one).
    """
    weapon = cat.weapons[state.weapon]
    target = enc.get(state.target)
    face = roll.face  # worked out per read: read once
    hits, effects = roll.successes, () if state.club else face_effects(weapon, face)
    pending_attack = state if state.hits == hits else evolve(state, hits=hits)
    if effects:  # most faces fire none
        enc, pending_attack, more = apply_card_effects(enc, pending_attack, effects, rng, tn, roll)
        lines += more
        hits = pending_attack.hits
        target = enc.get(target.id)
    ally = ally_in_melee(enc, state, target) if face is _MISFORTUNE else None
    if hits and not melee and ally is not None:  # R-ATK-13: one hit goes to the ally
        hits -= 1
        pending_attack = evolve(pending_attack, hits=hits, spill=ally.id)
        if not hits:  # the target's card Fear can still pin or panic it (R-ATK-8, R-FEAR-2)
            enc, end_lines = unit_after_attack(enc, target, pending_attack, not melee)
            strays = resolve(enc, pending_attack, rng, cat, Step.STRAY)
            return strays.after(LogLines(title, (*lines, *end_lines)))
    if hits:  # R-ATK-4: a Fear token per hit, before Defense
        lines.append(partial(fear_line, enc, target, hits, "R-ATK-4"))
        enc = give_fear(enc, target, hits)
    if not hits:  # card Fear on a miss can still pin or panic (R-ATK-8, R-FEAR-2)
        enc, end_lines = unit_after_attack(enc, enc.get(target.id), pending_attack, not melee)
        return Outcome(enc, (LogLines(title, (*lines, "no hit", *end_lines)),))
    if not melee and target.cover < _HEAVY:
        question = (
            f"{target.name} is hit {hits}×{' in the open' if target.cover is _OPEN else ''}:"
            " dive for cover within Short range? (it goes Prone and loses 1 action next turn)"
        )
        unit = len(unit_of(enc, target))  # a Minion unit dives as one (R-ATK-5)
        asked = PendingDive(pending_attack, question, target.cover, unit)
        answer = policy_answer(enc, target)  # the side's standing answer, if it gave one
        if answer is not None:
            answered = answer_dive(enc, replace(answer, unit=unit > 1), asked, rng, cat)
            return answered.after(LogLines(title, tuple(lines)))
        return Outcome(enc, (LogLines(title, tuple(lines)),), asked)
    finished = resolve(enc, pending_attack, rng, cat, _DEFENSE)
    return finished.after(LogLines(title, tuple(lines)))
