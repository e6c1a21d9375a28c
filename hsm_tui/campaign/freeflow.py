"""Free-flowing mode's rolls (R-TASK-1..6, contests): a task with its re-rolls, an opposed
task and a group task, as commands and handlers shaped like the combat engine's.

A handler takes the command, what the roller may pay re-rolls with, and the session's
RNG, and returns a :class:`TaskOutcome`; the session writes it (log, pools, pending).
Re-rolls go through :mod:`hsm_tui.rules.rerolls`, as in combat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from ..packs import Catalog
from ..rules import (
    Derived,
    Modifier,
    PoolRoll,
    Rank,
    RulesError,
    TargetNumber,
    Trait,
    roll_task,
    task_odds,
    task_tn,
)
from ..rules.contests import Need, group_odds, opposed_odds, opposed_winner
from ..rules.models import MAX_FREE_REROLLS
from ..rules.odds import PoolOdds, percent
from ..rules.rerolls import first_offer, spend_rerolls
from ..rules.secret import secret
from ..rules.tasks import HeroFace, paid_text
from .combat import GM, LogLines
from .conditions import Marked, afflicted_success, level, nausea_holds, nausea_roll
from .encounter import Encounter
from .party import PARTY, Campaign

if TYPE_CHECKING:
    from .party import Roller

MAX_GROUP = 20
"""The most characters one group task rolls for."""


@dataclass(frozen=True)
class PendingRerolls:
    """A decision the roller owes: how to split re-rolls after the first roll (R-TASK-6)."""

    roll: PoolRoll
    available: int  # free + Luck + Clues
    suggested: tuple[int, int]
    log_seq: int
    title: str
    tn: TargetNumber
    free: int = 0  # Talents, Advantages, Aim: spent first (R-TASK-6)
    who: str = ""  # whose Luck and Clues pay for the rest (R-CHAR-9)

    @property
    def question(self) -> str:
        return f"spend or keep the re-rolls of {self.title} (e, or k to keep)"


@dataclass(frozen=True)
class RollTask:
    """Roll a free-flowing task (R-TASK-1..5) for a Hero or a Minion."""

    tn: TargetNumber
    rank: Rank
    label: str = "Task"
    rerolls: int = 0  # free re-rolls: a relevant Talent, an Advantage, Aim (R-TASK-6)
    who: str = ""  # a combatant id or "party:<hero id>": its Luck and Clues can pay too
    hidden: bool = False  # the GM rolls it in secret: its entry is the GM's alone
    issuer: str = GM
    asked: int = 0  # the GM's request it answers (AskRoll), 0 for a roll of one's own
    tn_hidden: bool = False  # asked with the difficulty kept: TN and odds are the GM's


@dataclass(frozen=True)
class AskRoll:
    """The GM asks players for a roll (R-TASK-1): each task names its roller (``who``),
    the traits, skill and difficulty the GM chose; ``tn_hidden`` keeps the difficulty, and
    so the TN and the odds, from the players. A group roll asks several at once. Each task
    waits for its player's ``RollTask`` (``asked``: the request's number) and holds up
    nothing else at the table.
    """

    tasks: tuple[RollTask, ...]
    tn_hidden: bool = False
    issuer: str = GM


@dataclass(frozen=True)
class Asked:
    """A roll the GM asked for, waiting for its player: its number and the task."""

    number: int
    task: RollTask


def own_task(
    roller: Roller,
    traits: Sequence[Trait],
    skill: tuple[str, int] | None = None,
    talent: str = "",
    difficulty: int = 0,
) -> RollTask:
    """``roller``'s task from its own scores (R-TASK-1; one trait is doubled), its wound
    marker (R-WOUND-3), conditions (§8) and the extra actions it declared (R-ACT-3)
    counted, a relevant Talent's +1 and one free re-roll (R-CHAR-5): what a player's own
    task roller rolls.
    """
    tn = task_tn(
        [(t.value.title(), roller.traits[t]) for t in traits],
        skill=skill,
        talent=talent or None,
        difficulties=[difficulty],
        modifiers=[Modifier("wound", roller.wound_penalty), *roller.modifiers(traits)],
    )
    return RollTask(tn, roller.rank or Rank.HERO, rerolls=int(bool(talent)), who=roller.who)


def group_ask(
    rollers: Sequence[Roller],
    traits: Sequence[Trait],
    skill: tuple[str, int] | None = None,
    difficulty: int = 0,
) -> AskRoll:
    """A group roll asked of every Hero ("everyone rolls Senses", R-TASK-1): each its own
    task from its own scores, its own rating in the skill (by name; none when its sheet
    lacks it), the one difficulty; labelled by the traits."""
    heroes = [r for r in rollers if r.rank is Rank.HERO]
    if not heroes:
        raise RulesError("no Hero to ask: add the party's heroes first")
    label = " + ".join(t.value.title() for t in traits) or "Task"
    tasks = tuple(
        replace(own_task(r, traits, _own_skill(r, skill), "", difficulty), label=label)
        for r in heroes
    )
    return AskRoll(tasks)


def _own_skill(roller: Roller, skill: tuple[str, int] | None) -> tuple[str, int] | None:
    if skill is None:
        return None
    return next(((n.title(), v) for n, v in roller.skills if n.title() == skill[0]), None)


@dataclass(frozen=True)
class SpendRerolls:
    """Answer the pending re-roll decision: ``d10`` and ``hero`` re-rolls (0, 0 = keep).
    Free re-rolls go first; of the rest ``clues`` come from Clues and the others from Luck.
    """

    d10: int
    hero: int
    clues: int = 0
    issuer: str = GM


@dataclass(frozen=True)
class RollOpposed:
    """Two characters' tasks against each other (hsm_tui/rules/contests.py)."""

    first: RollTask
    second: RollTask
    label: str = "Opposed task"
    issuer: str = GM

    @property
    def hidden(self) -> bool:
        """Rolled in secret: the GM marked a side's task hidden."""
        return self.first.hidden or self.second.hidden


