"""The engine answers, the screen asks (issue 17): the queries screens call instead of
working a rule out themselves, and the one way each thing happens (a weapon's state, a
wound, a dive) — plus two faults found while splitting the engine.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    ApplyDamage,
    Attack,
    CloseIn,
    DeclareActions,
    EndTurn,
    Hand,
    Kind,
    Location,
    PendingCombatRerolls,
    Reaction,
    SetPools,
    StartCombat,
    TakeAction,
    group_target,
    held_weapon,
    next_attacker,
    next_cover,
    ready_weapon,
    reloadable,
    routes,
    suppression_weapons,
    zone_name_refusal,
)
from hsm_tui.campaign.combat.gear import FISTS, charged, edit_weapon
from hsm_tui.campaign.combat.wounds import dive, take_wound
from hsm_tui.campaign.encounter import WeaponState
from hsm_tui.persistence import codec, store
from hsm_tui.rules import Cover
from hsm_tui.rules.combat import severely_wounded
from hsm_tui.rules.errors import DecisionPending, NotPermitted
from hsm_tui.table.session import Session
from tests.campaign import edit, pack, play, refused
from tests.campaign.test_combat_engine import R1, K, duel, to_raiders

R2 = "pirate-raider-2"


# -- a group's turn (R-INIT-1) ---------------------------------------------------------------
def test_r_init_1_next_attacker_walks_the_group_in_order_and_skips_who_attacked() -> None:
    s = duel()
    to_raiders(s)
    assert next_attacker(s.encounter, R1) == R2
    play(s, Attack(R2, K, "laser-pistol"), 9, 9, 9, 9)  # R2 misses: it has attacked
    assert next_attacker(s.encounter, R2) == R1  # wraps round to the one still to attack
    assert next_attacker(s.encounter, R1) == R1
    play(s, Attack(R1, K, "laser-pistol"), 9, 9, 9, 9)
    assert next_attacker(s.encounter, R1) is None  # everyone in the group has attacked


def test_r_init_1_next_attacker_is_none_on_one_combatants_turn() -> None:
    assert next_attacker(duel().encounter, K) is None


def test_r_combat_2_a_group_aimed_at_nobody_attacks_the_nearest_enemy() -> None:
    s = duel()
    to_raiders(s)
    assert group_target(s.encounter) == K


# -- weapons: one way to change their state ------------------------------------------------
def test_r_atk_3_ready_weapon_skips_a_dropped_or_stuck_one() -> None:
    kestrel = duel().encounter.get(K)  # assault laser, laser pistol, dagger
    assert ready_weapon(kestrel).id == "assault-laser"
    dropped = edit_weapon(kestrel, "assault-laser", dropped=True)
    assert ready_weapon(dropped).id == "laser-pistol"
    assert ready_weapon(edit_weapon(dropped, "laser-pistol", stuck=1)).id == "dagger"
    nothing = kestrel
    for w in kestrel.weapons:
        nothing = edit_weapon(nothing, w.id, stuck=1)
    assert ready_weapon(nothing).id == "assault-laser"  # none usable: the first carried
    assert ready_weapon(replace(kestrel, weapons=())) is None


def test_r_wound_5_the_weapon_in_hand_is_never_fists() -> None:
    s = duel()
    kestrel = s.encounter.get(K)
    fists_first = replace(kestrel, weapons=(WeaponState(FISTS), *kestrel.weapons))
    assert held_weapon(fists_first) == kestrel.weapons[0]
    assert held_weapon(replace(kestrel, weapons=(WeaponState(FISTS),))) is None


def test_r_atk_3_charges_stay_between_zero_and_power_and_unknown_weapons_are_left() -> None:
    s = duel()
    kestrel = s.encounter.get(K)
    laser = next(w for w in kestrel.weapons if w.charges is not None)
    assert charged(kestrel, laser.id, -999).weapon(laser.id).charges == 0
    assert charged(kestrel, laser.id, +999).weapon(laser.id).charges == laser.power
    assert edit_weapon(kestrel, "no-such-weapon", dropped=True) is kestrel


# -- wounds and dives: one way each ----------------------------------------------------------
def test_r_wound_4_take_wound_costs_a_hero_an_action_per_step() -> None:
    kestrel = duel().encounter.get(K)  # Health 6: 13 damage is two wound steps (R-DMG-2)
    wounded, result = take_wound(kestrel, 13, False)
    assert result.steps_taken == 2 and wounded.wounds == 2
    assert wounded.lose_actions == 2 and wounded.lose_why == ("wound", "wound")


def test_r_atk_5_a_dive_takes_better_cover_goes_prone_and_costs_an_action() -> None:
    kestrel = duel().encounter.get(K)
    dived = dive(replace(kestrel, cover=Cover.MEDIUM), Cover.LIGHT)  # never to worse cover
    assert (dived.cover, dived.prone, dived.lose_why) == (Cover.MEDIUM, True, ("dive",))


# -- faults found while splitting the engine ----------------------------------------------
def test_r_act_3_declaring_actions_when_nobody_in_the_turn_stands_is_refused() -> None:
    """Was an IndexError: the GM's damage took out the acting Hero on its own turn."""
    s = duel()
    edit(s, K, out=True)
    refused(s, DeclareActions(3), "nobody in Kestrel Vance's turn can act")


