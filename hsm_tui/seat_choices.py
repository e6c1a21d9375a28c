"""What a player's seat may do now, as menus the engine has checked (issue 21): the
player's screens show these options and never work out a rule themselves.

Each option carries the command it sends. One the engine refuses now is still listed,
marked ✗ with the engine's own reason, so a player sees why (picking it is refused with
the same words). Only facts the seat may see go into a label: a target's cover and band
and the attack's own TN and dice, never the target's Defense, Health or wounds.
"""

from __future__ import annotations

from collections.abc import Iterator

from .campaign.combat import (
    Attack,
    DeclareActions,
    Option,
    action_refusal,
    plan_attack,
    routes,
)
from .campaign.encounter import Combatant, Encounter
from .packs import Catalog
from .rules import RulesError
from .rules.odds import percent
from .seats import Seat

DECLARE = range(2, 6)
"""How many actions a Hero may declare at the start of its turn (R-ACT-3)."""


def own_combatant(seat: Seat, enc: Encounter) -> Combatant | None:
    """The seat's hero in the fight, None when it is not in it."""
    return next((c for c in enc.combatants if seat.hero and c.entry == seat.hero), None)


def _marked(label: str, why: str) -> str:
    return f"✗ {label} — {why}" if why else label


def _keys() -> Iterator[str]:
    yield from "123456789abcdefghijklmnopqrstuvwxyz"
    while True:
        yield ""


def attack_options(seat: Seat, enc: Encounter, catalog: Catalog) -> list[Option[Attack]]:
    """R-ATK-1/2: each weapon of the seat's hero at each enemy the seat may see standing,
    with the attack's TN, dice and chance of a hit before Defense, or the engine's ✗.
    """
    mine = own_combatant(seat, enc)
    if mine is None:
        return []
    keys = _keys()
    options: list[Option[Attack]] = []
    foes = [c for c in enc.combatants if c.side != mine.side and c.standing and not c.hidden]
    for state in (w for w in mine.weapons if not w.dropped):
        weapon = catalog.weapons.get(state.id)
        name = weapon.name if weapon is not None else state.id
        for foe in foes:
            command = Attack(mine.id, foe.id, state.id)
            cover = f", {foe.cover.label} cover" if foe.cover else ""
            label = f"{foe.name} ({enc.band(mine.id, foe.id).label}{cover}) with {name}"
            try:
                plan = plan_attack(enc, command, catalog)
            except RulesError as err:
                options.append(Option(next(keys), _marked(label, str(err)), command))
                continue
            odds = f"TN {plan.tn.value}, {plan.dice} d10, a hit {percent(plan.hits.success)}"
            why = action_refusal(enc, command)
            options.append(Option(next(keys), _marked(f"{label}: {odds}", why), command))
    return options


def move_options(seat: Seat, enc: Encounter) -> list[Option[object]]:
    """R-ACT-2: each other zone and what reaches it this turn, or the engine's ✗."""
    mine = own_combatant(seat, enc)
    if mine is None:
        return []
    keys = _keys()
    options: list[Option[object]] = []
    for route in routes(enc, mine.id):
        if route.close_in is not None:
            label = f"{route.place}: close in one band, Move + Run"
            options.append(Option(next(keys), _marked(label, route.close_in_why), route.close_in))
            continue
        label = f"{route.place}: {route.cost}"
        options.append(Option(next(keys), label if route.possible else f"✗ {label}", route.move))
    return options


def declare_options() -> list[Option[DeclareActions]]:
    """R-ACT-3: how many actions this turn (each beyond two costs −1 on every action)."""
    return [
        Option(str(n), f"{n} actions" + (f", each at −{n - 2}" if n > 2 else ""), DeclareActions(n))
        for n in DECLARE
    ]
