"""Wounds in free-flowing play: a party Hero outside the encounter takes a fall's damage
(R-OTHER-6, R-DMG-2) and rolls on the Severe Wound chart (R-WOUND-5, §7) through the same
rules as in a fight; the party keeps the result and carries it into the next fight.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    ApplyDamage,
    ChooseChartRow,
    PendingChartChoice,
    RemoveCombatant,
    RollChart,
)
from hsm_tui.campaign.party import AddHero, AddParty, NewAdventure, rollers
from tests.campaign import new_session, play, refused

K = "kestrel-vance"
WHO = f"party:{K}"  # Kestrel: Strength 3, so Health 6 (R-CHAR-3)


def test_r_other_6_a_fall_wounds_a_party_hero_outside_any_fight() -> None:
    s = new_session(AddHero(K))
    s.apply(ApplyDamage(WHO, 7))  # 7 > 6: one wound step (R-DMG-2)
    assert s.campaign.member(K).wounds == 1
    assert s.log[-1].title == "Kestrel Vance takes damage"
    assert s.encounter.combatants == ()  # no stand-in is left behind
    s.undo()
    assert s.campaign.member(K).wounds == 0


def test_r_wound_5_chart_roll_for_a_party_hero_is_kept_and_carried_into_a_fight() -> None:
    s = new_session(AddHero(K))
    play(s, RollChart(WHO, 0), 1)  # d10 1 + 0 + 2×0 = 1: Scarred
    member = s.campaign.member(K)
    assert (member.severe, member.chart) == (1, ("scarred",))
    assert member.wounds == 3  # a chart roll is a severe wound: the marker says so (R-WOUND-1)
    assert s.log[-1].lines[-1].startswith("→ Scarred")
    # no Stamina roll to keep hold of a weapon: nothing is held outside a fight
    assert not any("Stamina" in line for line in s.log[-1].lines)
    play(s, RollChart(WHO, 0), 10)  # 10 + 2×1 earlier = 12
    assert s.campaign.member(K).chart == ("scarred", "rolls-a-ways")
    s.apply(AddZone("ridge"))
    s.apply(AddParty("ridge"))
    hero = s.encounter.combatants[0]
    assert (hero.severe, hero.chart) == (2, ("scarred", "rolls-a-ways"))


def test_r_wound_5_a_13_for_a_party_hero_waits_for_the_gms_pick() -> None:
    s = new_session(AddHero(K))
    play(s, RollChart(WHO, 3), 10)  # 10 + 3 = 13: two rows (erratum)
    assert isinstance(s.pending, PendingChartChoice) and s.pending.target == WHO
    s.apply(ChooseChartRow("limb-injury"))
    assert s.pending is None
    assert s.campaign.member(K).chart == ("limb-injury",)


def test_what_a_stand_in_cannot_do_is_refused_with_the_reason() -> None:
    s = new_session(AddHero(K), AddZone("ridge"))
    refused(s, ApplyDamage(WHO, 7, nonlethal=True), "non-lethal wounds are kept in a fight")
    refused(s, RollChart("party:nobody", 0), "no hero 'nobody' in the party")
    s.apply(AddParty("ridge"))
    refused(s, RollChart(WHO, 0), "in the encounter: roll for its combatant")


def test_chart_heroes_are_the_fights_heroes_then_the_party_outside_it() -> None:
    s = new_session(AddHero(K), AddHero("roan-maddox"), AddZone("ridge"))
    assert [c.id for c in s.chart_heroes()] == [WHO, "party:roan-maddox"]
    s.apply(AddCombatants("hero", K, "heroes", "ridge", player=True))
    s.apply(AddCombatants("minion", "pirate-raider", "pirates", "ridge"))
    assert [c.id for c in s.chart_heroes()] == ["kestrel-vance-1", "party:roan-maddox"]


def test_r_wound_5_a_hero_the_chart_kills_stays_dead_between_fights() -> None:
    """§7's Dead row: the party keeps it (home shows DEAD); no task roller, no chart, no
    place in the next fight, and a new adventure does not bring the Hero back.
    """
    s = new_session(AddHero(K), AddHero("roan-maddox"), AddZone("ridge"))
    play(s, RollChart(WHO, 21), 1)  # 1 + 21 = 22: Dead
    assert s.campaign.member(K).dead
    s.apply(NewAdventure())
    assert s.campaign.member(K).dead
    assert [c.id for c in s.chart_heroes()] == ["party:roan-maddox"]
    assert [r.who for r in rollers(s.campaign, s.encounter, s.catalog)] == ["party:roan-maddox"]
    refused(s, ApplyDamage(WHO, 7), "already out of the fight")  # the dead take no wounds
    refused(s, RollChart(WHO, 0), "is dead")
    s.apply(AddParty("ridge"))
    assert [c.entry for c in s.encounter.combatants] == ["roan-maddox"]


def test_a_hero_killed_in_a_fight_is_dead_in_the_party_after_it() -> None:
    s = new_session(AddHero(K), AddZone("ridge"), AddParty("ridge"))
    hero = s.encounter.combatants[0].id
    play(s, RollChart(hero, 21), 1, 1, 1)  # grip roll (d10 and Hero die), then 22: Dead
    assert [c.id for c in s.chart_heroes()] == []  # no more rolls for the dead
    refused(s, RollChart(hero, 0), "Kestrel Vance is dead")
    s.apply(RemoveCombatant(hero))
    assert s.campaign.member(K).dead
