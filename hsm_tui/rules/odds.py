"""Exact odds (R-TASK-7) as fractions, by enumeration: never by sampling.

Re-roll policy (R-TASK-6), used for every pool: after the first roll the roller splits
the K re-rolls between d10s and the Hero die so as to **maximise the expected number of
successes** (for a task: the chance of success); among equally good splits the one with
more Hero-die re-rolls wins, since a higher Hero die is never worse (it turns Misfortune
away and brings Fortune). The split is chosen per first roll, exactly as a player would.

Defense pools are scored from the defender's side: a die "succeeds" when it avoids a
hit (d10 ≤ Dodge + cover, R-ATK-6); :func:`defense_odds` turns that into hits through.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from .dice import Dice, Expression, parse
from .errors import RulesError
from .models import Rank, once
from .tasks import (
    D10,
    HERO_DIE_SIDES,
    PoolKind,
    PoolRoll,
    hero_threshold,
    playing_rank,
)

ONE = Fraction(1)
ZERO = Fraction(0)

#: The wound-step buckets of ``hsm odds wounds``: "3+" means a fresh Hero is severely
#: wounded by that one hit (R-DMG-2, R-WOUND-1).
STEP_KEYS = ("0", "1", "2", "3+")

#: Bounds of exact damage enumeration (a cost of dice × total²): far beyond any card.
MAX_EXACT_DICE = 20
MAX_EXACT_TOTAL = 600


@dataclass(frozen=True)
class PoolOdds:
    """Distribution of successes (hits) plus the kept Hero die's specials."""

    successes: tuple[Fraction, ...]  # index = number of successes, 0..dice
    fortune: Fraction
    misfortune: Fraction
    special: Fraction  # a 4 or 5 kept

    @once  # odds objects are cached and shared: subtract once
    def success(self) -> Fraction:
        """Chance of at least one success: the task succeeds / the attack hits."""
        return ONE - self.successes[0]

    @once  # odds objects are cached and shared: sum the Fractions once
    def expected(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.successes)), ZERO)


def percent(p: Fraction) -> str:
    """A chance to one decimal that never shows a possible outcome as 0% or 100%."""
    shown = f"{float(p) * 100:.1f}%"
    if 0 < p < 1 and shown in ("100.0%", "0.0%"):
        return ">99.9%" if p > Fraction(1, 2) else "<0.1%"
    return shown


def _gain(missing: int, rerolls: int, p_tenths: int) -> list[int]:
    """Extra successes from ``rerolls`` d10s when ``missing`` dice failed, as numerators
    over 10^rerolls. All re-rolls are rolled together and the best dice kept (R-TASK-6),
    so the gain is min(missing, Bin(rerolls, p)).
    """
    q = D10 - p_tenths
    gained = [0] * (missing + 1)
    for k in range(rerolls + 1):
        gained[min(k, missing)] += comb(rerolls, k) * p_tenths**k * q ** (rerolls - k)
    return gained


def _faces(first: Sequence[int], rerolls: int) -> list[int]:
    """Kept Hero die = v (index v-1) for first faces ``first`` (each 1/6), keeping the
    highest of first + ``rerolls``; numerators over 6^(1+rerolls).
    """
    out = [0] * HERO_DIE_SIDES
    for f in first:
        out[f - 1] += f**rerolls
        for v in range(f + 1, HERO_DIE_SIDES + 1):
            out[v - 1] += v**rerolls - (v - 1) ** rerolls
    return out


