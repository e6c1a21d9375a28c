"""An attack worked out before any die rolls: the weapon as used, its rate of fire and
charges, the TN and exact odds (:class:`AttackPlan`), and whether its action can be taken.
Previews read the same plan :func:`~.attack.attack` rolls, so the two never disagree.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from ...packs import Catalog, Weapon
from ...rules import (
    Modifier,
    RangeBand,
    Rank,
    Rating,
    RulesError,
    TargetNumber,
    Trait,
    attack_odds,
    defense_odds,
)
from ...rules.combat import (
    FIGHTING_STYLES,
    AttackSituation,
    attack_dice,
    attack_tn,
    throw_damage,
)
from ...rules.dice import parse
from ...rules.models import MAX_FREE_REROLLS, record
from ...rules.odds import PoolOdds, percent, wound_odds
from ..conditions import level, moved_penalty, penalty, wound_marker
from ..encounter import Combatant, Encounter, Turn, WeaponState, evolve
from .commands import Attack, Hand, Location, Reaction
from .gear import FISTS, in_hand_refusal
from .hands import hand_modifier, main_hand_used, off_hand_used
from .turns import NOT_WITH_WILD, current_turn, spend_action
from .wounds import damage_expr, defense_rerolls, defense_tn, health_against, opponents

_LOCATIONS, _REACTIONS = frozenset(Location), frozenset(Reaction)
_WILD, _MELEE, _SIDEKICK, _OFF = Rating.WILD, RangeBand.MELEE, Rank.SIDEKICK, Hand.OFF
_MAIN, _STANDBY, _ZONE_OF_CONTROL = Hand.MAIN, Reaction.STANDBY, Reaction.ZONE_OF_CONTROL
"""The values a command may name (text compares equal to its member), and members read as
plain names (as in :mod:`..encounter`): checked per attack."""

MAX_MODIFIER = 9
"""The GM's situational modifier on an attack is −9 to +9: beyond it no roll is in doubt."""


@record
class AttackPlan:
    """An attack worked out before any die is rolled: what the screens show as a preview
    and what :func:`attack` then rolls, so the two can never disagree.
    """

    attacker: Combatant
    target: Combatant
    weapon: Weapon
    state: WeaponState
    style: Rating
    melee: bool
    band: RangeBand
    dice: int
    cost: int
    tn: TargetNumber
    damage: str = ""  # overrides the card's damage (thrown, a damage option, grapple)
    free: int = 0  # free re-rolls on the attack roll: Aim (R-ACT-2) and the GM's (R-TASK-6)
    location: str = ""  # a called shot's "head" adds a d8 to each hit's damage (R-ATK-10)
    aim: int = 0  # 1 when one of ``free`` is Aim's, ready this turn (R-ACT-2)

    @property
    def rank(self) -> Rank:
        return self.attacker.rules_rank

    @property
    def hits(self) -> PoolOdds:
        """R-ATK-2: the exact distribution of hits before Defense, the free re-rolls spent
        on missed dice (R-TASK-6), as the roll will offer them.
        """
        return attack_odds(self.tn.value, self.dice, self.rank, self.free)

    def defense(self, enc: Encounter) -> int:
        """R-ATK-6 Defense the target would roll against now (see :func:`defense_tn`)."""
        return self._defense_at_blow(enc).value

    def _defense_at_blow(self, enc: Encounter) -> TargetNumber:
        """Defense as the target will roll it: a melee blow has engaged the two first, so
        R-ATK-14 flanking counts this attacker too (as the roll does).
        """
        target = self.target
        if self.melee and target.id not in self.attacker.engaged:
            attacker = evolve(self.attacker, engaged=(*self.attacker.engaged, target.id))
            target = evolve(target, engaged=(*target.engaged, attacker.id))
            enc = enc.with_combatant(attacker).with_combatant(target)
        return defense_tn(enc, target, self.melee, 0)

    def _defense_text(self, enc: Encounter) -> str:
        """``5``, or how it was built when more than Dodge goes in (``Dodge 5 − wound 1 = 4``)."""
        defense = self._defense_at_blow(enc)
        return defense.explain() if len(defense.parts) > 1 else str(defense.value)

    def through(self, enc: Encounter) -> tuple[Fraction, ...]:
        """Exact distribution of hits through Defense (index = hits through)."""
        defense, rank = self.defense(enc), self.target.rules_rank
        dodge = defense_rerolls(self.target, self.melee)
        out = [self.hits.successes[0]] + [Fraction(0)] * self.dice
        for hits, p in enumerate(self.hits.successes[1:], start=1):
            if p:
                for k, q in enumerate(defense_odds(hits, defense, rank, dodge).successes):
                    out[k] += p * q
        return tuple(out)

    def wounds(self) -> dict[str, Fraction]:
        """R-DMG-2: wound steps from one hit through (before card damage bonuses)."""
        expr = parse(damage_expr(self.weapon, self.style.value, self.damage, self.location))
        resolved = expr.resolve(self.attacker.traits.as_values())
        return wound_odds(resolved, health_against(self.target, self.weapon))

    def preview(self, enc: Encounter) -> tuple[str, ...]:
        """The lines a GM reads before rolling: TN breakdown and exact odds."""
        through = self.through(enc)
        wounds = self.wounds()
        hurt = Fraction(1) - wounds["0"]
        return (
            f"{self.weapon.name} ({self.style.value}, {self.dice} d10) at {self.target.name},"
            f" {self.band.label} range",
            f"TN {self.tn.explain()}",
            f"≥1 hit {percent(self.hits.success)} · expected {float(self.hits.expected):.2f}"
            + (f" (with {self.free} free re-roll(s))" if self.free else ""),
            f"Defense {self._defense_text(enc)}: ≥1 through {percent(1 - through[0])}"
            f" · expected {float(sum(k * p for k, p in enumerate(through))):.2f}",
            f"each hit through wounds {percent(hurt)}",
            *(PINNED_FIRST if level(self.attacker, "pinned") else ()),
        )


