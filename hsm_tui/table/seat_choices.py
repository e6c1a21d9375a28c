"""Menus the engine has checked: what a player's seat may do now, and the
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

from ..campaign.combat import (
    ACTIONS,
    Attack,
    DeclareActions,
    Option,
    Place,
    SetCover,
    SetDestroyed,
    TakeAction,
    action_cost,
    action_refusal,
    carried_items,
    declare_refusal,
    for_group,
    place_refusal,
    plan_attack,
    routes,
    take_action_refusal,
)
from ..campaign.encounter import Combatant, Encounter
from ..campaign.party import PARTY, Roller
from ..packs import Catalog
from ..rules import Cover, Rank, RulesError
from ..rules.odds import percent
from .seats import TABLE_SEAT, Role, Seat
from .state import Batch, LogEntry, OpenEntry
from .visibility import opening

DECLARE = range(2, 6)
"""How many actions a Hero may declare at the start of its turn (R-ACT-3)."""


def _marked(label: str, why: str) -> str:
    return f"✗ {label} — {why}" if why else label


def _keys(digits: bool = True) -> Iterator[str]:
    """A menu's keys in order; without ``digits`` when the menu gives those already."""
    yield from ("123456789" if digits else "") + "abcdefghijklmnopqrstuvwxyz"
    while True:
        yield ""


def party_hero(enc: Encounter, who: str) -> str:
    """The party Hero (its pack entry id) that roller ``who`` is in ``enc``: a
    ``party:<hero id>``'s, or a combatant's that is the party's own copy (a player
    character, as :func:`~hsm_tui.campaign.party.in_encounter` counts them); "" for anyone
    else, a villain made from the same entry and bearing the same name too.
    """
    if who.startswith(PARTY):
        return who.removeprefix(PARTY)
    c = next((c for c in enc.combatants if c.id == who), None)
    return c.entry if c is not None and c.player and c.rank is Rank.HERO else ""


def same_roller(who: str, before: Encounter, now: Encounter, rollers: Sequence[Roller]) -> str:
    """Whom the task roller's Who (``who``, picked in ``before``) names among ``rollers``
    in ``now``: itself while it rolls, a party Hero under its new id once it has left the
    fight (``party:<hero id>``) or come back (an undo); else ``who``, which rolls no more.
    """
    hero = party_hero(before, who)
    if not hero or any(r.who == who for r in rollers):
        return who
    return next((r.who for r in rollers if party_hero(now, r.who) == hero), who)


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
            label = f"{foe.name} ({enc.band(mine, foe).label}{cover}) with {name}"
            try:
                plan = plan_attack(enc, command, catalog)
            except RulesError as err:
                options.append(Option(next(keys), _marked(label, str(err)), command))
                continue
            odds = f"TN {plan.tn.value}, {plan.dice} d10, a hit {percent(plan.hits.success)}"
            why = action_refusal(enc, command)
            options.append(Option(next(keys), _marked(f"{label}: {odds}", why), command))
    return options


ESCAPE_BONUS = (0, 1, 2, 3, -1)
"""Break free (R-ATK-17): Escape Artist adds its level; −1 when the grappler was hit."""


def action_options(enc: Encounter, actor: Combatant, catalog: Catalog) -> list[Option[TakeAction]]:
    """R-ACT-2/5/6: every action with its cost, marked ✗ with the engine's reason when it
    refuses the action now whatever is picked next (each weapon, cover or bonus it may
    name), so the menu never offers what the engine then refuses.
    """
    options: list[Option[TakeAction]] = []
    keys = _keys()
    for action, kind in ACTIONS.items():
        cost = action_cost(actor, action)
        price = "free" if not cost else f"{cost} action" + ("s" if cost > 1 else "")
        command = TakeAction(actor.id, action)
        picks = [c.command for c in action_details(actor, command, catalog)] or [command]
        reasons = [take_action_refusal(enc, pick, catalog) for pick in picks]
        why = "" if "" in reasons else "; ".join(dict.fromkeys(reasons))
        options.append(
            Option(next(keys), _marked(f"{action} ({price}): {kind.hint}", why), command)
        )
    return options


