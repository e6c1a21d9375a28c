"""The Severe Wound chart (§7, R-WOUND-5): its exact odds, the roll with its grip check,
and a row applied (a 13 pauses for the GM's pick between two rows).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...packs import Catalog, SevereWound
from ...rules import Cover, Derived
from ...rules.combat import severe_wound_modifier
from ...rules.dice import roll
from ...rules.tasks import PoolRoll
from ..conditions import CONDITIONS, trait_roll, with_condition
from ..countdowns import MAX_TURNS, with_countdown
from ..encounter import Combatant, evolve
from .equipment import destroy_at_random
from .gear import edit_weapon, held_weapon
from .outcome import Pending, PendingChartChoice


@dataclass(frozen=True)
class RowOdds:
    """One chart row's exact chance; ``shared`` when its total also names another row
    (the erratum's 13): the chance is the total's, and the GM picks between them."""

    row: SevereWound
    chance: Fraction
    shared: bool


def chart_odds(chart: Sequence[SevereWound], modifier: int) -> tuple[RowOdds, ...]:
    """Exact odds of every row for d10 + ``modifier`` (a d10 is uniform: 1/10 a face).

    Rows that share a total are not split: each shows the whole chance of that total.
    """
    odds = []
    for row in chart:
        faces = [d for d in range(1, 11) if row.covers(d + modifier)]
        shared = any(
            other is not row and other.covers(d + modifier) for d in faces for other in chart
        )
        odds.append(RowOdds(row, Fraction(len(faces), 10), shared))
    return tuple(odds)


GRIP = "Stamina"
"""The grip roll's label in the log (R-WOUND-5)."""


def grip_roll(target: Combatant, rng: random.Random) -> tuple[PoolRoll, str] | None:
    """R-WOUND-5: the Stamina roll to keep hold of the weapon in hand, and its line (None:
    nothing in hand)."""
    if held_weapon(target) is None:
        return None
    roll, _, line = trait_roll(target, target.traits[Derived.STAMINA], GRIP, rng)
    return roll, line


def grip_result(
    target: Combatant, roll: PoolRoll, line: str, cat: Catalog
) -> tuple[Combatant, str]:
    """The grip roll as it stands: the weapon in hand kept, or dropped."""
    held = held_weapon(target)
    assert held is not None  # a grip roll is made only with a weapon in hand
    name = cat.weapons[held.id].name if held.id in cat.weapons else held.id
    text = f"{line}: {'keeps hold of' if roll.success else 'drops'} {name} (R-WOUND-5)"
    return (target if roll.success else edit_weapon(target, held.id, dropped=True)), text


def chart_roll(
    target: Combatant, overflow: int, rng: random.Random, cat: Catalog
) -> tuple[Combatant, list[str], Pending | None]:
    """§7: the chart's d10 + overflow + 2 × earlier severe wounds, Prone, and the row (or
    the GM's pick between two)."""
    d10 = rng.randint(1, 10)
    total = d10 + severe_wound_modifier(overflow, target.severe)
    rows = cat.chart_rows(total)
    line = (
        f"Severe Wound chart: d10 {d10} + {overflow} past Health"
        f" + 2×{target.severe} earlier = {total}"
    )
    target = evolve(target, prone=True, severe=target.severe + 1)
    if len(rows) > 1:
        question = f"{target.name} rolled {total} on the Severe Wound chart: which result?"
        return (
            target,
            [line],
            PendingChartChoice(
                target.id,
                total,
                tuple(r.id for r in rows),
                question,
                names=tuple(f"{r.name}: {r.text}" for r in rows),
            ),
        )
    if not rows:
        return target, [line, "no chart row covers that total: the GM decides"], None
    target, lines = apply_chart_row(target, rows[0], line, rng, cat)
    return target, lines, None


def apply_chart_row(
    target: Combatant, row: SevereWound, line: str, rng: random.Random, cat: Catalog
) -> tuple[Combatant, list[str]]:
    """The row's result on ``target`` and its log lines (a row that destroys equipment
    picks the piece with ``rng``: :func:`~.equipment.destroy_at_random`; a row's
    condition that lasts some turns rolls them with ``rng``: :mod:`..countdowns`).
    """
    flags = row.mark
    target = evolve(
        target,
        unconscious=target.unconscious or row.unconscious,
        out=target.out or row.dead,
        chart=(*target.chart, row.id),
        cover=Cover.NONE if row.out_of_cover else target.cover,
    )
    lines = [line, f"→ {row.name}{flags}: {row.text}"]
    if row.condition and row.turns is not None:  # for some of its turns (Stunned, 1d6)
        rolled = roll(row.turns, rng)
        turns = max(1, min(rolled.total, MAX_TURNS))
        target = with_countdown(target, row.condition, turns)
        lines.append(
            f"{target.name} marked {row.condition} for its next {turns} turns"
            f" ({rolled.explain()}): {CONDITIONS[row.condition].text}"
        )
    elif row.condition:  # what the row means at the table, marked for this encounter
        target = with_condition(target, row.condition)
        lines.append(f"{target.name} marked {row.condition}: {CONDITIONS[row.condition].text}")
    if row.destroys_equipment:
        target, wrecked = destroy_at_random(target, rng, cat)
        lines.append(wrecked)
    return target, lines
