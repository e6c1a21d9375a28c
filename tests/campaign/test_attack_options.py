"""§5 attack options beyond the plain shot: called shots at head or limb (R-ATK-10), two
weapons (R-ATK-11), throwing (R-ATK-1), grappling (R-ATK-17), Standby (R-ACT-2) and zone of
control (R-OTHER-4) reactions, firing into melee (R-ATK-13), stuck and dropped weapons.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    Attack,
    EndTurn,
    Move,
    SetPools,
    StartCombat,
    TakeAction,
    plan_attack,
)
from hsm_tui.campaign.combat.hands import off_hand_weapons, other_hand
from hsm_tui.campaign.encounter import WeaponState
from hsm_tui.table.session import Session
from tests.campaign import charges, edit, new_session, play, refused
from tests.campaign.test_combat_engine import R1, K, duel, left, to_raiders


def test_r_atk_10_called_shot_at_the_head_adds_a_d8() -> None:
    s = duel()
    shot = Attack(K, R1, "assault-laser", called_shot=True, location="head")
    assert plan_attack(s.encounter, shot, s.catalog).tn.value == 8 - 3
    play(s, shot, 1, 9, 9, 9, 9, 2)  # one hit at TN 5
    play(s, AnswerDive("none"), 9, 2, 3)  # through; 1d6 2 + 1d8 3 = 5 > Health 4
    assert "1d8" in s.log[-1].lines[1] and "= 5" in s.log[-1].lines[1]
    assert s.encounter.get(R1).out


def test_r_atk_10_called_shot_at_a_limb_needs_stamina_minus_damage() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser", called_shot=True, location="limb"), 1, 9, 9, 9, 9, 2)
    play(s, AnswerDive("none"), 9, 2, 5)  # 2 damage, no wound; Stamina 4 − 2 = 2: 5 fails
    raider = s.encounter.get(R1)
    assert raider.standing and "lamed" in raider.conditions
    assert s.log[-1].lines[-1].endswith("the limb is useless (drops or falls)")
    refused(s, Attack(K, R1, "assault-laser", location="head"), "head or a limb")


def test_r_atk_11_two_weapons_main_hand_minus_2_then_off_hand_minus_3_in_one_action() -> None:
    s = duel(raiders_in="ridge")
    refused(s, Attack(K, R1, "dagger", hand="off"), "right after a main-hand attack")
    long_laser = WeaponState("long-laser", 6, 6)
    edit(s, K, weapons=(*s.encounter.get(K).weapons, long_laser))
    refused(s, Attack(K, R1, "long-laser", hand="main"), "two-handed")
    main = Attack(K, R1, "laser-pistol", hand="main")
    assert "main hand 2" in plan_attack(s.encounter, main, s.catalog).tn.explain()
    play(s, main, 9, 9, 9, 9, 2)  # all miss
    off = Attack(K, R1, "dagger", hand="off")
    plan = plan_attack(s.encounter, off, s.catalog)
    assert plan.tn.value == 6 - 3 and "off hand 3" in plan.tn.explain()
    play(s, off, 9, 9, 9, 2)
    assert left(s, K) == 1  # both hands were one Attack action
    refused(s, off, "right after a main-hand attack")


@pytest.mark.parametrize(
    ("advantages", "main_hand", "off_hand"),
    [
        (("Ambidexterity",), "main hand 2", "off hand (ambidexterity) 2"),
        (("Two-weapon fighting: drilled",), "main hand (two-weapon fighting) 1", "fighting) 2"),
        (("ambidexterity", "Two-weapon fighting"), "fighting) 1", "weapon fighting) 1"),
    ],
)
def test_r_atk_11_ambidexterity_eases_the_weak_hand_two_weapon_fighting_both(
    advantages: tuple[str, ...], main_hand: str, off_hand: str
) -> None:
    """The book (§5): Ambidexterity makes the weak hand 1 easier, Two-weapon fighting
    both; with both Advantages each hand is at −1."""
    s = duel(raiders_in="ridge")
    kestrel = s.catalog.heroes["kestrel-vance"]
    heroes = {**s.catalog.heroes, "kestrel-vance": replace(kestrel, advantages=advantages)}
    cat = replace(s.catalog, heroes=heroes)
    main = Attack(K, R1, "laser-pistol", hand="main")
    assert main_hand in plan_attack(s.encounter, main, cat).tn.explain()
    play(s, main, 9, 9, 9, 9, 2)
    off = Attack(K, R1, "dagger", hand="off")
    assert off_hand in plan_attack(s.encounter, off, cat).tn.explain()


ROAN = "roan-maddox-1"


def roan_at_close_quarters() -> Session:
    """Roan Maddox (one Laser Pistol, one Boarding Cutlass) and a raider in one zone."""
    s = new_session(
        AddZone("deck"),
        AddCombatants("hero", "roan-maddox", "heroes", "deck", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "deck"),
        SetPools(ROAN, luck=0),
    )
    return play(s, StartCombat(), 5, 1)  # Roan 7 + 5 = 12, the raider 7 + 1 = 8


def test_r_atk_11_the_off_hand_needs_a_second_one_handed_weapon() -> None:
    """R-ATK-11 "two single-handed weapons at the same time": the pistol that fired from
    the main hand cannot fire again from the off hand (8 charges in one turn); the cutlass
    in the other hand can. A combatant holding one weapon has no main hand to fight with.
    """
    s = roan_at_close_quarters()
    roan = s.encounter.get(ROAN)
    assert other_hand(roan, "laser-pistol", s.catalog) == ("cutlass",)
    assert off_hand_weapons(s.encounter, roan, s.catalog) == ()  # no main hand yet
    play(s, Attack(ROAN, R1, "laser-pistol", hand="main"), 9, 9, 9, 9, 2)  # 4 misses
    assert charges(s, ROAN, "laser-pistol") == 6
    assert off_hand_weapons(s.encounter, s.encounter.get(ROAN), s.catalog) == ("cutlass",)
    refused(s, Attack(ROAN, R1, "laser-pistol", hand="off"), "Laser Pistol attacked this turn")
    cutlass = Attack(ROAN, R1, "cutlass", hand="off")
    assert plan_attack(s.encounter, cutlass, s.catalog).tn.explain().endswith("off hand 3 = 3")
    play(s, cutlass, 9, 2)  # Power: one attack die, a miss
    assert left(s, ROAN) == 1 and charges(s, ROAN, "laser-pistol") == 6
    s = roan_at_close_quarters()
    pistol, cutlass_state = s.encounter.get(ROAN).weapons
    edit(s, ROAN, weapons=(pistol, replace(cutlass_state, dropped=True)))
    refused(s, Attack(ROAN, R1, "laser-pistol", hand="main"), "no second one-handed weapon")


def test_r_atk_1_throw_a_dagger_agile_one_die_thrown_damage_and_it_is_gone() -> None:
    s = duel()
    throw = Attack(K, R1, "dagger", throw=True)
    plan = plan_attack(s.encounter, throw, s.catalog)
    assert (plan.dice, plan.melee, plan.tn.value) == (1, False, 6 - 1)  # Medium: one past Short
    play(s, throw, 1, 2)
    play(s, AnswerDive("none"), 9, 2)  # 1d6 2 + Strength 3 = 5 > Health 4
    assert s.encounter.get(R1).out
    assert s.encounter.get(K).weapon("dagger").dropped
    refused(s, Attack(K, "pirate-raider-2", "dagger", throw=True), "no longer holds Dagger")
    refused(s, Attack(K, "pirate-raider-2", "assault-laser", throw=True), "not a throwing weapon")


def test_r_atk_17_grapple_compares_damage_with_strength_and_breaking_free_is_opposed() -> None:
    s = duel(raiders_in="ridge")
    play(s, Attack(K, R1, "fists", grapple=True), 1, 9, 9, 2, 9, 5)  # grab d8 5 > Strength 2
    raider = s.encounter.get(R1)
    assert "grappled" in raider.conditions and raider.wounds == 0 and raider.standing
    assert "is grappled (R-ATK-17)" in s.log[-1].lines[-1]
    to_raiders(s)
    play(s, TakeAction(R1, "break-free"), 3, 2)  # 3 + 2 = 5 vs 2 + 2 × 3 = 8: held
    assert "grappled" in s.encounter.get(R1).conditions
    refused(s, TakeAction("pirate-raider-2", "break-free"), "is not grappled")


def test_r_act_2_standby_attacks_out_of_turn_without_spending_an_action() -> None:
    s = duel()
    s.apply(TakeAction(K, "standby"))
    to_raiders(s)
    play(s, Attack(K, R1, "assault-laser", reaction="standby"), 9, 9, 9, 9, 9, 2)
    assert "standby" not in s.encounter.get(K).conditions
    assert s.encounter.turn is not None and s.encounter.turn.used == ()
    refused(s, Attack(K, R1, "assault-laser", reaction="standby"), "not on Standby")


def test_r_other_4_zone_of_control_hit_slows_the_mover_once_per_turn() -> None:
    s = duel(raiders_in="ridge")
    to_raiders(s)
    refused(s, Attack(R1, K, "cutlass", reaction="zone-of-control"), "for Heroes")
    play(s, Attack(K, R1, "dagger", reaction="zone-of-control"), 1, 9, 9, 2, 9, 1, 1)
    assert "slowed" in s.encounter.get(R1).conditions
    refused(s, Move(R1, "camp", run=True), "only a Move this turn")
    refused(s, Attack(K, R1, "dagger", reaction="zone-of-control"), "already stopped someone")
    s.apply(EndTurn())
    assert "slowed" not in s.encounter.get(R1).conditions


def test_r_atk_13_misfortune_firing_into_melee_sends_a_hit_to_the_ally() -> None:
    s = duel()
    play(s, AddCombatants("hero", "roan-maddox", "heroes", "dig"), 5)  # his initiative
    roan = "roan-maddox-1"
    edit(s, roan, engaged=(R1,), luck=0)
    edit(s, R1, engaged=(roan,))
    # 2 hits; Misfortune: only 1 counts, and it goes to Roan: Defense d10 9 (Hero die 2)
    # gets through Dodge 5, damage 1d6 1
    play(s, Attack(K, R1, "assault-laser"), 1, 1, 9, 9, 9, 1, 9, 2, 1)
    titles = [e.title for e in s.log[-3:]]
    assert "Firing into melee (R-ATK-13)" in titles
    assert s.encounter.get(R1).fear == 0  # the one hit that counted went astray
    assert s.encounter.get(roan).fear == 2  # the hit (R-ATK-4) and the hit through (R-ATK-7)
    assert s.log[-1].title == "Captain Roan Maddox defends"


def test_stuck_weapon_needs_an_interact_action_to_free_it() -> None:
    s = duel(raiders_in="ridge")
    play(s, Attack(K, R1, "dagger"), 9, 9, 9, 1)  # all miss; Misfortune: stuck
    assert s.encounter.get(K).weapon("dagger").stuck == 1
    refused(s, Attack(K, R1, "dagger", style="wild"), "Dagger is stuck")
    s.apply(TakeAction(K, "interact", weapon="dagger"))
    assert s.encounter.get(K).weapon("dagger").stuck == 0
    s.apply(TakeAction(K, "drop", weapon="dagger"))  # dropping is free (R-ACT-5)
    assert s.encounter.get(K).weapon("dagger").dropped and left(s, K) == 0
