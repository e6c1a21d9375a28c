"""The start of a turn: a Hero's Morale roll and Fear (R-FEAR-1/2/3), the §8 conditions
(Dazed, Bleeding, Confused, Pinned), the actions lost and the countdowns' turn begun.

A Hero's roll here (Morale, Bleeding's Stamina, Confused's Savvy + Senses − 1) may pause
the turn for re-rolls (R-TASK-6, "re-roll any roll"). Answered, the turn starts again
from the top with the rolls made so far (:class:`TurnRoll`): nothing before the paused
roll rolls again, so the same dice give the same turn, and the lines the question's entry
already holds are not written twice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from ...packs import Catalog
from ...rules import Derived, Rank
from ...rules.rerolls import spend_free
from ...rules.secret import secret
from ...rules.tasks import HeroFace, PoolRoll
from ..conditions import ENGINE_MARKS, TURN_ROLLS, start_of_turn, trait_roll
from ..countdowns import countdowns_start
from ..encounter import Combatant, Encounter, Turn, evolve
from .outcome import (
    Line,
    LogLines,
    Outcome,
    PendingCombatRerolls,
    Rerolled,
    RollStage,
    TurnRoll,
    as_good,
    ask_rerolls,
    may_reroll,
)
from .turns import actions_text, actor_name, carried_losses, minus_actions

_ENGINE_MARKS = frozenset(ENGINE_MARKS)
_MORALE = RollStage.MORALE.value
_HERO, _MINION, _SIDEKICK, _MORALE_TRAIT = Rank.HERO, Rank.MINION, Rank.SIDEKICK, Derived.MORALE
_FORTUNE, _MISFORTUNE = HeroFace.FORTUNE, HeroFace.MISFORTUNE
"""Read for every member at every turn's start: plain names, as in :mod:`..encounter`."""
_FEAR_MARKS = frozenset(("shaken", "panicked"))
"""The markers Fear reached again turns into Panicked (R-FEAR-2)."""


def turn_start_rerolled(answer: Rerolled, rng: random.Random, _cat: Catalog) -> Outcome:
    """The turn a Hero's roll paused, started again with the roll as it stands."""
    pending, roll = answer.pending, answer.roll
    label = f"{_LABELS[pending.stage]} roll: {roll.explain(not answer.roller.player)}"
    rolled = (*pending.earlier, TurnRoll(pending.stage, roll, label))
    group = answer.roller.group
    return start_turn(answer.enc, group, [*answer.lines], rng, rolled, answer.title, pending.logged)


_LABELS = {
    RollStage.MORALE: "Morale",
    RollStage.BLEEDING: TURN_ROLLS["bleeding"],
    RollStage.CONFUSED: TURN_ROLLS["confused"],
}
"""The label each turn-start roll's line gives (as :func:`trait_roll` writes it)."""


def start_turn(
    enc: Encounter,
    actor: str,
    lines: list[Line],
    rng: random.Random,
    rolled: tuple[TurnRoll, ...] = (),
    title: str = "",
    logged: int = 0,
    members: tuple[Combatant, ...] | None = None,
    place: tuple[int, int] | None = None,
    ended: Sequence[Combatant] = (),
) -> Outcome:
    """Start ``actor``'s turn after ``lines`` (turns passed unplayed, re-rolls spent), with
    the rolls made so far (``rolled``), leaving out the first ``logged`` lines it writes
    (an earlier entry holds them). ``members``: who acts, when the caller has them already;
    ``place``: the turn index and round the fight moves on to (set in the one copy of the
    encounter the turn's start makes, ~45 a fight in a forecast), None: where it is;
    ``ended``: the last turn's members as it left them (others than ``actor``'s), set in
    that copy too.
    """
    moved = {} if place is None else {"turn_index": place[0], "round": place[1]}
    round_ = enc.round if place is None else place[1]
    when = f"Round {round_}" if round_ else "Surprise round (R-INIT-3)"
    base = f"{when}: {actor_name(enc, actor)}'s turn"
    title = title or base
    members = enc.members(actor) if members is None else members
    made = {r.stage.value: (r.roll, r.line) for r in rolled} if rolled else {}
    morale = made.get(_MORALE)
    hero = members[0] if len(members) == 1 else None  # a Hero always acts alone (R-INIT-1)
    if (
        morale is None
        and hero is not None
        # a Hero's rank read as it is (``rules_rank``, a property, is a call), a Sidekick's
        # asked: RulesError while undecided (R-CHAR-8)
        and (hero.rank is _HERO or hero.rules_rank is _HERO)
        and hero.fear >= hero.traits[_MORALE_TRAIT]  # R-FEAR-1: not on most turns
    ):
        roll, line, ask = _morale_roll(hero, rng, base)
        if ask is not None:  # its turn: nothing is taken till answered
            paused = enc.with_combatants(*ended, turn=Turn(actor), **moved)
            return Outcome(paused, (LogLines(base, (*lines, f"{hero.name}: {line}")),), ask)
        morale, rolled = (roll, line), (TurnRoll(RollStage.MORALE, roll, line), *rolled)
    said: list[str] = []
    lost: list[tuple[str, int]] = []
    lost_why: list[tuple[str, str]] = []
    restricted: list[str] = []
    started: list[Combatant] = []
    for member in members:
        calm = not (
            member.fear
            or member.conditions
            or member.lose_actions
            or member.lose_why
            or member.countdowns
        )
        if calm and member.traits[_MORALE_TRAIT] > 0:
            continue  # nothing to check, settle or lose: most Minions' turns (a forecast)
        was = member
        if member.conditions and not _ENGINE_MARKS.isdisjoint(member.conditions):
            # Dodge, full defense last until now
            kept = tuple(m for m in member.conditions if m not in ENGINE_MARKS)
            member = evolve(member, conditions=kept)
        member, note = _fear_check(member, rng, morale)
        if note:
            said.append(note)
        start = start_of_turn(member, rng, made, _asks)
        if start.lines:  # most turns' conditions say nothing
            said += [f"{member.name}: {line}" for line in start.lines]
        if start.paused is not None:  # nothing is kept till it is answered
            name, roll = start.paused
            made_here = tuple(TurnRoll(RollStage(n), r, line) for n, r, line in start.fresh)
            earlier = (*rolled, *made_here)
            ask = ask_rerolls(
                member, roll, 0, RollStage(name), None, roll.target, base, earlier, len(said)
            )
            paused = enc.with_combatants(*ended, *started, turn=Turn(actor), **moved)
            return Outcome(paused, (LogLines(title, (*lines, *said[logged:])),), ask)
        member, timed = countdowns_start(start.combatant)
        said += timed
        if start.restricted:
            restricted.append(member.id)
        shaken = "shaken" in member.conditions
        member_lost = member.lose_actions + shaken + start.lost
        if member_lost:
            why = "; ".join(
                (
                    *carried_losses(member),
                    *(["Shaken: −1 action (§8)"] if shaken else []),
                    *(
                        [f"Dazed {start.lost}: {minus_actions(start.lost)} (§8)"]
                        if start.lost
                        else []
                    ),
                )
            )
            lost.append((member.id, member_lost))
            lost_why.append((member.id, why))
            said.append(f"{member.name} loses {actions_text(member_lost)} — {why}")
        if member.lose_actions or member.lose_why:
            member = evolve(member, lose_actions=0, lose_why=())
        if member is not was:
            started.append(member)
    if lost or restricted:
        turn = Turn(actor, lost=tuple(lost), restricted=tuple(restricted), lost_why=tuple(lost_why))
    else:  # most turns start so
        turn = _fresh_turn(actor)
    enc = enc.with_combatants(*ended, *started, turn=turn, **moved)
    return Outcome(enc, (LogLines(title, (*lines, *said[logged:])),))


