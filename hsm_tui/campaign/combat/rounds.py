"""The rhythm of a fight: initiative (R-INIT), the start of each turn (Fear, lost actions,
§8 conditions), extra actions declared (R-ACT-3), the end of a turn and of the fight.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from itertools import chain

from ...packs import Catalog
from ...rules import Derived, Rank, RulesError
from ...rules.combat import InitiativeRoll, initiative_order, max_actions
from ...rules.secret import secret
from ...rules.tasks import PoolRoll
from ..conditions import (
    ENGINE_MARKS,
    bleed_out,
    level,
    panic_check,
    panic_roll,
    with_condition,
    wound_marker,
)
from ..countdowns import countdowns_end, countdowns_over, countdowns_start
from ..encounter import MAX_DECLARED, Combatant, Encounter, Turn, evolve
from .commands import DeclareActions, EndCombat, EndTurn, StartCombat
from .gear import recharged
from .outcome import (
    Line,
    LogLines,
    Outcome,
    PendingSidekick,
    RollStage,
    ask_rerolls,
)
from .turn_start import start_turn
from .turns import actor_name, current_turn

_MARKS = operator.attrgetter("conditions")
_SIDEKICK, _INITIATIVE = Rank.SIDEKICK, Derived.INITIATIVE  # see encounter's _SIDEKICK


def start_combat(enc: Encounter, cmd: StartCombat, rng: random.Random, _cat: Catalog) -> Outcome:
    """R-INIT-1: every Hero alone, each group of same-type Minions once: d10 + Initiative.
    A Hero's wound marker counts (R-WOUND-3: −1 or −2 "to ALL traits", Initiative too).
    """
    if enc.active:
        raise RulesError("combat is already under way")
    # read per combatant: Enum members as plain names
    undecided = [c for c in enc.combatants if c.rank is _SIDEKICK and c.plays_as is None]
    if undecided:
        c = undecided[0]
        return Outcome(enc, (), PendingSidekick(c.id, f"Does {c.name} play as a Hero or a Minion?"))
    sides = {c.side for c in enc.combatants if c.standing}
    if len(sides) < 2:
        raise RulesError("combat needs standing combatants on at least two sides")
    bonus: dict[str, int] = {}
    for cid, n in cmd.bonus:
        group = enc.get(cid).group
        bonus[group] = bonus.get(group, 0) + n
    surprise = tuple(dict.fromkeys(enc.get(cid).group for cid in cmd.surprise))
    rolls, seen, wound = [], set(), {}
    for c in enc.combatants:
        if c.group in seen or not c.standing:
            continue
        seen.add(c.group)
        wound[c.group] = wound_marker(c)
        rating = c.traits[_INITIATIVE] + wound[c.group] + bonus.get(c.group, 0)
        rolls.append(InitiativeRoll(c.group, c.side, c.rank, c.player, rating, rng.randint(1, 10)))
    order = tuple(initiative_order(rolls, rng))
    lines = tuple(
        f"{i + 1}. {actor_name(enc, r.actor)}: d10 {r.d10}"
        f" + Initiative {secret(r.rating - bonus.get(r.actor, 0) - wound[r.actor], not r.player)}"
        + (f" (wound {wound[r.actor]:+d} R-WOUND-3)" if wound[r.actor] else "")
        + (f" ({bonus[r.actor]:+d} R-INIT-3)" if bonus.get(r.actor) else "")
        + f" = {secret(r.total, not r.player)}"
        + (f" (tie re-roll {r.tiebreak[0]})" if r.tiebreak else "")
        for i, r in enumerate(order)
    )
    ranked = tuple(r.actor for r in order if r.actor in surprise)  # surprise in that order
    started = evolve(
        enc,
        active=True,
        round=0 if ranked else 1,
        order=order,
        turn_index=-1,
        turn=None,
        surprise=ranked,
    )
    return _begin_next_turn(started, rng).after(LogLines("Initiative (R-INIT-1/2)", lines))


def _unplayed_turn(enc: Encounter, actor: str) -> tuple[Encounter, list[str]]:
    """A turn nobody in it can play still ends: a Hero bleeding out unconscious takes
    its Health marker (§7 row 15), and the turn counts for its countdowns.
    """
    lines: list[str] = []
    for c in enc.whole_group(actor):
        was = c
        c, line = bleed_out(c)
        c, _ = countdowns_start(c)  # nobody reads the start of a turn not played
        c, ended = countdowns_end(c)
        lines += [*([line] if line else []), *ended]
        if c is not was:
            enc = enc.with_combatant(c)
    return enc, lines


def _begin_next_turn(
    enc: Encounter, rng: random.Random, ended: Sequence[Combatant] = ()
) -> Outcome:
    """Advance to the next actor with someone standing, and start its turn.
    The surprise round's actors go first (R-INIT-3), then round 1 in initiative order.
    ``ended``: the members of the turn that ended, only their weapons changed (nobody
    stands or falls by it), set in the new turn's copy of the encounter (one copy a turn,
    not two); set first when that turn's actor acts again or in a surprise round.
    """
    if ended and enc.surprise:
        enc, ended = enc.with_combatants(*ended), ()
    while enc.surprise and not enc.members(enc.surprise[0]):
        enc = evolve(enc, surprise=enc.surprise[1:])
    passed: list[str] = []  # turns that pass unplayed, nobody in them standing
    members: tuple[Combatant, ...] | None = None  # who acts, when found here
    if enc.surprise:
        actor, index, round_ = enc.surprise[0], enc.turn_index, 0
        enc = evolve(enc, surprise=enc.surprise[1:])
    else:
        index, round_ = enc.turn_index, max(enc.round, 1)
        for _ in range(len(enc.order) + 1):
            index += 1
            if index >= len(enc.order):
                index, round_ = 0, round_ + 1
            members = enc.members(enc.order[index].actor)
            if members:
                break
            enc, bled = _unplayed_turn(enc, enc.order[index].actor)
            passed += bled
        else:
            raise RulesError("nobody is left standing to act")
        actor = enc.order[index].actor
        if ended and enc.turn is not None and actor == enc.turn.actor:  # nobody else acts
            enc, ended = enc.with_combatants(*ended), ()
            members = enc.members(actor)
    return start_turn(enc, actor, passed, rng, members=members, place=(index, round_), ended=ended)


def declare_actions(
    enc: Encounter, cmd: DeclareActions, _rng: random.Random, _cat: Catalog
) -> Outcome:
    """R-ACT-3: Heroes declare more than 2 actions at the start of the turn."""
    turn, name = _declarable(enc, cmd.count)
    return Outcome(
        evolve(enc, turn=evolve(turn, declared=cmd.count)),
        (LogLines(f"{name} declares {cmd.count} actions: each at −{cmd.count - 2} (R-ACT-3)", ()),),
    )


def declare_refusal(enc: Encounter, count: int) -> str:
    """Why ``count`` actions cannot be declared now, "" if they can: a menu's ✗."""
    try:
        _declarable(enc, count)
    except RulesError as refused:
        return str(refused)
    return ""


