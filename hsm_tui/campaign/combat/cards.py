"""A weapon card's effects on the Hero die's face (content/README.md effect table):
extra shots, re-rolls, TN and damage bonuses, charges, Fear and conditions.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ...packs import Weapon
from ...rules import Rank, roll_attack
from ...rules.dice import roll as roll_expression
from ...rules.effects import Effect, EffectKind, Trigger
from ...rules.tasks import HeroFace, PoolRoll, card_reroll
from ..conditions import with_condition
from ..encounter import Encounter, evolve
from .fear import give_fear
from .gear import charged, edit_weapon
from .outcome import AttackState

_TRIGGERS = {
    HeroFace.SPECIAL_4._value_: Trigger.SPECIAL_4,
    HeroFace.SPECIAL_5._value_: Trigger.SPECIAL_5,
    HeroFace.FORTUNE._value_: Trigger.FORTUNE,
    HeroFace.MISFORTUNE._value_: Trigger.MISFORTUNE,
}
"""The card row each Hero-die face fires (a blank fires none), by the face's name: read on
every attack, and an Enum hashes in Python."""


_SHOTS, _REROLL, _DAMAGE = EffectKind.EXTRA_SHOTS, EffectKind.REROLL_LOWEST, EffectKind.DAMAGE
_ONE_HIT, _DEFENSE, _TN = EffectKind.ONE_HIT_COUNTS, EffectKind.TARGET_DEFENSE, EffectKind.TN
_RECHARGE, _EXTRA_CHARGE, _FEAR = EffectKind.RECHARGE, EffectKind.EXTRA_CHARGE, EffectKind.FEAR
_CONDITION, _STUCK, _MINION = EffectKind.CONDITION, EffectKind.STUCK, Rank.MINION
"""Read for every card effect that fires: plain names, as in :mod:`..encounter`."""


def face_effects(weapon: Weapon, face: HeroFace | None) -> tuple[tuple[Trigger, Effect], ...]:
    """The card's effects the Hero die's ``face`` fires (none without a Hero die)."""
    trigger = None if face is None else _TRIGGERS.get(face._value_)
    return tuple([(trigger, e) for e in weapon.effects_on(trigger)]) if trigger else ()


def apply_card_effects(
    enc: Encounter,
    state: AttackState,
    effects: tuple[tuple[Trigger, Effect], ...],
    rng: random.Random,
    tn: int,
    roll: PoolRoll,
) -> tuple[Encounter, AttackState, list[str]]:
    """Apply the card's effects for the Hero-die face (content/README.md effect table)."""
    lines = []
    for trigger, effect in effects:
        text = f"{trigger._value_}: {effect.describe()}"
        kind = effect.kind
        amount = effect.value or 0
        if effect.dice is not None:
            amount = _roll_amount(effect, rng)
            text += f" (rolled {amount})"
        if kind is _SHOTS:  # more d10s of the same roll: one Hero die per
            # roll, so they are judged with this roll's (R-TASK-4 below TN 1), never a new one
            shots = roll_attack(rng, tn, max(1, amount), _MINION)
            judged = PoolRoll(shots.kind, shots.target, roll.rank, shots.first, roll.hero)
            state = evolve(state, hits=state.hits + judged.successes)
            dice = ", ".join(map(str, shots.kept))
            text += f": d10 {dice} → {judged.successes} hit(s), with the roll's own Hero die"
        elif kind is _REROLL:
            # on the dice as they stand after the Luck/Talent/Aim re-rolls (card_reroll)
            again = card_reroll(roll, rng)
            state = evolve(state, hits=state.hits + again.successes - roll.successes)
            roll = again  # a later effect of the same face sees the re-rolled dice
            text += f": {again.explain(not enc.get(state.attacker).player)}"
        elif kind is _ONE_HIT:
            state = evolve(state, hits=min(state.hits, 1))
        elif kind is _DEFENSE:
            state = evolve(state, defense_mod=state.defense_mod + amount)
        elif kind is _DAMAGE:
            state = evolve(state, damage_bonus=state.damage_bonus + amount)
        elif kind is _TN:  # the dice counted again at the better TN, by the
            # same rule as any roll: below 1 a Hero's d10 of 1 and Hero die make it up
            recount = replace(roll, target=roll.target + amount).successes
            state = evolve(state, hits=max(state.hits, recount))
        elif kind is _RECHARGE or kind is _EXTRA_CHARGE:
            delta = amount if kind is _RECHARGE else -amount
            enc = enc.with_combatant(charged(enc.get(state.attacker), state.weapon, delta))
        elif kind is _FEAR and effect.targets != "enemies-nearby":
            enc = give_fear(enc, enc.get(state.target), amount)  # its unit's too
        elif kind is _CONDITION:
            who = enc.get(state.attacker if effect.targets == "self" else state.target)
            mark = effect.condition or "condition"
            marked = evolve(who, prone=True) if mark == "prone" else with_condition(who, mark)
            enc = enc.with_combatant(marked)
        elif kind is _STUCK:  # the weapon needs Interact action(s) to free it
            stuck = edit_weapon(enc.get(state.attacker), state.weapon, stuck=effect.value or 1)
            enc = enc.with_combatant(stuck)
        else:
            text += " — for the GM"
        lines.append(text)
    return enc, state, lines


def _roll_amount(effect: Effect, rng: random.Random) -> int:
    return roll_expression(effect.dice, rng).total  # type: ignore[arg-type]
