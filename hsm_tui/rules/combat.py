"""Combat rules as pure functions (RULES.md §3–§6): no state, no I/O, injected RNG.

The encounter engine (``hsm_tui.campaign``) keeps the state and calls these; each
function states the rule id it implements and, where the rulebook is unclear, the
interpretation used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from .dice import Expression, parse
from .errors import RulesError
from .models import RangeBand, Rank, Rating, Traits, record
from .tasks import Modifier, TargetNumber

FIGHTING_STYLES = (Rating.WILD, Rating.POWER, Rating.AGILE)
SHOOTING = (Rating.PISTOLS, Rating.RIFLES, Rating.VEHICLE)


def range_penalty(weapon_range: RangeBand, band: RangeBand) -> int:
    """R-COMBAT-3: −1 per band beyond the weapon's listed range; no hard maximum."""
    return -max(0, int(band) - int(weapon_range))


def extra_action_penalty(actions: int) -> int:
    """R-ACT-3: with N > 2 actions every action that turn is at −(N − 2)."""
    return -max(0, actions - 2)


def max_actions(rank: Rank) -> int | None:
    """R-ACT-1/R-CHAR-8: Minions exactly 2; Heroes may declare more (no fixed cap)."""
    return 2 if rank is _MINION else None


_WILD, _POWER, _AGILE = FIGHTING_STYLES
_MINION, _SIDEKICK = Rank.MINION, Rank.SIDEKICK
"""Read for every attack and hit: plain names, as in :mod:`hsm_tui.campaign.encounter`."""


def attack_dice(style: Rating, traits: Traits, weapon_attacks: Expression | None) -> int:
    """R-ATK-1/2: the number of attack dice.

    Shooting uses the weapon's rate of fire; melee uses the fighting style: Wild
    Agility + 1, Power 1, Agile Agility. A melee weapon that prints its own attacks
    (the Whip: 1) uses that number with any style.
    """
    if style is _WILD and weapon_attacks is None:
        return traits.agility + 1
    if style is _POWER:
        return 1
    if style is _AGILE and weapon_attacks is None:
        return traits.agility
    if weapon_attacks is None:
        raise RulesError("a ranged weapon needs its attacks (rate of fire)")
    printed = weapon_attacks.fixed
    if printed is not None:  # most cards print a number: no look-up by the traits' hash
        return printed if printed > 1 else 1
    return _rate_of_fire(weapon_attacks, traits)


@lru_cache(maxsize=1024)
def _rate_of_fire(attacks: Expression, traits: Traits) -> int:
    """A card's attacks (``1+agility``) for one character; both are immutable."""
    count = attacks.resolve(traits.as_values()).constant()
    if count is None:
        raise RulesError(f"attacks {attacks.source!r} must be a number, not dice")
    return max(1, count)


def throw_damage(strength: int, bands_past_short: int) -> Expression:
    """R-ATK-1 Throw: Strength d6, −1 die per band past Short, minimum 1 die."""
    return parse(f"{max(1, strength - max(0, bands_past_short))}d6")


@record
class AttackSituation:
    """Everything beyond rating and range that changes an attack TN (R-ATK-2)."""

    wound_penalty: int = 0  # R-WOUND-3: −1 / −2
    condition_penalty: int = 0  # §8: Shaken −1, Encumbered −n, …
    actions_declared: int = 2  # R-ACT-3
    called_shot: bool = False  # R-ATK-10: −3 ranged, −2 melee
    melee: bool = False
    shooting_in_melee: Rating | None = None  # R-ATK-12: pistol −1, rifle −2
    size_difference: int = 0  # R-ATK-15: target size − attacker size
    other: int = 0  # GM's situational modifier


PLAIN = AttackSituation()
"""An attack with nothing beyond rating and range to change its TN."""


@lru_cache(maxsize=4096)  # a TN is immutable and every argument hashable: built once
def attack_tn(
    rating_name: str,
    rating: int,
    weapon_range: RangeBand,
    band: RangeBand,
    situation: AttackSituation = PLAIN,
) -> TargetNumber:
    """R-ATK-2 Interpretation: the attack TN is the rating plus every modifier, each
    labelled so the log can show how it was built.
    """
    s = situation
    mods = [
        Modifier(f"range {band.label}", range_penalty(weapon_range, band)),
        Modifier("wound", s.wound_penalty),
        Modifier("conditions", s.condition_penalty),
        Modifier(f"{s.actions_declared} actions", extra_action_penalty(s.actions_declared)),
        Modifier("called shot", (-2 if s.melee else -3) if s.called_shot else 0),
        Modifier(
            "shooting in melee",
            {Rating.PISTOLS: -1, Rating.RIFLES: -2}.get(s.shooting_in_melee, 0)
            if s.shooting_in_melee
            else 0,
        ),
        Modifier("size", s.size_difference),
        Modifier("situation", s.other),
    ]
    return TargetNumber((Modifier(rating_name, rating),)).plus(*mods)


SEVERELY = 3
"""A Hero's wound marker once severely wounded: −1, −2, then severe (R-WOUND-1)."""


