"""Benchmark of the exact-odds engine (R-TASK-7) against its targets, and against icepool.

Run ``.venv/bin/python bench/odds.py`` (about a minute) or add ``--quick`` (subsampled
sweeps, few repeats: a few seconds). For every query family it prints the parameter
sweep, the number of timed calls, the median and 95th-percentile time per call, the
slowest input's median, the target and whether it is met, and, where icepool can
express exactly the same rule, icepool's median time on the same inputs, the ratio
ours/icepool and an exact (``Fraction``) comparison of the probabilities.

* **cold**: every lru_cache of the odds module is cleared before every timed call, so
  caching does not flatter the engine; **warm**: the cache is primed first. Pass/fail uses the cold
  figure: the *slowest input's median* must be under the target, i.e. every input of
  the sweep meets it on a typical call.
* Timing: ``time.perf_counter_ns`` around each single call, inputs shuffled every
  round, the garbage collector off while timing; each row repeats the sweep until its
  time budget is spent (at least ``min_rounds`` rounds).
* The exit code is non-zero only when a probability differs (engine vs icepool, or a
  distribution that does not sum to 1). Timings never fail the run.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from table import record  # bench/table.py: issue 22's rows

from hsm_tui.rules import odds
from hsm_tui.rules.models import Rank

try:
    import icepool
except ImportError:  # icepool is a test extra: the benchmark still times the engine
    icepool = None

HERO, MINION = Rank.HERO, Rank.MINION
HERO_TASK = "task · Hero TN≥1 rr0"
"""The family issue 22 compares with icepool: a Hero's task, no re-rolls, TN 1 or more."""
D10_TOP = 9  # R-TASK-3: a natural 10 always fails, so TN ≥ 10 succeeds on 1..9

Probs = tuple[Fraction, ...]


# --------------------------------------------------------------------------- icepool
# Each function answers one query with icepool alone and returns the same tuple of
# probabilities that ``Family.ours_probs`` extracts from the engine's answer.


def _count_dist(die: Any, n: int) -> Probs:
    """P(count = k) for k = 0..n from an icepool die over counts (absent → 0)."""
    return tuple(die.probability(k) for k in range(n + 1))


def _hero_die_faces() -> Probs:
    """R-TASK-5 with no Hero-die re-roll: P(Fortune), P(Misfortune), P(Special)."""
    d6 = icepool.d6
    return d6.probability(6), d6.probability(1), d6.is_in({4, 5}).probability(True)


def ice_task_minion(tn: int, rank: Rank, rerolls: int) -> Probs:
    """Minion task: the best (lowest) of 1 + K d10s is ≤ min(TN, 9)."""
    die = icepool.d10 if rerolls == 0 else icepool.d10.lowest(rerolls + 1)
    p = die.probability("<=", min(tn, D10_TOP))
    return 1 - p, p


def ice_task_hero_plain(tn: int, rank: Rank, rerolls: int) -> Probs:
    """Hero task, TN ≥ 1, no re-roll: d10 ≤ min(TN, 9); the Hero die as rolled."""
    p = icepool.d10.probability("<=", min(tn, D10_TOP))
    return 1 - p, p, *_hero_die_faces()


def ice_attack_minion(tn: int, dice: int, rank: Rank, rerolls: int) -> Probs:
    """Minion attack: hits = d10s ≤ min(TN, 9); with K re-rolls, all rolled at once and
    the best D of D + K kept (R-TASK-6), i.e. the lowest D of D + K d10s."""
    p = min(tn, D10_TOP)
    if rerolls == 0:
        return _count_dist(dice @ (icepool.d10 <= p), dice)
    kept = icepool.d10.pool(dice + rerolls).lowest(dice)
    return _count_dist(kept.keep_outcomes(lambda o: o <= p).size(), dice)


def ice_attack_hero_plain(tn: int, dice: int, rank: Rank, rerolls: int) -> Probs:
    """Hero attack, TN ≥ 1, no re-roll: hits = d10s ≤ min(TN, 9); the Hero die as rolled."""
    return *_count_dist(dice @ (icepool.d10 <= min(tn, D10_TOP)), dice), *_hero_die_faces()