def action_details(
    actor: Combatant, command: TakeAction, catalog: Catalog
) -> list[Option[TakeAction]]:
    """What ``command``'s action names, one option each: the Escape Artist bonus of a
    break-free, a Hide's cover, the weapon reloaded, freed, drawn …; [] when it names none.
    """
    if command.action == "break-free":
        return [
            Option(str(i + 1), f"{bonus:+d}", replace(command, bonus=bonus))
            for i, bonus in enumerate(ESCAPE_BONUS)
        ]
    if command.action == "hide":  # into which cover (R-ATK-6)
        return [
            Option(str(int(c)), f"{c.label} (+{int(c)} Defense)", replace(command, cover=c.label))
            for c in list(Cover)[1:]  # light, medium, heavy
        ]
    if not ACTIONS[command.action].weapon or not actor.weapons:
        return []
    names = catalog.weapons
    options = [
        Option(
            str(i + 1), names[w.id].name if w.id in names else w.id, replace(command, weapon=w.id)
        )
        for i, w in enumerate(actor.weapons[:8])
    ]
    if command.action == "interact":
        options.append(Option("0", "other equipment nearby", command))
    return options


def detail_options(
    enc: Encounter, actor: Combatant, command: TakeAction, catalog: Catalog
) -> list[Option[TakeAction]]:
    """:func:`action_details`, each marked ✗ with the engine's reason when it refuses it."""
    return [
        replace(o, label=_marked(o.label, take_action_refusal(enc, o.command, catalog)))
        for o in action_details(actor, command, catalog)
    ]


def move_options(enc: Encounter, mover: str, run: bool = False) -> list[Option[Any]]:
    """R-ACT-2: each other zone and what reaches it this turn (a Move, or Move+Run for a
    zone at Short; farther: close in one band; beyond Melee also a lone Move halfway),
    or the engine's ✗; ``run``: Move+Run to any zone, the GM's call.
    """
    keys = _keys()
    return [
        Option(next(keys), f"✗ {label}" if refused else label, command)
        for label, refused, command in _route_picks(enc, mover, run)
    ]


def _route_picks(enc: Encounter, mover: str, run: bool = False) -> Iterator[tuple[str, bool, Any]]:
    """Each route as (label, refused by the engine, command); the lone Moves halfway
    come last, so the keys of the routes that get there stay where they were.
    """
    found = routes(enc, mover)
    for route in found:
        if route.close_in is not None:  # farther than Short: a band nearer (R-ACT-2)
            label = f"{route.place}: close in one band, Move + Run"
            why = route.close_in_why
            yield (f"{label} — {why}" if why else label), bool(why), route.close_in
        elif run:
            yield route.place, False, replace(route.move, run=True)
        else:  # the cost says why when it cannot be paid
            yield f"{route.place}: {route.cost}", not route.possible, route.move
    for route in () if run else found:
        if route.halfway is not None:  # a lone Move: half the band (R-ACT-2)
            label, why = f"{route.place}: halfway, Move, 1 action", route.halfway_why
            yield (f"{label} — {why}" if why else label), bool(why), route.halfway


def cover_options(enc: Encounter, chosen: Combatant, catalog: Catalog) -> list[Option[Batch]]:
    """Each cover for the whole of ``chosen``'s group at once, one Batch each: the builder
    and the combat screen offer the same. Before the fight the GM places the group; during
    it, each member taking cover hides as one figure does (R-ACT-2 Hide: an action each,
    the same refusals, ✗ with the engine's reason for ``chosen``). Stepping out of cover is
    the GM's mark, free (as ``c`` is for one figure).
    """
    options = []
    for cover in Cover:
        order: SetCover | TakeAction = SetCover(chosen.id, cover.label)
        if enc.active and cover:
            order = TakeAction(chosen.id, "hide", cover=cover.label)
        batch = Batch(for_group(enc, order))
        count = len(batch.commands)
        if not cover:
            label = f"all {count} out of cover"
        elif isinstance(order, TakeAction):
            label = _marked(
                f"all {count} hide in {cover.label} cover (1 action each)",
                take_action_refusal(enc, order, catalog),
            )
        else:
            label = f"all {count} in {cover.label} cover"
        options.append(Option(str(int(cover)), label, batch))
    return options


