"""Fear on a target and what it brings after an attack (R-ATK-4, R-ATK-7, R-ATK-8,
R-FEAR-2), and the GM's Fear tokens.

"The Fear on a target is given to an individual, or a unit" (§5 Making an Attack).
Interpretation: a Minion unit (the same-type Minions acting on one turn, R-INIT-1) holds
its Fear as one, so every Fear token given to one of its figures (a hit, a hit through, a
card, a stray shot, the Fear die) is given to each of its standing figures, and after the
attack each of them may be Pinned in its cover (R-ATK-8) or panic (R-FEAR-2). A Fear die
that reaches several figures of one unit gives the unit the most any of them takes, once.
The GM splits a unit's Fear with :class:`SetFear` on one figure.
"""

from __future__ import annotations

import random

from ...packs import Catalog
from ...rules import Cover, Derived, Rank, RulesError
from ...rules.secret import secret
from ..encounter import Combatant, Encounter, evolve
from .commands import SetFear
from .outcome import AttackState, LogLines, Outcome

MAX_FEAR = 99

_MINION, _MORALE, _NO_COVER = Rank.MINION, Derived.MORALE, Cover.NONE
"""Read per figure after every attack: plain names, as in :mod:`..encounter`."""


def unit_of(enc: Encounter, c: Combatant) -> tuple[Combatant, ...]:
    """``c`` and the other standing figures of its Minion unit: who hold its Fear with it,
    and dive with it (R-ATK-5); a Hero or Sidekick alone."""
    return (c, *_rest_of_unit(enc, c))


def _rest_of_unit(enc: Encounter, c: Combatant, fear: int = 0) -> list[Combatant]:
    """The other standing figures of ``c``'s Minion unit (none for a Hero or Sidekick),
    each with ``fear`` more Fear tokens: one pass, as a forecast asks ~90 times a fight.
    """
    if c.rank is not _MINION:  # a Sidekick acts alone, whatever rules it plays by
        return []
    cid = c.id  # ``standing`` inlined below, as in Encounter.members
    rest = [m for m in enc.whole_group(c.group) if not (m.out or m.unconscious) and m.id != cid]
    return [evolve(m, fear=m.fear + fear) for m in rest] if fear else rest


def unit_key(c: Combatant) -> str:
    """Which unit ``c`` is of: its Minion unit's group, or ``c`` itself."""
    return c.group if c.rank is Rank.MINION else c.id


def give_fear(enc: Encounter, c: Combatant, amount: int) -> Encounter:
    """``amount`` Fear tokens to ``c`` and to the rest of its unit (:func:`spread_fear`'s
    one copy, written out: a forecast gives Fear after most attacks)."""
    return enc.with_combatants(evolve(c, fear=c.fear + amount), *_rest_of_unit(enc, c, amount))


def spread_fear(enc: Encounter, c: Combatant, amount: int) -> Encounter:
    """``c`` as it is now (it has had its own Fear) and ``amount`` Fear tokens to the
    rest of its unit, in one copy of the encounter.
    """
    return enc.with_combatants(c, *_rest_of_unit(enc, c, amount))


def fear_line(enc: Encounter, c: Combatant, amount: int, why: str = "", at: str = "") -> str:
    """Who gains ``amount`` Fear: the figure (``at`` a band), or with it the rest of its
    unit; ``why`` names the rule.
    """
    unit, who = len(unit_of(enc, c)), c.name + (f" ({at})" if at else "")
    if unit > 1:
        said = f"{who} and the rest of its unit ({unit} in all) gain {amount} Fear each"
    else:
        said = f"{who} gains {amount} Fear"
    return said + (f" ({why})" if why else "")


def unit_after_attack(
    enc: Encounter, target: Combatant, state: AttackState, shot: bool, spread: int = 0
) -> tuple[Encounter, list[str]]:
    """After an attack, for ``target`` and each figure of its unit, whose Fear rose as the
    target's did: R-ATK-8 Pinned in cover, after shooting ("After shooting is complete, if
    the target is behind cover…": a melee blow pins nobody); R-FEAR-2 a Minion reaching 2×
    Morale in one action (from its Fear before it) panics. ``spread``: Fear tokens the
    rest of the unit gains first (the target's hits through gave it its own,
    :func:`spread_fear`).

    The test is inline, not a call per figure: a forecast makes it ~100 times a fight, and
    most figures after most attacks are neither Pinned nor panic.
    """
    gained = target.fear - state.fear_before
    unit, lines = [target, *_rest_of_unit(enc, target, spread)], []
    for i, m in enumerate(unit):
        fear, marks, morale = m.fear, m.conditions, m.traits[_MORALE]
        pinned = shot and fear > morale and m.cover is not _NO_COVER and "pinned" not in marks
        minion = m.rank is _MINION or m.plays_as is _MINION
        panics = minion and fear - gained < 2 * morale <= fear and "panicked" not in marks
        if (pinned or panics) and not (m.out or m.unconscious):  # news only once (the marks)
            unit[i] = _pinned_or_panics(m, morale, pinned, panics, lines)
    if lines or spread:
        return enc.with_combatants(*unit), lines
    return enc.with_combatants(target), lines  # the rest of the unit as it was


def _pinned_or_panics(
    c: Combatant, morale: int, pinned: bool, panics: bool, lines: list[str]
) -> Combatant:
    """``c`` Pinned (R-ATK-8) and/or Panicked in place of Shaken (R-FEAR-2, §8), as
    :func:`unit_after_attack` found it, each said in ``lines``."""
    marks = set(c.conditions)
    if pinned:
        marks.add("pinned")
        shown = secret(morale, not c.player)
        lines.append(f"{c.name} is Pinned: Fear {c.fear} > Morale {shown} (R-ATK-8)")
    if panics:
        marks.add("panicked")
        marks.discard("shaken")
        lines.append(f"{c.name} panics: Fear {c.fear} ≥ 2 × Morale in one action (R-FEAR-2)")
    return evolve(c, conditions=tuple(sorted(marks)))


def set_fear(enc: Encounter, cmd: SetFear, _rng: random.Random, _cat: Catalog) -> Outcome:
    """The GM's Fear tokens on a figure, or on its whole unit (``unit``)."""
    c = enc.get(cmd.combatant)
    if not 0 <= cmd.fear <= MAX_FEAR:
        raise RulesError(f"Fear is 0 to {MAX_FEAR}")
    who = unit_of(enc, c) if cmd.unit else (c,)
    if all(m.fear == cmd.fear for m in who):
        raise RulesError(f"{c.name} already holds {cmd.fear} Fear")
    enc = enc.with_combatants(*(evolve(m, fear=cmd.fear) for m in who))
    unit = f" and the rest of its unit ({len(who)} in all)" if len(who) > 1 else ""
    title = f"{c.name}{unit}: Fear {cmd.fear} (the GM's tokens)"
    return Outcome(enc, (LogLines(title, ()),))