PINNED_FIRST = ("Pinned (§8): a Morale roll comes first; if it fails, the attack is lost",)


def plan_attack(enc: Encounter, cmd: Attack, cat: Catalog) -> AttackPlan:
    """Every check and number of an attack, without spending the action or rolling."""
    cmd = second_weapon(enc, cmd)
    attacker, target = enc.get(cmd.attacker), enc.get(cmd.target)
    if target.out or target.unconscious:  # ``standing``, inlined as in _rest_of_unit (fear)
        raise RulesError(f"{target.name} is already out of the fight")
    if attacker.id == target.id:
        raise RulesError("a combatant cannot attack itself")
    if not 0 <= cmd.rerolls <= MAX_FREE_REROLLS:
        raise RulesError(f"free re-rolls are 0 to {MAX_FREE_REROLLS}, not {cmd.rerolls}")
    if abs(cmd.modifier) > MAX_MODIFIER:
        raise RulesError(f"the modifier is −{MAX_MODIFIER} to +{MAX_MODIFIER}, not {cmd.modifier}")
    _ = target.rank is _SIDEKICK and target.rules_rank  # R-CHAR-8: decided before it defends
    weapon, state, rate, style, damage = _armed(enc, attacker, cmd, cat)
    turn = enc.turn
    if style is _WILD and turn is not None:  # R-ATK-1: not after these either
        taken = [a for a in turn.used_by(attacker.id) if a in NOT_WITH_WILD]
        if taken:
            raise RulesError(
                f"{attacker.name} took {taken[0]} this turn: no Wild attack in the same turn"
                " (R-ATK-1)"
            )
    melee = weapon.kind == "melee"  # a thrown weapon uses Agile but is not melee (R-ATK-1)
    band = enc.band(attacker, target)
    if melee and attacker.zone != target.zone:
        raise RulesError(
            f"{target.name} is {band.label} away: melee needs the same zone (Move first)"
        )
    band = _MELEE if melee else band  # closing in within the zone, a blow (R-COMBAT-3)
    if cmd.throw and cat.weapons[state.id].kind == "melee" and weapon.thrown_damage is None:
        # R-ATK-1 Throw: "a number of d6s equal to the character's Strength rating, (-1
        # for each range past short …) with a minimum of 1" (a card's own thrown damage,
        # the Dagger's, replaces it)
        past_short = max(0, band - RangeBand.SHORT)
        damage = throw_damage(attacker.traits[Trait.STRENGTH], past_short).source
    if cmd.called_shot and attacker.rules_rank is not Rank.HERO:
        raise RulesError(f"{attacker.name}: called shots are for Heroes (R-ATK-10)")
    if cmd.location not in _LOCATIONS or (cmd.location and not cmd.called_shot):
        raise RulesError("a called shot aims at the head or a limb (R-ATK-10)")
    extra = [hand_modifier(enc, attacker, weapon, cmd, cat)] if cmd.hand else []
    if turn is not None and attacker.id in turn.movers:  # Turn.moved, inlined; §7 row 13
        extra += moved_penalty(attacker.chart, attacker.conditions, True)
    if target.id in attacker.engaged and "grappled" in target.conditions:
        # R-ATK-17 "A grappling character gets (+1) when attacking a character it is
        # grappling" (a grab, then a stab). Interpretation: the grappler is whoever is
        # locked in melee with the grappled target; the record keeps no other mark.
        extra.append(Modifier("grappling it", 1))
    dice = rate
    if cmd.reaction == _ZONE_OF_CONTROL and attacker.zone != target.zone:
        raise RulesError("zone of control stops someone passing within Melee (same zone)")
    if cmd.shots is not None:
        if not 1 <= cmd.shots <= dice:
            raise RulesError(f"{weapon.name} fires 1 to {dice} shot(s) here, not {cmd.shots}")
        dice = cmd.shots
    cost = dice * weapon.charge_per_shot if state.charges is not None else 0
    if state.charges is not None and state.charges < cost:
        if not (fire := Firepower(weapon, state, rate)).paid:
            raise RulesError(
                f"{weapon.name} has {state.charges} charge(s), not enough for one shot"
                f" (R-ATK-3): {fire.refill}"
            )
        raise RulesError(
            f"{weapon.name} has {state.charges} charge(s),"
            f" needs {cost} for {dice} shot(s) (R-ATK-3): it can fire {fire.paid}"
        )
    guns = not melee and weapon.skill in _GUNS and attacker.engaged and opponents(enc, attacker)
    tn = _attack_tn(
        style._value_,  # quicker than ``value`` (a descriptor): some 50 attacks a fight
        attacker.ratings[style],
        weapon.range,
        band,
        wound_marker(attacker),
        penalty(attacker),
        turn.declared if turn is not None else 2,
        cmd.called_shot,
        melee,
        weapon.skill if guns else None,
        target.size - attacker.size,
        cmd.modifier,
    )
    tn = tn.plus(*extra) if extra else tn
    aim = int(aim_ready(turn, attacker.id))
    return AttackPlan(
        attacker,
        target,
        weapon,
        state,
        style,
        melee,
        band,
        dice,
        cost,
        tn,
        damage,
        aim + cmd.rerolls,
        cmd.location,
        aim,
    )


