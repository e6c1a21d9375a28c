"""What the Session does with encounters prepared ahead: keep the builder's encounter (or
one read from a file) by name, drop one, load one into the builder. Each is one undo
step with its log entry, the GM's alone: the players never learn what is prepared.

A mixin of :class:`~hsm_tui.table.session.Session`, which holds the state it changes.
"""

from __future__ import annotations

from dataclasses import replace

from ..campaign.combat import ClearEncounter
from ..campaign.encounter import Encounter
from ..campaign.prepared import (
    DropEncounter,
    LoadEncounter,
    PreparedCommand,
    PreparedEncounter,
    dropped,
    kept,
    named,
    prepared_from,
    prepared_name,
)
from ..campaign.staging import checked, load_refusal, setup_commands
from ..rules import RulesError
from .visibility import entry_visibility


def described(prep: PreparedEncounter) -> str:
    """A prepared encounter in a line: its place and who stands on each side."""
    sides = " vs ".join(
        f"{side} {sum(r.count for r in prep.rows if r.side == side)}" for side in prep.sides
    )
    return f"{len(prep.zones)} zone(s); {sides or 'nobody yet'}"


class PreparedEncounters:
    """The Session's prepared encounters (its ``campaign``, ``encounter`` and ``catalog``)."""

    def _prepared(self, command: PreparedCommand) -> None:
        camp = self.campaign
        if isinstance(command, LoadEncounter):
            self._load_prepared(command)
            return
        if isinstance(command, DropEncounter):
            gone = named(camp.prepared, command.name)
            self.campaign = replace(camp, prepared=dropped(camp.prepared, gone.name))
            title, lines = f"Prepared encounter {gone.name!r} dropped", ()
        else:
            name = prepared_name(command.name)
            prep = command.encounter or prepared_from(self.encounter, name)
            prep = checked(replace(prep, name=name), self.catalog)
            known = {p.name.casefold() for p in camp.prepared}
            done = "replaced" if name.casefold() in known else "kept"
            self.campaign = replace(camp, prepared=kept(camp.prepared, prep, command.replace))
            title, lines = f"Prepared encounter {name!r} {done}", (described(prep),)
        self._add_log(command.issuer, title, lines, entry_visibility(command))

    def _load_prepared(self, command: LoadEncounter) -> None:
        """The builder's encounter goes (the party keeps what it left, as with ``N``) and
        the prepared one is set up in its place, the party's Heroes as they are now."""
        prep = named(self.campaign.prepared, command.name)
        why = load_refusal(prep, self.encounter, self.catalog)
        if why:
            raise RulesError(why)
        party = {m.entry for m in self.campaign.party if not m.dead}
        commands, notes = setup_commands(prep, self.catalog, party)
        if self.encounter != Encounter(zones=()):
            self._dispatch(ClearEncounter(keep_zones=False, issuer=command.issuer))
        title = f"Prepared encounter {prep.name!r} loaded (it stays prepared)"
        self._add_log(command.issuer, title, tuple(notes), entry_visibility(command))
        for setup in commands:
            self._dispatch(replace(setup, issuer=command.issuer))
