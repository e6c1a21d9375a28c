"""Re-rolls, the one way for every roll (R-TASK-6, R-CHAR-9): a task in free-flowing mode,
an attack and a Defense roll in combat all offer a first split and spend re-rolls here.

Free re-rolls (a Talent, an Advantage, Aim, Dodge) go first; of the rest the roller
names how many Clues pay and Luck pays the others. All are rolled at once, the best dice
kept.
"""

from __future__ import annotations

import random
from typing import Protocol

from .errors import RulesError
from .models import record
from .odds import percent, reroll_odds, suggest_split
from .tasks import PoolKind, PoolRoll, paid_text, pay_rerolls, reroll, suggested_rerolls


class Answer(Protocol):
    """A roller's answer to a re-roll question (a task's or a combat roll's): how many
    d10 and Hero-die re-rolls, and how many of the paid ones Clues pay.
    """

    @property
    def d10(self) -> int: ...
    @property
    def hero(self) -> int: ...
    @property
    def clues(self) -> int: ...


@record
class Spent:
    """Re-rolls spent on one roll: the roll with them in, and what paid for them."""

    roll: PoolRoll
    d10: int
    hero: int
    free: int
    luck: int
    clues: int

    @property
    def total(self) -> int:
        return self.d10 + self.hero

    @property
    def cost(self) -> str:
        """``1 free, 2 Luck``, or "" when nothing was spent."""
        return paid_text(self.free, self.luck, self.clues)


def first_offer(roll: PoolRoll, free: int, paid: int, failed: bool) -> tuple[int, int]:
    """The (d10, Hero die) split a re-roll question opens on, placed where the re-rolls
    help most (:func:`~.odds.suggest_split`: the most hits for an attacker, the fewest
    hits through for a defender): the free re-rolls and, after a failure, one paid
    (:func:`~.tasks.suggested_rerolls`).

    Interpretation (R-CHAR-9): a Defense roll is offered one re-roll for each die that
    let a hit through, as far as free re-rolls, Luck and Clues go: each hit through may
    wound, where a missed attack die only misses, so one paid re-roll would leave the
    other hits through unanswered.
    """
    count = suggested_rerolls(free, paid, failed)
    if roll.kind is PoolKind.DEFENSE and roll.target > 0:  # Defense ≤ 0 stops nothing
        count = max(count, min(roll.successes, free + paid))
    return suggest_split(roll, count)


def split_text(
    roll: PoolRoll, d10: int, hero: int, purse: tuple[int, int, int] | None = None
) -> str:
    """What re-rolling ``d10`` d10s and ``hero`` Hero dice of ``roll`` buys (exact odds)
    and, given the roller's ``purse`` (free re-rolls, Luck, Clues), what it costs and
    leaves (R-CHAR-9) or why the pools cannot pay: a re-roll question's summary.
    """
    chance, expected = reroll_odds(roll, d10, hero)
    if roll.kind is PoolKind.DEFENSE:
        odds = f"≥1 through {percent(chance)} · expected {float(expected):.2f}"
    elif roll.dice > 1:
        odds = f"≥1 hit {percent(chance)} · expected {float(expected):.2f}"
    else:
        odds = f"success {percent(chance)}"
    if purse is None:
        return f"This split: {odds}"
    free, luck, clues = purse
    total = d10 + hero
    try:
        spend_luck, spend_clues = pay_rerolls(total, free, luck, clues)
    except RulesError as refused:
        return f"This split: {odds}\n{refused}"
    cost = paid_text(min(total, free), spend_luck, spend_clues) or "nothing"
    left = f"Luck {luck - spend_luck}, Clues {clues - spend_clues} left"
    return f"This split: {odds}\nCosts {cost} → {left}"


def spend_rerolls(
    roll: PoolRoll, rng: random.Random, answer: Answer, free: int, luck: int, clues: int
) -> Spent:
    """The ``answer``'s re-rolls on ``roll``: the ``free`` ones first, then as many as it
    asks paid by Clues and the rest by Luck (Clues make up what Luck cannot). Refused
    before any die rolls when a count is negative or the pools cannot pay; 0 and 0 keeps
    the roll.
    """
    return _spend(roll, rng, answer.d10, answer.hero, free, luck, clues, answer.clues)


def _spend(
    roll: PoolRoll,
    rng: random.Random,
    d10: int,
    hero: int,
    free: int,
    luck: int = 0,
    clues: int = 0,
    from_clues: int = 0,
) -> Spent:
    if d10 < 0 or hero < 0:
        raise RulesError("re-roll counts cannot be negative")
    total, available = d10 + hero, free + luck + clues
    if total > available:
        raise RulesError(
            f"only {available} re-roll(s) available, asked for {total}:"
            f" {free} free, and only Luck {luck} and Clues {clues} to pay"
        )
    spend_luck, spend_clues = pay_rerolls(total, free, luck, clues, from_clues)
    rolled = reroll(roll, rng, d10, hero) if total else roll
    free_spent = total if total < free else free  # min() without its call: ~19 a fight
    return Spent(rolled, d10, hero, free_spent, spend_luck, spend_clues)


def spend_free(roll: PoolRoll, rng: random.Random, free: int) -> Spent:
    """``free`` re-rolls with nobody to ask (no Luck or Clues to weigh them against):
    placed as the odds policy would (:func:`~.odds.suggest_split`) and rolled at once.
    """
    d10, hero = suggest_split(roll, free)
    return _spend(roll, rng, d10, hero, free)
