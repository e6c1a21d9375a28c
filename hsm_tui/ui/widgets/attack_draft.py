"""The attack being aimed on the combat screen: every option of the engine's ``Attack``.

Plain data with small stepping helpers, so each option key on the screen is one
``replace``. Nothing here decides what the rules allow: the engine's ``plan_attack``
refuses a bad combination and the panel shows why.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ...campaign.combat import MAX_MODIFIER, Attack, Hand, Location, Reaction
from ...rules.combat import FIGHTING_STYLES
from ...rules.models import MAX_FREE_REROLLS

STYLE_STEPS = tuple(style.value for style in FIGHTING_STYLES)
"""R-ATK-1 fighting styles, in the order ``s`` steps through them."""

CALLED_STEPS = (
    (Location.NONE, False),
    (Location.NONE, True),
    (Location.HEAD, True),
    (Location.LIMB, True),
)
"""R-ATK-10 steps of ``k``: none → at another spot (the penalty alone, the GM says what a
hit there does) → at the head (+d8) → at a limb (a Stamina roll or the limb is lamed)."""

CALLED_WORDS = {
    Location.NONE: "called shot: other spot (GM's call)",
    Location.HEAD: "called shot: head (+d8 damage)",
    Location.LIMB: "called shot: limb (Stamina roll)",
}
"""Each called shot as the options line names it, so no step of ``k`` is unexplained."""

HAND_STEPS = tuple(Hand)
"""R-ATK-11 two weapons: one weapon, then the main hand, then the off hand."""

REACTION_STEPS = tuple(Reaction)
"""An attack on its own turn, from Standby (R-ACT-2) or a zone of control (R-OTHER-4)."""


def _step(values: tuple[object, ...], current: object) -> int:
    """Index of the value after ``current``, wrapping round."""
    return (values.index(current) + 1) % len(values) if current in values else 0


@dataclass(frozen=True)
class AttackDraft:
    """Attack fields being aimed; nothing is rolled until Enter. Field names match
    :class:`Attack` one to one, so :meth:`command` can never drop an option.
    """

    attacker: str
    target: str
    weapon: str
    style: str | None = None
    called_shot: bool = False
    modifier: int = 0
    shots: int | None = None
    rerolls: int = 0
    location: Location = Location.NONE
    hand: Hand = Hand.ONE
    throw: bool = False
    damage_choice: int | None = None
    grapple: bool = False
    reaction: Reaction = Reaction.NONE
    club: bool = False

    def command(self) -> Attack:
        return Attack(**{f.name: getattr(self, f.name) for f in fields(self)})

    # -- stepping ---------------------------------------------------------------------
    def with_weapon(self, weapon: str) -> AttackDraft:
        """A new weapon: style, shots and damage option belonged to the old one."""
        return replace(self, weapon=weapon, style=None, shots=None, damage_choice=None)

    def next_style(self, current: str) -> AttackDraft:
        return replace(self, style=STYLE_STEPS[_step(STYLE_STEPS, current)])

    def next_called(self) -> AttackDraft:
        location, called = CALLED_STEPS[_step(CALLED_STEPS, (self.location, self.called_shot))]
        return replace(self, location=location, called_shot=called)

    def shifted(self, delta: int) -> AttackDraft:
        modifier = max(-MAX_MODIFIER, min(MAX_MODIFIER, self.modifier + delta))
        return replace(self, modifier=modifier)

    def with_shots(self, delta: int, rate: int) -> AttackDraft:
        """``None`` is the full rate of fire; fewer shots save charges (R-ATK-3)."""
        current = rate if self.shots is None else self.shots
        shots = max(1, min(rate, current + delta))
        return replace(self, shots=None if shots == rate else shots)

    def toggled_throw(self) -> AttackDraft:
        """Throw the weapon or not (R-ATK-1): the shots start over from its charges."""
        return replace(self, throw=not self.throw, shots=None)

    def toggled_club(self) -> AttackDraft:
        """Swing the gun as a club or not (R-ATK-12): a fighting style, no shots."""
        return replace(self, club=not self.club, style=None, shots=None)

    def toggled_grapple(self) -> AttackDraft:
        """Grapple with bare hands or not (R-ATK-17): no style, no shots of a weapon."""
        return replace(self, grapple=not self.grapple, style=None, shots=None)

    def next_hand(self) -> AttackDraft:
        return replace(self, hand=HAND_STEPS[_step(HAND_STEPS, self.hand)])

    def next_reaction(self) -> AttackDraft:
        return replace(self, reaction=REACTION_STEPS[_step(REACTION_STEPS, self.reaction)])

    def next_rerolls(self) -> AttackDraft:
        return replace(self, rerolls=(self.rerolls + 1) % (MAX_FREE_REROLLS + 1))

    def next_damage(self, count: int) -> AttackDraft:
        """The card's damage, then each of its ``count`` options (the Sonic Relik)."""
        choices: tuple[int | None, ...] = (None, *range(count))
        return replace(self, damage_choice=choices[_step(choices, self.damage_choice)])

    # -- showing ----------------------------------------------------------------------
    def options(self, rate: int | None = None) -> list[str]:
        """The options that differ from a plain attack, in words (empty: the defaults)."""
        words = [
            self.style or "",
            CALLED_WORDS[self.location] if self.called_shot else "",
            f"{self.modifier:+d}" if self.modifier else "",
            f"{self.shots}/{rate} shots" if self.shots and rate else "",
            f"{self.shots} shots" if self.shots and not rate else "",
            f"{self.hand} hand" if self.hand else "",
            "throw" if self.throw else "",
            "grapple (fists)" if self.grapple else "",
            "as a club" if self.club else "",
            self.reaction,
            f"damage option {self.damage_choice + 1}" if self.damage_choice is not None else "",
            f"{self.rerolls} free re-roll(s)" if self.rerolls else "",
        ]
        return [w for w in words if w]