@dataclass(frozen=True)
class RollGroup:
    """Several characters at one task; ``need`` is any, half or all of them."""

    tasks: tuple[RollTask, ...]
    need: str = "any"
    label: str = "Group task"
    issuer: str = GM

    @property
    def hidden(self) -> bool:
        """Rolled in secret: the GM marked the tasks hidden."""
        return any(t.hidden for t in self.tasks)


@dataclass(frozen=True)
class Purse:
    """Who rolls, the Luck and Clues they may pay re-rolls with (R-CHAR-9), and the §8
    conditions that change the roll itself (Nauseated, Fatigued) with its Stamina.
    """

    who: str = ""
    name: str = ""
    luck: int = 0
    clues: int = 0
    conditions: tuple[str, ...] = ()
    stamina: int = 0
    player: bool = False  # a player's hero: else the TN and odds are the GM's


class Afflicted(Marked, Protocol):
    """A roller as §8 afflicts its rolls: a :class:`Purse`, or a :class:`~.party.Roller`."""

    @property
    def stamina(self) -> int: ...


def _afflictions(roller: Afflicted) -> tuple[bool, bool]:
    """Nauseated and Fatigued: the §8 conditions that change a task's roll, not its TN."""
    return bool(level(roller, "nauseated")), bool(level(roller, "fatigued"))


def purse(who: str, campaign: Campaign, enc: Encounter, cat: Catalog) -> Purse:
    """``who`` as it rolls now (a combatant id or ``party:<hero id>``; ``campaign`` with the
    fight's Heroes handed back): its pools and what afflicts its rolls.
    """
    if not who:
        return Purse()
    if who.startswith(PARTY):
        m = campaign.member(who.removeprefix(PARTY))
        hero = cat.kind("hero").get(m.entry)
        stamina = hero.traits[Derived.STAMINA] if hero else 0
        return Purse(who, m.name, m.luck, m.clues, m.conditions, stamina, player=True)
    c = enc.get(who)
    stamina = c.traits[Derived.STAMINA]
    return Purse(who, c.name, c.luck, c.clues, c.conditions, stamina, player=c.player)


