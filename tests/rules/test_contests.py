"""Opposed and group tasks (hsm_tui/rules/contests.py): exact odds checked against a
plain enumeration written differently, and against seeded rolls of the engine itself.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hsm_tui.rules import Rank, RulesError, task_odds
from hsm_tui.rules.contests import Need, group_odds, opposed_odds, opposed_winner
from hsm_tui.rules.tasks import PoolKind, PoolRoll, roll_task

RANKS = st.sampled_from((Rank.HERO, Rank.MINION))


def _faces(rank: Rank) -> list[int | None]:
    return list(range(1, 7)) if rank is Rank.HERO else [None]


def _brute(tn_a: int, ra: Rank, tn_b: int, rb: Rank) -> tuple[Fraction, Fraction]:
    wins = [Fraction(0), Fraction(0)]
    total = 0
    for d1, h1, d2, h2 in itertools.product(range(1, 11), _faces(ra), range(1, 11), _faces(rb)):
        total += 1
        a = PoolRoll(PoolKind.TASK, tn_a, ra, (d1,), h1)
        b = PoolRoll(PoolKind.TASK, tn_b, rb, (d2,), h2)
        w = opposed_winner(a, b)
        if w:
            wins[w - 1] += 1
    return wins[0] / total, wins[1] / total


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.integers(-3, 11), RANKS, st.integers(-3, 11), RANKS)
def test_opposed_odds_match_a_brute_force_enumeration(ta: int, ra: Rank, tb: int, rb: Rank) -> None:
    odds = opposed_odds(ta, ra, tb, rb)
    assert (odds.first, odds.second) == _brute(ta, ra, tb, rb)
    assert odds.first + odds.second + odds.standoff == 1


def test_opposed_is_symmetric_and_success_beats_failure() -> None:
    odds = opposed_odds(6, Rank.HERO, 4, Rank.MINION)
    mirror = opposed_odds(4, Rank.MINION, 6, Rank.HERO)
    assert (odds.first, odds.second) == (mirror.second, mirror.first)
    ok = PoolRoll(PoolKind.TASK, 3, Rank.MINION, (3,), None)  # margin 0
    fail = PoolRoll(PoolKind.TASK, 9, Rank.MINION, (10,), None)  # R-TASK-3
    assert opposed_winner(ok, fail) == 1 and opposed_winner(fail, ok) == 2
    wide = PoolRoll(PoolKind.TASK, 8, Rank.MINION, (2,), None)  # margin 6
    assert opposed_winner(ok, wide) == 2
    assert opposed_winner(fail, fail) == 0  # both fail: a stand-off


def test_opposed_odds_agree_with_seeded_rolls() -> None:
    rng = random.Random(5)
    odds = opposed_odds(5, Rank.HERO, 6, Rank.MINION)
    n = 60_000
    won = sum(
        opposed_winner(roll_task(rng, 5, Rank.HERO), roll_task(rng, 6, Rank.MINION)) == 1
        for _ in range(n)
    )
    assert abs(won / n - float(odds.first)) < 0.01


@pytest.mark.parametrize("need", list(Need))
def test_group_odds_are_the_exact_poisson_binomial(need: Need) -> None:
    tasks = [(5, Rank.HERO), (3, Rank.MINION), (7, Rank.HERO)]
    ps = [task_odds(tn, rank).success for tn, rank in tasks]
    expected = Fraction(0)
    for outcome in itertools.product((0, 1), repeat=3):
        p = Fraction(1)
        for ok, q in zip(outcome, ps, strict=True):
            p *= q if ok else 1 - q
        if sum(outcome) >= need.needed(3):
            expected += p
    assert group_odds(tasks, need) == expected


def test_group_needs_half_rounds_up_and_an_empty_group_is_refused() -> None:
    assert (Need.HALF.needed(3), Need.HALF.needed(4), Need.ANY.needed(4)) == (2, 2, 1)
    with pytest.raises(RulesError, match="at least one roller"):
        group_odds([], Need.ANY)


def test_r_task_6_dialogs_offer_the_free_rerolls_and_one_paid_after_a_failure() -> None:
    """R-TASK-6 / R-CHAR-9 Interpretation: Enter on a re-roll dialog never spends more
    than one Luck or Clue; more is the GM's explicit choice.
    """
    from hsm_tui.rules.tasks import suggested_rerolls

    assert suggested_rerolls(free=1, paid=3, failed=True) == 2
    assert suggested_rerolls(free=1, paid=3, failed=False) == 1
    assert suggested_rerolls(free=0, paid=0, failed=True) == 0
    assert suggested_rerolls(free=2, paid=0, failed=True) == 2