@lru_cache(maxsize=4096)
def pool_odds(dice: int, p_tenths: int, gate: int | None, hero: bool, rerolls: int) -> PoolOdds:
    """Odds for ``dice`` d10s each succeeding with chance ``p_tenths``/10.

    ``gate`` (Heroes at TN ≤ 0, R-TASK-4): the successes only count when the kept Hero
    die is at least ``gate``. Exact integer arithmetic over one common denominator,
    10^(dice+rerolls) · 6^(1+rerolls); fractions are built once at the end. Cached: the
    parameter space a GM can reach is small.
    """
    if dice < 1:
        raise RulesError(f"a roll needs at least one d10, got {dice}")
    if rerolls < 0:
        raise RulesError(f"re-rolls cannot be negative, got {rerolls}")
    if gate is not None and not hero:
        raise RulesError("only a Hero's roll can make up a shortfall on the Hero die")
    n, k, q = dice, rerolls, D10 - p_tenths
    if not k and gate is None:  # no re-rolls, nothing gated: binomial d10s, a fair Hero die
        denom = D10**n
        dist = tuple(Fraction(comb(n, c) * p_tenths**c * q ** (n - c), denom) for c in range(n + 1))
        return PoolOdds(dist, *_FAIR_HERO_DIE) if hero else PoolOdds(dist, ZERO, ZERO, ZERO)
    six = HERO_DIE_SIDES
    first = [comb(n, c) * p_tenths**c * q ** (n - c) for c in range(n + 1)]  # / 10^n
    succ = [0] * (n + 1)
    faces_total = [0] * six
    # The split depends on the face only through "does it clear the gate" (R-TASK-4).
    groups = [range(1, six + 1)] if gate is None else [range(gate, six + 1), range(1, gate)]
    for c, w in enumerate(first):
        if not w:
            continue
        if not hero:
            for g, x in enumerate(_gain(n - c, k, p_tenths)):
                succ[c + g] += w * x
            continue
        for group in groups:
            if not group:
                continue
            a, b = _best_split(n - c, group[0], gate, k, p_tenths, c)
            faces = _faces(group, b)
            f_scale = six ** (k - b)
            total = sum(faces)
            cleared = total if gate is None or group[0] >= gate else sum(faces[gate - 1 :])
            for v, x in enumerate(faces):
                faces_total[v] += w * x * f_scale
            succ[0] += w * (total - cleared) * f_scale * D10**k
            g_scale = D10 ** (k - a) * cleared * f_scale
            for g, x in enumerate(_gain(n - c, a, p_tenths)):
                succ[c + g] += w * x * g_scale
    denom = D10 ** (n + k) * (six ** (1 + k) if hero else 1)
    dist = tuple(Fraction(x, denom) for x in succ)
    if not hero:
        return PoolOdds(dist, ZERO, ZERO, ZERO)
    face_denom = D10**n * six ** (1 + k)
    fortune, misfortune = Fraction(faces_total[5], face_denom), Fraction(faces_total[0], face_denom)
    special = Fraction(faces_total[3] + faces_total[4], face_denom)
    return PoolOdds(dist, fortune, misfortune, special)


_FAIR_HERO_DIE = (Fraction(1, 6), Fraction(1, 6), Fraction(2, 6))
"""A Hero die rolled once: Fortune (6), Misfortune (1), a Special (4 or 5)."""


@lru_cache(maxsize=4096)  # small whole numbers: a forecast asks at every Luck choice
def _best_split(
    missing: int, face: int, gate: int | None, rerolls: int, p_tenths: int, have: int = 0
) -> tuple[int, int]:
    """The (d10, Hero die) split of the re-rolls that maximises expected successes.

    ``have`` is the successes already rolled: behind a Hero-die gate they are lost too
    unless the Hero die makes it, so they count in the comparison. Compared exactly as
    integers over 10^rerolls · 6^rerolls; ties go to more Hero-die re-rolls.
    """
    best, best_value = (0, rerolls), -1
    for a in range(rerolls + 1):
        b = rerolls - a
        gains = _gain(missing, a, p_tenths)
        value = (have * D10**a + sum(g * x for g, x in enumerate(gains))) * D10 ** (rerolls - a)
        if gate is not None and face < gate:
            value *= (HERO_DIE_SIDES**b - (gate - 1) ** b) * HERO_DIE_SIDES ** (rerolls - b)
        else:
            value *= HERO_DIE_SIDES**rerolls
        if value > best_value or (value == best_value and b > best[1]):
            best, best_value = (a, b), value
    return best


