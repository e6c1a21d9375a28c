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

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from .dice import Dice, Expression, parse
from .errors import RulesError
from .models import Rank
from .tasks import D10, HERO_DIE_SIDES, hero_threshold

ONE = Fraction(1)
ZERO = Fraction(0)

#: The wound-step buckets of ``hsm odds wounds``: "3+" means a fresh Hero is severely
#: wounded by that one hit (R-DMG-2, R-WOUND-1).
STEP_KEYS = ("0", "1", "2", "3+")


@dataclass(frozen=True)
class PoolOdds:
    """Distribution of successes (hits) plus the kept Hero die's specials."""

    successes: tuple[Fraction, ...]  # index = number of successes, 0..dice
    fortune: Fraction
    misfortune: Fraction
    special: Fraction  # a 4 or 5 kept

    @property
    def success(self) -> Fraction:
        """Chance of at least one success: the task succeeds / the attack hits."""
        return ONE - self.successes[0]

    @property
    def expected(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.successes)), ZERO)


def _binomial(n: int, p_tenths: int) -> tuple[Fraction, ...]:
    """Bin(n, p/10) exactly."""
    q = D10 - p_tenths
    denom = D10**n
    return tuple(Fraction(comb(n, k) * p_tenths**k * q ** (n - k), denom) for k in range(n + 1))


def _after_rerolls(missing: int, rerolls: int, p_tenths: int) -> tuple[Fraction, ...]:
    """Extra successes gained by ``rerolls`` d10s when ``missing`` dice failed.

    All re-rolls are rolled together and the best dice kept (R-TASK-6), so the gain is
    min(missing, Bin(rerolls, p)).
    """
    gained = [ZERO] * (missing + 1)
    for k, p in enumerate(_binomial(rerolls, p_tenths)):
        gained[min(k, missing)] += p
    return tuple(gained)


def _hero_faces(first: int, rerolls: int) -> tuple[Fraction, ...]:
    """P(kept Hero die = v), v = 1..6 (index v-1), keeping the highest of first + rerolls."""
    out = [ZERO] * HERO_DIE_SIDES
    if rerolls == 0:
        out[first - 1] = ONE
        return tuple(out)
    six = HERO_DIE_SIDES
    out[first - 1] = Fraction(first**rerolls, six**rerolls)
    for v in range(first + 1, six + 1):
        out[v - 1] = Fraction(v**rerolls - (v - 1) ** rerolls, six**rerolls)
    return tuple(out)


def _faces_summary(faces: tuple[Fraction, ...]) -> tuple[Fraction, Fraction, Fraction]:
    return faces[5], faces[0], faces[3] + faces[4]


def _expected(dist: tuple[Fraction, ...]) -> Fraction:
    return sum((k * p for k, p in enumerate(dist)), ZERO)


@lru_cache(maxsize=4096)
def pool_odds(dice: int, p_tenths: int, gate: int | None, hero: bool, rerolls: int) -> PoolOdds:
    """Odds for ``dice`` d10s each succeeding with chance ``p_tenths``/10.

    ``gate`` (Heroes at TN ≤ 0, R-TASK-4): the successes only count when the kept Hero
    die is at least ``gate``. Cached: the parameter space a GM can reach is small.
    """
    if dice < 1:
        raise RulesError(f"a roll needs at least one d10, got {dice}")
    if rerolls < 0:
        raise RulesError(f"re-rolls cannot be negative, got {rerolls}")
    if gate is not None and not hero:
        raise RulesError("only a Hero's roll can make up a shortfall on the Hero die")
    first_dist = _binomial(dice, p_tenths)
    succ = [ZERO] * (dice + 1)
    faces_total = [ZERO] * HERO_DIE_SIDES
    hero_firsts = range(1, HERO_DIE_SIDES + 1) if hero else (None,)
    p_face = Fraction(1, HERO_DIE_SIDES) if hero else ONE
    for c, p_c in enumerate(first_dist):
        if not p_c:
            continue
        for f in hero_firsts:
            a, b = _best_split(dice - c, f, gate, rerolls, p_tenths) if f else (rerolls, 0)
            weight = p_c * p_face
            gained = _after_rerolls(dice - c, a, p_tenths)
            faces = _hero_faces(f, b) if f else None
            if faces is None:
                for g, p_g in enumerate(gained):
                    succ[c + g] += weight * p_g
                continue
            for v, p_v in enumerate(faces, start=1):
                if not p_v:
                    continue
                faces_total[v - 1] += weight * p_v
                if gate is not None and v < gate:
                    succ[0] += weight * p_v
                    continue
                for g, p_g in enumerate(gained):
                    succ[c + g] += weight * p_v * p_g
    fortune, misfortune, special = _faces_summary(tuple(faces_total)) if hero else (ZERO,) * 3
    return PoolOdds(tuple(succ), fortune, misfortune, special)


def _best_split(
    missing: int, face: int, gate: int | None, rerolls: int, p_tenths: int
) -> tuple[int, int]:
    """The (d10, Hero die) split of the re-rolls that maximises expected successes."""
    best, best_value = (0, rerolls), Fraction(-1)
    for a in range(rerolls, -1, -1):
        b = rerolls - a
        value = _expected(_after_rerolls(missing, a, p_tenths))
        if gate is not None and face < gate:
            value *= ONE - Fraction(gate - 1, HERO_DIE_SIDES) ** b
        if value > best_value or (value == best_value and b > best[1]):
            best, best_value = (a, b), value
    return best


def _pool_params(tn: int, rank: Rank) -> tuple[int, int | None]:
    """Per-die success chance in tenths, and the Hero-die gate (R-TASK-2..4)."""
    if rank is Rank.SIDEKICK:
        raise RulesError("a Sidekick rolls as a Hero or a Minion: pick one (R-CHAR-8)")
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


def defense_odds(hits: int, defense: int, rank: Rank = Rank.MINION, rerolls: int = 0) -> PoolOdds:
    """R-ATK-6: distribution of hits that get through (``successes`` = hits through).

    A die avoids its hit when it shows Defense or less, so a Defense of 10+ avoids all;
    the defender spends re-rolls (Dodge action) to avoid as many as possible.
    """
    if rank is Rank.SIDEKICK:
        raise RulesError("a Sidekick rolls as a Hero or a Minion: pick one (R-CHAR-8)")
    avoid = pool_odds(hits, max(0, min(defense, D10)), None, rank is Rank.HERO, rerolls)
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
