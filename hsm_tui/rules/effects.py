"""Weapon-card effects (R-TASK-5 Special/Fortune/Misfortune; RULES.md §10) as data.

A small vocabulary the combat engine can apply; anything outside it is ``narrative``
text the GM adjudicates. ``EffectKind.automated`` says which is which, and
``content/README.md`` lists how each rulebook card uses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .dice import Expression
from .models import once


class EffectKind(Enum):
    """What an effect does; the value is the name pack authors write."""

    EXTRA_SHOTS = "extra-shots"
    REROLL_LOWEST = "reroll-lowest"
    TARGET_DEFENSE = "target-defense"
    TN = "tn"
    DAMAGE = "damage"
    ONE_HIT_COUNTS = "one-hit-counts"
    RECHARGE = "recharge"
    EXTRA_CHARGE = "extra-charge"
    FEAR = "fear"
    CONDITION = "condition"
    STUCK = "stuck"
    CALLED_SHOT = "called-shot"
    NARRATIVE = "narrative"

    @property
    def automated(self) -> bool:
        """True when the engine applies it; False when the GM adjudicates the text."""
        return self not in (EffectKind.CALLED_SHOT, EffectKind.NARRATIVE)


class Trigger(Enum):
    """The Hero-die face that fires an effect (R-TASK-5)."""

    SPECIAL_4 = "special4"
    SPECIAL_5 = "special5"
    FORTUNE = "fortune"
    MISFORTUNE = "misfortune"


#: Conditions an effect may put on a target (RULES.md §8).
EFFECT_CONDITIONS = ("stunned", "bleeding", "grappled", "prone", "dazed", "confused", "nauseated")
#: Conditions a Severe Wound chart row may leave on the Hero for the encounter (§7).
CHART_CONDITIONS = ("stunned", "bleeding", "painful", "dying")
FEAR_TARGETS = ("target", "all-targets", "enemies-nearby")
CONDITION_TARGETS = ("target", "self")


@dataclass(frozen=True)
class Effect:
    """One effect of a card face, with only the parameters its kind uses."""

    kind: EffectKind
    value: int | None = None
    dice: Expression | None = None
    condition: str | None = None
    targets: str | None = None
    text: str = ""

    def amount(self) -> str:
        if self.dice is not None:
            return str(self.dice)
        if self.value is None:
            return ""
        return f"{self.value:+d}" if self.kind in _SIGNED else str(self.value)

    def describe(self) -> str:
        """The card text: the author's ``text`` or one made from the kind and values."""
        return self._described

    @once  # frozen: written once per card effect, not each time it fires
    def _described(self) -> str:
        if self.text:
            return self.text
        amount = self.amount()
        return {
            EffectKind.EXTRA_SHOTS: f"{amount} extra shot(s)",
            EffectKind.REROLL_LOWEST: "re-roll the worst attack die",
            EffectKind.TARGET_DEFENSE: f"target Defense {amount}",
            EffectKind.TN: f"{amount} to target number",
            EffectKind.DAMAGE: f"{amount} damage",
            EffectKind.ONE_HIT_COUNTS: "only one hit counts",
            EffectKind.RECHARGE: f"recharge {amount} power",
            EffectKind.EXTRA_CHARGE: f"use {amount} extra charge(s)",
            EffectKind.FEAR: f"{amount} Fear on {self.targets or 'target'}",
            EffectKind.CONDITION: f"{self.targets or 'target'} {self.condition}"
            + (f" ({self.value})" if self.value else ""),
            EffectKind.STUCK: f"stuck: {self.value or 1} action(s) to free",
            EffectKind.CALLED_SHOT: "called shot",
            EffectKind.NARRATIVE: "",
        }[self.kind]


_SIGNED = (EffectKind.TARGET_DEFENSE, EffectKind.TN, EffectKind.DAMAGE)
