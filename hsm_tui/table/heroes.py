"""What the Session asks of the party's Heroes: each as the fight has left it, its Luck
and Clues as a roller's purse, who rolls on the Severe Wound chart, and a Hero outside the
encounter standing in for a roll of the combat engine (a fall, the chart from F5).

A mixin of :class:`~hsm_tui.table.session.Session`, which holds the state it reads.
"""

from __future__ import annotations

from dataclasses import replace

from ..campaign import drafts, freeflow, making, party
from ..campaign.combat import (
    ApplyDamage,
    ChooseChartRow,
    CombatCommand,
    Outcome,
    PendingChartChoice,
    RollChart,
    SetCondition,
    outside_fight,
)
from ..campaign.encounter import Combatant, Encounter
from ..campaign.freeflow import Purse
from ..campaign.making import MadeCharacter
from ..campaign.party import PARTY, Campaign
from ..packs import Catalog
from ..rules import Rank, RulesError
from ..rules.errors import NotPermitted
from .seats import refusal


class PartyHeroes:
    """The Session's party Heroes (its ``campaign``, ``encounter`` and ``content``)."""

    _made: tuple[Catalog | None, tuple[MadeCharacter, ...], Catalog] = (None, (), Catalog())
    """The last catalog made: the packs' and the characters it added, then itself."""

    @property
    def catalog(self) -> Catalog:
        """The loaded packs and the characters the campaign made itself (one catalog for
        the engine; worked out again only when either changes)."""
        packs = self.content.catalog if self.content is not None else Catalog()
        was, made, merged = self._made
        if was is not packs or made is not self.campaign.made:
            merged = making.with_made(packs, self.campaign.made)
            self._made = packs, self.campaign.made, merged
        return merged

    _sketches: dict[str, tuple[drafts.Draft, MadeCharacter]]
    """Each draft as its player is typing it now, with the draft it was typed on: never
    kept, undone or saved (the player's own KeepDraft keeps it). Set by the Session."""

    def sketch(self, sheet: MadeCharacter, issuer: str) -> None:
        """``issuer``'s draft of ``sheet.id`` as typed so far, for the GM to read live:
        refused as keeping it would be (another seat's Hero, a sheet too big to keep)."""
        why = refusal(self._seat_of(issuer), drafts.KeepDraft(sheet), self.encounter, None)
        if why:
            raise NotPermitted(why)
        draft = drafts.sketched(self.campaign.drafts, sheet, self.catalog)
        self._sketches[sheet.id] = (draft, sheet)
        self._notify("sketch")

    def sketch_of(self, hero: str) -> MadeCharacter | None:
        """What ``hero``'s player is typing on its open draft now, None when nothing
        has been typed since it was last kept (the draft's own sheet then stands)."""
        draft = drafts.draft_of(self.campaign.drafts, hero)
        typed = self._sketches.get(hero)
        if typed is None or draft is None or typed[0] != draft or typed[1] == draft.sheet:
            return None
        return typed[1]

    def party_now(self) -> Campaign:
        """The campaign with its Heroes as they are now: those in the encounter as the
        fight has left them so far (what ending it would hand back).
        """
        return party.carried_out(self.campaign, self.encounter)

    def chart_heroes(self) -> tuple[Combatant, ...]:
        """Who rolls on the Severe Wound chart now: the encounter's Heroes and Sidekicks
        playing as Heroes (R-WOUND-2), then party Heroes outside it (``party:<hero id>``).
        """
        enc = self.encounter.combatants
        fighting = tuple(c for c in enc if Rank.HERO in (c.rank, c.plays_as) and not c.out)
        present = party.in_encounter(self.encounter)
        heroes = self.catalog.kind("hero")
        outside = tuple(
            party.stand_in(self.campaign, PARTY + m.entry, self.catalog)
            for m in self.campaign.party
            if m.entry not in present and m.entry in heroes and not m.dead
        )
        return fighting + outside

    def last_wounded(self) -> str | None:
        """The Hero the newest wound in the undo steps fell on (F5 opens on it)."""
        states = [*self._undo.states(), self._snapshot()]
        return party.last_wounded([(s.encounter, s.campaign) for s in states])

    def pools(self, who: str) -> tuple[str, int, int]:
        """Name, Luck and Clues of a roller: a combatant id or ``party:<hero id>``."""
        purse = self._purse(who)
        return purse.name, purse.luck, purse.clues

    def _pay(self, who: str, luck: int, clues: int) -> None:
        if who.startswith(PARTY):
            entry = who.removeprefix(PARTY)

            def spend(campaign: Campaign) -> Campaign:
                m = campaign.member(entry)
                return campaign.with_member(replace(m, luck=m.luck - luck, clues=m.clues - clues))

            self.campaign, self.encounter = party.through_encounter(
                self.campaign, self.encounter, spend
            )
        else:
            c = self.encounter.get(who)
            changed = replace(c, luck=c.luck - luck, clues=c.clues - clues)
            self.encounter = self.encounter.with_combatant(changed)

    def _purse(self, who: str) -> Purse:
        """A roller as it is now (a party Hero in the fight as the fight left it)."""
        return freeflow.purse(who, self.party_now(), self.encounter, self.catalog)

    def _outside_encounter(self, command: CombatCommand) -> str | None:
        """The ``party:<hero id>`` a wound or condition is for, when that Hero is not in the
        encounter (a fall in free-flowing play, the chart rolled from F5, Fatigued).
        """
        if isinstance(command, RollChart | ApplyDamage | SetCondition):
            who = command.combatant
        elif isinstance(command, ChooseChartRow) and isinstance(self.pending, PendingChartChoice):
            who = self.pending.target
        else:
            return None
        return who if who.startswith(PARTY) else None

    def _on_party_hero(self, command: CombatCommand, who: str) -> Outcome:
        if who.removeprefix(PARTY) in party.in_encounter(self.encounter):
            raise RulesError("that Hero is in the encounter: roll for its combatant there")
        outside_fight(command)  # what a Hero outside the fight cannot take
        hero = party.stand_in(self.campaign, who, self.catalog)
        outcome = self._handle(Encounter(zones=(), combatants=(hero,)), command)
        self.campaign = party.from_stand_in(self.campaign, outcome.encounter.get(who))
        return replace(outcome, encounter=self.encounter)