def _pool_params(tn: int, rank: Rank) -> tuple[int, int | None]:
    """Per-die success chance in tenths, and the Hero-die gate (R-TASK-2..4)."""
    playing_rank(rank)
    if tn >= 1:
        return min(tn, D10 - 1), None  # R-TASK-3: a natural 10 always fails
    gate = hero_threshold(tn)
    if rank is not Rank.HERO or gate > HERO_DIE_SIDES:
        return 0, None  # R-TASK-4: Minions fail; a Hero past TN −4 cannot make it up
    return 1, gate


def task_odds(tn: int, rank: Rank = Rank.HERO, rerolls: int = 0) -> PoolOdds:
    """R-TASK-7: exact chance of success (and Fortune/Misfortune) of a task."""
    return attack_odds(tn, 1, rank, rerolls)


def attack_odds(tn: int, dice: int, rank: Rank = Rank.HERO, rerolls: int = 0) -> PoolOdds:
    """R-ATK-2: distribution of hits of ``dice`` attack dice against ``tn``.

    Interpretation (TN ≤ 0, Hero): every d10 showing 1 is a hit if the one Hero die
    makes up the shortfall (R-TASK-4 applied die by die with the shared Hero die).
    """
    p, gate = _pool_params(tn, rank)
    return pool_odds(dice, p, gate, rank is Rank.HERO, rerolls)


def defense_odds(hits: int, defense: int, rank: Rank = Rank.HERO, rerolls: int = 0) -> PoolOdds:
    """R-ATK-6: distribution of hits that get through (``successes`` = hits through).

    A die avoids its hit when it shows Defense or less, so a Defense of 10+ avoids all;
    the defender spends re-rolls (Dodge action) to avoid as many as possible.
    """
    playing_rank(rank)
    return _through(hits, max(0, min(defense, D10)), rank is Rank.HERO, rerolls)


@lru_cache(maxsize=4096)
def _through(hits: int, avoid_tenths: int, hero: bool, rerolls: int) -> PoolOdds:
    avoid = pool_odds(hits, avoid_tenths, None, hero, rerolls)
    return PoolOdds(avoid.successes[::-1], avoid.fortune, avoid.misfortune, avoid.special)


