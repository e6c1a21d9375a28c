"""The exact odds agree with 100 000 seeded rolls made by the engine's own roll functions.

Sampling lives only here (R-TASK-7: the engine computes odds exactly). The re-roll policy
of the simulated roller is written independently in this file: per first roll, the
split of re-rolls with the most expected successes (avoided hits for Defense), ties
going to more Hero-die re-rolls.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from fractions import Fraction
from math import comb, sqrt

from hypothesis import example, given, settings
from hypothesis import strategies as st

from hsm_tui.rules.dice import parse, roll
from hsm_tui.rules.models import Rank
from hsm_tui.rules.odds import attack_odds, defense_odds, task_odds, wound_odds
from hsm_tui.rules.tasks import PoolKind, reroll, roll_pool, wound_steps

N = 100_000
SETTINGS = settings(max_examples=15, deadline=None, derandomize=True, database=None)
RANKS = st.sampled_from([Rank.HERO, Rank.MINION])


def rng_for(*params: object) -> random.Random:
    return random.Random(zlib.crc32(repr(params).encode()))


def assert_close(label: str, exact: Fraction, count: int, n: int = N) -> None:
    p = float(exact)
    freq = count / n
    tolerance = 5 * sqrt(p * (1 - p) / n) + 1e-3
    assert abs(freq - p) <= tolerance, f"{label}: exact {exact} ≈ {p:.5f}, sampled {freq:.5f}"


def _gain(missing: int, rerolls: int, p: Fraction) -> Fraction:
    """E[min(missing, Bin(rerolls, p))]: successes the re-rolled d10s add."""
    return sum(
        (min(k, missing) * comb(rerolls, k) * p**k * (1 - p) ** (rerolls - k))
        for k in range(rerolls + 1)
    )


def choose_split(
    dice: int, good: int, face: int | None, rerolls: int, p: Fraction, gate: int | None
) -> tuple[int, int]:
    """The (d10, Hero die) split with the most expected successes; ties → more Hero die."""
    if face is None:
        return rerolls, 0
    best, best_value = None, Fraction(-1)
    for b in range(rerolls + 1):
        a = rerolls - b
        value = good + _gain(dice - good, a, p)
        if gate is not None and face < gate:
            value *= 1 - Fraction(gate - 1, 6) ** b
        if value >= best_value:
            best, best_value = (a, b), value
    return best


def simulate(
    kind: PoolKind, target: int, dice: int, rank: Rank, rerolls: int, rng: random.Random
) -> tuple[Counter, Counter]:
    """Counts of successes (hits through for Defense) and of kept Hero faces."""
    if kind is PoolKind.DEFENSE:
        p, gate = Fraction(max(0, min(target, 10)), 10), None

        def good_dice(first):
            return sum(d <= target for d in first)

    elif target >= 1:
        p, gate = Fraction(min(target, 9), 10), None

        def good_dice(first):
            return sum(d <= target and d != 10 for d in first)

    else:
        p, gate = Fraction(1, 10), 2 - target

        def good_dice(first):
            return sum(d == 1 for d in first)

    splits: dict[tuple[int, int | None], tuple[int, int]] = {}
    successes: Counter = Counter()
    faces: Counter = Counter()
    for _ in range(N):
        pool = roll_pool(rng, target, dice, rank, kind)
        if rerolls:
            key = (good_dice(pool.first), pool.hero_first)
            if key not in splits:
                splits[key] = choose_split(dice, *key, rerolls, p, gate)
            a, b = splits[key]
            pool = reroll(pool, rng, d10=a, hero=b)
        successes[pool.successes] += 1
        faces[pool.hero] += 1
    return successes, faces


def check_pool(odds, successes: Counter, faces: Counter, rank: Rank) -> None:
    for k, exact in enumerate(odds.successes):
        assert_close(f"{k} successes", exact, successes[k])
    assert sum(successes.values()) == N
    assert set(successes) <= set(range(len(odds.successes)))
    if rank is Rank.HERO:
        assert_close("fortune", odds.fortune, faces[6])
        assert_close("misfortune", odds.misfortune, faces[1])
        assert_close("special", odds.special, faces[4] + faces[5])
    else:
        assert faces == Counter({None: N})
        assert odds.fortune == odds.misfortune == odds.special == 0


@SETTINGS
@given(tn=st.integers(-6, 12), rank=RANKS, rerolls=st.integers(0, 3))
@example(tn=-2, rank=Rank.HERO, rerolls=2)
def test_r_task_7_task_odds_match_sampling(tn, rank, rerolls):
    successes, faces = simulate(
        PoolKind.TASK, tn, 1, rank, rerolls, rng_for("task", tn, rank, rerolls)
    )
    check_pool(task_odds(tn, rank, rerolls), successes, faces, rank)


@SETTINGS
@given(tn=st.integers(-6, 12), dice=st.integers(1, 6), rank=RANKS, rerolls=st.integers(0, 2))
@example(tn=0, dice=3, rank=Rank.HERO, rerolls=2)
def test_r_atk_2_attack_odds_match_sampling(tn, dice, rank, rerolls):
    successes, faces = simulate(
        PoolKind.TASK, tn, dice, rank, rerolls, rng_for("attack", tn, dice, rank, rerolls)
    )
    check_pool(attack_odds(tn, dice, rank, rerolls), successes, faces, rank)


@SETTINGS
@given(hits=st.integers(1, 6), defense=st.integers(0, 12), rank=RANKS, rerolls=st.integers(0, 2))
def test_r_atk_6_defense_odds_match_sampling(hits, defense, rank, rerolls):
    successes, faces = simulate(
        PoolKind.DEFENSE,
        defense,
        hits,
        rank,
        rerolls,
        rng_for("defense", hits, defense, rank, rerolls),
    )
    check_pool(defense_odds(hits, defense, rank, rerolls), successes, faces, rank)


@SETTINGS
@given(
    count=st.integers(1, 3),
    sides=st.sampled_from([4, 6, 8, 10, 12]),
    constant=st.integers(0, 3),
    health=st.integers(1, 8),
)
def test_r_dmg_2_wound_odds_match_sampling(count, sides, constant, health):
    source = f"{count}d{sides}+{constant}"
    expr = parse(source)
    rng = rng_for("wounds", source, health)
    buckets: Counter = Counter()
    for _ in range(N):
        damage = roll(expr, rng, explode_all=True).total
        buckets[min(wound_steps(damage, health), 3)] += 1
    exact = wound_odds(source, health)
    for i, key in enumerate(("0", "1", "2", "3+")):
        assert_close(f"{source} vs Health {health}: {key}", exact[key], buckets[i])