def ice_defense_minion(hits: int, defense: int, rank: Rank, rerolls: int) -> Probs:
    """Minion Defense: hits through = d10s > Defense (R-ATK-6); with K re-rolls the
    lowest (best) ``hits`` of hits + K d10s are kept."""
    if rerolls == 0:
        return _count_dist(hits @ (icepool.d10 > defense), hits)
    kept = icepool.d10.pool(hits + rerolls).lowest(hits)
    return _count_dist(kept.keep_outcomes(lambda o: o > defense).size(), hits)


def ice_defense_hero_plain(hits: int, defense: int, rank: Rank, rerolls: int) -> Probs:
    """Hero Defense, no re-roll: d10s > Defense; the Hero die as rolled."""
    return *_count_dist(hits @ (icepool.d10 > defense), hits), *_hero_die_faces()


def explode_depth(count: int, sides: int, health: int) -> int:
    """The smallest icepool explosion depth that leaves every wound bucket exact.

    ``die.explode(depth=k)`` stops after k extra rolls and keeps the last maximum as
    it is, so a truncated die is exact below (k+1)·sides and shows (k+1)·sides
    (carrying the whole cut-off tail) when cut. With ``count`` dice a cut sum is at
    least (k+1)·sides + count − 1; the buckets only ask P(D ≤ H), P(D ≤ 2H),
    P(D ≤ 3H), so they are exact once (k+1)·sides + count − 1 > 3H, and "3+" is exact
    because truncation keeps the total mass at 1.
    """
    return max(0, math.ceil((3 * health - count + 2) / sides) - 1)


