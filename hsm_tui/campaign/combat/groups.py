"""A Minion group's turn (R-INIT-1: its members share one turn): who attacks next, whom
the group aims at, each member's aim, and a member turning to the nearest enemy when its
target falls before its shot. The screens ask these; none works them out itself.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import TypeVar

from ...packs import Catalog
from ...rules import RangeBand, RulesError
from ..encounter import Combatant, Encounter, evolve
from .aiming import action_refusal, plan_attack, within_charges
from .commands import Attack, CloseIn, Move, Place, SetCover, TakeAction
from .turns import current_turn


def nearest_enemies(enc: Encounter, attacker: Combatant) -> list[Combatant]:
    """Standing enemies, nearest band first (R-COMBAT-2), its own zone first, then table
    order: whom a GM means by "the nearest" (zones with no band set come last).
    """

    def distance(c: Combatant) -> tuple[int, bool]:
        try:
            band = int(enc.band(attacker, c))
        except RulesError:
            band = len(RangeBand)
        return band, c.zone != attacker.zone

    enemies = [c for c in enc.combatants if c.side != attacker.side and c.standing]
    return sorted(enemies, key=distance)


def group_attack(enc: Encounter, target: str, cat: Catalog) -> tuple[Attack, ...]:
    """The acting group's attacks on ``target``: each member that has not attacked this
    turn fires its first weapon, as many shots as its charges pay for (R-ATK-2/3). A
    member fighting in melee with a melee weapon strikes its own opponent (R-OTHER-5),
    and one whose target is down by its turn takes the nearest enemy (``or_nearest``).
    The ones the rules refuse now go last, so a Batch (whose first command must apply)
    fires the others and logs why each of those is skipped.
    """
    turn = current_turn(enc)
    attacks = []
    for member in enc.members(turn.actor):
        if not member.weapons or "attack" in turn.used_by(member.id):
            continue
        weapon = cat.weapons.get(member.weapons[0].id)
        foes = [f.id for f in enc.in_melee_with(member)]
        locked = weapon is not None and weapon.kind == "melee" and foes and target not in foes
        aim = Attack(
            member.id, foes[0] if locked else target, member.weapons[0].id, or_nearest=True
        )
        with contextlib.suppress(RulesError):  # a weapon it cannot use: the Batch says why
            aim = within_charges(enc, aim, cat)
        attacks.append(aim)

    def refused(aim: Attack) -> bool:
        try:
            plan_attack(enc, aim, cat)
        except RulesError:
            return True
        return bool(action_refusal(enc, aim))

    return tuple(sorted(attacks, key=refused))


def retarget(enc: Encounter, cmd: Attack, cat: Catalog) -> tuple[Attack, tuple[str, ...]]:
    """A group member whose target fell earlier in the group's attack turns to the
    nearest standing enemy it can attack now, and the log says so; else ``cmd`` as is.
    """
    if not cmd.or_nearest:  # a lone attacker's aim: asked first, on every attack
        return cmd, ()
    target = enc.get(cmd.target)
    if target.standing:
        return cmd, ()
    attacker = enc.get(cmd.attacker)
    for enemy in nearest_enemies(enc, attacker):
        aim = evolve(cmd, target=enemy.id)
        try:
            plan_attack(enc, aim, cat)
        except RulesError:
            continue
        return aim, (f"{target.name} is down: {attacker.name} turns to {enemy.name}",)
    return cmd, ()


def group_target(enc: Encounter) -> str | None:
    """Whom the acting group attacks when the GM aimed at nobody: the standing enemy
    nearest its first standing member (R-COMBAT-2); None when there is none.
    """
    members = enc.members(current_turn(enc).actor)
    nearest = nearest_enemies(enc, members[0]) if members else []
    return nearest[0].id if nearest else None


def next_attacker(enc: Encounter, after: str) -> str | None:
    """In a group's turn, the member that attacks after ``after``: the next in the group's
    order with an action left that has not attacked yet, else the first such (None when
    nobody in the turn is left to attack, or the turn is one combatant's).
    """
    turn = enc.turn
    if turn is None:
        return None
    members = enc.members(turn.actor)
    ready = [m for m in members if turn.left(m.id) and "attack" not in turn.used_by(m.id)]
    if len(members) < 2 or not ready:
        return None
    ids = [m.id for m in members]
    later = [m for m in ready if after in ids and ids.index(m.id) > ids.index(after)]
    return (later or ready)[0].id


GroupOrder = TypeVar("GroupOrder", Move, CloseIn, SetCover, Place, TakeAction)


def for_group(enc: Encounter, order: GroupOrder) -> tuple[GroupOrder, ...]:
    """The same order for every standing member of its combatant's group in its zone (a
    Minion group moves or hides as one; a Batch of them is one undo
    step and says why a member cannot); one combatant alone gets its own order back.
    """
    c = enc.get(order.combatant)
    members = [m for m in enc.members(c.group) if m.zone == c.zone and m.id != c.id]
    return (order, *(replace(order, combatant=m.id) for m in members))
