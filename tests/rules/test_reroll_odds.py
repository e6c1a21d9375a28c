"""R-TASK-6: the exact odds of a chosen re-roll split (the re-roll dialog's numbers),
checked against every way the re-rolled dice can fall.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from hsm_tui.rules import Rank
from hsm_tui.rules.odds import reroll_odds
from hsm_tui.rules.tasks import PoolKind, PoolRoll

ROLLS = [
    PoolRoll(PoolKind.TASK, 6, Rank.HERO, (8,), 3),  # a failed task
    PoolRoll(PoolKind.TASK, 5, Rank.HERO, (2, 9, 10), 4),  # an attack, one hit
    PoolRoll(PoolKind.TASK, -1, Rank.HERO, (1, 4), 2),  # TN ≤ 0: the Hero die must make it
    PoolRoll(PoolKind.TASK, 4, Rank.MINION, (7, 5), None),
    PoolRoll(PoolKind.DEFENSE, 5, Rank.HERO, (7, 3, 9), 6),  # two hits through
]


def _brute(roll: PoolRoll, d10: int, hero: int) -> tuple[Fraction, Fraction]:
    outcomes = list(product(product(range(1, 11), repeat=d10), product(range(1, 7), repeat=hero)))
    counts = [
        replace(roll, rerolled=a, hero_rerolled=b, rerolls_spent=True).successes
        for a, b in outcomes
    ]
    total = len(outcomes)
    return Fraction(sum(1 for c in counts if c), total), Fraction(sum(counts), total)


SPLITS = [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)]
CASES = [(r, s) for r in ROLLS for s in SPLITS if r.hero_first is not None or not s[1]]
"""Every roll with every split it can take (a Minion has no Hero die to re-roll)."""


@pytest.mark.parametrize(("roll", "split"), CASES)
def test_r_task_6_split_odds_match_every_outcome(roll: PoolRoll, split: tuple[int, int]) -> None:
    d10, hero = split
    assert reroll_odds(roll, d10, hero) == _brute(roll, d10, hero)