def _declarable(enc: Encounter, count: int) -> tuple[Turn, str]:
    """The turn ``count`` actions are declared in and who declares them, or RulesError:
    at the start of the turn, 2 or more, a Minion exactly 2 (R-ACT-1/3).
    """
    turn = current_turn(enc)
    if turn.used:
        raise RulesError("extra actions are declared at the start of the turn, before acting")
    members = enc.members(turn.actor)
    if not members:  # taken out on its own turn (the GM's damage): nobody left to act
        raise RulesError(f"nobody in {actor_name(enc, turn.actor)}'s turn can act: end the turn")
    cap = max_actions(members[0].rules_rank)
    if count > MAX_DECLARED:
        raise RulesError(f"declare at most {MAX_DECLARED} actions (each beyond 2 costs −1)")
    if count < 2 or (cap is not None and count > cap):
        raise RulesError(
            f"{members[0].name} takes exactly 2 actions (Minions cannot add more, R-ACT-1)"
            if cap
            else "declare 2 or more actions"
        )
    return turn, members[0].name


def end_turn(
    enc: Encounter,
    _cmd: EndTurn,
    rng: random.Random,
    _cat: Catalog,
    panic: tuple[PoolRoll, str] | None = None,
) -> Outcome:
    """Weapons not fired recharge 1 (R-ATK-3); Shaken sheds 1 Fear (§8); a Panicked Hero's
    Morale roll (``panic`` once made and re-rolled, R-TASK-6) may pause it; a countdown
    whose last turn it was ends (:mod:`..countdowns`); next actor.
    """
    turn = current_turn(enc)
    members = enc.members(turn.actor)
    # a Hero always acts alone (R-INIT-1); Panicked is a marker, and most hold none
    if panic is None and len(members) == 1 and members[0].conditions:
        hero = members[0]
        if level(hero, "panicked") and hero.standing and hero.rules_rank is Rank.HERO:
            panic = panic_roll(hero, rng)
            title = f"{hero.name}'s turn ends"
            ask = ask_rerolls(hero, panic[0], 0, RollStage.PANICKED, None, panic[0].target, title)
            if ask is not None:  # nothing changes until it answers
                return Outcome(enc, (LogLines(title, (f"{hero.name}: {panic[1]}",)),), ask)
    lines: list[Line] = []  # a Panicked roll's line is written when read
    ended, marked = [], False
    for member in members:
        fear, calmer = member.fear, member
        if member.conditions or member.countdowns:  # markers: most have none
            marked = True
            if fear and "shaken" in member.conditions:
                fear -= 1
            calmer, note = panic_check(member, rng, panic)
            if note:
                lines.append(note)
            calmer, bleeding = bleed_out(calmer)
            if bleeding:
                lines.append(bleeding)
            calmer, over = countdowns_end(calmer)
            lines += over
        weapons = tuple(map(recharged, calmer.weapons))
        same = all(map(operator.is_, weapons, calmer.weapons))
        if calmer is not member or fear != member.fear or not same:
            ended.append(evolve(calmer, weapons=weapons, fear=fear))
    # R-OTHER-4: slowed for the rest of that turn only; rare, and a turn ends ~45 times a
    # fight, so everyone's markers are searched in one pass in C before anyone is looked at
    # (the members' as they were: only their weapons changed, unless ``marked``)
    if marked or "slowed" in chain.from_iterable(map(_MARKS, enc.combatants)):
        enc, ended = enc.with_combatants(*ended), []
        everyone = enc.combatants
        enc = enc.with_combatants(
            *[with_condition(c, "slowed", 0) for c in everyone if "slowed" in c.conditions]
        )
    nxt = _begin_next_turn(enc, rng, ended)  # weapons recharged: set with the next turn
    return nxt.after(LogLines("End of turn", tuple(lines))) if lines else nxt