def affliction_line(roller: Afflicted, tn: int, rank: Rank, rerolls: int) -> str:
    """The odds as Nauseated and Fatigued make them (§8), "" when neither does: what the
    task screens show under their odds and the roll's log entry repeats.
    """
    nauseated, fatigued = _afflictions(roller)
    if not (nauseated or fatigued):
        return ""
    nausea = nausea_holds(roller.stamina) if nauseated else None
    names = [n for n, on in (("Nauseated", nauseated), ("Fatigued", fatigued)) if on]
    chances = [
        percent(afflicted_success(tn, rank, k, nausea, fatigued)) for k in sorted({0, rerolls})
    ]
    with_them = f" · with {rerolls} re-roll(s) {chances[-1]}" if rerolls else ""
    return f"{' · '.join(names)}: success {chances[0]}{with_them}"


@dataclass(frozen=True)
class TaskOutcome:
    """What a free-flowing roll did: log entries, a line for the waiting roll's own entry
    (its re-rolls), the Luck and Clues its roller paid, and a decision it waits for.
    """

    log: tuple[LogLines, ...] = ()
    note: str = ""
    paid: tuple[int, int] = (0, 0)
    pending: PendingRerolls | None = None


def odds_line(odds: PoolOdds, rank: Rank) -> str:
    """The odds shown before a roll: success, and Fortune ★ / Misfortune ✗ for Heroes."""
    text = f"success {percent(odds.success)} ({odds.success})"
    if rank is Rank.HERO:
        text += f" · ★ Fortune {percent(odds.fortune)} · ✗ Misfortune {percent(odds.misfortune)}"
    return text


def roll_one(cmd: RollTask, purse: Purse, rng: random.Random, seq: int) -> TaskOutcome:
    """R-TASK-1..5: the TN, its exact odds (with the free re-rolls too), the roll; then a
    re-roll question when the roller has any to spend (R-TASK-6). ``seq`` is the number
    the roll's log entry takes: its re-rolls are written into that entry.
    """
    if not 0 <= cmd.rerolls <= MAX_FREE_REROLLS:
        raise RulesError(f"free re-rolls are 0 to {MAX_FREE_REROLLS}, not {cmd.rerolls}")
    before, gms = task_odds(cmd.tn.value, cmd.rank), not purse.player or cmd.tn_hidden
    lines = [
        secret(f"TN {cmd.tn.explain()}", gms, "TN hidden"),
        secret(f"odds {odds_line(before, cmd.rank)}", gms, ""),
    ]
    if cmd.rerolls:
        with_rerolls = task_odds(cmd.tn.value, cmd.rank, cmd.rerolls)
        odds = f"with {cmd.rerolls} re-roll(s): {odds_line(with_rerolls, cmd.rank)}"
        lines.append(secret(odds, gms, ""))
    afflicted = affliction_line(purse, cmd.tn.value, cmd.rank, cmd.rerolls)
    lines += [secret(afflicted, gms, "")] if afflicted else []
    tn, roll = _afflicted_roll(cmd, purse, rng, lines)
    title = f"{cmd.label} ({cmd.rank.value.title()})"
    title = f"{purse.name}: {title}" if purse.name else title
    log = (LogLines(title, tuple(lines)),)
    paid = purse.luck + purse.clues
    if not cmd.rerolls + paid:
        return TaskOutcome(log)
    split = first_offer(roll, cmd.rerolls, paid, not roll.success)
    ask = PendingRerolls(roll, cmd.rerolls + paid, split, seq, title, tn, cmd.rerolls, cmd.who)
    return TaskOutcome(log, pending=ask)


