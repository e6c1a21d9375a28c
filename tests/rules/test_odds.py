"""Exact odds (hsm_tui.rules.odds), checked against known values and brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from math import comb, prod

import pytest

from hsm_tui.rules.dice import parse
from hsm_tui.rules.errors import RulesError
from hsm_tui.rules.models import Rank
from hsm_tui.rules.odds import (
    STEP_KEYS,
    PoolOdds,
    attack_odds,
    damage_at_most,
    defense_odds,
    task_odds,
    wound_odds,
)

F = Fraction
D10 = range(1, 11)
HERO_DIE = range(1, 7)


def assert_distribution(odds: PoolOdds, dice: int) -> None:
    assert len(odds.successes) == dice + 1
    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in odds.successes)
    assert sum(odds.successes) == 1


# --- task_odds: known values (R-TASK-2..7) ------------------------------------------------


def test_r_task_7_hero_tn_6():
    odds = task_odds(6, Rank.HERO)
    assert odds.success == F(3, 5)
    assert (odds.fortune, odds.misfortune, odds.special) == (F(1, 6), F(1, 6), F(1, 3))


@pytest.mark.parametrize("tn", [9, 10, 11, 15])
def test_r_task_3_tn_9_or_more_is_nine_tenths(tn):
    assert task_odds(tn, Rank.HERO).success == F(9, 10)
    assert task_odds(tn, Rank.MINION).success == F(9, 10)


@pytest.mark.parametrize("tn", range(1, 10))
def test_r_task_2_success_is_tn_tenths(tn):
    assert task_odds(tn, Rank.MINION).success == F(tn, 10)


def test_r_task_4_hero_tn_0_is_one_twelfth():
    assert task_odds(0, Rank.HERO).success == F(1, 12)


def test_r_task_4_hero_tn_minus_4_is_one_sixtieth():
    assert task_odds(-4, Rank.HERO).success == F(1, 60)


@pytest.mark.parametrize("tn", [-5, -6, -12])
def test_r_task_4_hero_tn_minus_5_is_impossible(tn):
    assert task_odds(tn, Rank.HERO).success == 0
    assert task_odds(tn, Rank.HERO, rerolls=3).success == 0


def test_r_task_4_hero_chance_falls_steadily_below_one():
    chances = [task_odds(tn, Rank.HERO).success for tn in range(1, -6, -1)]
    assert chances == [F(1, 10), F(1, 12), F(1, 15), F(1, 20), F(1, 30), F(1, 60), F(0)]


@pytest.mark.parametrize("tn", [0, -1, -4])
def test_r_task_4_minion_tn_0_or_less_never_succeeds(tn):
    odds = task_odds(tn, Rank.MINION, rerolls=2)
    assert odds.success == 0
    assert (odds.fortune, odds.misfortune, odds.special) == (0, 0, 0)


def test_r_task_6_minion_tn_6_one_reroll():
    assert task_odds(6, Rank.MINION, rerolls=1).success == 1 - F(2, 5) ** 2


def test_r_task_6_hero_tn_6_one_reroll_goes_to_the_hero_die_after_a_success():
    odds = task_odds(6, Rank.HERO, rerolls=1)
    assert odds.success == F(21, 25)
    # success first (3/5): the Hero die is re-rolled; failure first: the d10 is.
    assert odds.fortune == F(3, 5) * F(11, 36) + F(2, 5) * F(1, 6)
    assert odds.misfortune == F(3, 5) * F(1, 36) + F(2, 5) * F(1, 6)


def test_r_task_6_hero_tn_0_one_reroll():
    # d10 1 first: re-roll the Hero die; otherwise re-roll the d10 (useless if Hero die 1).
    expected = F(1, 10) * F(35, 36) + F(9, 10) * F(5, 6) * F(1, 10)
    assert task_odds(0, Rank.HERO, rerolls=1).success == expected


def test_task_odds_are_fractions():
    odds = task_odds(4)
    assert all(isinstance(x, Fraction) for x in (odds.success, odds.fortune, odds.misfortune))


def test_task_odds_default_rank_is_hero():
    assert task_odds(6).fortune == F(1, 6)


@pytest.mark.parametrize("tn", range(-6, 13))
@pytest.mark.parametrize("rank", [Rank.HERO, Rank.MINION])
@pytest.mark.parametrize("rerolls", [0, 1, 3])
def test_task_distribution_sums_to_one(tn, rank, rerolls):
    assert_distribution(task_odds(tn, rank, rerolls), 1)


def test_more_rerolls_never_hurt():
    for rank in (Rank.HERO, Rank.MINION):
        for tn in range(-6, 13):
            chances = [task_odds(tn, rank, k).success for k in range(5)]
            assert chances == sorted(chances), (tn, rank)


# --- attack_odds (R-ATK-2) --------------------------------------------------------------


@pytest.mark.parametrize("tn", range(1, 13))
@pytest.mark.parametrize("dice", range(1, 7))
@pytest.mark.parametrize("rank", [Rank.HERO, Rank.MINION])
def test_r_atk_2_hits_are_binomial_for_tn_at_least_1(tn, dice, rank):
    p = F(min(tn, 9), 10)
    odds = attack_odds(tn, dice, rank)
    assert odds.successes == tuple(
        comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)
    )
    assert odds.expected == dice * p
    assert_distribution(odds, dice)


@pytest.mark.parametrize("tn", range(-6, 13))
@pytest.mark.parametrize("dice", [1, 3, 6])
@pytest.mark.parametrize("rank", [Rank.HERO, Rank.MINION])
@pytest.mark.parametrize("rerolls", [0, 2])
def test_attack_distribution_sums_to_one(tn, dice, rank, rerolls):
    assert_distribution(attack_odds(tn, dice, rank, rerolls), dice)


def test_attack_with_one_die_is_the_task():
    for tn in range(-6, 13):
        for k in range(3):
            assert attack_odds(tn, 1, Rank.HERO, k) == task_odds(tn, Rank.HERO, k)


# --- defense_odds (R-ATK-6) -------------------------------------------------------------


@pytest.mark.parametrize("defense", range(13))
@pytest.mark.parametrize("hits", [1, 2, 5])
def test_r_atk_6_through_is_binomial_without_rerolls(defense, hits):
    q = F(10 - min(defense, 10), 10)  # a die above Defense lets its hit through
    odds = defense_odds(hits, defense)
    assert odds.successes == tuple(
        comb(hits, k) * q**k * (1 - q) ** (hits - k) for k in range(hits + 1)
    )
    assert_distribution(odds, hits)


@pytest.mark.parametrize("defense", [10, 11, 15])
@pytest.mark.parametrize("rank", [Rank.HERO, Rank.MINION])
def test_r_atk_6_defense_10_or_more_stops_every_hit(defense, rank):
    assert defense_odds(4, defense, rank).successes[0] == 1


@pytest.mark.parametrize("rank", [Rank.HERO, Rank.MINION])
def test_r_atk_6_defense_0_lets_every_hit_through(rank):
    odds = defense_odds(3, 0, rank, rerolls=2)
    assert odds.successes == (0, 0, 0, 1)


def test_r_atk_6_dodge_reroll_avoids_more():
    assert defense_odds(1, 5, Rank.MINION, rerolls=1).successes == (F(3, 4), F(1, 4))


def test_r_atk_6_hero_defender_rolls_the_hero_die():
    odds = defense_odds(2, 4, Rank.HERO)
    assert odds.fortune == F(1, 6)
    assert defense_odds(2, 4, Rank.MINION).fortune == 0


# --- refusals ------------------------------------------------------------------------


def test_sidekick_odds_are_refused():
    with pytest.raises(RulesError, match="Sidekick"):
        task_odds(5, Rank.SIDEKICK)
    with pytest.raises(RulesError, match="Sidekick"):
        defense_odds(2, 5, Rank.SIDEKICK)


def test_pool_needs_a_die_and_nonnegative_rerolls():
    with pytest.raises(RulesError):
        attack_odds(5, 0)
    with pytest.raises(RulesError, match="negative"):
        task_odds(5, Rank.HERO, rerolls=-1)


# --- exhaustive brute force of pools with re-rolls (R-TASK-6, R-TASK-7) -----------------


def brute_pool(kind: str, target: int, dice: int, rank: Rank, rerolls: int):
    """Every first roll, every split of the re-rolls, every re-rolled outcome.

    Per first roll the roller takes the split with the most expected successes (hits;
    avoided hits for Defense), ties going to more Hero-die re-rolls, then keeps the best
    ``dice`` d10s and the highest Hero die. Returns (successes, fortune, misfortune,
    special); for Defense ``successes`` counts hits through.
    """
    hero = rank is Rank.HERO

    def good(d10: int, face: int | None) -> bool:
        if kind == "defense":
            return d10 <= target
        if target >= 1:
            return d10 <= target and d10 != 10
        return hero and d10 == 1 and face >= 2 - target

    @cache
    def after(first: tuple[int, ...], face: int | None):
        """Distribution over (successes, kept face) for the best split."""
        best = None
        splits = [(rerolls - b, b) for b in range(rerolls + 1)] if hero else [(rerolls, 0)]
        for a, b in splits:
            outcomes: dict[tuple[int, int | None], int] = {}
            for new in itertools.product(D10, repeat=a):
                for faces in itertools.product(HERO_DIE, repeat=b):
                    kept_face = max((face, *faces)) if hero else None
                    n_good = sum(good(d, kept_face) for d in first + new)
                    key = (min(dice, n_good), kept_face)
                    outcomes[key] = outcomes.get(key, 0) + 1
            total = 10**a * 6**b
            dist = {k: F(v, total) for k, v in outcomes.items()}
            value = sum(s * p for (s, _), p in dist.items())
            if best is None or value >= best[0]:  # later splits have more Hero re-rolls
                best = (value, dist)
        return best[1]

    successes = [F(0)] * (dice + 1)
    faces_total = dict.fromkeys(HERO_DIE, F(0))
    weight = F(1, 10**dice * (6 if hero else 1))
    for first in itertools.product(D10, repeat=dice):
        for face in HERO_DIE if hero else [None]:
            for (s, kept_face), p in after(tuple(sorted(first)), face).items():
                through = dice - s if kind == "defense" else s
                successes[through] += weight * p
                if hero:
                    faces_total[kept_face] += weight * p
    special = faces_total[4] + faces_total[5]
    return tuple(successes), faces_total[6], faces_total[1], special


@pytest.mark.parametrize("tn", range(-6, 13))
@pytest.mark.parametrize("rank", [Rank.HERO, Rank.MINION])
@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_r_task_6_task_odds_match_brute_force(tn, rank, rerolls):
    successes, fortune, misfortune, special = brute_pool("task", tn, 1, rank, rerolls)
    odds = task_odds(tn, rank, rerolls)
    assert odds.success == successes[1]
    assert odds.fortune == fortune
    assert odds.misfortune == misfortune
    assert odds.special == special


@pytest.mark.parametrize("tn", [-5, -4, -2, 0, 1, 4, 9, 10])
@pytest.mark.parametrize("rank", [Rank.HERO, Rank.MINION])
@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_r_atk_2_attack_odds_match_brute_force_two_dice(tn, rank, rerolls):
    successes, fortune, misfortune, special = brute_pool("task", tn, 2, rank, rerolls)
    odds = attack_odds(tn, 2, rank, rerolls)
    assert odds.successes == successes
    assert (odds.fortune, odds.misfortune, odds.special) == (fortune, misfortune, special)


@pytest.mark.parametrize(("tn", "rank"), [(0, Rank.HERO), (-2, Rank.HERO), (5, Rank.HERO)])
def test_r_atk_2_attack_odds_match_brute_force_three_dice_two_rerolls(tn, rank):
    successes, fortune, misfortune, special = brute_pool("task", tn, 3, rank, 2)
    odds = attack_odds(tn, 3, rank, 2)
    assert odds.successes == successes
    assert (odds.fortune, odds.misfortune, odds.special) == (fortune, misfortune, special)


@pytest.mark.parametrize("defense", [0, 1, 5, 9, 10, 12])
@pytest.mark.parametrize("hits", [1, 2])
@pytest.mark.parametrize("rank", [Rank.HERO, Rank.MINION])
@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_r_atk_6_defense_odds_match_brute_force(defense, hits, rank, rerolls):
    successes, fortune, misfortune, special = brute_pool("defense", defense, hits, rank, rerolls)
    odds = defense_odds(hits, defense, rank, rerolls)
    assert odds.successes == successes
    assert (odds.fortune, odds.misfortune, odds.special) == (fortune, misfortune, special)


# --- wound_odds and exploding damage (R-DMG-1, R-DMG-2) -----------------------------------


def test_r_dmg_2_one_d6_against_health_2():
    assert wound_odds("1d6", 2) == {"0": F(1, 3), "1": F(1, 3), "2": F(1, 6), "3+": F(1, 6)}


def test_r_dmg_2_two_d6_against_health_4():
    assert wound_odds("2d6", 4)["0"] == F(1, 6)


def test_r_dmg_2_one_d4_against_health_1_is_uniform():
    assert wound_odds("1d4", 1) == dict.fromkeys(STEP_KEYS, F(1, 4))


@pytest.mark.parametrize(
    ("expr", "health", "steps"),
    [("5", 2, "2"), ("4", 2, "1"), ("2", 2, "0"), ("10", 2, "3+"), ("-3", 1, "0")],
)
def test_r_dmg_2_constant_damage_is_certain(expr, health, steps):
    odds = wound_odds(expr, health)
    assert odds[steps] == 1
    assert sum(odds.values()) == 1


@pytest.mark.parametrize("expr", ["1d6", "2d6+1", "1d4+1d12-2", "3d8", "1d10!"])
@pytest.mark.parametrize("health", [1, 3, 6])
def test_r_dmg_2_wound_odds_sum_to_one(expr, health):
    odds = wound_odds(expr, health)
    assert tuple(odds) == STEP_KEYS
    assert all(isinstance(p, Fraction) and p >= 0 for p in odds.values())
    assert sum(odds.values()) == 1


def test_wound_odds_accept_a_resolved_expression():
    expr = parse("strdie+1").resolve({"strength": 1})  # 1d4+1
    assert wound_odds(expr, 1) == wound_odds("1d4+1", 1)


def test_wound_odds_refuse_bad_input():
    with pytest.raises(RulesError, match="Health"):
        wound_odds("1d6", 0)
    with pytest.raises(RulesError, match="subtract"):
        wound_odds("2d6-1d4", 3)
    with pytest.raises(RulesError, match="agility"):
        wound_odds("1d6+agility", 3)
    with pytest.raises(RulesError, match="strdie"):
        damage_at_most("strdie", (3,))


def brute_at_most(expr: str, limits: tuple[int, ...]) -> tuple[Fraction, ...]:
    """P(damage ≤ x) by listing every exploding chain of every die.

    Chains are listed until a chain alone exceeds the largest limit; the mass left out
    (all rolls so far at maximum) is then exactly the mass above every limit.
    """
    parsed = parse(expr)
    constant = sum(s * t.value for s, t in parsed.terms if not hasattr(t, "sides"))
    sides_list = [t.sides for s, t in parsed.dice for _ in range(t.count)]
    cap = max(0, max(limits) - constant)
    per_die = []
    for sides in sides_list:
        depth = cap // sides + 1  # depth × sides > cap
        chains = [
            (k * sides + last, F(1, sides ** (k + 1)))
            for k in range(depth)
            for last in range(1, sides)
        ]
        assert sum(p for _, p in chains) == 1 - F(1, sides**depth)
        per_die.append(chains)
    out = []
    for x in limits:
        total = F(0)
        for combo in itertools.product(*per_die):
            if sum(v for v, _ in combo) + constant <= x:
                total += prod((p for _, p in combo), start=F(1))
        out.append(total)
    return tuple(out)


@pytest.mark.parametrize(
    ("expr", "limits"),
    [
        ("1d6", (2, 4, 6)),
        ("2d6", (4, 8, 12)),
        ("1d4", (1, 2, 3, 4, 5, 8, 9)),
        ("1d4+1d6+2", (3, 6, 9, 14)),
        ("3d4-1", (2, 5, 8, 12)),
        ("d10", (5, 10, 11, 20, 21)),
        ("2d8!+1", (6, 12, 18)),
        ("1d6+10", (2, 4, 6, 11, 17)),
        ("1d12", (0, 1)),
    ],
)
def test_r_dmg_1_damage_at_most_matches_chain_enumeration(expr, limits):
    assert damage_at_most(expr, limits) == brute_at_most(expr, limits)


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12])
def test_r_dmg_1_an_exploding_die_never_totals_a_multiple_of_its_sides(sides):
    at_most = damage_at_most(f"1d{sides}", tuple(range(3 * sides + 1)))
    for v in (sides, 2 * sides, 3 * sides):
        assert at_most[v] == at_most[v - 1]
    assert at_most[sides - 1] == F(sides - 1, sides)