def test_r_atk_6_a_campaign_saved_while_a_defense_reroll_waits_opens_again(
    tmp_path: Path,
) -> None:
    """R-TASK-6 / R-CHAR-9 on Defense: the waiting question held the Defense as a
    TargetNumber where the file expects a number, so the file would not open again.
    """
    s = Session(seed=1, content=pack())
    for command in (
        AddZone("dig"),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
        SetPools(K, luck=2),
        StartCombat(),
        Attack(R1, K, "laser-pistol"),
    ):
        s.apply(command)
    while not isinstance(s.pending, PendingCombatRerolls):
        s.apply(AnswerDive("none"))
    assert s.pending.stage == "defense" and s.pending.tn == 6
    path = store.save(s, tmp_path / "defense.toml")
    opened = Session(content=pack())
    assert store.load(opened, path).startswith("undo history of")
    assert opened.pending == s.pending


def test_r_atk_7_damage_from_outside_an_attack_wounds_the_same_way_as_a_hit() -> None:
    s = duel()
    before = s.encounter.get(K)
    s.apply(ApplyDamage(K, 13))
    assert s.encounter.get(K) == take_wound(before, 13, False)[0]


# -- limits and choices a screen asks the engine for ------------------------------------------
@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"rerolls": 50}, r"free re-rolls are 0 to 10, not 50"),
        ({"rerolls": -1}, r"free re-rolls are 0 to 10"),
        ({"modifier": 40}, r"the modifier is −9 to \+9, not 40"),
        ({"modifier": -10}, r"the modifier is −9 to \+9"),
        ({"hand": "third"}, "a hand is main or off"),
        ({"reaction": "panic"}, "a reaction is standby or zone-of-control"),
    ],
)
def test_r_task_6_r_atk_11_the_engine_refuses_an_attack_out_of_range_from_any_screen(
    options: dict[str, object], match: str
) -> None:
    """``Attack(rerolls=50, modifier=40)`` used to roll at TN 48: the limits lived only in
    the combat screen's draft.
    """
    refused(duel(), Attack(K, R1, "assault-laser", **options), match)  # type: ignore[arg-type]


def test_r_atk_6_cover_steps_none_light_medium_heavy_and_round() -> None:
    assert [next_cover(c) for c in Cover] == [Cover.LIGHT, Cover.MEDIUM, Cover.HEAVY, Cover.NONE]


def test_r_combat_2_a_zone_name_is_refused_whatever_its_case_and_spaces() -> None:
    assert zone_name_refusal(("ruins",), " Ruins ") == "zone 'ruins' already exists"
    assert zone_name_refusal(("ruins",), "  ") == "a zone needs a name"
    assert zone_name_refusal(("ruins",), "ridge") == ""
    s = duel()
    refused(s, AddZone("RIDGE"), "zone 'ridge' already exists")


