"""What a command leaves behind: the log it writes, the new encounter, and a decision
it may wait for (each question lists its answers as commands a view can bind to keys).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Generic, TypeVar

from ...rules import Cover, Rank
from ...rules.models import once, record
from ...rules.odds import suggest_split
from ...rules.rerolls import first_offer
from ...rules.tasks import HeroFace, PoolRoll
from ..encounter import Combatant, Encounter
from .commands import (
    AnswerDive,
    Attack,
    ChooseChartRow,
    CloseIn,
    DecideSidekick,
    Location,
    Move,
    Reaction,
    SonicBlast,
    SpendCombatRerolls,
    Suppress,
)

Line = str | Callable[[], str]
"""A log line, or a function that writes it when the log is read (:class:`LogLines`)."""


class Written:
    """A record's text field that may be given as a function (:data:`Line`, its values
    bound): written, and kept, when first read. Read, saved, compared and shown, it is the
    text; a forecast asks some 19 re-roll questions a fight and reads none of them.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object | None, owner: type | None = None) -> str:
        if instance is None:  # as dataclasses ask for a default: there is none
            raise AttributeError(self.name)
        text = instance.__dict__[self.name]
        if type(text) is not str:
            text = instance.__dict__[self.name] = text()
        return text

    def __set__(self, instance: object, value: Line) -> None:
        instance.__dict__[self.name] = value


@record
class LogLines:
    """One log entry a command writes: a title and the lines that explain it. A line
    given as a function (:data:`Line`, its values bound, a ``partial``) is written when
    ``lines`` is first read: a forecast plays thousands of attacks and reads no log.
    """

    title: str
    parts: tuple[Line, ...]  # the lines, some still to write

    @once
    def lines(self) -> tuple[str, ...]:
        return tuple([line if isinstance(line, str) else line() for line in self.parts])


class RollStage(StrEnum):
    """Which roll of an attack a Hero may spend re-rolls on (R-TASK-6, R-CHAR-9)."""

    ATTACK = "attack"
    """The attacker's roll: re-rolls chase missed dice; the attack goes on after it."""
    DEFENSE = "defense"
    """The target's Defense roll: re-rolls chase the hits that got through."""
    MORALE = "morale"
    """A Hero's Morale roll at the start of its turn (R-FEAR-1): re-rolls chase a success
    (or a Misfortune's extra Fear); the turn starts after it."""
    PANICKED = "panicked"
    """A Panicked Hero's Morale roll at the end of its turn (§8): re-rolls chase a success
    (Shaken instead); the next turn starts after it."""
    PINNED = "pinned"
    """A Pinned Hero's Morale roll before an action that exposes it (§8): re-rolls chase a
    success; the action then goes ahead, or is lost."""
    BLEEDING = "bleeding"
    """A Bleeding Hero's Stamina roll at the start of its turn (§8): re-rolls chase a
    success (the bleeding stops); the turn starts after it."""
    CONFUSED = "confused"
    """A Confused Hero's Savvy + Senses − 1 roll at the start of its turn (§8): re-rolls
    chase a success (a free turn); the turn starts after it."""

    LIMB = "limb"
    """A Hero's Stamina − damage roll to keep using a hit limb (R-ATK-10): re-rolls chase a
    success; the hit, then the attack, goes on after it."""
    SONIC = "sonic"
    """A Hero's Stamina roll in the Sonic Relik's cone (§10): re-rolls chase a success;
    the cone's other targets roll after it, then the failures take damage."""
    GRIP = "grip"
    """A severely wounded Hero's Stamina roll to keep hold of its weapon (R-WOUND-5):
    re-rolls chase a success; the chart roll, then the attack, goes on after it."""


_HERO, _SIDEKICK, _MINION = Rank.HERO, Rank.SIDEKICK, Rank.MINION
_ATTACK, _DEFENSE, _MORALE = RollStage.ATTACK, RollStage.DEFENSE, RollStage.MORALE
_MISFORTUNE = HeroFace.MISFORTUNE
"""Read for every roll a re-roll may be asked on: plain names, as in :mod:`..encounter`."""

_WHAT = {
    RollStage.ATTACK: "attack",
    RollStage.DEFENSE: "Defense",
    RollStage.MORALE: "Morale",
    RollStage.PANICKED: "Panicked Morale",
    RollStage.PINNED: "Pinned Morale",
    RollStage.BLEEDING: "Bleeding Stamina",
    RollStage.CONFUSED: "Confused Savvy + Senses − 1",
    RollStage.LIMB: "limb Stamina",
    RollStage.GRIP: "grip Stamina",
    RollStage.SONIC: "Sonic Relik Stamina",
}


@dataclass(frozen=True)
class TurnRoll:
    """A roll a turn's start made (and its re-rolls spent): kept in a question so that the
    turn starts again from the top with it, rolling only what comes after (R-TASK-6)."""

    stage: RollStage
    roll: PoolRoll
    line: str


@dataclass(frozen=True)
class HitTail:
    """What a hit still does after a Stamina roll it paused for re-rolls (R-ATK-10 limb,
    R-WOUND-5 grip): the grip roll and the chart when it is a severe wound."""

    severe: bool
    overflow: int  # the damage past Health the chart adds (R-WOUND-5)
    next_hit: int  # the number of the attack's next hit, for the log


