"""§8 conditions: markers on a combatant and what they do at the start and end of its turn.

A condition is a plain string in ``Combatant.conditions`` (``"shaken"``); one with a
number carries it after a colon (``"dazed:2"``, ``"encumbered:1"``; a bleeding combatant's
Stamina tokens are ``"bleed-tokens:3"``), so saved encounters stay plain data.

Interpretations (RULES.md §8 names the conditions but not every edge):
- Every numeric penalty adds up (RULES.md): Shaken −1 and Encumbered −n apply to every TN,
  attacks and trait rolls alike; the wound marker applies once per roll (R-WOUND-3).
- Nauseated: before each roll a d10 against Stamina − 1; above it, that roll is at −1.
- Fatigued: a successful trait roll is rolled again to confirm (attacks are not trait
  rolls, so they are not confirmed).
- Pinned ends at the start of its turn when Fear is no longer above Morale (the rulebook
  gives no end; this mirrors how Pinned begins, R-ATK-8). Every Attack and every Move
  counts as exposing it to the shooters (the GM may clear the marker when it does not).
- Panicked rolls Morale at the end of each of its turns: success → Shaken.
- Bleeding past unconsciousness (Health tokens until it dies) is left to the GM: the
  marker stays and the log says so.
- Bleeding out (§7 row 15) puts a Health marker at the end of each of the Hero's turns;
  unconscious, its turns pass unplayed, and each one that passes is such an end. Markers
  equal to Health: dead. Clearing the condition (a Medical roll) stops it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from typing import Protocol

from ..rules import Derived, Modifier, Rank, RulesError, Trait, roll_task, task_odds
from ..rules.combat import wound_penalty
from ..rules.models import record
from ..rules.secret import secret
from ..rules.tasks import PoolRoll
from .encounter import Combatant, evolve


@dataclass(frozen=True)
class Condition:
    name: str
    leveled: bool
    text: str


CONDITIONS: dict[str, Condition] = {
    c.name: c
    for c in (
        Condition("shaken", False, "loses 1 action; −1 on all rolls; sheds 1 Fear at turn end"),
        Condition("panicked", False, "only Move, Run, Hide; Morale roll at turn end"),
        Condition("pinned", False, "Morale roll before an Attack or Move; failure loses it"),
        Condition("dazed", True, "loses n actions on its next turn"),
        Condition("confused", False, "Savvy + Senses − 1 each turn; failure: only Run/Hide"),
        Condition("encumbered", True, "−n to all rolls and movement"),
        Condition("fatigued", False, "a successful trait roll is rolled again to confirm"),
        Condition("bleeding", False, "Stamina roll each turn start; failure: a Stamina token"),
        Condition("nauseated", False, "d10 vs Stamina − 1 before each roll; failure: −1"),
        Condition("stunned", False, "no Run; stays put its first timed turn (chart 11)"),
        Condition("grappled", False, "held (R-ATK-17): breaking free costs an action"),
        Condition("lamed", False, "a limb hit by a called shot is useless (R-ATK-10)"),
        Condition("slowed", False, "stopped by a zone of control: no Run this turn"),
        Condition("parry", False, "a free re-roll on melee Defense: card or Advantage (R-ATK-9)"),
        Condition("steady", False, "a free re-roll on Morale rolls under fire: an Advantage"),
        Condition("quick-release", False, "the first of a Reload's two actions is free"),
        Condition("painful", False, "−1 on all rolls this encounter (chart 13, §7)"),
        Condition("dying", False, "bleeding out: a Health marker a turn; at Health, dead"),
    )
}
#: Markers the engine sets itself (actions, not conditions a GM applies).
ENGINE_MARKS = ("dodging", "full-defense", "standby")
TOKENS = "bleed-tokens"
HEALTH_MARKERS = "health-markers"
MARKERS = (*CONDITIONS, *ENGINE_MARKS, TOKENS, HEALTH_MARKERS)
"""Every marker a combatant may carry: the GM's conditions and the engine's own."""
LEVELED = frozenset({c.name for c in CONDITIONS.values() if c.leveled} | {TOKENS, HEALTH_MARKERS})
"""The markers that carry a number (``dazed:2``); the others are there or not."""
MAX_LEVEL = 9
"""The most a GM sets a counted condition to (Dazed 9 takes more actions than a turn has)."""


class Marked(Protocol):
    """What carries §8 markers: a combatant, or a party Hero between fights."""

    @property
    def conditions(self) -> tuple[str, ...]: ...


def level(c: Marked, name: str) -> int:
    """0 when absent; 1 for an unnumbered marker; n for ``name:n``."""
    if not c.conditions:  # most combatants, most of the time
        return 0
    return _level(c.conditions, name)


@lru_cache(maxsize=4096)
def _level(conditions: tuple[str, ...], name: str) -> int:
    """:func:`level` (the first marker of a name counts), read once per set of markers: a
    turn asks a combatant's several times over (penalties, Panicked, Pinned, Dazed …).
    A turn's start and end, and a roll's nausea, ask it straight (without a call to
    :func:`level`: they run for every member, every turn).
    """
    for mark in conditions:
        head, _, n = mark.partition(":")
        if head == name:
            return int(n) if n else 1
    return 0


def with_condition(c: Combatant, name: str, n: int = 1) -> Combatant:
    """Set (n ≥ 1) or clear (n = 0) a marker, keeping the others sorted."""
    kept = [m for m in c.conditions if m.partition(":")[0] != name]
    if n:
        kept.append(f"{name}:{n}" if name in LEVELED else name)
    return evolve(c, conditions=tuple(sorted(kept)))


def check_condition(name: str, n: int) -> Condition:
    info = CONDITIONS.get(name)
    if info is None:
        known = ", ".join(CONDITIONS)
        raise RulesError(f"unknown condition {name!r} (one of {known}; prone has its own key)")
    top = MAX_LEVEL if info.leveled else 1
    if not 0 <= n <= top:
        raise RulesError(f"{name} is set 0 (clear) to {top}, not {n}")
    return info


_HERO, _SIDEKICK, _MORALE = Rank.HERO, Rank.SIDEKICK, Derived.MORALE
"""Read for every roll of a wounded figure, every turn's start and end with a marker:
plain names, as in :mod:`.encounter`."""


def wound_marker(c: Combatant) -> int:
    """R-WOUND-3: a Hero's marker (the furthest of lethal and non-lethal, R-WOUND-6) on
    every TN it rolls; Minions and Sidekicks under Minion rules (or not yet decided,
    R-CHAR-8) have none.
    """
    if c.wounds <= 0 and c.nonlethal <= 0:  # unwounded: most combatants, most of the time
        return 0
    hero = (c.plays_as if c.rank is _SIDEKICK else c.rank) is _HERO
    worst = c.wounds if c.wounds > c.nonlethal else c.nonlethal  # max(), uncalled
    return wound_penalty(worst) if hero else 0


def penalty(c: Marked) -> int:
    """§8 penalties on every roll: Shaken −1, Encumbered −n, and §7's Painful wound −1
    for the rest of the encounter (they add up).
    """
    if not c.conditions:
        return 0
    return _penalty(c.conditions)


@lru_cache(maxsize=1024)
def _penalty(conditions: tuple[str, ...]) -> int:
    """:func:`penalty`, added up once per set of markers: every attack and Defense asks."""
    return -(
        _level(conditions, "shaken")
        + _level(conditions, "encumbered")
        + _level(conditions, "painful")
    )


def nausea(c: Combatant, rng: random.Random) -> tuple[int, str]:
    """Nauseated: a d10 against Stamina − 1 before the roll; above it, −1."""
    if not (c.conditions and _level(c.conditions, "nauseated")):  # every roll asks
        return 0, ""
    return nausea_roll(c.traits[Derived.STAMINA], rng, not c.player)


def nausea_roll(stamina: int, rng: random.Random, hide: bool = False) -> tuple[int, str]:
    """§8 Nauseated: "Every time the character rolls a Task, it also rolls a single d10
    against Stamina (-1)": the TN's change (0 or −1) and the log note (``hide``: the
    Stamina is the GM's).
    """
    d10, limit = rng.randint(1, 10), stamina - 1
    if d10 <= limit:
        return 0, f"nausea d10 {d10} {secret('≤', hide, 'vs')} {secret(limit, hide)}: no effect"
    return -1, f"nausea d10 {d10} {secret('>', hide, 'vs')} {secret(limit, hide)}: −1"


def nausea_holds(stamina: int) -> Fraction:
    """Exact chance the nausea d10 is at most Stamina − 1 (no −1 on the task)."""
    return Fraction(min(10, max(0, stamina - 1)), 10)


def afflicted_success(
    tn: int, rank: Rank, rerolls: int, nausea: Fraction | None, fatigued: bool
) -> Fraction:
    """Exact chance a task succeeds for a roller who is Nauseated (``nausea``: the chance
    its d10 holds, else None: the TN is 1 lower otherwise) and/or Fatigued (a first
    success is rolled again to confirm and the re-rolls then serve the confirmation; a
    first failure may be re-rolled as usual, §8).
    """

    def at(t: int) -> Fraction:
        first, best = task_odds(t, rank).success, task_odds(t, rank, rerolls).success
        return first * best + best - first if fatigued else best

    return at(tn) if nausea is None else nausea * at(tn) + (1 - nausea) * at(tn - 1)


WHEN_MOVED = {"painful-wound": "painful"}
"""§7 rows that, once their encounter is over, take 1 off a TN on a turn the Hero moved
(content's chart: Painful wound, "After this encounter, Target numbers are at −1 if the
character moved during the same turn as taking the action"), by the marker that takes 1
off every TN while the encounter lasts (so the two never add up)."""


def moved_penalty(
    chart: Iterable[str], conditions: Iterable[str], moved: bool
) -> tuple[Modifier, ...]:
    """:data:`WHEN_MOVED`: a TN's −1 for a carried row, on a turn the Hero ``moved``."""
    if not moved:
        return ()
    marks = {m.partition(":")[0] for m in conditions}
    return tuple(
        Modifier(f"{row}, moved", -1)
        for row, marker in WHEN_MOVED.items()
        if row in chart and marker not in marks
    )


def trait_tn(c: Combatant, base: int) -> int:
    """A trait roll's TN in combat before nausea's −1 (rolled per roll): ``base`` with the
    wound marker (Heroes, R-WOUND-3) and the §8 penalties."""
    return base + wound_marker(c) + penalty(c)


def trait_roll(
    c: Combatant, base: int, label: str, rng: random.Random
) -> tuple[PoolRoll, bool, str]:
    """A trait roll in combat (Morale, Stamina …) with the wound marker (Heroes), §8
    penalties, nausea and the Fatigued confirmation; returns the roll that stands (the
    confirmation, when made), success, a line.
    """
    roll, line = _trait_roll(c, base, label, rng)
    return roll, roll.success, line()


def _trait_roll(
    c: Combatant, base: int, label: str, rng: random.Random
) -> tuple[PoolRoll, Callable[[], str]]:
    """:func:`trait_roll` with its line still to write: a forecast rolls some 18 Panicked
    Morale rolls a fight (:func:`panic_check`) and reads no log.
    """
    rank = c.rank  # ``rules_rank`` asked only of a Sidekick (a property call a roll)
    if rank is _SIDEKICK:
        rank = c.rules_rank
    sick, note = nausea(c, rng)
    tn = trait_tn(c, base) + sick
    first = roll = roll_task(rng, tn, rank)
    if roll.success and level(c, "fatigued"):
        roll = roll_task(rng, tn, rank)
    return roll, partial(_trait_line, label, first, roll, note, not c.player)


def _trait_line(label: str, first: PoolRoll, roll: PoolRoll, note: str, hide: bool) -> str:
    """A trait roll's line: the roll, its nausea note, and a Fatigued confirmation."""
    line = f"{label} roll: {first.explain(hide)}" + (f" ({note})" if note else "")
    if roll is not first:
        line += f"; Fatigued, confirm: {roll.explain(hide)}"
    return line


@record
class TurnStart:
    combatant: Combatant
    lost: int  # actions lost (Dazed)
    restricted: bool  # Confused and failed: only Run and/or Hide this turn
    lines: tuple[str, ...]
    paused: tuple[str, PoolRoll] | None = None
    """A fresh roll the roller may want to re-roll first (its name, the roll): the turn's
    start stops there, and ``combatant`` is not to be kept."""
    fresh: tuple[tuple[str, PoolRoll, str], ...] = ()
    """The rolls made here that stand (name, roll, line): a start made again after a
    question takes them as made, so each is rolled once."""


Rolled = dict[str, tuple[PoolRoll, str]]
"""Rolls a turn's start has made already, by name ("bleeding", "confused"), re-rolls spent."""

TURN_ROLLS = {"bleeding": "Bleeding: Stamina", "confused": "Confused: Savvy + Senses − 1"}
"""The trait rolls a turn's start makes (§8), by name, with the label their line gives."""


def start_of_turn(
    c: Combatant,
    rng: random.Random,
    rolled: Rolled | None = None,
    asks: Callable[[Combatant, str, PoolRoll], bool] | None = None,
) -> TurnStart:
    """Dazed, Bleeding, Confused and Pinned at the start of the turn (§8). A roll in
    ``rolled`` is taken as made; a fresh one that ``asks`` says the roller may re-roll
    stops here (``TurnStart.paused``), to start again with it once re-rolled (R-TASK-6).
    """
    marks = _turn_marks(c.conditions) if c.conditions else None
    if marks is None:  # no marker, or only others (Shaken, Panicked …): most turns
        return TurnStart(c, 0, False, ())
    dazed, bleeding, confused, pinned = marks
    made = rolled or {}
    lines: list[str] = []
    lost, restricted = 0, False
    fresh: list[tuple[str, PoolRoll, str]] = []

    def roll(name: str, base: int) -> tuple[PoolRoll, str, bool]:
        if name in made:
            return (*made[name], False)
        new, _, line = trait_roll(c, base, TURN_ROLLS[name], rng)
        if asks is not None and asks(c, name, new):
            return new, line, True
        fresh.append((name, new, line))
        return new, line, False

    if dazed:
        lost = dazed
        c = with_condition(c, "dazed", 0)
        lines.append(f"Dazed: loses {dazed} action(s)")
    if bleeding:
        tokens, stamina = level(c, TOKENS), c.traits[Derived.STAMINA]
        bled, line, ask = roll("bleeding", stamina)
        lines.append(line)
        if ask:
            return TurnStart(c, lost, restricted, tuple(lines), ("bleeding", bled), tuple(fresh))
        if bled.success:
            c = with_condition(with_condition(c, "bleeding", 0), TOKENS, 0)
            lines.append("the bleeding stops")
        elif tokens >= stamina:
            lines.append("still bleeding with Stamina spent: Health tokens are the GM's call")
        else:
            c = with_condition(c, TOKENS, tokens + 1)
            if tokens + 1 >= stamina:
                c = evolve(c, unconscious=True)
                lines.append(f"{tokens + 1} Stamina tokens = Stamina: unconscious")
            else:
                of = secret(stamina, not c.player)
                lines.append(f"a Stamina token ({tokens + 1} of {of})")
    if confused and c.standing:
        base = c.traits[Trait.SAVVY] + c.traits[Trait.SENSES] - 1
        sane, line, ask = roll("confused", base)
        lines.append(line)
        if ask:
            return TurnStart(c, lost, restricted, tuple(lines), ("confused", sane), tuple(fresh))
        restricted = not sane.success
        if restricted:
            lines.append("only Run and/or Hide this turn")
    morale = c.traits[_MORALE]
    if pinned and c.fear <= morale:
        c = with_condition(c, "pinned", 0)
        lines.append(f"no longer Pinned (Fear {c.fear} ≤ Morale {secret(morale, not c.player)})")
    return TurnStart(c, lost, restricted, tuple(lines))


@lru_cache(maxsize=1024)
def _turn_marks(conditions: tuple[str, ...]) -> tuple[int, int, int, int] | None:
    """The Dazed, Bleeding, Confused and Pinned levels :func:`start_of_turn` acts on (None:
    none of them), read in one look-up per set of markers: a turn's start asks for every
    member holding a marker. Settling one leaves the others' levels as they were.
    """
    dazed, bleeding = _level(conditions, "dazed"), _level(conditions, "bleeding")
    confused, pinned = _level(conditions, "confused"), _level(conditions, "pinned")
    return (dazed, bleeding, confused, pinned) if dazed or bleeding or confused or pinned else None


def bleed_out(c: Combatant) -> tuple[Combatant, str]:
    """§7 row 15: one more Health marker at the end of its turn; markers = Health, dead."""
    if c.out or not (c.conditions and _level(c.conditions, "dying")):  # every turn's end
        return c, ""
    n, health = level(c, HEALTH_MARKERS) + 1, c.traits[Derived.HEALTH]
    c = with_condition(c, HEALTH_MARKERS, n)
    if n >= health:
        return evolve(c, out=True), f"{c.name} bleeds out: {n} Health markers = Health: dead (§7)"
    of = secret(health, not c.player)
    return c, f"{c.name} is bleeding out: Health marker {n} of {of} (a Medical roll stops it)"


PANICKED = "Panicked: Morale"
"""The label of Panicked's Morale roll at the end of its turn (§8)."""


def panic_roll(c: Combatant, rng: random.Random) -> tuple[PoolRoll, str]:
    """Panicked's Morale roll at the end of its turn, and its line."""
    roll, _, line = trait_roll(c, c.traits[_MORALE], PANICKED, rng)
    return roll, line


def panic_check(
    c: Combatant, rng: random.Random, rolled: tuple[PoolRoll, str] | None = None
) -> tuple[Combatant, str | Callable[[], str]]:
    """Panicked: a Morale roll at the end of its turn (``rolled``: made and re-rolled
    already); success → Shaken instead. The line ("" when none) may be a function that
    writes it, as a log entry takes it (``outcome.Line``), for the log a forecast never reads.
    """
    if not (c.conditions and _level(c.conditions, "panicked")) or not c.standing:
        return c, ""
    if rolled is None:
        roll, line = _trait_roll(c, c.traits[_MORALE], PANICKED, rng)
    else:
        roll, line = rolled
    if roll.success:
        c = with_condition(with_condition(c, "panicked", 0), "shaken")
        return c, partial(_panic_line, c.name, line, "calms down to Shaken")
    return c, partial(_panic_line, c.name, line, "still Panicked")


def _panic_line(name: str, line: str | Callable[[], str], then: str) -> str:
    return f"{name}: {line if isinstance(line, str) else line()}: {then}"
