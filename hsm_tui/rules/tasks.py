"""Target numbers, the Hero die, and d10 pool rolls for tasks, attacks and Defense.

A task is a pool of one d10; an attack is a pool of D d10s against one TN (R-ATK-2);
a Defense roll is a pool of one d10 per hit (R-ATK-6). All three share one roll type,
:class:`PoolRoll`, so that re-rolls (R-TASK-6) work the same way everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from .dice import Expression, ExpressionRoll, faces, roll
from .errors import RulesError
from .models import Cover, Rank, once, record
from .secret import secret

HERO_DIE_SIDES = 6
D10 = 10


class HeroFace(Enum):
    """R-TASK-5: what a Hero die face means."""

    MISFORTUNE = "Misfortune"
    BLANK = "blank"
    SPECIAL_4 = "Special 4"
    SPECIAL_5 = "Special 5"
    FORTUNE = "Fortune"

    @classmethod
    def of(cls, value: int) -> HeroFace:
        try:
            return _FACES[value]
        except (KeyError, TypeError):
            raise RulesError(f"a Hero die shows 1–6, not {value!r}") from None

    @property
    def symbol(self) -> str:
        """A mark that carries the meaning without colour (DESIGN: monochrome terminals)."""
        return _SYMBOLS.get(self._value_, "◆")


_SYMBOLS = {"Misfortune": "✗", "Fortune": "★", "blank": "·"}

_FACES = {
    1: HeroFace.MISFORTUNE,
    2: HeroFace.BLANK,
    3: HeroFace.BLANK,
    4: HeroFace.SPECIAL_4,
    5: HeroFace.SPECIAL_5,
    6: HeroFace.FORTUNE,
}


@dataclass(frozen=True)
class Modifier:
    """One labelled part of a target number (``Agility 3``, ``wound −1``)."""

    label: str
    value: int


@dataclass(frozen=True)
class TargetNumber:
    """A TN with the parts it was built from, so the log can say how (R-TASK-1)."""

    parts: tuple[Modifier, ...]

    @once  # frozen: summed once per TN (an attack reads it several times)
    def value(self) -> int:
        return sum(p.value for p in self.parts)

    def explain(self) -> str:
        """``Agility 3 + Senses 2 + Stealth 1 − medium difficulty 2 = 4``."""
        if not self.parts:
            return f"TN {self.value}"
        return f"{self.terms()} = {self.value}"

    def terms(self) -> str:
        """The parts without the total, for a line that states the total its own way."""
        return self._terms

    @once  # frozen, and the attack and Defense TNs are cached: written once per TN
    def _terms(self) -> str:
        text = f"{self.parts[0].label} {self.parts[0].value}" if self.parts else ""
        for part in self.parts[1:]:
            text += f" {'−' if part.value < 0 else '+'} {part.label} {abs(part.value)}"
        return text

    def plus(self, *mods: Modifier) -> TargetNumber:
        """This TN with further situational modifiers (they add: R-TASK-1)."""
        return TargetNumber(self.parts + tuple(m for m in mods if m.value))


def task_tn(
    traits: Sequence[tuple[str, int]],
    skill: tuple[str, int] | None = None,
    talent: str | None = None,
    difficulties: Iterable[int] = (),
    modifiers: Iterable[Modifier] = (),
) -> TargetNumber:
    """R-TASK-1: two traits (one alone is doubled), one skill, +1 for a Talent, minus the
    single largest difficulty; penalties such as wounds and range add on top.
    """
    if not 1 <= len(traits) <= 2:
        raise RulesError("a task uses two traits, or one trait doubled")
    if len(traits) == 1:
        traits = [traits[0], traits[0]]
    parts = [Modifier(name, value) for name, value in traits]
    if skill is not None:
        parts.append(Modifier(skill[0], skill[1]))
    if talent:
        parts.append(Modifier(f"Talent ({talent})", 1))
    difficulty = max(difficulties, default=0)
    if difficulty < 0:
        raise RulesError("a difficulty is 0 or more (it is subtracted)")
    if difficulty:
        parts.append(Modifier(f"{difficulty_label(difficulty)} difficulty", -difficulty))
    return TargetNumber(tuple(parts)).plus(*modifiers)


def difficulty_label(value: int) -> str:
    return {1: "light", 2: "medium", 3: "heavy"}.get(value, f"extreme {value}")


def die_success(d10: int, tn: int) -> bool:
    """R-TASK-2/3 for TN ≥ 1: roll ≤ TN, and a natural 10 always fails."""
    return d10 != D10 and d10 <= tn


def hero_threshold(tn: int) -> int:
    """R-TASK-4 Interpretation: with TN ≤ 0 a Hero needs d10 = 1 and Hero die ≥ 2 − TN."""
    return 2 - tn


class PoolKind(Enum):
    """Tasks and attacks count d10s ≤ TN; Defense counts d10s above Dodge + cover."""

    TASK = "task"
    DEFENSE = "defense"


_HERO, _SIDEKICK, _DEFENSE = Rank.HERO, Rank.SIDEKICK, PoolKind.DEFENSE
_face_of = HeroFace.of
"""Read for every roll: plain names, as in :mod:`hsm_tui.campaign.encounter`."""


@record
class PoolRoll:
    """``dice`` d10s (and the Hero die for a Hero) against ``target``, with re-rolls.

    Every die is kept: ``first`` as rolled, then ``rerolled`` (R-TASK-6: all re-rolls at
    once, after the first roll, then the best ``dice`` d10s and the best Hero die kept).
    """

    kind: PoolKind
    target: int
    rank: Rank
    first: tuple[int, ...]
    hero_first: int | None
    rerolled: tuple[int, ...] = ()
    hero_rerolled: tuple[int, ...] = ()
    rerolls_spent: bool = False

    @property
    def dice(self) -> int:
        return len(self.first)

    @once  # frozen: worked out once per roll
    def kept(self) -> tuple[int, ...]:
        """The best ``dice`` d10s: lowest is best both for tasks and for Defense."""
        if not self.rerolled:  # most rolls
            return tuple(sorted(self.first))
        return tuple(sorted(self.first + self.rerolled)[: len(self.first)])

    @once  # frozen: worked out once per roll
    def hero(self) -> int | None:
        """The kept Hero die: the highest face (Interpretation below)."""
        if self.hero_first is None or not self.hero_rerolled:  # most rolls
            return self.hero_first
        return max((self.hero_first, *self.hero_rerolled))

    @once  # frozen: an attack reads it for its log, its cards and its Fear
    def face(self) -> HeroFace | None:
        if self.hero_first is None:
            return None
        # the kept Hero die is the first one unless it was re-rolled (``hero`` not asked)
        return _face_of(self.hero if self.hero_rerolled else self.hero_first)

    def die_counts(self, d10: int) -> bool:
        """Whether one kept d10 scores: a hit/success for tasks, a hit through for Defense."""
        if self.kind is _DEFENSE:
            return d10 > self.target
        if self.target >= 1:
            return die_success(d10, self.target)
        if self.rank is not _HERO or self.hero is None:
            return False
        return d10 == 1 and self.hero >= hero_threshold(self.target)

    @once  # frozen: worked out once per roll
    def successes(self) -> int:
        """Hits for an attack (1 or 0 for a task); hits through for Defense.

        :meth:`die_counts` over the kept dice, its two common cases counted in a plain
        loop (a forecast counts some 130 rolls a fight, of a few dice each: quicker than
        ``sum(map(...))``); unsorted when nothing was re-rolled.
        """
        dice, target = self.kept if self.rerolled else self.first, self.target
        defense = self.kind is _DEFENSE
        if not defense and target < 1:
            return sum([self.die_counts(d) for d in dice])
        # a natural 10 always fails a task (die_success); min() without its call
        top = target if defense or target < D10 else D10 - 1
        low = 0  # dice at most ``top``: a task's successes, the hits a Defense stops
        for d in dice:
            if d <= top:
                low += 1
        return len(dice) - low if defense else low

    @property
    def success(self) -> bool:
        return self.successes > 0

    def explain(self, secret_tn: bool = False) -> str:
        """One line: ``d10 3 ≤ TN 6 ✓ · Hero die 6 Fortune``; ``secret_tn``: the TN is
        the GM's (a Minion's Defense, a GM's roll), hidden from the other seats.
        """
        text = self._explain_d10s(secret_tn)
        face = self.face
        if face is None:
            return text
        shown = (
            f"{self.hero} (of {', '.join(map(str, (self.hero_first, *self.hero_rerolled)))})"
            if self.hero_rerolled
            else self.hero
        )
        return f"{text} · Hero die {shown} {face.symbol} {face._value_}"

    def _explain_d10s(self, hide: bool) -> str:
        kept, dice = self.kept, len(self.first)
        target = secret(self.target, hide)
        rerolled = f" (re-rolled {', '.join(map(str, self.rerolled))})" if self.rerolled else ""
        if self.kind is _DEFENSE:
            through = self.successes
            return (
                f"Defense {target}: d10 {', '.join(map(str, kept))}{rerolled}"
                f" → {through} of {dice} through, {dice - through} avoided"
            )
        if self.target < 1:
            gate = hero_threshold(self.target)
            if self.rank is not _HERO:
                need = "Minions always fail"
            elif gate > HERO_DIE_SIDES:
                need = "cannot succeed: below TN −4 the Hero die cannot make it up"
            else:
                need = f"needs d10 1 and Hero die {gate}+"
            tn = secret(f"{self.target} ({need})", hide)
            prefix = f"TN {tn}: d10 {', '.join(map(str, kept))}{rerolled}"
        elif dice == 1:
            d = kept[0]
            if d == D10:  # R-TASK-3
                prefix = f"d10 10{rerolled} (a natural 10 always fails) vs TN {target}"
            else:
                sign = secret("≤" if d <= self.target else ">", hide, "vs")
                prefix = f"d10 {d}{rerolled} {sign} TN {target}"
        else:
            prefix = f"d10 {', '.join(map(str, kept))}{rerolled} vs TN {target}"
        hits = self.successes
        if dice == 1:
            return f"{prefix} {'✓' if hits else '✗'}"
        return f"{prefix} → {hits} hit{'s' if hits != 1 else ''}"


def playing_rank(rank: Rank) -> Rank:
    """R-CHAR-8: a Sidekick must be given Hero or Minion rules before it rolls."""
    if rank is _SIDEKICK:
        raise RulesError("a Sidekick rolls as a Hero or a Minion: the GM picks which (R-CHAR-8)")
    return rank


def roll_pool(
    rng: random.Random, target: int, dice: int, rank: Rank, kind: PoolKind = PoolKind.TASK
) -> PoolRoll:
    """First roll of a pool; Heroes add the Hero die (R-TASK-5, R-ATK-2, R-ATK-6)."""
    if rank is _SIDEKICK or dice < 1:  # one test when neither (120 pools a fight)
        playing_rank(rank)  # a Sidekick is refused first
        raise RulesError(f"a roll needs at least one d10, got {dice}")
    first = tuple(faces(rng, D10, dice))
    hero = faces(rng, HERO_DIE_SIDES)[0] if rank is _HERO else None
    return PoolRoll(kind, target, rank, first, hero)


def roll_task(rng: random.Random, tn: int, rank: Rank) -> PoolRoll:
    """R-TASK-2..5: one d10 (plus the Hero die for a Hero) against ``tn``."""
    return roll_pool(rng, tn, 1, rank)


def roll_attack(rng: random.Random, tn: int, dice: int, rank: Rank) -> PoolRoll:
    """R-ATK-2: one d10 per attack against the attack TN; each success is a hit."""
    return roll_pool(rng, tn, dice, rank)


def defense_value(dodge: int, cover: Cover = Cover.NONE, modifier: int = 0) -> int:
    """R-ATK-6: Defense = Dodge + cover (+ e.g. −1 per extra attacker, R-ATK-14)."""
    return dodge + int(cover) + modifier


def roll_defense(rng: random.Random, hits: int, defense: int, rank: Rank) -> PoolRoll:
    """R-ATK-6: one d10 per hit; each die above Defense lets that hit through.

    Interpretation: read literally ("greater than"), so a Defense of 10 or more stops
    every hit and the natural-10 rule of tasks does not apply to Defense.
    """
    return roll_pool(rng, defense, hits, rank, _DEFENSE)


def reroll(roll: PoolRoll, rng: random.Random, d10: int = 0, hero: int = 0) -> PoolRoll:
    """R-TASK-6: spend ``d10`` + ``hero`` re-rolls at once; the best dice are kept.

    Interpretation: the best Hero die is the highest face (6 Fortune beats a Special
    beats a blank beats 1 Misfortune, and a higher face makes up more of a TN ≤ 0).
    """
    if roll.rerolls_spent:
        raise RulesError("re-rolls for this roll were already made (all are rolled at once)")
    if d10 < 0 or hero < 0:
        raise RulesError("a number of re-rolls cannot be negative")
    if hero and roll.hero_first is None:
        raise RulesError("only Heroes roll the Hero die, so it cannot be re-rolled")
    rerolled = tuple(faces(rng, D10, d10))
    return _with_rerolls(roll, rerolled, tuple(faces(rng, HERO_DIE_SIDES, hero)))


def card_reroll(roll: PoolRoll, rng: random.Random, d10: int = 1) -> PoolRoll:
    """A card's own d10 re-roll (the Assault Laser's Special "re-roll lowest result", §10),
    made on the roll as it stands after its re-rolls (R-TASK-6): the Hero-die face that
    triggers a card is only final once those are in (R-TASK-5), so the card comes last.

    The new d10s join every die rolled so far and the best ``dice`` are kept, so the worst
    kept die is replaced only by a better result; the earlier re-rolls and the kept Hero
    die stand. Interpretation: "lowest result" is the roller's worst die (the highest d10
    on an attack, where low is good), and the better of old and new is kept as with any
    re-roll (R-TASK-6).
    """
    if d10 < 0:
        raise RulesError("a number of re-rolls cannot be negative")
    return _with_rerolls(roll, (*roll.rerolled, *faces(rng, D10, d10)), roll.hero_rerolled)


def _with_rerolls(roll: PoolRoll, d10s: tuple[int, ...], heroes: tuple[int, ...]) -> PoolRoll:
    """``roll`` with its re-rolls spent: ``d10s`` and ``heroes`` rolled again. Made whole,
    not by ``dataclasses.replace``, whose walk over the fields costs some four times more.
    """
    r = roll
    return PoolRoll(r.kind, r.target, r.rank, r.first, r.hero_first, d10s, heroes, True)


def suggested_rerolls(free: int, paid: int, failed: bool) -> int:
    """How many re-rolls a dialog offers first (R-TASK-6; R-CHAR-9 Interpretation): the
    free ones, plus one paid by Luck or Clues after a failure. Luck and Clues last a whole
    campaign, so spending more of them is the GM's choice in the dialog, never Enter's.
    """
    return free + int(failed and paid > 0)


def pay_rerolls(
    total: int, free: int, luck: int, clues: int, asked_clues: int = 0
) -> tuple[int, int]:
    """R-TASK-6 / R-CHAR-9: the Luck and Clues ``total`` re-rolls cost after ``free`` ones:
    ``asked_clues`` from Clues, the rest from Luck, and Clues make up what Luck cannot.
    Refused (RulesError) when the pools cannot pay.
    """
    # compared, not min() and max() (a call each, ~1k instructions): ~19 a fight
    paid = total - free if total > free else 0
    if total < 0 or asked_clues < 0 or asked_clues > paid or asked_clues > clues:
        raise RulesError(f"{asked_clues} Clue(s) cannot pay for {paid} re-roll(s) here")
    spend_luck = paid - asked_clues if paid - asked_clues < luck else luck
    spend_clues = paid - spend_luck
    if spend_clues > clues:
        raise RulesError(
            f"{total} re-roll(s) need {paid} paid, but there are only Luck {luck}"
            f" and Clues {clues} (and {free} free)"
        )
    return spend_luck, spend_clues


def paid_text(free: int, luck: int, clues: int) -> str:
    """``1 free, 2 Luck``: what a set of re-rolls cost, for the log."""
    parts = ((free, "free"), (luck, "Luck"), (clues, "Clue(s)"))
    return ", ".join(f"{n} {what}" for n, what in parts if n)


@record
class DamageRoll:
    """One hit's damage (R-DMG-1, exploding) against Health, and its wound steps (R-DMG-2)."""

    roll: ExpressionRoll
    health: int

    @property
    def damage(self) -> int:
        total = self.roll.total
        return total if total > 0 else 0  # max() without its call: read for every hit

    @property
    def steps(self) -> int:
        return wound_steps(self.damage, self.health)

    def overflows(self) -> tuple[int, ...]:
        """§7: how far each wound step of this hit went past Health (D − k×H)."""
        return tuple(overflow(self.damage, self.health, k) for k in range(1, self.steps + 1))

    def explain(self) -> str:
        """``damage 2d6! [6→3, 2] = 11 vs Health 4 → 2 wound steps``."""
        steps = self.steps
        return (
            f"damage {self.roll.explain()} vs Health {self.health}"
            f" → {steps} wound step{'s' if steps != 1 else ''}"
        )


def roll_damage(
    rng: random.Random,
    damage: Expression | str,
    health: int,
    values: Mapping[str, int] | None = None,
) -> DamageRoll:
    """R-DMG-1/2: roll one hit's damage, every die exploding, against ``health``."""
    if health < 1:
        raise RulesError(f"Health must be at least 1, got {health}")
    return DamageRoll(roll(damage, rng, values, explode_all=True), health)


def wound_steps(damage: int, health: int) -> int:
    """R-DMG-2: one step each time damage exceeds another multiple of Health."""
    if health < 1:
        raise RulesError(f"Health must be at least 1, got {health}")
    steps = (damage - 1) // health
    return steps if steps > 0 else 0  # max() without its call: counted for every hit


def overflow(damage: int, health: int, step: int) -> int:
    """§7: how far the k-th wound step of one hit went past Health (D − k×H)."""
    return damage - step * health