FIGHT_MARKS = ("shaken", "panicked", "pinned", "slowed")


"""Fear's conditions (and a zone of control's slowing): they last only as long as the fight."""


def end_combat(enc: Encounter, _cmd: EndCombat, _rng: random.Random, _cat: Catalog) -> Outcome:
    """Back to free-flowing mode (R-COMBAT-1). A Sidekick keeps the rules it plays by
    (R-CHAR-8: "until the encounter is finished", which ClearEncounter does); actions still
    to be lost end (R-WOUND-4, R-ATK-5: the next turn of this fight).

    Interpretation: Fear and what it brings (Shaken, Panicked, Pinned, R-FEAR, §8) and the
    actions' marks (Dodge, Full defense, Standby) belong to the fight and end with it; a
    fight started again in the same encounter begins calm. Wounds, Prone and the other
    conditions (bleeding, a painful wound …) stay for the GM to play out. Countdowns end
    (they count the fight's turns), and the marks they set with them.
    """
    if not enc.active:
        raise RulesError("no combat to end")
    calmed = (*ENGINE_MARKS, *FIGHT_MARKS)
    timed = [f"{c.name}: {cd.effect} ends with it" for c in enc.combatants for cd in c.countdowns]
    combatants = tuple(
        evolve(
            c,
            engaged=(),
            lose_actions=0,
            lose_why=(),
            fear=0,
            conditions=tuple(m for m in c.conditions if m.partition(":")[0] not in calmed),
        )
        for c in map(countdowns_over, enc.combatants)
    )
    return Outcome(
        evolve(enc, active=False, turn=None, order=(), turn_index=-1, combatants=combatants),
        (
            LogLines(
                f"Combat ends after {enc.round} round(s)",
                (
                    "Fear, Shaken, Panicked, Pinned, Dodge, Full defense and Standby end with it",
                    *timed,
                ),
            ),
        ),
    )