Answer = TypeVar("Answer")


@dataclass(frozen=True)
class Option(Generic[Answer]):
    """One answer to a question: a key a view may bind, its label, and what picking it
    gives (the engine's decisions give a command; a view's own questions may give any value).
    """

    key: str
    label: str
    command: Answer


@record
class PendingDive:
    """R-ATK-5: the target of a ranged attack may dive for cover before Defense."""

    attack: AttackState
    question: str
    cover: Cover = Cover.NONE  # the target's cover now: it may only dive to better
    unit: int = 1  # standing figures in the target's Minion unit, the target included

    @property
    def options(self) -> tuple[Option, ...]:
        """Stay put, or dive into better cover. R-ATK-5: a dive "gives all figures in the
        unit, or the character, the cover": a unit's question is asked once, for all of
        it (1–3); the GM may split it, one figure alone (l, m, h).
        """
        better = [c for c in Cover if c > self.cover]
        whole = f" (the unit: all {self.unit})" if self.unit > 1 else ""
        alone = (
            Option(c.label[0], f"only this one dives into {c.label} cover", AnswerDive(c.label))
            for c in (better if self.unit > 1 else ())
        )
        return (
            Option("n", "stay put (no dive)", AnswerDive("none")),
            *(
                Option(
                    str(int(c)),
                    f"dive into {c.label} cover{whole}",
                    AnswerDive(c.label, unit=self.unit > 1),
                )
                for c in better
            ),
            *alone,
        )


@dataclass(frozen=True)
class PendingChartChoice:
    """§7 erratum: on a 13 the GM picks one of the two rows."""

    target: str
    total: int
    rows: tuple[str, ...]
    question: str
    resume: AttackState | None = None  # the hits still to resolve after the pick
    next_hit: int = 1
    names: tuple[str, ...] = ()  # each row's name and effect, for the GM to choose by

    @property
    def options(self) -> tuple[Option, ...]:
        names = self.names or self.rows
        return (
            *(
                Option(str(i), n, ChooseChartRow(r))
                for i, (r, n) in enumerate(zip(self.rows, names, strict=True), 1)
            ),
            Option("r", "roll for it (50/50)", ChooseChartRow("random")),
        )


@dataclass(frozen=True)
class PendingSidekick:
    """R-CHAR-8: the first time mechanics touch a Sidekick, the GM picks its rules."""

    combatant: str
    question: str

    @property
    def options(self) -> tuple[Option, ...]:
        return (
            Option("h", "plays as a Hero", DecideSidekick(self.combatant, "hero")),
            Option("m", "plays as a Minion", DecideSidekick(self.combatant, "minion")),
        )


@record
class PendingCombatRerolls:
    """R-TASK-6 / R-CHAR-9 in combat: a Hero with Luck or Clues decides after seeing its
    attack, Defense or Morale roll how many re-rolls to spend, free ones (Aim, Dodge,
    granted Talents, an Advantage) first; all are rolled at once. The attack (none for a
    Morale roll) then goes on from ``stage``.
    """

    roller: str
    roll: PoolRoll
    free: int
    luck: int
    clues: int
    stage: RollStage
    attack: AttackState | None
    tn: int
    title: str
    question: str = Written()  # type: ignore[assignment]  # written when first read
    then: Attack | Suppress | SonicBlast | Move | CloseIn | None = (
        None  # the action a Pinned roll holds up
    )
    earlier: tuple[TurnRoll, ...] = ()  # a turn start's rolls before this one
    logged: int = 0  # the turn start's lines the question's entry already holds
    tail: HitTail | None = None  # a limb or grip roll's: the rest of its hit

    @property
    def available(self) -> int:
        """Every re-roll the roller may spend now: free ones, then Luck and Clues."""
        return self.free + self.luck + self.clues

    @property
    def suggested(self) -> tuple[int, int]:
        """The split the dialog opens on: the free re-rolls and, after a miss, one paid one
        (``suggested_rerolls``), placed where they help most (R-TASK-6).
        """
        failed = not as_good(self.roll, self.stage)
        return first_offer(self.roll, self.free, self.luck + self.clues, failed)

    @property
    def options(self) -> tuple[Option, ...]:
        keep = Option(
            "k",
            "keep the roll" + (f" (free re-rolls unused: {self.free})" if self.free else ""),
            SpendCombatRerolls(0, 0),
        )
        spend = []
        for n in range(1, min(9, self.free + self.luck + self.clues) + 1):
            d10, hero = suggest_split(self.roll, n)
            paid = max(0, n - self.free)
            luck = min(paid, self.luck)
            cost = [f"{self.free if n > self.free else n} free" if self.free else ""]
            cost += [
                f"{luck} Luck" if luck else "",
                f"{paid - luck} Clue(s)" if paid - luck else "",
            ]
            label = f"{n} re-roll(s): {d10} d10, {hero} Hero die — " + ", ".join(
                c for c in cost if c
            )
            spend.append(Option(str(n), label, SpendCombatRerolls(d10, hero, clues=paid - luck)))
        return (keep, *spend)


