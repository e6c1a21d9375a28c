"""Opposed and group tasks: exact odds and how a pair or a group of task rolls resolves.

The rulebook names neither, so the engine uses one reading, stated here and in docs/rules.md:

- **Opposed** (two characters against each other, e.g. a chase or an arm-wrestle): both
  roll their task. One success against one failure wins. Both succeed: the larger margin
  (TN − d10) wins; equal margins: the higher Hero die (a Minion counts 0); still equal, or
  both fail: a stand-off the GM narrates.
- **Group** (several characters at one task): the GM picks what the group needs: ``any``
  one success (searching a room), ``half`` of them or more (hauling a crate), or ``all``
  (sneaking past a guard).

Odds are exact: every d10 and Hero die face is enumerated (no sampling).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache

from .errors import RulesError
from .models import Rank
from .odds import task_odds
from .tasks import D10, HERO_DIE_SIDES, PoolKind, PoolRoll, playing_rank

ZERO, ONE = Fraction(0), Fraction(1)


class Need(Enum):
    """What a group task needs."""

    ANY = "any"
    HALF = "half"
    ALL = "all"

    def needed(self, size: int) -> int:
        return {Need.ANY: 1, Need.HALF: (size + 1) // 2, Need.ALL: size}[self]


@dataclass(frozen=True)
class OpposedOdds:
    first: Fraction  # the first roller wins
    second: Fraction
    standoff: Fraction


def quality(roll: PoolRoll) -> tuple[int, int, int]:
    """How good a task roll is for comparing: success, margin, Hero die (Minion 0)."""
    d10 = roll.kept[0]
    success = roll.success
    return (int(success), roll.target - d10 if success else 0, (roll.hero or 0) if success else 0)


def opposed_winner(a: PoolRoll, b: PoolRoll) -> int:
    """1 or 2 for the winner, 0 for a stand-off (see the module docstring)."""
    qa, qb = quality(a), quality(b)
    if qa == qb or not (qa[0] or qb[0]):
        return 0
    return 1 if qa > qb else 2


@lru_cache(maxsize=4096)
def _qualities(tn: int, rank: Rank) -> tuple[tuple[tuple[int, int, int], Fraction], ...]:
    playing_rank(rank)
    faces = range(1, HERO_DIE_SIDES + 1) if rank is Rank.HERO else (None,)
    weight = Fraction(1, D10 * len(faces))
    counts: dict[tuple[int, int, int], Fraction] = {}
    for d10 in range(1, D10 + 1):
        for hero in faces:
            q = quality(PoolRoll(PoolKind.TASK, tn, rank, (d10,), hero))
            counts[q] = counts.get(q, ZERO) + weight
    return tuple(sorted(counts.items()))


def opposed_odds(tn_a: int, rank_a: Rank, tn_b: int, rank_b: Rank) -> OpposedOdds:
    """Exact chances that the first, the second or neither wins an opposed task."""
    first = second = ZERO
    for qa, pa in _qualities(tn_a, rank_a):
        for qb, pb in _qualities(tn_b, rank_b):
            if qa == qb or not (qa[0] or qb[0]):
                continue
            if qa > qb:
                first += pa * pb
            else:
                second += pa * pb
    return OpposedOdds(first, second, ONE - first - second)


def group_odds(tasks: Sequence[tuple[int, Rank]], need: Need) -> Fraction:
    """Exact chance that at least ``need`` of the tasks succeed (each independent)."""
    if not tasks:
        raise RulesError("a group task needs at least one roller")
    dist = [ONE]  # dist[k] = P(k successes so far)
    for tn, rank in tasks:
        p = task_odds(tn, rank).success
        nxt = [ZERO] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (ONE - p)
            nxt[k + 1] += q * p
        dist = nxt
    return sum(dist[need.needed(len(tasks)) :], ZERO)