def group_options(enc: Encounter, chosen: Combatant, catalog: Catalog) -> list[Option[Batch]]:
    """Group orders: a cover, or a move, for ``chosen``'s whole group in one
    pick, each one Batch (one undo step; a member the rules stop is skipped with the reason
    in the log); each carries the engine's ✗ for ``chosen`` before the pick.
    """
    options = cover_options(enc, chosen, catalog)
    count = len(options[0].command.commands)
    letters = _keys(digits=False)
    for label, refused, command in _route_picks(enc, chosen.id):
        text = f"{'✗ ' if refused else ''}all {count} to {label}"
        options.append(Option(next(letters), text, Batch(for_group(enc, command))))
    return options


def place_options(enc: Encounter, chosen: Combatant) -> list[Option[Batch]]:
    """Set-up: each other zone for ``chosen``'s whole group, one Batch each,
    with the engine's ✗ when it cannot be placed there now (F7 while the fight is on).
    """
    letters = _keys(digits=False)
    options = []
    for zone in (zone for zone in enc.zones if zone != chosen.zone):
        orders = Batch(for_group(enc, Place(chosen.id, zone)))
        why = place_refusal(enc, orders.commands[0])
        options.append(
            Option(next(letters), _marked(f"all {len(orders.commands)} to {zone}", why), orders)
        )
    return options


def destroyed_options(c: Combatant, catalog: Catalog) -> list[Option[SetDestroyed]]:
    """§7 row 6 by the GM's hand: each piece ``c`` carries, to mark destroyed (it no
    longer works) or, destroyed already, to mend.
    """
    keys = _keys()
    return [
        Option(
            next(keys),
            f"{name}: destroyed — mend it" if key in c.destroyed else f"{name}: works — destroy it",
            SetDestroyed(c.id, key, key not in c.destroyed),
        )
        for key, name in carried_items(c, catalog)
    ]


def declare_options(enc: Encounter, seat_refusal: str = "") -> list[Option[DeclareActions]]:
    """R-ACT-3: how many actions this turn (each beyond two costs −1 on every action), each
    marked ✗ with the reason it cannot be declared now: ``seat_refusal`` (a player's, not
    its hero's turn), else the engine's (a Minion, too late).
    """
    return [
        Option(
            str(n),
            _marked(
                f"{n} actions" + (f", each at −{n - 2}" if n > 2 else ""),
                seat_refusal or declare_refusal(enc, n),
            ),
            DeclareActions(n),
        )
        for n in DECLARE
    ]


def export_options(seats: Sequence[Seat]) -> list[Option[Seat]]:
    """Whose reading of the log the GM may export for the group's recap (F6 ``p``): what
    every seat reads, then each player's seat (with what was opened to it)."""
    keys = _keys()
    options = [Option(next(keys), "as every seat reads it (the public log)", TABLE_SEAT)]
    options += [
        Option(next(keys), f"as {seat.user} reads it", seat)
        for seat in seats
        if seat.role is Role.PLAYER
    ]
    return options


def whisper_options(seats: Sequence[Seat]) -> list[Option[str]]:
    """The seats the GM may whisper to (F6 ``"``): the players and watchers at the table."""
    keys = _keys()
    return [
        Option(next(keys), f"{seat.user} ({seat.role})", seat.issuer)
        for seat in seats
        if seat.role is not Role.GM
    ]


def open_options(
    log: tuple[LogEntry, ...], seq: int, seats: Sequence[Seat]
) -> list[Option[OpenEntry]]:
    """The seats the GM may open entry ``seq`` to (F6 ``O``), each checked by
    :func:`~hsm_tui.table.visibility.opening`: a seat it is open to already is marked ✗.
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
