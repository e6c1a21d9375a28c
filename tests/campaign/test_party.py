"""Campaign state between encounters: party pools and wounds (R-CHAR-9, R-WOUND-7),
roster, scene notes; party Heroes carry their state into combat and back out.
"""

from __future__ import annotations

import pytest

from hsm_tui.campaign.combat import AddCombatants, AddZone, EndCombat, SetBand, StartCombat
from hsm_tui.campaign.party import (
    AddHero,
    AddParty,
    AddToRoster,
    GrantClues,
    NewAdventure,
    RemoveFromRoster,
    RemoveHero,
    SetScene,
)
from tests.campaign import edit, new_session, play, refused

K = "kestrel-vance"


def test_r_char_9_party_heroes_start_with_luck_and_the_gm_grants_clues() -> None:
    s = new_session(AddHero(K), GrantClues(K, 2))
    member = s.campaign.member(K)
    assert (member.luck, member.clues) == (2, 2)  # Kestrel's Luck trait
    assert s.log[-1].title == "Kestrel Vance: Clues 2"
    refused(s, AddHero(K), "already in the party")
    refused(s, GrantClues(K, -3), "would have -1 Clues")
    refused(s, AddHero("nobody"), "no hero 'nobody'")
    s.apply(RemoveHero(K))
    assert s.campaign.party == ()


def test_party_heroes_carry_pools_and_wounds_into_combat_and_back_out() -> None:
    s = new_session(
        AddHero(K),
        GrantClues(K, 1),
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "medium"),
        AddParty("ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
    )
    kestrel = s.encounter.get("kestrel-vance-1")
    assert (kestrel.player, kestrel.luck, kestrel.clues) == (True, 2, 1)
    refused(s, AddParty("ridge"), "no party Hero left")
    play(s, StartCombat(), 5, 1)
    edit(s, kestrel.id, wounds=2, luck=0, severe=1, chart=("scarred",))
    s.apply(EndCombat())
    member = s.campaign.member(K)
    assert (member.wounds, member.luck, member.severe, member.chart) == (2, 0, 1, ("scarred",))
    s.apply(NewAdventure())  # R-WOUND-7: one wound heals; R-CHAR-9: Luck refilled
    member = s.campaign.member(K)
    assert (member.wounds, member.luck, member.severe) == (1, 2, 1)
    assert s.campaign.adventure == 2
    s.undo()
    assert s.campaign.member(K).wounds == 2  # undo covers the campaign too


def test_campaign_changes_reach_heroes_still_in_the_encounter_and_are_not_lost() -> None:
    """R-CHAR-9, R-WOUND-7: a Clue granted mid-fight, or a new adventure after the fight
    while the Heroes are still in the (ended) encounter, must survive the moment the
    encounter hands its Heroes back (end of combat, clearing it for the next fight).
    """
    from hsm_tui.campaign.combat import ClearEncounter

    s = _party_in_a_fight()
    edit(s, "kestrel-vance-1", wounds=2, luck=0)
    s.apply(GrantClues(K, 1))  # mid-fight: the Hero in the fight gets it
    assert s.encounter.get("kestrel-vance-1").clues == 1
    s.apply(EndCombat())
    assert s.campaign.member(K).clues == 1  # not overwritten by the fight's copy
    s.apply(NewAdventure())
    s.apply(GrantClues(K, 1))
    s.apply(ClearEncounter())
    member = s.campaign.member(K)
    assert (member.wounds, member.luck, member.clues) == (1, 2, 2)


def test_roster_and_scene_notes() -> None:
    s = new_session(AddToRoster("minion", "pirate-raider"), SetScene("The dig site at dusk."))
    assert s.campaign.roster == (("minion", "pirate-raider"),)
    assert s.campaign.scene == "The dig site at dusk."
    refused(s, AddToRoster("minion", "pirate-raider"), "already on the roster")
    refused(s, AddToRoster("hero", K), "sidekicks and minions")
    refused(s, RemoveFromRoster("sidekick", "veteran-guide"), "not on the roster")
    s.apply(RemoveFromRoster("minion", "pirate-raider"))
    assert s.campaign.roster == ()


@pytest.mark.parametrize("text", ["x" * 10_001])
def test_scene_notes_have_a_bound(text: str) -> None:
    refused(new_session(), SetScene(text), "10,000 characters")


def _party_in_a_fight():
    s = new_session(
        AddHero(K),
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "medium"),
        AddParty("ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
    )
    play(s, StartCombat(), 5, 1)
    return s


def test_a_party_hero_leaving_the_encounter_keeps_what_the_fight_left() -> None:
    """R-WOUND, R-CHAR-9: a Hero who flees (RemoveCombatant) takes wounds and spent Luck
    back to the campaign, as at the end of combat.
    """
    from hsm_tui.campaign.combat import RemoveCombatant

    s = _party_in_a_fight()
    s.apply(EndCombat())
    edit(s, "kestrel-vance-1", wounds=1, luck=0)
    s.apply(RemoveCombatant("kestrel-vance-1"))
    member = s.campaign.member(K)
    assert (member.wounds, member.luck) == (1, 0)


def test_a_villain_twin_of_a_party_hero_is_not_the_party_hero() -> None:
    """Only the party's own copy (a player character) carries the party's state."""
    s = _party_in_a_fight()
    s.apply(EndCombat())
    s.apply(AddCombatants("hero", K, "villains", "dig"))
    twin = next(c for c in s.encounter.combatants if not c.player)
    edit(s, twin.id, wounds=2)
    s.apply(GrantClues(K, 1))
    assert s.encounter.get("kestrel-vance-1").wounds == 0
    assert s.encounter.get(twin.id).clues == 0  # the Clue went to the party's Kestrel
    assert s.campaign.member(K).wounds == 0
    assert s.campaign.member(K).clues == 1


def test_r_wound_7_no_new_adventure_in_the_middle_of_a_fight() -> None:
    s = _party_in_a_fight()
    refused(s, NewAdventure(), "combat is under way")


def test_the_party_as_it_is_now_reads_heroes_in_a_fight_from_the_fight() -> None:
    """The home screen and a named roller's pools show the live Luck, not the stale copy."""
    s = _party_in_a_fight()
    edit(s, "kestrel-vance-1", luck=0, wounds=1)
    assert s.campaign.member(K).luck == 2  # the campaign's copy waits for the fight's end
    now = s.party_now().member(K)
    assert (now.luck, now.wounds) == (0, 1)
    assert s.pools("party:" + K)[1:] == (0, 0)