def test_r_act_5_reloadable_and_r_atk_16_suppression_weapons_follow_the_cards() -> None:
    s = duel()
    play(s, AddCombatants("minion", "pirate-boarder", "pirates", "dig"), 5)  # initiative
    kestrel, boarder = s.encounter.get(K), s.encounter.get("pirate-boarder-1")
    assert reloadable(boarder, s.catalog) == ("boarding-scattergun",)  # the cutlass: no
    assert reloadable(kestrel, s.catalog) == ()  # lasers recharge on their own (R-ATK-3)
    assert suppression_weapons(kestrel, s.catalog) == ("assault-laser", "laser-pistol")
    refused(s, TakeAction(K, "reload", "assault-laser"), "is not reloaded")


def test_r_wound_1_severely_wounded_is_past_minus_two() -> None:
    assert [severely_wounded(w) for w in range(5)] == [False, False, False, True, True]


# -- typed values and specific refusals --------------------------------------------------
def test_r_atk_11_r_other_4_hand_reaction_location_kind_are_documented_enums() -> None:
    for kind in (Hand, Reaction, Location, Kind):
        assert all(member.__doc__ for member in kind), kind
    assert Attack(K, R1, "dagger", hand="main") == Attack(K, R1, "dagger", hand=Hand.MAIN)
    assert tuple(Reaction) == ("", "standby", "zone-of-control")


def test_a_campaign_file_reads_these_enums_by_name_and_by_their_old_text() -> None:
    """Files written before these were enums hold the text (``zone-of-control``, ``""``);
    the codec now writes the member's name and reads either.
    """
    known = codec.registry(Attack)
    aimed = Attack(K, R1, "dagger", hand=Hand.OFF, reaction=Reaction.ZONE_OF_CONTROL)
    data = codec.to_data(aimed, Attack)
    assert (data["hand"], data["reaction"], data["location"]) == ("off", "zone_of_control", "none")
    assert codec.from_data(data, Attack, known) == aimed
    old = {**data, "hand": "", "reaction": "zone-of-control", "location": ""}
    assert codec.from_data(old, Attack, known) == replace(aimed, hand=Hand.ONE)
    with pytest.raises(codec.DataError, match="expected one of one, main, off"):
        codec.from_data({**data, "hand": "third"}, Attack, known)


def test_a_command_refused_for_a_waiting_question_says_so_by_its_class() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)  # a hit: dive for cover?
    with pytest.raises(DecisionPending, match="answer the pending question first"):
        s.apply(EndTurn())
    with pytest.raises(NotPermitted, match="only the GM"):
        s.apply(AnswerDive("none", issuer="kara"))


def test_r_act_2_close_in_is_offered_with_the_engines_refusal_before_the_pick() -> None:
    """Issue 19 #1: with 1 action left, "close in one band, Move + Run" was listed without
    ✗ and refused on picking. The route now carries the engine's own check.
    """
    from hsm_tui.ui.screens.combat_dialogs import move_menu

    s = duel()  # Kestrel on the ridge; the dig is Medium away
    dig = next(r for r in routes(s.encounter, K) if r.move.zone == "dig")
    assert dig.close_in == CloseIn(K, "dig") and dig.close_in_why == ""
    s.apply(TakeAction(K, "aim"))
    dig = next(r for r in routes(s.encounter, K) if r.move.zone == "dig")
    assert "takes 2 actions, but Kestrel Vance has only 1 left" in dig.close_in_why
    menu = move_menu(s.encounter, s.encounter.get(K), run=False)
    assert menu is not None
    label = next(o.label for o in menu.options if o.command == CloseIn(K, "dig"))
    assert label.startswith("✗ dig (medium): close in one band") and "only 1 left" in label
    refused(s, CloseIn(K, "dig"), "only 1 left")


def test_r_act_2_a_hide_names_its_cover_and_only_a_hide_does() -> None:
    s = duel()
    refused(s, TakeAction(K, "aim", cover="light"), "only a Hide names a cover")
    refused(s, TakeAction(K, "hide", cover="none"), "light, medium or heavy")
    s.apply(TakeAction(K, "hide", cover="heavy"))
    assert s.encounter.get(K).cover is Cover.HEAVY
    s = duel()
    s.apply(TakeAction(K, "hide"))  # as files before it hold it: the GM places it by hand
    assert s.encounter.get(K).cover is Cover.NONE
