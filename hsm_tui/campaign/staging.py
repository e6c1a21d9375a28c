"""A prepared encounter's set-up as the combat engine's own commands, checked by playing
them on an empty encounter: what a load applies, and what a keep, an import or an
encounter file is checked with (each problem names the part it is in).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from ..packs import Catalog
from ..rules import Cover, RulesError
from .combat import (
    HANDLERS,
    AddCombatants,
    AddZone,
    CombatCommand,
    DecideSidekick,
    SetBand,
    SetCover,
    SetDivePolicy,
)
from .encounter import Encounter
from .prepared import PreparedEncounter, PreparedRow

Where = tuple[str, int]
"""The part a problem is in: ``("combatant", 2)`` is the third combatant row (an encounter
file's third ``[[combatant]]``); ``zone``, ``band`` and ``dive_policy`` likewise."""


class SetupProblem(RulesError):
    """A part of a prepared encounter the engine refuses to set up, with the reason."""

    def __init__(self, where: Where, problem: str) -> None:
        super().__init__(f"{where[0].replace('_', ' ')} #{where[1] + 1}: {problem}")
        self.where = where
        self.problem = problem


def setup_commands(
    prep: PreparedEncounter, catalog: Catalog, party: Collection[str] | None = None
) -> tuple[list[CombatCommand], list[str]]:
    """The set-up commands ``prep`` describes, without StartCombat, and a note for each party
    row left out. ``party``: the party Heroes who may join now (None: every party row, as
    kept); a party row of another Hero is left out, and a side's dive policy with it when
    nobody is left on that side. A part the engine refuses raises :class:`SetupProblem`.
    """
    enc, rng = Encounter(zones=()), random.Random(0)  # set-up rolls nothing before combat
    commands: list[CombatCommand] = []
    notes: list[str] = []

    def run(command: Any, where: Where) -> None:
        nonlocal enc
        try:
            enc = HANDLERS[type(command)](enc, command, rng, catalog).encounter
        except RulesError as err:
            raise SetupProblem(where, str(err)) from None
        commands.append(command)

    for i, zone in enumerate(prep.zones):
        run(AddZone(zone), ("zone", i))
    for i, (a, b, band) in enumerate(prep.bands):
        run(SetBand(a, b, band.label), ("band", i))
    for i, row in enumerate(prep.rows):
        if row.party and party is not None and row.entry not in party:
            notes.append(f"{_name(row, catalog)} is not in the party now: left out")
            continue
        before = {c.id for c in enc.combatants}
        run(_added(row), ("combatant", i))
        for added in (c for c in enc.combatants if c.id not in before):
            if row.cover is not Cover.NONE:
                run(SetCover(added.id, row.cover.label), ("combatant", i))
            if row.plays_as is not None:
                run(DecideSidekick(added.id, row.plays_as.value), ("combatant", i))
    sides = {c.side for c in enc.combatants}
    for i, (side, policy) in enumerate(prep.dive_policy):
        if party is None or side in sides:
            run(SetDivePolicy(side, policy), ("dive_policy", i))
    return commands, notes


def _added(row: PreparedRow) -> AddCombatants:
    return AddCombatants(
        row.kind,  # type: ignore[arg-type]  # checked by the handler: a RulesError
        row.entry,
        row.side,
        row.zone,
        row.count,
        player=row.party,
        hidden=row.hidden,
    )


def _name(row: PreparedRow, catalog: Catalog) -> str:
    """A party row's Hero by name (its entry id once the packs no longer have it)."""
    entry = catalog.kind("hero").get(row.entry)
    return entry.name if entry is not None else row.entry


def checked(prep: PreparedEncounter, catalog: Catalog) -> PreparedEncounter:
    """``prep`` once the engine sets it up whole, else a RulesError naming it and the part
    at fault (a pack entry no longer loaded, a zone misspelt in a hand-edited file)."""
    try:
        setup_commands(prep, catalog)
    except SetupProblem as err:
        raise RulesError(f"{prep.name}: {err}") from None
    return prep


def load_refusal(prep: PreparedEncounter, enc: Encounter, catalog: Catalog) -> str:
    """Why ``prep`` cannot be loaded now, "" when it can: not over a fight under way (the
    GM ends it first; a fight's encounter is the party's record until then), nor when the
    packs no longer have what it needs. The F7 list shows the same reason by its name.
    """
    return fight_refusal(prep, enc) or packs_refusal(prep, catalog)


def fight_refusal(prep: PreparedEncounter, enc: Encounter) -> str:
    """The part of :func:`load_refusal` that follows the fight (cheap: asked per change)."""
    if enc.active:
        return f"combat is under way: end it first (F4 E), then load {prep.name!r}"
    return ""


def packs_refusal(prep: PreparedEncounter, catalog: Catalog) -> str:
    """The part of :func:`load_refusal` that follows the packs: ``prep`` set up on them
    (a list may keep it as long as the catalog is the same)."""
    try:
        checked(prep, catalog)
    except RulesError as err:
        return str(err)
    return ""