def severely_wounded(wounds: int) -> bool:
    """R-WOUND-1: the marker has passed −2 (a severe wound, the chart rolled)."""
    return wounds >= SEVERELY


def wound_penalty(wounds: int) -> int:
    """R-WOUND-3: the marker's number applies to every TN (−1, then −2), once per roll."""
    if wounds <= 0:  # compared, not min() and max() (~1k instructions a call): every roll
        return 0
    return -wounds if wounds < 2 else -2


@record
class WoundResult:
    """What one hit's wound steps did to a target (R-DMG-2, R-WOUND-1/2/6)."""

    steps_taken: int  # markers actually moved
    wounds: int  # lethal marker after the hit (Heroes: 0..3, 3 = severely wounded)
    nonlethal: int  # non-lethal marker after the hit
    taken_out: bool  # Minion out (R-WOUND-2)
    severe: bool  # a Severe Wound chart roll is due (R-WOUND-1/5)
    unconscious: bool  # non-lethal past −2 (R-WOUND-6)
    overflow: int  # §7: how far the final step went past Health/Stamina


def apply_wound_steps(
    rank: Rank,
    steps: int,
    overflows: Sequence[int],
    wounds: int,
    nonlethal: int,
    lethal: bool = True,
) -> WoundResult:
    """Apply one hit's wound steps one at a time.

    Heroes (R-WOUND-1): clean → −1 → −2 → severely wounded; once severe, the rest of
    the hit is ignored; a wound while already severely wounded is another severe
    wound. Minions (R-WOUND-2): out on the first step. Non-lethal (R-WOUND-6): the
    marker continues from the lethal one; past −2 is unconscious, with no chart roll.
    """
    if steps <= 0:
        return WoundResult(0, wounds, nonlethal, False, False, False, 0)
    if rank is _MINION:
        return WoundResult(1, wounds, nonlethal, True, False, False, overflows[0])
    if rank is _SIDEKICK:
        raise RulesError("a Sidekick takes wounds as a Hero or a Minion: the GM picks (R-CHAR-8)")
    if not lethal:
        start = max(nonlethal, wounds)  # continues from the lethal marker
        taken = min(steps, SEVERELY - start)
        if taken <= 0:
            return WoundResult(0, wounds, nonlethal, False, False, True, 0)
        track = start + taken
        out = severely_wounded(track)  # past −2 non-lethal: unconscious (R-WOUND-6)
        return WoundResult(taken, wounds, track, False, False, out, overflows[taken - 1])
    if severely_wounded(wounds):  # already severely wounded: another severe wound
        return WoundResult(1, SEVERELY, nonlethal, False, True, False, overflows[0])
    taken = min(steps, SEVERELY - wounds)
    after = wounds + taken
    severe = severely_wounded(after)
    return WoundResult(taken, after, nonlethal, False, severe, False, overflows[taken - 1])


def severe_wound_modifier(overflow: int, earlier_severe: int) -> int:
    """§7: d10 + how far the final wound went past Health + 2 × earlier severe wounds."""
    return max(0, overflow) + 2 * earlier_severe


@dataclass(frozen=True)
class InitiativeRoll:
    """One turn-taker's initiative: a combatant or a group of same-type Minions."""

    actor: str
    side: str
    rank: Rank
    player: bool
    rating: int
    d10: int
    tiebreak: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return self.d10 + self.rating


_RANK_ORDER = {Rank.HERO: 0, Rank.SIDEKICK: 1, Rank.MINION: 2}


def initiative_key(roll: InitiativeRoll) -> tuple[int, int, bool]:
    """R-INIT-2's order before any tie-break d10: the higher total, then "Heroes first,
    Sidekicks second, Minions third", then "the player goes first".
    """
    return -roll.total, _RANK_ORDER[roll.rank], not roll.player


def initiative_order(rolls: Sequence[InitiativeRoll], rng: random.Random) -> list[InitiativeRoll]:
    """R-INIT-2: highest first; across sides Hero > Sidekick > Minion, then the player
    character. Interpretation: still tied across sides, the tied ones re-roll a d10 until
    every tie breaks; ties within one side keep the listed order (that side may swap).
    """
    out = list(rolls)
    standing: dict[tuple[int, int, bool], list[int]] = {}
    for i, roll in enumerate(out):
        standing.setdefault((roll.total, _RANK_ORDER[roll.rank], roll.player), []).append(i)
    for members in standing.values():
        if len({out[i].side for i in members}) > 1:
            draws = _distinct_d10s(rng, len(members))
            for i, draw in zip(members, draws, strict=True):
                out[i] = replace(out[i], tiebreak=(draw,))
    return sorted(out, key=lambda r: (*initiative_key(r), tuple(-t for t in r.tiebreak)))


def _distinct_d10s(rng: random.Random, count: int) -> list[int]:
    """Roll ``count`` d10s again and again until they all differ (count ≤ 10)."""
    if count > 10:
        raise RulesError("more than ten actors tied across sides: break the tie by hand")
    while True:
        draws = [rng.randint(1, 10) for _ in range(count)]
        if len(set(draws)) == count:
            return draws
