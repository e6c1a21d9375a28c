"""Menus the engine has checked (issue 21): what a player's seat may do now, and the
move menu the GM's screen shares. Screens show these options and never work out a rule
themselves.

Each option carries the command it sends. One the engine refuses now is still listed,
marked ✗ with the engine's own reason, so a player sees why (picking it is refused with
the same words). Only facts the seat may see go into a label: a target's cover and band
and the attack's own TN and dice, never the target's Defense, Health or wounds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from .campaign.combat import (
    Attack,
    DeclareActions,
    Option,
    action_refusal,
    plan_attack,
    routes,
)
from .campaign.encounter import Encounter
from .packs import Catalog
from .rules import RulesError
from .rules.odds import percent
from .seats import Role, Seat
from .state import LogEntry, OpenEntry
from .views import opening

DECLARE = range(2, 6)
"""How many actions a Hero may declare at the start of its turn (R-ACT-3)."""


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
    mine = seat.combatant(enc)
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


def move_options(enc: Encounter, mover: str, run: bool = False) -> list[Option[Any]]:
    """R-ACT-2: each other zone and what reaches it this turn (a Move, or Move+Run for a
    zone at Short; farther: close in one band), or the engine's ✗; ``run``: Move+Run to
    any zone, the GM's call.
    """
    keys = _keys()
    options: list[Option[Any]] = []
    for route in routes(enc, mover):
        if route.close_in is not None:  # farther than Short: a band nearer (R-ACT-2)
            label = f"{route.place}: close in one band, Move + Run"
            options.append(Option(next(keys), _marked(label, route.close_in_why), route.close_in))
            continue
        if run:
            options.append(Option(next(keys), route.place, replace(route.move, run=True)))
            continue
        label = f"{route.place}: {route.cost}"  # the cost says why when it cannot be paid
        options.append(Option(next(keys), label if route.possible else f"✗ {label}", route.move))
    return options


def declare_options() -> list[Option[DeclareActions]]:
    """R-ACT-3: how many actions this turn (each beyond two costs −1 on every action)."""
    return [
        Option(str(n), f"{n} actions" + (f", each at −{n - 2}" if n > 2 else ""), DeclareActions(n))
        for n in DECLARE
    ]


def open_options(
    log: tuple[LogEntry, ...], seq: int, seats: Sequence[Seat]
) -> list[Option[OpenEntry]]:
    """Issue 21: the seats the GM may open entry ``seq`` to (F6 ``O``), each checked by
    :func:`~hsm_tui.views.opening`: a seat it is open to already is marked ✗.
    """
    keys = _keys()
    options: list[Option[OpenEntry]] = []
    for seat in seats:
        if seat.role is Role.GM:
            continue
        command = OpenEntry(seq, to=seat.issuer)
        try:
            opening(log, seq, seat.issuer)
            why = ""
        except RulesError as err:
            why = str(err)
        label = f"{seat.user} ({seat.role}{f', {seat.hero}' if seat.hero else ''})"
        options.append(Option(next(keys), _marked(label, why), command))
    return options