def _exploding_pmf(sides: int, cap: int) -> tuple[list[int], int]:
    """R-DMG-1: one exploding die's P(value = v) for v = 0..cap, as integers over a
    common denominator. P(v) = sides^−(j+1) with j = (v−1)//sides, zero for multiples
    of ``sides`` (a maximum always rolls on).
    """
    top = (cap - 1) // sides + 1 if cap >= 1 else 1
    denom = sides**top
    pmf = [0] * (cap + 1)
    for v in range(1, cap + 1):
        if v % sides:
            pmf[v] = sides ** (top - ((v - 1) // sides + 1))
    return pmf, denom


def _convolve(a: list[int], b: list[int], cap: int) -> list[int]:
    out = [0] * (cap + 1)
    for i, x in enumerate(a):
        if x:
            for j in range(cap + 1 - i):
                if b[j]:
                    out[i + j] += x * b[j]
    return out


def damage_at_most(expr: Expression | str, limits: tuple[int, ...]) -> tuple[Fraction, ...]:
    """P(damage ≤ x) for each x in ``limits``: exploding dice summed exactly (R-DMG-1).

    The distribution is infinite; only values up to max(limits) are enumerated and the
    rest is the exact remainder, so every figure is exact.
    """
    if isinstance(expr, str):
        expr = parse(expr)
    if expr.references:
        raise RulesError(
            f"{expr.source!r} names {', '.join(sorted(expr.references))}: give the values first"
        )
    constant = 0
    cap = max(limits)
    dice: list[int] = []
    for sign, term in expr.terms:
        if isinstance(term, Dice):
            if sign < 0:
                raise RulesError(f"damage cannot subtract dice ({expr.source!r})")
            dice.extend([term.sides] * term.count)
        else:
            constant += sign * term.value  # type: ignore[union-attr]
    top = cap - constant  # the dice must total at most this
    if top > MAX_EXACT_TOTAL or len(dice) > MAX_EXACT_DICE:
        raise RulesError(
            f"{expr.source!r} is too far from Health to enumerate exactly (the dice would have"
            f" to be summed up to {top}); keep it within {MAX_EXACT_DICE} dice and"
            f" {MAX_EXACT_TOTAL} points of 3 × Health"
        )
    if top < 0:
        return tuple(ZERO if x - constant < 0 else ONE for x in limits)
    pmf, denom = [1] + [0] * top, 1
    for sides in dice:
        die, die_denom = _exploding_pmf(sides, top)
        pmf, denom = _convolve(pmf, die, top), denom * die_denom
    out = []
    for x in limits:
        bound = x - constant
        out.append(Fraction(sum(pmf[: bound + 1]), denom) if bound >= 0 else ZERO)
    return tuple(out)


def wound_odds(damage: Expression | str, health: int) -> dict[str, Fraction]:
    """R-DMG-2: chance of 0, 1, 2 and 3+ wound steps from one hit against ``health``."""
    if health < 1:
        raise RulesError(f"Health must be at least 1, got {health}")
    at_most = damage_at_most(damage, (health, 2 * health, 3 * health))
    cumulative = (*at_most, ONE)
    dist = [cumulative[0]] + [cumulative[i] - cumulative[i - 1] for i in range(1, 4)]
    return dict(zip(STEP_KEYS, dist, strict=True))


def suggest_split(roll: PoolRoll, rerolls: int) -> tuple[int, int]:
    """R-TASK-6: the (d10, Hero die) split of ``rerolls`` the odds policy would use now."""
    if rerolls < 0:
        raise RulesError(f"re-rolls cannot be negative, got {rerolls}")
    if roll.hero_first is None:
        return rerolls, 0
    p, gate, good = _standing(roll)
    return _best_split(roll.dice - good, roll.hero_first, gate, rerolls, p, good)


def _standing(roll: PoolRoll) -> tuple[int, int | None, int]:
    """What a re-roll of ``roll`` starts from: the chance in tenths that a re-rolled d10
    comes up good, the Hero die's gate for a TN ≤ 0 (R-TASK-4), and the d10s good now. A
    good Defense d10 is one the defender keeps: it lets no hit through.
    """
    if roll.kind is PoolKind.DEFENSE:
        return max(0, min(roll.target, D10)), None, sum(d <= roll.target for d in roll.first)
    tenths, gate = _pool_params(roll.target, roll.rank)
    good = sum(roll.die_counts(d) if gate is None else d == 1 for d in roll.first)
    return tenths, gate, good


def reroll_odds(roll: PoolRoll, d10: int, hero: int) -> tuple[Fraction, Fraction]:
    """R-TASK-6: the exact chance of at least one success (a hit through, for Defense)
    and the expected successes once ``d10`` d10s and ``hero`` Hero dice of ``roll`` are
    re-rolled, the best dice kept: what a split in the re-roll dialog buys.
    """
    if min(d10, hero) < 0:
        raise RulesError("a number of re-rolls cannot be negative")
    tenths, gate, good = _standing(roll)
    opened = Fraction(1)  # the Hero die makes up a TN ≤ 0 (R-TASK-4)
    if gate is not None and (roll.hero_first or 0) < gate:
        opened = 1 - Fraction(gate - 1, HERO_DIE_SIDES) ** hero
    p = Fraction(tenths, D10)
    any_success, expected = Fraction(0), Fraction(0)
    for new in range(d10 + 1):
        chance = comb(d10, new) * p**new * (1 - p) ** (d10 - new)
        kept = min(roll.dice, good + new)
        successes = roll.dice - kept if roll.kind is PoolKind.DEFENSE else kept
        if roll.kind is not PoolKind.DEFENSE:
            chance *= opened
        any_success += chance if successes else 0
        expected += chance * successes
    return any_success, expected