Pending = PendingDive | PendingChartChoice | PendingSidekick | PendingCombatRerolls


@record
class Outcome:
    """A command's result: the new encounter, its log, and the decision it waits for."""

    encounter: Encounter
    log: tuple[LogLines, ...] = ()
    pending: Pending | None = None

    def after(self, *entries: LogLines) -> Outcome:
        """This outcome with ``entries`` logged before its own (what led up to it)."""
        return Outcome(self.encounter, (*entries, *self.log), self.pending)


def written(outcome: Outcome) -> Outcome:
    """``outcome`` with every log line written now, from the values its handler bound:
    the session takes an outcome only then, so a writer that fails leaves it unchanged.
    """
    for entry in outcome.log:
        _ = entry.lines  # kept: ``lines`` is written once
    return outcome


@record
class AttackState:
    """An attack paused for a decision: everything needed to finish it."""

    attacker: str
    target: str
    weapon: str
    hits: int
    defense_mod: int = 0
    damage_bonus: int = 0
    style: str | None = None
    fear_before: int = 0  # the target's Fear before this attack (R-FEAR-2: 2× Morale)
    damage: str = ""  # the damage rolled instead of the card's (thrown, an option, grapple)
    location: Location = Location.NONE  # a called shot at the head or a limb (R-ATK-10)
    grapple: bool = False  # hits grab instead of wounding (R-ATK-17)
    spill: str = ""  # an ally in the melee who takes one hit (R-ATK-13)
    reaction: Reaction = Reaction.NONE  # zone of control: a hit slows the mover (R-OTHER-4)
    thrown: bool = False  # a melee weapon thrown: a ranged attack (R-ATK-1 Throw)
    queue: tuple[str, ...] = ()  # further targets hit by the same suppressive fire
    fears: tuple[int, ...] = ()  # each queued target's Fear before the action (R-FEAR-2)
    club: bool = False  # a gun swung as a club: a melee blow, without the card's effects
    cone: Suppress | SonicBlast | None = None  # a cone paused for re-rolls: the rest of it


@record
class Rerolled:
    """A re-roll question answered (R-TASK-6): the roll as it stands now, and what the
    answer logs first (the re-rolls and their cost, or "keeps the roll"); every stage's
    resume goes on from it."""

    enc: Encounter  # with the Luck and Clues spent paid
    pending: PendingCombatRerolls
    roll: PoolRoll
    lines: tuple[Line, ...]

    @property
    def title(self) -> str:
        """The question's entry title, marked as what the answer did."""
        return f"{self.pending.title}: {'re-rolls' if self.roll.rerolls_spent else 'roll kept'}"

    @property
    def roller(self) -> Combatant:
        return self.enc.get(self.pending.roller)


def ask_rerolls(
    roller: Combatant,
    roll: PoolRoll,
    free: int,
    stage: RollStage,
    state: AttackState | None,
    tn: int,
    title: str,
    earlier: tuple[TurnRoll, ...] = (),
    logged: int = 0,
    tail: HitTail | None = None,
) -> PendingCombatRerolls | None:
    """Ask only a Hero with Luck or Clues left, and only when a re-roll could help."""
    if roller.rank is _MINION or not may_reroll(roller, roll, stage):  # most rolls: Minions'
        return None
    question = partial(_question, roller.name, stage, roll, free, roller.luck, roller.clues)
    return PendingCombatRerolls(
        roller.id,
        roll,
        free,
        roller.luck,
        roller.clues,
        stage,
        state,
        tn,
        title,
        question,
        earlier=earlier,
        logged=logged,
        tail=tail,
    )


def _question(name: str, stage: RollStage, roll: PoolRoll, free: int, luck: int, clues: int) -> str:
    """A re-roll question's text (:func:`ask_rerolls`)."""
    return (
        f"{name}'s {_WHAT[stage]} roll: {roll.explain()}. Spend re-rolls?"
        f" (free {free}, Luck {luck}, Clues {clues})"
    )


def may_reroll(roller: Combatant, roll: PoolRoll, stage: RollStage) -> bool:
    """A Hero with Luck or Clues left, on a roll a re-roll could still help."""
    rank = roller.rank  # ``rules_rank`` asked only of a Sidekick (a property call a roll)
    if rank is _SIDEKICK:
        rank = roller.rules_rank
    if rank is not _HERO or not (roller.luck or roller.clues):
        return False
    return not as_good(roll, stage)  # not every die as good as it gets for the roller


def as_good(roll: PoolRoll, stage: RollStage) -> bool:
    """Whether a re-roll could no longer help: every attack die hit, no Defense die let
    a hit through, a Morale roll succeeded without a Misfortune (R-FEAR-1: +1 Fear).
    """
    if stage == _DEFENSE:  # a Defense roll's "successes" are the hits through
        return not roll.successes
    if stage == _MORALE:
        return roll.success and roll.face is not _MISFORTUNE
    if stage == _ATTACK:
        return roll.successes == roll.dice
    return roll.success  # a trait roll: Pinned, Panicked, Bleeding, Confused, Stamina …