_GUNS = (Rating.PISTOLS, Rating.RIFLES)
"""R-ATK-12: the weapons that shoot at a penalty while their holder is in melee."""


@lru_cache(maxsize=4096)
def _attack_tn(
    style: str,
    rating: int,
    weapon_range: RangeBand,
    band: RangeBand,
    wound: int,
    conditions: int,
    declared: int,
    called_shot: bool,
    melee: bool,
    shooting_in_melee: Rating | None,
    size_difference: int,
    other: int,
) -> TargetNumber:
    """:func:`attack_tn` keyed by plain values (some 70 attacks a fight): hashing an
    :class:`AttackSituation` (dataclass ``__hash__``, ``__eq__``) cost more than its TNs."""
    situation = AttackSituation(
        wound, conditions, declared, called_shot, melee, shooting_in_melee, size_difference, other
    )
    return attack_tn(style.title(), rating, weapon_range, band, situation)


def second_weapon(enc: Encounter, cmd: Attack) -> Attack:
    """R-ATK-16: suppressive fire "can be the only type of ranged attack used that turn,
    even with added actions. (A player can fire a second weapon normal with the usual
    negatives.)" Reading: the cone is the main-hand attack of a pair (R-ATK-11), so the
    other weapon in hand attacks after it in the same action at the off hand's −3, "the
    usual negatives"; a plain attack right after suppressing is that second weapon.
    """
    turn = enc.turn
    if cmd.hand or cmd.reaction or turn is None or cmd.attacker not in turn.suppressed:
        return cmd
    return replace(cmd, hand=_OFF) if cmd.attacker in turn.offhand else cmd