def _wound_buckets(damage: Any, health: int) -> Probs:
    steps = damage.map(lambda d: min(3, max(0, (d - 1) // health)))  # R-DMG-2
    return tuple(steps.probability(k) for k in range(4))


def ice_wounds(expr: str, health: int, depth_offset: int = 0) -> Probs:
    """Wound steps of one hit: ``count`` exploding dice summed, depth-limited (see
    :func:`explode_depth`); ``depth_offset`` −1 is the control that must differ."""
    count, sides = (int(x) for x in expr.split("d"))
    depth = max(0, explode_depth(count, sides, health) + depth_offset)
    return _wound_buckets(count @ icepool.d(sides).explode(depth=depth), health)


# --------------------------------------------------------------------------- families


def pool_probs(result: odds.PoolOdds) -> Probs:
    return result.successes


def pool_probs_faces(result: odds.PoolOdds) -> Probs:
    return (*result.successes, result.fortune, result.misfortune, result.special)


def wound_probs(result: dict[str, Fraction]) -> Probs:
    return tuple(result[k] for k in odds.STEP_KEYS)


def distribution_of(family: Family, probs: Probs) -> Probs:
    """The part of ``probs`` that must sum to 1 (the counts, not the Hero-die faces)."""
    return probs[: len(probs) - 3] if family.ours_probs is pool_probs_faces else probs


@dataclass
class Family:
    name: str
    sweep: str
    target_us: float
    fn: Callable[..., Any]
    inputs: list[tuple[Any, ...]]
    label: Callable[[tuple[Any, ...]], str]
    ours_probs: Callable[[Any], Probs]
    cached: bool = True
    ice: Callable[..., Probs] | None = None
    ice_note: str = ""  # why icepool is "—"


@dataclass
class Timing:
    samples: list[list[int]]  # per input, ns
    results: list[Any]  # first round's answers (cold ones for a cold run)
    rounds: int

    @property
    def flat(self) -> list[int]:
        return sorted(ns for per in self.samples for ns in per)

    @property
    def calls(self) -> int:
        return sum(len(per) for per in self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.flat)

    @property
    def p95(self) -> float:
        flat = self.flat
        return flat[math.ceil(0.95 * len(flat)) - 1]

    def slowest(self) -> tuple[int, float]:
        medians = [statistics.median(per) for per in self.samples]
        i = max(range(len(medians)), key=medians.__getitem__)
        return i, medians[i]


@dataclass
class Row:
    family: Family
    mode: str  # cold / warm / uncached / —
    timing: Timing
    ice: Timing | None = None
    check: str = "—"
    extra: dict[str, Any] = field(default_factory=dict)


def build_families(quick: bool) -> list[Family]:
    def pick(full: Sequence[int], short: Sequence[int]) -> list[int]:
        return list(short if quick else full)

    task_tn = pick(range(-6, 13), (-6, -4, -1, 0, 1, 3, 6, 9, 12))
    rr = pick(range(4), (0, 1, 3))
    dice = pick(range(1, 13), (1, 2, 6, 12))
    atk_tn = pick(range(-4, 11), (-4, -1, 0, 1, 5, 9, 10))
    defense = pick(range(11), (0, 3, 6, 9, 10))
    counts = pick(range(1, 5), (1, 4))
    sides = pick((4, 6, 8, 10, 12), (4, 6, 12))
    health = pick(range(2, 9), (2, 5, 8))

    def span(values: Sequence[int]) -> str:
        lo, hi = min(values), max(values)
        text = f"{lo}…{hi}" if len(values) == hi - lo + 1 else ",".join(map(str, values))
        return text.replace("-", "−")

    pos = lambda xs: [x for x in xs if x >= 1]  # noqa: E731
    nonpos = lambda xs: [x for x in xs if x <= 0]  # noqa: E731
    rr_pos = [k for k in rr if k > 0]

    def task_label(a: tuple[Any, ...]) -> str:
        return f"TN {minus(a[0])}, {a[1].value}, {a[2]} re-roll(s)"

    def attack_label(a: tuple[Any, ...]) -> str:
        return f"{a[1]} dice, TN {minus(a[0])}, {a[2].value}, {a[3]} re-roll(s)"

    def defense_label(a: tuple[Any, ...]) -> str:
        return f"{a[0]} hits, Defense {a[1]}, {a[2].value}, {a[3]} re-roll(s)"

    task_t, pool_t, wound_t = 50.0, 1000.0, 5000.0
    split = "Hero re-roll split d10/Hero die (engine policy)"
    gate = "Hero die makes up TN ≤ 0 (R-TASK-4)"
    return [
        Family(
            "task · Minion",
            f"TN {span(task_tn)} · rr {span(rr)}",
            task_t,
            odds.task_odds,
            [(t, MINION, k) for t in task_tn for k in rr],
            task_label,
            pool_probs,
            ice=ice_task_minion,
        ),
        Family(
            HERO_TASK,
            f"TN {span(pos(task_tn))} · rr 0",
            task_t,
            odds.task_odds,
            [(t, HERO, 0) for t in pos(task_tn)],
            task_label,
            pool_probs_faces,
            ice=ice_task_hero_plain,
        ),
        Family(
            "task · Hero TN≥1 rr≥1",
            f"TN {span(pos(task_tn))} · rr {span(rr_pos)}",
            task_t,
            odds.task_odds,
            [(t, HERO, k) for t in pos(task_tn) for k in rr_pos],
            task_label,
            pool_probs_faces,
            ice_note=split,
        ),
        Family(
            "task · Hero TN≤0",
            f"TN {span(nonpos(task_tn))} · rr {span(rr)}",
            task_t,
            odds.task_odds,
            [(t, HERO, k) for t in nonpos(task_tn) for k in rr],
            task_label,
            pool_probs_faces,
            ice_note=gate,
        ),
        Family(
            "attack · Minion",
            f"dice {span(dice)} · TN {span(atk_tn)} · rr {span(rr)}",
            pool_t,
            odds.attack_odds,
            [(t, d, MINION, k) for d in dice for t in atk_tn for k in rr],
            attack_label,
            pool_probs,
            ice=ice_attack_minion,
        ),
        Family(
            "attack · Hero TN≥1 rr0",
            f"dice {span(dice)} · TN {span(pos(atk_tn))} · rr 0",
            pool_t,
            odds.attack_odds,
            [(t, d, HERO, 0) for d in dice for t in pos(atk_tn)],
            attack_label,
            pool_probs_faces,
            ice=ice_attack_hero_plain,
        ),
        Family(
            "attack · Hero TN≥1 rr≥1",
            f"dice {span(dice)} · TN {span(pos(atk_tn))} · rr {span(rr_pos)}",
            pool_t,
            odds.attack_odds,
            [(t, d, HERO, k) for d in dice for t in pos(atk_tn) for k in rr_pos],
            attack_label,
            pool_probs_faces,
            ice_note=split,
        ),
        Family(
            "attack · Hero TN≤0",
            f"dice {span(dice)} · TN {span(nonpos(atk_tn))} · rr {span(rr)}",
            pool_t,
            odds.attack_odds,
            [(t, d, HERO, k) for d in dice for t in nonpos(atk_tn) for k in rr],
            attack_label,
            pool_probs_faces,
            ice_note=gate,
        ),
        Family(
            "defense · Minion",
            f"hits {span(dice)} · Def {span(defense)} · rr {span(rr)}",
            pool_t,
            odds.defense_odds,
            [(h, df, MINION, k) for h in dice for df in defense for k in rr],
            defense_label,
            pool_probs,
            ice=ice_defense_minion,
        ),
        Family(
            "defense · Hero rr0",
            f"hits {span(dice)} · Def {span(defense)} · rr 0",
            pool_t,
            odds.defense_odds,
            [(h, df, HERO, 0) for h in dice for df in defense],
            defense_label,
            pool_probs_faces,
            ice=ice_defense_hero_plain,
        ),
        Family(
            "defense · Hero rr≥1",
            f"hits {span(dice)} · Def {span(defense)} · rr {span(rr_pos)}",
            pool_t,
            odds.defense_odds,
            [(h, df, HERO, k) for h in dice for df in defense for k in rr_pos],
            defense_label,
            pool_probs_faces,
            ice_note=split,
        ),
        Family(
            "wound steps",
            f"{span(counts)} × d{{{','.join(map(str, sides))}}}! · Health {span(health)}",
            wound_t,
            odds.wound_odds,
            [(f"{n}d{s}", h) for n in counts for s in sides for h in health],
            lambda a: f"{a[0]} vs Health {a[1]}",
            wound_probs,
            cached=False,
            ice=ice_wounds,
        ),
    ]


# --------------------------------------------------------------------------- timing


def time_calls(
    fn: Callable[..., Any],
    inputs: Sequence[tuple[Any, ...]],
    clear: Callable[[], None] | None,
    budget_s: float,
    min_rounds: int,
    max_rounds: int,
    seed: int,
) -> Timing:
    """Time every input once per round, in a shuffled order, until the budget is spent."""
    samples: list[list[int]] = [[] for _ in inputs]
    results: list[Any] = [None] * len(inputs)
    order = list(range(len(inputs)))
    rng = random.Random(seed)
    perf = time.perf_counter_ns
    deadline = perf() + int(budget_s * 1e9)
    rounds = 0
    gc.collect()
    gc.disable()
    try:
        while rounds < min_rounds or (rounds < max_rounds and perf() < deadline):
            rng.shuffle(order)
            for i in order:
                args = inputs[i]
                if clear is not None:
                    clear()
                t0 = perf()
                result = fn(*args)
                t1 = perf()
                samples[i].append(t1 - t0)
                if rounds == 0:
                    results[i] = result
            rounds += 1
    finally:
        gc.enable()
    return Timing(samples, results, rounds)


# --------------------------------------------------------------------------- output


def minus(value: int) -> str:
    """An integer with a minus sign (−), as the rules digest writes TNs."""
    return str(value).replace("-", "−")


def fmt_us(ns: float) -> str:
    us = ns / 1000
    if us < 10:
        return f"{us:.2f}"
    if us < 1000:
        return f"{us:.1f}"
    return f"{us:,.0f}"


def fmt_target(us: float) -> str:
    return f"< {us / 1000:g} ms" if us >= 1000 else f"< {us:g} µs"


def render(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    rule = "  ".join("─" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


# --------------------------------------------------------------------------- main


def compare(family: Family, ours: list[Any], theirs: list[Probs] | None) -> tuple[str, list[str]]:
    """Exact comparison (Fraction ==) and the Σ = 1 self-check; returns (cell, problems)."""
    problems: list[str] = []
    for i, result in enumerate(ours):
        probs = family.ours_probs(result)
        total = sum(distribution_of(family, probs), Fraction(0))
        if total != 1:
            problems.append(f"{family.name} | {family.label(family.inputs[i])}: Σ = {total} ≠ 1")
        if theirs is not None and tuple(probs) != tuple(theirs[i]):
            problems.append(
                f"{family.name} | {family.label(family.inputs[i])}:\n"
                f"      engine : {[str(p) for p in probs]}\n"
                f"      icepool: {[str(p) for p in theirs[i]]}"
            )
    n = len(ours)
    if problems:
        return f"MISMATCH {len(problems)}/{n}", problems
    return (f"exact {n}/{n}" if theirs is not None else f"Σ=1 {n}/{n}"), problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="subsampled sweeps, few repeats")
    args = parser.parse_args(argv)
    quick = args.quick
    # Per timed set: seconds of budget, minimum and maximum rounds over the sweep.
    budget, min_rounds, max_rounds = (0.15, 1, 20) if quick else (1.2, 3, 400)

    print(f"hsm_tui exact-odds benchmark · bench/odds.py{' --quick' if quick else ''}")
    print(
        f"machine: Python {platform.python_version()} ({platform.python_implementation()})"
        f" · {platform.platform()} · {platform.machine()} · {_cpus()} CPU(s)"
    )
    ice_version = icepool.__version__ if icepool is not None else "not installed"
    source = Path(odds.__file__)
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    print(f"engine: {source.name} sha256 {digest} (the file timed and checked)")
    print(
        f"icepool {ice_version} · timer time.perf_counter_ns, one call per sample,"
        f" gc off while timing · budget {budget:g} s/row, ≥{min_rounds} round(s)"
    )
    print()

    caches = [f for f in vars(odds).values() if hasattr(f, "cache_clear")]

    def clear() -> None:  # every lru_cache in the odds module, not only pool_odds
        for cached in caches:
            cached.cache_clear()

    rows: list[Row] = []
    problems: list[str] = []
    control: tuple[int, int] | None = None
    start = time.perf_counter()
    for n, fam in enumerate(build_families(quick)):
        seed = 1000 + n
        if fam.cached:
            cold = time_calls(fam.fn, fam.inputs, clear, budget, min_rounds, max_rounds, seed)
            for a in fam.inputs:  # prime the lru_cache, then time warm calls
                fam.fn(*a)
            warm = time_calls(fam.fn, fam.inputs, None, budget, min_rounds, max_rounds, seed)
            main_rows = [Row(fam, "cold", cold), Row(fam, "warm", warm)]
        else:
            cold = time_calls(fam.fn, fam.inputs, None, budget, min_rounds, max_rounds, seed)
            main_rows = [Row(fam, "no cache", cold)]
        ice_t = None
        if fam.ice is not None and icepool is not None:
            ice_t = time_calls(fam.ice, fam.inputs, None, budget, min_rounds, max_rounds, seed)
        check, found = compare(fam, cold.results, ice_t.results if ice_t else None)
        problems += found
        for row in main_rows:
            row.ice, row.check = ice_t, check
        rows += main_rows
        if fam.ice is ice_wounds and icepool is not None:
            # Control: one explosion level fewer must show up as a difference, or the
            # exact comparison above would not be seeing the truncation at all.
            shallow = [
                (a, ice_wounds(*a, depth_offset=-1))
                for a in fam.inputs
                if explode_depth(int(a[0].split("d")[0]), int(a[0].split("d")[1]), a[1]) > 0
            ]
            ours = dict(zip(fam.inputs, cold.results, strict=True))
            differ = sum(wound_probs(ours[a]) != p for a, p in shallow)
            control = (differ, len(shallow))
    elapsed = time.perf_counter() - start

    headers = [
        "family",
        "sweep",
        "cache",
        "calls",
        "median µs",
        "p95 µs",
        "slowest µs",
        "target",
        "result",
        "icepool µs",
        "ours/ice",
        "exact check",
    ]
    table: list[list[str]] = []
    passed = judged = 0
    for row in rows:
        t, fam = row.timing, row.family
        _, worst = t.slowest()
        ok = worst / 1000 < fam.target_us
        if row.mode == "warm":
            verdict = "(pass)" if ok else "(FAIL)"
        else:
            judged += 1
            passed += ok
            verdict = "pass" if ok else "FAIL"
        if row.ice is not None:
            ice_cell = fmt_us(row.ice.median)
            ratio = f"{t.median / row.ice.median:.3g}×"
        else:
            ice_cell, ratio = "—", "—"
        table.append(
            [
                fam.name,
                fam.sweep,
                row.mode,
                f"{t.calls:,}",
                fmt_us(t.median),
                fmt_us(t.p95),
                fmt_us(worst),
                fmt_target(fam.target_us),
                verdict,
                ice_cell,
                ratio,
                row.check,
            ]
        )
    print(render(headers, table, right={3, 4, 5, 6, 9, 10}))
    print()
    print(
        "result: judged on the cold row — the slowest input's median time must be under"
        " the target; (…) on warm rows is for information only."
    )
    print(
        "cold: all odds caches cleared before every timed call · warm: lru_cache primed ·"
        " wound_odds has no cache. rr = re-rolls."
    )
    print(
        "icepool: median per call on the same inputs, built from scratch each call"
        " (icepool's own internal caches are left as they are); ours/ice uses the row's"
        " median."
    )
    print(
        "exact check: engine vs icepool compared as fractions.Fraction (hits/successes"
        " distribution; for Heroes without re-rolls also P(Fortune), P(Misfortune),"
        " P(Special)); every distribution must also sum to exactly 1. '—' rows: icepool"
        " cannot express the rule (" + "; ".join(_notes(rows)) + "), only Σ=1 is checked."
    )
    if icepool is not None:
        line = (
            "wound steps: icepool's explode() is DEPTH-LIMITED (the last maximum is kept"
            " unexploded). Depth per case = smallest k with (k+1)·sides + dice − 1 > 3·Health,"
            " so no truncated sum reaches a bucket boundary: P(0), P(1), P(2) are then"
            " exact and P(3+) too (truncation keeps the total at 1), and they are compared"
            " exactly, not within a tolerance."
        )
        if control is not None:
            line += (
                f" Control: one level shallower, icepool differs from the engine in"
                f" {control[0]}/{control[1]} cases (so the comparison does see truncation)."
            )
        print(line)
    else:
        print("icepool is not installed: comparisons skipped (pip install -e '.[test]').")
    print()
    print("slowest input per cold row:")
    for row in rows:
        if row.mode == "warm":
            continue
        i, worst = row.timing.slowest()
        label = row.family.label(row.family.inputs[i])
        print(
            f"  {row.family.name:<24} {fmt_us(worst):>8} µs  {label}"
            f"  ({row.timing.rounds} round(s))"
        )
    print()
    print(f"targets: {passed}/{judged} cold rows within target · wall time {elapsed:.1f} s")
    hero_task = next(r for r in rows if r.family.name == HERO_TASK and r.mode == "cold")
    if hero_task.ice is not None:  # issue 22: the Hero task, ours against icepool, cold
        faster = hero_task.ice.median / hero_task.timing.median
        print(f"{HERO_TASK}, cold: {faster:.1f}× faster than icepool (issue 22: ≥ 10×)")
        record("odds", f"{faster:.1f}× faster", faster >= 10)
    if problems:
        banner = "!" * 78
        print(banner)
        print(f"!!! PROBABILITY MISMATCH: {len(problems)} case(s) — the engine's exact odds differ")
        print(banner)
        for p in problems[:40]:
            print(f"  {p}")
        if len(problems) > 40:
            print(f"  … and {len(problems) - 40} more")
        print(banner)
        print(f"PROBABILITY MISMATCH in {len(problems)} case(s)", file=sys.stderr)
        return 1
    compared = sum(len(r.family.inputs) for r in rows if r.ice is not None and r.mode != "warm")
    print(f"probabilities: all {compared} icepool comparisons exact; every distribution sums to 1.")
    return 0


def _notes(rows: Sequence[Row]) -> list[str]:
    seen: list[str] = []
    for row in rows:
        if row.family.ice_note and row.family.ice_note not in seen:
            seen.append(row.family.ice_note)
    return seen


def _cpus() -> str:
    return str(os.cpu_count() or "?")


if __name__ == "__main__":
    sys.exit(main())