def _afflicted_roll(
    cmd: RollTask, purse: Purse, rng: random.Random, lines: list[str]
) -> tuple[TargetNumber, PoolRoll]:
    """The task's roll as §8 has it: Nauseated "Every time the character rolls a Task, it
    also rolls a single d10 against Stamina (-1)", −1 on a failure, and "When the character
    rolls a Misfortune while nauseated, it vomits"; Fatigued "must re-roll all successful
    Trait rolls. (Re-rolls can be made after this re-roll.)" — the confirmation is the
    roll the re-rolls then serve.
    """
    tn, (nauseated, fatigued) = cmd.tn, _afflictions(purse)
    gms = not purse.player or cmd.tn_hidden  # its Stamina and TN are the GM's
    if nauseated:
        sick, note = nausea_roll(purse.stamina, rng, gms)
        tn = tn.plus(Modifier("nausea", sick)) if sick else tn
        lines.append(note)
    rolls = [roll_task(rng, tn.value, cmd.rank)]
    lines.append(f"roll {rolls[0].explain(gms)}")
    if rolls[0].success and fatigued:
        rolls.append(roll_task(rng, tn.value, cmd.rank))
        lines.append(f"Fatigued, confirm: {rolls[-1].explain(gms)}")
    if nauseated and any(r.face is HeroFace.MISFORTUNE for r in rolls):
        lines.append("Misfortune while Nauseated: it vomits (§8)")
    return tn, rolls[-1]


def reroll_one(
    cmd: SpendRerolls, pending: PendingRerolls, purse: Purse, rng: random.Random
) -> TaskOutcome:
    """R-TASK-6 / R-CHAR-9: the chosen re-rolls, all at once, written into the roll's entry."""
    spent = spend_rerolls(pending.roll, rng, cmd, pending.free, purse.luck, purse.clues)
    if not spent.total:
        return TaskOutcome(note="kept the first roll (no re-rolls spent)")
    cost = paid_text(0, spent.luck, spent.clues)
    note = f"re-rolled {cmd.d10} d10 + {cmd.hero} Hero die" + (f" ({cost})" if cost else "")
    explained = spent.roll.explain(not purse.player)
    return TaskOutcome(note=f"{note}: {explained}", paid=(spent.luck, spent.clues))


def roll_contest(cmd: RollOpposed | RollGroup, rng: random.Random) -> TaskOutcome:
    """An opposed task (the better roll wins, else a stand-off) or a group task (any,
    half or all must succeed), with exact odds first; both without re-rolls.
    """
    tasks = (cmd.first, cmd.second) if isinstance(cmd, RollOpposed) else cmd.tasks
    if any(t.rerolls for t in tasks):
        raise RulesError("opposed and group tasks are rolled without re-rolls")
    if isinstance(cmd, RollGroup) and not 1 <= len(tasks) <= MAX_GROUP:
        raise RulesError(f"a group task has 1 to {MAX_GROUP} rollers")
    lines: list[str] = []
    if isinstance(cmd, RollOpposed):
        odds = opposed_odds(
            cmd.first.tn.value, cmd.first.rank, cmd.second.tn.value, cmd.second.rank
        )
        lines.append(
            f"odds: {cmd.first.label} {percent(odds.first)} · {cmd.second.label}"
            f" {percent(odds.second)} · stand-off {percent(odds.standoff)}"
        )
    else:
        need = need_named(cmd.need)
        chance = group_odds([(t.tn.value, t.rank) for t in tasks], need)
        lines.append(f"needs {need.value} of {len(tasks)}: odds {percent(chance)} ({chance})")
    rolls = []
    for task in tasks:
        roll = roll_task(rng, task.tn.value, task.rank)
        rolls.append(roll)
        lines.append(f"{task.label}: TN {task.tn.explain()} → {roll.explain()}")
    if isinstance(cmd, RollOpposed):
        winner = opposed_winner(rolls[0], rolls[1])
        lines.append(
            "stand-off: the GM narrates" if not winner else f"{tasks[winner - 1].label} wins"
        )
    else:
        made = sum(r.success for r in rolls)
        ok = made >= need.needed(len(tasks))
        lines.append(f"{made} of {len(tasks)} succeed: the group {'succeeds' if ok else 'fails'}")
    return TaskOutcome((LogLines(cmd.label, tuple(lines)),))


def need_named(name: str) -> Need:
    """A group task's need by its name (any, half or all)."""
    try:
        return Need(name)
    except ValueError:
        raise RulesError(f"a group needs any, half or all, not {name!r}") from None
