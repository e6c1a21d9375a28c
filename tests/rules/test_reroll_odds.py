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
from hsm_tui.rules.rerolls import split_text
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


def test_r_task_6_r_char_9_a_split_says_what_it_buys_and_what_it_costs() -> None:
    """The re-roll question's summary comes from the engine: the dialog only shows it."""
    task, attack, _, _, defense = ROLLS
    assert split_text(task, 1, 0) == "This split: success 60.0%"
    assert split_text(attack, 1, 0).startswith("This split: ≥1 hit 100.0% · expected ")
    assert split_text(defense, 0, 0).startswith("This split: ≥1 through 100.0%")
    assert split_text(task, 2, 0, (1, 1, 3)) == (
        "This split: success 84.0%\nCosts 1 free, 1 Luck → Luck 0, Clues 3 left"
    )
    assert split_text(task, 0, 0, (0, 2, 0)).endswith("Costs nothing → Luck 2, Clues 0 left")
    refused = split_text(task, 2, 1, (0, 1, 1)).splitlines()[1]
    assert refused == "3 re-roll(s) need 3 paid, but there are only Luck 1 and Clues 1 (and 0 free)"