_fresh_turn = lru_cache(1024)(Turn)
"""A turn nothing was lost or restricted on, kept once made for its actor: a frozen
record, which costs some 20 look-ups to make, and most of a fight's ~40 turns start so."""


def _asks(c: Combatant, name: str, roll: PoolRoll) -> bool:
    return may_reroll(c, roll, RollStage(name))


def _morale_roll(
    c: Combatant, rng: random.Random, title: str
) -> tuple[PoolRoll, str, PendingCombatRerolls | None]:
    """R-FEAR-1 for a Hero whose Fear has reached its Morale (the caller checks both): the
    roll and its line, after the re-rolls it gets (R-TASK-6, "re-roll any roll"), or the
    question that pauses the turn when it has Luck or Clues to spend. Interpretation: an
    Advantage's "one re-roll on Morale rolls while under fire" (Kestrel Vance's Combat
    veteran) is the GM's ``steady`` marker, as a Parry is (R-ATK-9): the engine does not
    read an Advantage's words.
    """
    roll, _, line = trait_roll(c, c.traits[Derived.MORALE], "Morale", rng)
    free = int("steady" in c.conditions)  # an Advantage's re-roll on Morale (§8 marker)
    ask = ask_rerolls(c, roll, free, RollStage.MORALE, None, roll.target, title)
    if ask is None and free and not as_good(roll, RollStage.MORALE):
        roll = spend_free(roll, rng, free).roll
        line += f"; steady, a free re-roll: {roll.explain(not c.player)}"
    return roll, line, ask


def _fear_check(
    c: Combatant, rng: random.Random, rolled: tuple[PoolRoll, str] | None
) -> tuple[Combatant, str]:
    """R-FEAR-1/2/3 at the start of a turn, then one Fear token is removed. A Hero's
    Morale roll is ``rolled`` when it was made (and re-rolled) already.
    """
    morale = c.traits[_MORALE_TRAIT]
    if not c.fear and not c.conditions and morale > 0:  # calm: nothing to check or shed
        return c, ""
    notes = []
    conditions = set(c.conditions)
    fear = c.fear
    if "shaken" in conditions and fear < morale:  # R-FEAR-3
        conditions.discard("shaken")
        notes.append("no longer Shaken")
    if fear >= morale:
        mark = "shaken" if conditions.isdisjoint(_FEAR_MARKS) else "panicked"  # R-FEAR-2
        if c.rank is _MINION or (c.rank is _SIDEKICK and c.rules_rank is _MINION):
            shaken = True
            again = "still " if "panicked" in conditions else ""
            shown = secret(morale, not c.player)
            notes.append(f"Fear {fear} ≥ Morale {shown}: {again}{mark.title()}")
        else:
            # R-WOUND-3 and §8: the wound marker and condition penalties apply too
            if rolled is None:
                roll, _, line = trait_roll(c, morale, "Morale", rng)
            else:
                roll, line = rolled
            shaken = not roll.success
            notes.append(line)
            if shaken and mark == "panicked":
                notes.append("Shaken again: Panicked (R-FEAR-2)")
            if roll.face is _FORTUNE:
                fear = fear - 1 if fear > 0 else 0
            elif roll.face is _MISFORTUNE:
                fear += 1
        if shaken:  # Panicked takes Shaken's place (§8: on calming down it "becomes Shaken")
            conditions.add(mark)
        if "panicked" in conditions:
            conditions.discard("shaken")
    fear = fear - 1 if fear > 0 else 0
    note = f"{c.name}: " + "; ".join(notes) if notes else ""
    marks = tuple(sorted(conditions))
    if (fear, marks) == (c.fear, c.conditions):
        return c, note
    return evolve(c, fear=fear, conditions=marks), note
