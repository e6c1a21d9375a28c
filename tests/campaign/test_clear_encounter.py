"""ClearEncounter: the next fight starts from an empty encounter (R-COMBAT-1), in the same
place unless the GM drops the zones too; the party keeps its wounds, Luck and scars.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    ApplyDamage,
    ClearEncounter,
    EndCombat,
    SetBand,
    SetPools,
)
from hsm_tui.campaign.encounter import Encounter
from hsm_tui.campaign.party import AddHero, AddParty
from hsm_tui.rules import RangeBand
from tests.campaign import edit, new_session, refused
from tests.campaign.test_combat_engine import R1, K, duel


def test_r_combat_1_refused_while_combat_runs_then_clears_the_combatants() -> None:
    s = duel()
    s.apply(ApplyDamage(R1, 5))  # a raider taken out: it goes with the rest
    refused(s, ClearEncounter(), "combat is under way: end it first")
    s.apply(EndCombat())
    s.apply(ClearEncounter())
    enc = s.encounter
    assert enc == Encounter(zones=("ridge", "dig", "trench", "camp"), bands=enc.bands)
    assert ("ridge", "dig", RangeBand.MEDIUM) in enc.bands and len(enc.bands) == 5
    assert (enc.round, enc.order, enc.turn, enc.active) == (0, (), None, False)
    assert s.log[-1].title == "New encounter"
    assert s.log[-1].lines == ("3 combatant(s) removed", "zones and bands kept")
    refused(s, ClearEncounter(), "the encounter is already empty")


def test_clearing_can_drop_the_zones_and_bands_too() -> None:
    s = duel()
    s.apply(EndCombat())
    s.apply(ClearEncounter(keep_zones=False))
    assert s.encounter == Encounter(zones=())
    assert s.log[-1].lines[-1] == "zones and bands cleared"
    refused(s, ClearEncounter(keep_zones=False), "already empty")


def test_zones_without_combatants_can_still_be_dropped() -> None:
    s = new_session(AddZone("deck"), AddZone("hold"), SetBand("deck", "hold", "short"))
    refused(s, ClearEncounter(), "already empty")
    s.apply(ClearEncounter(keep_zones=False))
    assert s.encounter.zones == ()


def test_undo_gives_the_whole_encounter_back_and_redo_clears_it_again() -> None:
    s = duel()
    s.apply(EndCombat())
    ended = s.encounter
    s.apply(ClearEncounter(keep_zones=False))
    s.undo()
    assert s.encounter == ended and s.log[-1].title.startswith("Combat ends")
    s.redo()
    assert s.encounter == Encounter(zones=())


def test_the_party_keeps_what_it_carried_out_of_the_encounter() -> None:
    """R-CHAR-9 Luck and Clues, R-WOUND-1 wounds, §7 scars: a party Hero still in the
    encounter after the fight may spend Luck or take damage there; clearing hands it
    all back to the campaign, as EndCombat does.
    """
    hero = "kestrel-vance"
    s = new_session(
        AddHero(hero),
        AddZone("ridge"),
        AddParty("ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "ridge"),
    )
    s.apply(SetPools(K, luck=1, clues=2))
    s.apply(ApplyDamage(K, 7))  # Health 6: one wound step, outside combat
    edit(s, K, severe=1, chart=("scarred",))
    s.apply(ClearEncounter())
    member = s.campaign.member(hero)
    assert (member.luck, member.clues, member.wounds) == (1, 2, 1)
    assert (member.severe, member.chart) == (1, ("scarred",))
    s.undo()
    assert s.campaign.member(hero).wounds == 0  # the undo covers the campaign too