def aim_ready(turn: Turn | None, cid: str) -> bool:
    """R-ACT-2 Aim: taken this turn and its free re-roll not yet used on an attack."""
    return turn is not None and (cid, "aim") in turn.used and cid not in turn.aim_used


@record
class Firepower:
    """R-ATK-2/3: the most shots an attack fires (the weapon's rate of fire or the style's
    attack count) and how many of them the weapon's charges pay for now.
    """

    weapon: Weapon  # as this attack uses it (thrown: Agile, Short range)
    state: WeaponState
    rate: int

    @property
    def paid(self) -> int:
        """Shots the charges pay for: all of them for a weapon without charges."""
        per_shot = self.weapon.charge_per_shot
        if self.state.charges is None or not per_shot:
            return self.rate
        return min(self.rate, self.state.charges // per_shot)

    @property
    def shots(self) -> int | None:
        """The ``Attack.shots`` that fires what it can: None is the full rate (so too for
        an empty weapon, which cannot fire at all: the plan says how it gets charges back).
        """
        return self.paid if 0 < self.paid < self.rate else None

    @property
    def refill(self) -> str:
        """How the weapon gets charges back, for a GM facing an empty one."""
        if self.weapon.reload:
            return "reloading refills it (2 actions, R-ACT-5)"
        if self.state.recharge:
            return (
                "it regains 1 charge at the end of each turn it does not fire;"
                " no action recharges it sooner"
            )
        return "it does not recharge, so it stays empty for this fight"


def _armed(
    enc: Encounter, attacker: Combatant, cmd: Attack, cat: Catalog
) -> tuple[Weapon, WeaponState, int, Rating, str]:
    """The weapon as the attack uses it (fists for a grapple, thrown, a damage option), its
    state, rate of fire (no :class:`Firepower` made), rating and damage; refuses it if unusable.
    """
    if cmd.grapple:  # R-ATK-17: no weapon, the Agile rating, fists' damage
        state = next((w for w in attacker.weapons if w.id == FISTS), WeaponState(FISTS))
    else:
        state = attacker.weapon(cmd.weapon)
    weapon = cat.weapons.get(state.id)
    if weapon is None:
        raise RulesError(f"weapon {state.id!r} is not in the loaded packs")
    if in_hand := in_hand_refusal(attacker, weapon, state):
        raise RulesError(in_hand)
    damage = ""
    if cmd.club:
        weapon, damage = _club(weapon)
    if cmd.throw:
        if weapon.kind == "ranged" or weapon.id == FISTS:
            raise RulesError(f"{weapon.name} is not a throwing weapon (R-ATK-1)")
        weapon = evolve(weapon, kind="thrown", skill=Rating.AGILE, range=RangeBand.SHORT)
        damage = weapon.thrown_damage.source if weapon.thrown_damage else ""
    if cmd.damage_choice is not None:
        options = weapon.damage_options
        if not 0 <= cmd.damage_choice < len(options):
            raise RulesError(f"{weapon.name} has {len(options)} damage option(s)")
        damage = options[cmd.damage_choice].source
    style = Rating.AGILE if cmd.grapple else weapon_style(weapon, cmd.style)
    dice = attack_dice(style, attacker.traits, weapon.attacks)
    if cmd.throw and weapon.attacks is None:
        dice = 1  # one blade leaves the hand: the Agile rating, one attack die
    return weapon, state, dice, style, damage


def _club(gun: Weapon) -> tuple[Weapon, str]:
    """R-ATK-12: "The gun, however, can be used as a club, which does d6+Strength if it's a
    pistol, and has an additional +2 damage if it's a rifle": a melee weapon with a
    fighting style (Agile unless the GM picks another), no charges and no card effects.
    """
    if gun.kind != "ranged" or gun.skill not in (Rating.PISTOLS, Rating.RIFLES):
        raise RulesError(f"{gun.name} is not a gun to swing as a club (R-ATK-12)")
    club = evolve(
        gun,
        name=f"{gun.name} as a club",
        kind="melee",
        skill=Rating.AGILE,
        range=RangeBand.MELEE,
        attacks=None,
        charge_per_shot=0,
        damage_options=(),
        effects=(),
        suppression=None,
    )
    return club, "1d6+strength" + ("+2" if gun.skill is Rating.RIFLES else "")


def firepower(enc: Encounter, cmd: Attack, cat: Catalog) -> Firepower:
    """The attack's rate of fire and the shots its charges pay for, whatever its target
    and the shots it asks for (so the shot keys work while the aim is refused).
    """
    return Firepower(*_armed(enc, enc.get(cmd.attacker), cmd, cat)[:3])


def within_charges(enc: Encounter, cmd: Attack, cat: Catalog) -> Attack:
    """``cmd`` firing as many shots as its charges pay for, at most its rate of fire
    (R-ATK-3): where an aim starts and what each member of a group attack fires.
    """
    return replace(cmd, shots=firepower(enc, cmd, cat).shots)


def action_refusal(enc: Encounter, cmd: Attack) -> str:
    """Why the attack's action cannot be taken now, "" if it can (its turn, an action
    left, no attack twice: R-ACT-1; or a reaction's own rule), so a preview says so
    before the roll rather than on it. Changes nothing.
    """
    try:
        take_attack_action(enc, enc.get(cmd.attacker), cmd)
    except RulesError as refused:
        return str(refused)
    return ""


def take_attack_action(enc: Encounter, attacker: Combatant, cmd: Attack) -> Encounter:
    """Spend the Attack action, or none for an off-hand attack (also a second weapon after
    suppressive fire, :func:`second_weapon`) and a reaction.
    """
    cmd = second_weapon(enc, cmd)
    turn = current_turn(enc)
    if attacker.out or attacker.unconscious:  # ``standing``, inlined: every attack asks
        raise RulesError(f"{attacker.name} cannot act (taken out or unconscious)")
    if cmd.reaction == _STANDBY:  # R-ACT-2 Standby: act when someone comes within Short
        if "standby" not in attacker.conditions:
            raise RulesError(f"{attacker.name} is not on Standby")
        kept = tuple(m for m in attacker.conditions if m != "standby")
        return enc.with_combatant(evolve(attacker, conditions=kept))
    if cmd.reaction == _ZONE_OF_CONTROL:  # R-OTHER-4: a Hero, once per turn
        if attacker.rules_rank is not Rank.HERO:
            raise RulesError("zone of control is for Heroes (R-OTHER-4)")
        if attacker.id in turn.reactions:
            raise RulesError(f"{attacker.name} already stopped someone this turn (R-OTHER-4)")
        if attacker.group == turn.actor:
            raise RulesError("zone of control stops an opponent passing by on its turn")
        return enc.with_turn(evolve(turn, reactions=(*turn.reactions, attacker.id)))
    if cmd.reaction not in _REACTIONS:
        raise RulesError("a reaction is standby or zone-of-control")
    if cmd.hand == _OFF:  # the same action as the main-hand attack (R-ATK-11)
        return enc.with_turn(off_hand_used(turn, attacker.id))
    enc = spend_action(enc, attacker, "attack")
    if cmd.hand == _MAIN:
        enc = enc.with_turn(main_hand_used(current_turn(enc), attacker.id, cmd.weapon))
    return enc


def weapon_style(weapon: Weapon, asked: str | None = None) -> Rating:
    """The rating an attack uses: the shooting skill, or a fighting style for melee."""
    if weapon.kind != "melee":
        if asked and asked != weapon.skill.value:
            raise RulesError(
                f"{weapon.name} is a {weapon.kind} weapon: it uses {weapon.skill.value}"
            )
        return weapon.skill
    if not asked:  # the card's own style, else Agile
        return weapon.skill if weapon.skill in FIGHTING_STYLES else Rating.AGILE
    try:
        style = Rating(asked)
    except ValueError:
        raise RulesError(f"unknown fighting style {asked!r} (wild, power or agile)") from None
    if style not in FIGHTING_STYLES:
        raise RulesError(f"melee uses a fighting style: wild, power or agile, not {asked!r}")
    return style
