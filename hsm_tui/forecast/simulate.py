"""Encounter forecasts: play N fights of an encounter file
(:mod:`hsm_tui.persistence.encounter_file`) with a simple policy and report the outcomes.

Both sides follow the same documented policy (:func:`_act`); fights are independent and
seeded, so a forecast is reproducible. The engine's handlers are called directly: a
forecast needs no undo.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import Any

from ..campaign.combat import (
    HANDLERS,
    AnswerDive,
    Attack,
    ChooseChartRow,
    EndTurn,
    Move,
    Outcome,
    PendingChartChoice,
    PendingCombatRerolls,
    PendingDive,
    SpendCombatRerolls,
    StartCombat,
    answer_dive,
    choose_chart_row,
    spend_combat_rerolls,
    weapon_style,
)
from ..campaign.combat.turns import condition_refusal
from ..campaign.encounter import Combatant, Encounter, Turn, WeaponState
from ..packs import Catalog, Weapon
from ..persistence.encounter_file import EncounterSpec, prepare
from ..rules import Cover, RangeBand, Rank, RulesError, attack_odds
from ..rules.combat import attack_dice, range_penalty
from ..rules.odds import suggest_split
from .reach import NoReach, unreached, zone_bound

MAX_ROUNDS = 30


def setup(
    spec: EncounterSpec, catalog: Catalog, rng: random.Random, prepared: Encounter | None = None
) -> Encounter:
    """Build the encounter the file describes (or take it ``prepared``) and start combat
    (initiative rolled: the first die the fight's ``rng`` rolls).
    """
    enc = prepare(spec, catalog) if prepared is None else prepared
    return HANDLERS[StartCombat](enc, StartCombat(), rng, catalog).encounter


@dataclass
class FightResult:
    winner: str | None  # None: draw after MAX_ROUNDS
    rounds: int
    wounds: dict[str, int] = field(default_factory=dict)  # wound steps taken per side
    out: dict[str, int] = field(default_factory=dict)  # out or unconscious per side


def fight(
    spec: EncounterSpec,
    catalog: Catalog,
    rng: random.Random,
    prepared: Encounter | None = None,
    odds: dict[tuple[Any, ...], float] | None = None,
) -> FightResult:
    """One fight to the end (a side with nobody standing) or MAX_ROUNDS. Wound steps
    are counted as they are taken (see :func:`wound_steps`). ``prepared`` (from
    :func:`prepare`) and ``odds`` (the policy's priced attacks) may be shared by every
    fight of one forecast: neither changes what a fight does, only how fast.
    """
    enc = setup(spec, catalog, rng, prepared)
    odds = {} if odds is None else odds
    count = _Count(enc)
    while enc.round <= MAX_ROUNDS and sum(map(bool, count.standing.values())) > 1:
        for member in enc.members(enc.turn.actor):  # type: ignore[union-attr]
            enc = count.take(enc, _act(enc, member.id, catalog, rng, odds, count))
        enc = count.take(enc, _apply(enc, _END_TURN, rng, catalog))  # Luck
    standing = {c.side for c in enc.combatants if c.standing}
    result = FightResult(
        next(iter(standing)) if len(standing) == 1 else None,
        min(enc.round, MAX_ROUNDS),
        count.wounds,
    )
    for c in enc.combatants:
        result.out[c.side] = result.out.get(c.side, 0) + (not c.standing)
    return result


_HARM = attrgetter("wounds", "nonlethal", "severe", "out", "unconscious")
"""Every field :func:`wound_steps` and standing read: a combatant equal in these took no
step and still stands as it did (:meth:`_Count.take` skips it). Keep the two together."""


def wound_steps(before: Combatant, after: Combatant) -> int:
    """Wound steps one combatant took between two states of the fight (R-DMG-2).

    A Minion (or a Sidekick played as one) taken out took its one wound (R-WOUND-2),
    although its marker never moves. A Hero's steps to −1 and −2 move the marker; every
    severe wound, the step onto it or one taken while already on it, is counted once
    (R-WOUND-1). Non-lethal steps count too: they move their own marker on from the
    lethal one (R-WOUND-6).
    """
    if after is before:
        return 0
    if before.rules_rank is _MINION:
        return int(after.out and not before.out)
    lethal = max(0, min(after.wounds, 2) - min(before.wounds, 2))
    severe = max(0, after.severe - before.severe)
    nonlethal = 0
    if after.nonlethal > before.nonlethal:
        nonlethal = max(0, after.nonlethal - max(before.nonlethal, before.wounds))
    return lethal + severe + nonlethal


def _standing(enc: Encounter) -> dict[str, int]:
    """How many stand on each side."""
    standing = dict.fromkeys((c.side for c in enc.combatants), 0)
    for c in enc.combatants:
        standing[c.side] += c.standing
    return standing


class _Count:
    """A fight's running count, brought up to date from each outcome (:meth:`take`) so
    that nothing is counted anew per action: wound steps taken and figures standing per
    side, and the targets each side has (the policy asks at every action; they change
    only when someone falls or moves).
    """

    def __init__(self, enc: Encounter) -> None:
        self.wounds = dict.fromkeys((c.side for c in enc.combatants), 0)
        self.standing = _standing(enc)
        self._targets: dict[str, tuple[list[tuple[str, str]], dict[tuple[bool, str], str]]] = {}

    def targets(
        self, enc: Encounter, side: str
    ) -> tuple[list[tuple[str, str]], dict[tuple[bool, str], str]]:
        """Everyone standing against ``side`` as (id, zone), in table order, and each
        zone's first of them: the places an attacker engaged with none of them sees.
        """
        found = self._targets.get(side)
        if found is None:
            targets = []  # a plain loop, ``standing`` inlined: asked again at every fall
            for c in enc.combatants:
                if c.side != side and not (c.out or c.unconscious):
                    targets.append((c.id, c.zone))
            places: dict[tuple[bool, str], str] = {}
            for target, zone in targets:
                places.setdefault((False, zone), target)
            found = self._targets[side] = (targets, places)
        return found

    def take(self, before: Encounter, after: Encounter) -> Encounter:
        """``after``, having added the wound steps taken since ``before`` to each side's
        count and brought the standing and the targets up to date.
        """
        was, now = before.combatants, after.combatants
        if was is now:  # nobody changed (only the turn, say)
            return after
        pairs, moved = [], len(was) != len(now)
        if not moved:  # the usual case: everyone where they were, a few changed
            for a, b in zip(was, now, strict=True):  # a loop: ~20,000 calls a forecast
                if a is not b:
                    pairs.append((a, b))
                    moved = moved or a.id != b.id
        if moved:
            then = {c.id: c for c in was}
            pairs = [(then[c.id], c) for c in now if c.id in then]
        wounds, standing = self.wounds, self.standing
        for then_c, c in pairs:
            if then_c.zone != c.zone:
                self._targets.clear()
            if _HARM(then_c) == _HARM(c):  # Fear, cover, weapons …: nothing to count
                continue
            wounds[c.side] = wounds.get(c.side, 0) + wound_steps(then_c, c)
            change = (then_c.out or then_c.unconscious) - (c.out or c.unconscious)
            if change:  # one more (1) or one fewer (-1) standing: ``standing`` inlined
                standing[c.side] += change
                self._targets.clear()
        if moved:  # someone joined or left: counted afresh
            standing.clear()
            standing.update(_standing(after))
            self._targets.clear()
        return after


def _act(
    enc: Encounter,
    cid: str,
    catalog: Catalog,
    rng: random.Random,
    odds: dict[tuple[Any, ...], float],
    count: _Count,
) -> Encounter:
    """The policy, the same for both sides.

    - Attack the standing enemy and weapon with the best chance of at least one hit
      (exact odds), firing only with enough charges.
    - With no attack possible, close in: Move+Run to an enemy's zone within one band.
    - A target hit by a ranged attack while in the open dives into light cover (the
      scene is assumed to have cover within Short range); on a 13 the chart row is
      picked at random.
    - Re-rolls: free ones (Aim, Dodge) are always used; one Luck point is added only when
      the roll would otherwise flip against the roller (an attack with no hit, a Defense
      letting a hit through). Clues are kept for investigation.
    """
    me = enc.get(cid)
    if me.out or me.unconscious:  # ``standing`` inlined, as below: asked at every action
        return enc
    best = _best_attack(enc, me, catalog, odds, count.targets(enc, me.side))
    if best is None:
        return _close_in(enc, me, catalog, rng)
    turn: Turn = enc.turn  # type: ignore[assignment]  # under way: the fight's loop
    if condition_refusal(turn, me, "attack"):  # refused before any die: not worth planning
        return enc
    return _apply(enc, _attack(me.id, best[0], best[1]), rng, catalog)


def _best_attack(
    enc: Encounter,
    me: Combatant,
    catalog: Catalog,
    priced: dict[tuple[Any, ...], float],
    targets: tuple[list[tuple[str, str]], dict[tuple[bool, str], str]],
) -> tuple[str, str] | None:
    """The (target, weapon) with the best chance of at least one hit, the first such
    target in table order (``targets``: :meth:`_Count.targets`) and its first such weapon;
    odds depend only on the attacker, weapon, charges, band and sharing a zone (melee), so
    each such case is priced once in ``priced`` (kept for a whole forecast: a combatant's
    id stands for the same ratings in every fight of it).
    """
    everyone, firsts = targets  # each place's first enemy: it gets the pick
    engaged = me.engaged
    if engaged:  # those it is locked in melee with are a place of their own
        firsts = {}
        for target, zone in everyone:
            firsts.setdefault((target in engaged, zone), target)
    best, best_p = None, -1.0  # -1: impossible (see _chance)
    here, weapons = me.zone, me.weapons
    if me.destroyed:  # §7 row 6: a weapon that no longer works is never picked
        weapons = tuple(w for w in weapons if w.id not in me.destroyed)
    for (melee, zone), target_id in firsts.items():  # every target there gets the same chance
        band = enc.band_from(melee, here, zone)
        near = zone == here
        for state in weapons:  # one loop over places and weapons: ~75 places a fight
            key = (me.id, state.id, state.charges, band, near)
            p = priced.get(key)
            if p is None:
                p = priced[key] = _chance(me, state, catalog.weapons[state.id], band, zone)
            if p > best_p:
                best, best_p = (target_id, state.id), p
    return best


def _chance(me: Combatant, state: WeaponState, weapon: Weapon, band: RangeBand, zone: str) -> float:
    """P(≥ 1 hit) by the rating and range alone (the policy's estimate); −1 if impossible."""
    style = weapon_style(weapon)
    if zone_bound(weapon) and me.zone != zone:
        return -1.0
    dice = attack_dice(style, me.traits, weapon.attacks)
    if state.charges is not None and state.charges < dice * weapon.charge_per_shot:
        return -1.0
    tn = me.ratings[style] + range_penalty(weapon.range, band)
    return float(attack_odds(tn, dice, me.rules_rank).success)


def _close_in(enc: Encounter, me: Combatant, catalog: Catalog, rng: random.Random) -> Encounter:
    enemy_zones = {c.zone for c in enc.combatants if c.side != me.side and c.standing}
    for zone in sorted(enemy_zones):
        if zone != me.zone and enc.zone_band(me.zone, zone) <= RangeBand.SHORT:
            try:
                return _apply(enc, Move(me.id, zone, run=True), rng, catalog)
            except RulesError:
                continue
    return enc


def never_reach(spec: EncounterSpec, catalog: Catalog) -> tuple[NoReach, ...]:
    """Each side of the file's encounter that can never hit another under the policy
    (:func:`_act`), and why: :func:`hsm_tui.forecast.reach.unreached` on it before combat starts.
    """
    return unreached(prepare(spec, catalog), catalog)


def nobody_reaches(spec: EncounterSpec, unreached: tuple[NoReach, ...]) -> bool:
    """No side can reach any other (see :func:`never_reach`): every fight would be a
    draw after MAX_ROUNDS with nobody hurt, so there is nothing to forecast.
    """
    sides = len({c["side"] for c in spec.combatants})
    return sides > 1 and len(unreached) == sides * (sides - 1)


def _luck_policy(pending: PendingCombatRerolls) -> SpendCombatRerolls:
    flips = pending.roll.successes == 0 if pending.stage != "defense" else True
    count = pending.free + (1 if flips and pending.luck else 0)
    return _spend(*suggest_split(pending.roll, count)) if count else _spend(0, 0)


_NO_COVER, _MINION = Cover.NONE, Rank.MINION  # see encounter's _SIDEKICK
_END_TURN, _DIVE, _STAY = EndTurn(), AnswerDive("light"), AnswerDive("none")
_attack, _spend = lru_cache(4096)(Attack), lru_cache(256)(SpendCombatRerolls)
"""The policy's commands and answers, each made once (the few fixed ones) or kept once
made (a command is a frozen record, and making one costs some 20 look-ups): a fight gives
some 70 fixed ones, 40 attacks and 20 re-roll answers."""


def _apply(enc: Encounter, command: Any, rng: random.Random, catalog: Catalog) -> Encounter:
    try:
        outcome: Outcome = HANDLERS[type(command)](enc, command, rng, catalog)
    except RulesError:
        return enc
    while outcome.pending is not None:
        pending = outcome.pending
        if isinstance(pending, PendingDive):
            target = outcome.encounter.get(pending.attack.target)
            dive = _DIVE if target.cover is _NO_COVER else _STAY
            outcome = answer_dive(outcome.encounter, dive, pending, rng, catalog)
        elif isinstance(pending, PendingChartChoice):
            outcome = choose_chart_row(
                outcome.encounter, ChooseChartRow(rng.choice(pending.rows)), pending, rng, catalog
            )
        elif isinstance(pending, PendingCombatRerolls):
            outcome = spend_combat_rerolls(
                outcome.encounter, _luck_policy(pending), pending, rng, catalog
            )
        else:  # PendingSidekick cannot arise after setup
            raise RulesError(pending.question)
    return outcome.encounter


@dataclass(frozen=True)
class Forecast:
    """What ``runs`` fights came to, per side: the share won, and the means per fight
    of the wound steps taken (:func:`wound_steps`) and of the combatants out of the
    fight (taken out or unconscious, whatever the cause).
    """

    runs: int
    wins: dict[str, float]
    draws: float
    rounds: dict[str, float]
    wounds: dict[str, float]
    out: dict[str, float]
    never_reach: tuple[NoReach, ...] = ()
    """Sides that could not hit another side in any of the fights, and why."""

    @property
    def harmless(self) -> bool:
        """Nobody was wounded or out of the fight in any fight: every one a draw."""
        return not any(self.wounds.values()) and not any(self.out.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "wins": self.wins,
            "draws": self.draws,
            "rounds": self.rounds,
            "wounds_per_fight": self.wounds,
            "out_per_fight": self.out,
            "never_reach": [n.as_dict() for n in self.never_reach],
        }


Chunks = Callable[[EncounterSpec, Catalog, int, list[range]], Iterator[list[FightResult]]]
"""Plays chunks of fights (:func:`fights` of each) and yields their results in order."""


def forecast(
    spec: EncounterSpec,
    catalog: Catalog,
    runs: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    play: Chunks | None = None,
) -> Forecast:
    """Play ``runs`` fights, CHUNK at a time, here or as ``play`` plays them (in worker
    processes: :mod:`hsm_tui.forecast.fight_pool`); fight i uses Random(f"{seed}:{i}"), so the
    result is the same wherever the fights are played, and any single fight can be
    replayed. ``progress`` may raise to stop: ``play`` is closed, its chunks dropped.
    """
    chunks = [range(start, min(runs, start + CHUNK)) for start in range(0, runs, CHUNK)]
    results: list[FightResult] = []
    with closing((play or _here)(spec, catalog, seed, chunks)) as played:
        for chunk in played:
            results += chunk
            if progress:
                progress(len(results))
    return _summary(spec, results, never_reach(spec, catalog))


CHUNK = 50


def _here(
    spec: EncounterSpec, catalog: Catalog, seed: int, chunks: list[range]
) -> Iterator[list[FightResult]]:
    for chunk in chunks:
        yield fights(spec, catalog, seed, chunk)


def fights(spec: EncounterSpec, catalog: Catalog, seed: int, indices: range) -> list[FightResult]:
    """The fights of ``indices``, each from its own seed (a worker process's task)."""
    prepared, odds = prepare(spec, catalog), {}
    return [fight(spec, catalog, random.Random(f"{seed}:{i}"), prepared, odds) for i in indices]


def _summary(
    spec: EncounterSpec, results: list[FightResult], unreached: tuple[NoReach, ...] = ()
) -> Forecast:
    runs = len(results)
    sides = sorted({c["side"] for c in spec.combatants})
    rounds = [r.rounds for r in results]
    return Forecast(
        runs=runs,
        wins={s: sum(r.winner == s for r in results) / runs for s in sides},
        draws=sum(r.winner is None for r in results) / runs,
        rounds={"mean": statistics.fmean(rounds), "min": min(rounds), "max": max(rounds)},
        wounds={s: statistics.fmean(r.wounds.get(s, 0) for r in results) for s in sides},
        out={s: statistics.fmean(r.out.get(s, 0) for r in results) for s in sides},
        never_reach=unreached,
    )
