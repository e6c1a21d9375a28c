"""Rules played as the book states them (issue 18): each test quotes the rulebook line it
follows and failed on the engine before the fix.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    Attack,
    DecideSidekick,
    DeclareActions,
    EndTurn,
    Move,
    PendingCombatRerolls,
    PendingDive,
    RollChart,
    SetCondition,
    SetCover,
    SetFear,
    SpendCombatRerolls,
    StartCombat,
    Suppress,
    TakeAction,
    action_refusal,
    plan_attack,
    plan_suppress,
)
from hsm_tui.campaign.combat.attack import spend_combat_rerolls
from hsm_tui.campaign.combat.commands import Location
from hsm_tui.campaign.combat.damage import Step, resolve
from hsm_tui.campaign.combat.outcome import AttackState
from hsm_tui.campaign.conditions import level
from hsm_tui.campaign.encounter import WeaponState
from hsm_tui.campaign.freeflow import own_task
from hsm_tui.campaign.party import rollers
from hsm_tui.rules import Cover, Trait
from tests.campaign import Scripted, edit, new_session, play, refused
from tests.campaign.test_combat_engine import R1, R2, RAIDERS_FIRST, K, duel, last, left

RAIDERS = "pirate-raider@pirates"
KEEP = SpendCombatRerolls(0, 0)


def test_s8_confused_failure_allows_a_run_but_not_a_plain_move() -> None:
    """§8 Confused: "If unsuccessful, the character can only do a Run action, (not a Move
    action,) and/or a Hide action." (issue 18 #9)
    """
    s = duel()
    s.apply(SetCondition(R1, "confused"))
    play(s, EndTurn(), 5)  # Savvy 2 + Senses 2 − 1 = 3: the 5 fails
    refused(s, Move(R1, "camp"), "not a plain Move")
    s.apply(Move(R1, "camp", run=True))
    assert s.encounter.get(R1).zone == "camp"


def test_dagger_fortune_plus_one_to_tn_makes_up_a_tn_below_zero() -> None:
    """Dagger card, Fortune: +1 to the target number; R-TASK-4: below 1 a Hero's d10 of 1
    succeeds when the Hero die makes up the difference. At TN −5 the +1 gives −4, where a
    1 and a Hero die of 6 hit. (issue 18 #13)
    """
    s = duel(raiders_in="ridge")
    aim = Attack(K, R1, "dagger", modifier=-9, hand="main")  # Agile 6 − 9 − 2 = −5
    play(s, aim, 1, 9, 9, 6, 9, 2, 3)  # d10 1, 9, 9 · Hero die 6; Defense 9; damage 2, 3
    title, lines = last(s, 2)
    assert title == "Kestrel Vance attacks Pirate raider 1"
    assert "fortune: +1 to target number" in lines
    assert (
        lines[-1]
        == "Pirate raider 1 and the rest of its unit (2 in all) gain 1 Fear each (R-ATK-4)"
    )  # one hit, not "no hit"
    assert s.encounter.get(R1).out


def test_r_wound_3_a_heros_wound_marker_lowers_its_initiative() -> None:
    """R-WOUND-3: "From now on, the Hero will have -1 to ALL traits" — Initiative is one.
    (issue 18 #15)
    """
    s = new_session(
        AddZone("dig"),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
    )
    edit(s, K, wounds=1)
    play(s, StartCombat(), 5, 1)
    first = s.log[-2].lines[0]
    assert first == "1. Kestrel Vance: d10 5 + Initiative 8 (wound -1 R-WOUND-3) = 12"


def test_r_atk_1_no_wild_attack_after_aiming_or_dodging_this_turn() -> None:
    """R-ATK-1 Wild: "When doing a wild attack, a character cannot dodge, aim, standby, or
    interact during the same turn" — before the attack as much as after. (issue 18 #1)
    """
    s = duel(raiders_in="ridge")
    s.apply(TakeAction(K, "aim"))
    refused(s, Attack(K, R1, "dagger", style="wild"), "took aim this turn: no Wild attack")
    plain = plan_attack(s.encounter, Attack(K, R1, "dagger", style="agile"), s.catalog)
    assert plain.free == 1  # Aim still serves an Agile attack


def test_s8_a_pinned_shooter_rolls_morale_before_suppressive_fire() -> None:
    """§8 / R-ATK-8 Pinned: "That target will need to make a successful Morale roll to do
    anything which exposes it to the attacker, (including shoot back.)" (issue 18 #2)
    """
    s = duel()
    s.apply(SetCondition(K, "pinned"))
    play(s, Suppress(K, "assault-laser", (R1,)), 10, 2)  # a natural 10: the roll fails
    title, lines = last(s)
    assert title == "Kestrel Vance is Pinned"
    assert lines[0].endswith("fails: the suppressive fire is lost (§8)")
    assert s.encounter.turn.used_by(K) == ("attack",)  # the action is spent all the same
    assert s.encounter.get(K).weapon("assault-laser").charges == 20  # nothing fired


def test_r_atk_17_a_grappler_gets_plus_one_to_stab_whom_it_holds() -> None:
    """R-ATK-17: "A grappling character gets (+1) when attacking a character it is
    grappling" — a grab, then a stab with the free hand. (issue 18 #7)
    """
    s = duel(raiders_in="ridge")
    edit(s, K, engaged=(R1,))
    edit(s, R1, engaged=(K,), conditions=("grappled",))
    stab = plan_attack(s.encounter, Attack(K, R1, "dagger"), s.catalog)
    assert "grappling it 1" in stab.tn.explain()


def test_r_atk_14_the_odds_before_a_melee_blow_count_the_flank_it_makes() -> None:
    """R-ATK-14: "If a character attacks a target which is already fighting an ally, the
    defending player deducts (-1) from its Defense die for every character over 1 he/she
    is fighting" — the attacker itself is one, so the preview counts it as the roll
    does. (issue 18 #8)
    """
    s = duel(RAIDERS_FIRST, raiders_in="ridge")
    play(s, Attack(R1, K, "cutlass", style="agile"), 9, 9, 9)  # a miss still engages
    second = plan_attack(s.encounter, Attack(R2, K, "cutlass", style="agile"), s.catalog)
    assert second.defense(s.encounter) == 5  # Dodge 6 − flanked 1, as the roll will be
    assert "flanked 1" in second.preview(s.encounter)[3]


def test_s7_row_12_rolls_a_ways_out_of_cover_and_prone() -> None:
    """§7 chart row 12, "Rolls a ways": "Without miniatures: somewhat farther off, out of
    cover, and Prone" — the Hero kept its cover. (issue 18 #11)
    """
    s = duel()
    s.apply(SetCover(K, "medium"))
    play(s, RollChart(K, overflow=2), 1, 2, 10)  # keeps hold (d10 1), chart d10 10 + 2 = 12
    kestrel = s.encounter.get(K)
    assert kestrel.chart == ("rolls-a-ways",)
    assert (kestrel.cover, kestrel.prone) == (Cover.NONE, True)


def test_r_task_4_an_extra_shot_below_tn_1_is_judged_by_the_rolls_own_hero_die() -> None:
    """One Hero die per roll (issue 18 #12): at TN 0 a Fortune's extra shot of 1 hits
    because this roll's Hero die (6) makes up the difference (R-TASK-4, RULES.md: "with
    TN ≤ 0 a Hero succeeds when d10 = 1 and Hero die ≥ 2 − TN") — no second Hero die
    decides it.
    """
    s = duel()
    play(s, Attack(K, R1, "assault-laser", modifier=-8), 9, 9, 9, 9, 9, 6, 1, 1)  # d4 1
    lines = last(s)[1]
    assert any(line.startswith("TN Rifles 8 − situation 8 = 0") for line in lines)
    assert (
        "fortune: 1d4 extra shot(s) (rolled 1): d10 1 → 1 hit(s), with the roll's own"
        " Hero die" in lines
    )


def test_r_atk_16_a_second_weapon_fires_after_suppressive_fire_at_the_usual_negatives() -> None:
    """R-ATK-16, Suppressive Fire: "it can be the only type of ranged attack used that
    turn, even with added actions. (A player can fire a second weapon normal with the
    usual negatives.)" — the laser pistol fires after the assault laser's cone, as the off
    hand of a pair (R-ATK-11: −3), in the same action; then nothing else fires. (issue 18 #3)
    """
    s = duel()
    play(s, Suppress(K, "assault-laser", (R1,), dive=(R1,)), 5)  # R1 dives; Fear die 5
    shot = plan_attack(s.encounter, Attack(K, R2, "laser-pistol"), s.catalog)
    assert shot.tn.explain() == "Pistols 7 − off hand 3 = 4"
    assert action_refusal(s.encounter, Attack(K, R2, "laser-pistol")) == ""
    play(s, Attack(K, R2, "laser-pistol"), 9, 9, 9, 9, 2)  # four misses, Hero die blank
    title, lines = last(s)
    assert title == "Kestrel Vance attacks Pirate raider 2"
    assert "TN Pistols 7 − off hand 3 = 4" in lines
    assert s.encounter.turn.used_by(K) == ("attack",)  # one action for both weapons
    refused(s, Attack(K, R2, "laser-pistol", hand="off"), "right after a main-hand attack")
    refused(s, Attack(K, R2, "laser-pistol"), "already took attack this turn")


def test_r_atk_16_a_dodging_target_re_rolls_its_defense_against_suppression() -> None:
    """R-ACT-2 Dodge: "The character may re-roll the Defense roll" — suppressive fire's
    targets "take their Defense rating … and roll" (R-ATK-16): a Defense roll like any,
    so Dodge's re-roll is spent on it and counted in the preview. (issue 18 #4)
    """
    s = duel()
    edit(s, R1, conditions=("dodging",))  # it took Dodge on its last turn
    cone = Suppress(K, "assault-laser", (R1,))
    (r1,) = plan_suppress(s.encounter, cone, s.catalog).cone
    assert r1.hit == Fraction(9, 100)  # d10 > 7 twice: 3/10 × 3/10, not 3/10
    assert r1.hit_text == "hit 9.0% (Dodge re-roll)"
    play(s, cone, 9, 3, 5)  # Defense 9 hits, the re-roll 3 keeps it off; Fear die 5
    lines = last(s)[1]
    assert lines[1].endswith("→ 0 of 1 through, 1 avoided")
    assert s.encounter.get(R1).wounds == 0
    assert s.encounter.get(R1).fear == 4  # the Fear die only: no hit, no extra Fear


def test_r_atk_16_a_hero_may_spend_luck_on_its_defense_against_suppression() -> None:
    """R-TASK-6: "Luck: A player can use a Luck point to re-roll any roll" — a Hero hit by
    suppressive fire is asked, as after any Defense roll; its re-roll stops the hit, then
    the cone goes on (the Fear die). The preview counts what its pools could do. (issue 18
    #4)
    """
    s = duel(RAIDERS_FIRST)
    edit(s, K, luck=1)
    edit(s, R1, weapons=(WeaponState("assault-laser", 20, 20),))  # 10/d8
    cone = Suppress(R1, "assault-laser", (K,))
    (kestrel,) = plan_suppress(s.encounter, cone, s.catalog).cone
    assert kestrel.hit_text == "hit 20.0% · 4.0% with Luck and Clues"  # d10 > 8
    play(s, cone, 9, 3)  # Defense d10 9 (a hit), Hero die 3: she is asked
    assert isinstance(s.pending, PendingCombatRerolls)
    assert s.pending.question.startswith("Kestrel Vance's Defense roll")
    play(s, SpendCombatRerolls(1, 0), 2, 6)  # the d10 again: 2; Fear die 6 − 1 at Medium
    title, lines = last(s)
    assert title == "Pirate raider 1 lays down suppressive fire (R-ATK-16): re-rolls"
    assert lines[1:] == ("Fear die d8: 6", "Kestrel Vance (medium) gains 5 Fear")
    kestrel_now = s.encounter.get(K)
    assert (kestrel_now.luck, kestrel_now.wounds, kestrel_now.fear) == (0, 0, 5)


def test_r_fear_1_a_hero_may_spend_luck_on_its_morale_roll_at_the_start_of_its_turn() -> None:
    """R-TASK-6: "Luck: A player can use a Luck point to re-roll any roll" — the Morale
    roll a Hero makes when "the number [of Fear tokens] equals the character's Morale
    rating" (R-FEAR-1) is one: she is asked, and the re-roll's success keeps her from
    being Shaken. Nothing goes on until she answers. (issue 18 #14)
    """
    s = duel(RAIDERS_FIRST)
    edit(s, K, fear=5, luck=1)
    play(s, EndTurn(), 7, 3)  # Morale 4: d10 7 fails
    assert isinstance(s.pending, PendingCombatRerolls)
    assert s.pending.question.startswith("Kestrel Vance's Morale roll: d10 7 > TN 4 ✗")
    refused(s, EndTurn(), "answer the pending question first")  # nobody acts meanwhile
    play(s, SpendCombatRerolls(1, 0), 2)  # the d10 again: 2
    kestrel = s.encounter.get(K)
    assert (kestrel.luck, kestrel.fear, kestrel.conditions) == (0, 4, ())
    title, lines = last(s)
    assert title == "Round 1: Kestrel Vance's turn: re-rolls"
    assert lines[0].startswith("re-rolls (1 Luck)")
    assert left(s, K) == 2  # not Shaken: no action lost


def test_r_fear_1_an_advantages_morale_re_roll_is_free() -> None:
    """Kestrel Vance's Advantage "Combat veteran: one re-roll on Morale rolls while under
    fire" (R-CHAR-6, R-TASK-6): with the GM's `steady` marker (as a Parry's, R-ATK-9) the
    failed Morale roll is re-rolled for free when she has no Luck or Clues to weigh.
    (issue 18 #14)
    """
    s = duel(RAIDERS_FIRST)
    s.apply(SetCondition(K, "steady"))
    edit(s, K, fear=5)
    play(s, EndTurn(), 7, 3, 1)  # d10 7 fails; the free re-roll's 1 succeeds
    assert s.pending is None
    assert "shaken" not in s.encounter.get(K).conditions
    assert "steady, a free re-roll: " in last(s)[1][0]


def test_r_atk_5_a_minion_unit_dives_as_one_and_the_gm_may_split_it() -> None:
    """R-ATK-5, Making an Attack: "This gives all figures in the unit, or the character,
    the cover it is diving behind, but the character or unit loses 1 action during its
    next turn, and is prone" — the question is the unit's, asked once; the GM may still
    send one figure alone. (issue 18 #16)
    """
    for unit, divers in ((True, (R1, R2)), (False, (R1,))):
        s = duel()  # two pirate raiders in the dig: one unit
        play(s, Attack(K, R1, "assault-laser", shots=1), 1, 2)  # a hit in the open
        pending = s.pending
        assert isinstance(pending, PendingDive) and pending.unit == 2
        labels = {o.key: o.label for o in pending.options}
        assert labels["1"] == "dive into light cover (the unit: all 2)"
        assert labels["l"] == "only this one dives into light cover"
        play(s, AnswerDive("light", unit=unit), 1)  # Defense d10 1: avoided
        for rid in (R1, R2):
            raider = s.encounter.get(rid)
            dived = (raider.cover, raider.prone, raider.lose_actions) == (Cover.LIGHT, True, 1)
            assert dived == (rid in divers), raider


def test_r_init_2_sidekicks_second_whatever_rules_they_play() -> None:
    """R-INIT-2: "Characters on opposite sides who tie go by the order of importance:
    Heroes first, Sidekicks second, Minions third" — a Sidekick playing by Minion rules is
    still a Sidekick there, so it goes before the tied Minions without a tie-break d10,
    and so does one arriving late. (issue 18, readings)
    """
    s = new_session(
        AddZone("ridge"),
        AddZone("dig"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        DecideSidekick("veteran-guide-1", "minion"),
    )
    play(s, StartCombat(), 1, 2, 3)  # Kestrel 8 + 1; guide 8 + 2 = raiders 7 + 3 = 10
    assert [r.actor for r in s.encounter.order] == ["veteran-guide-1", RAIDERS, K]
    late = duel(RAIDERS_FIRST)  # raiders 7 + 9 = 16, Kestrel 9
    play(late, AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"), 8)  # 8 + 8 = 16
    assert [r.actor for r in late.encounter.order] == ["veteran-guide-1", RAIDERS, K]


def test_s8_a_panicked_combatant_is_not_also_shaken() -> None:
    """§8 Panicked: "After doing so, the character makes a Morale roll. If the character
    succeeds, it becomes Shaken" — so while Panicked it is not Shaken: Shaken again while
    Shaken gives Panicked in Shaken's place, and a Panicked Minion whose Fear still
    reaches its Morale stays Panicked, losing no action to Shaken. (issue 18, readings)
    """
    s = duel()
    edit(s, R1, fear=5, conditions=("shaken",))
    edit(s, R2, fear=5, conditions=("panicked",))
    play(s, EndTurn())  # the raiders' turn starts: Fear 5 ≥ Morale 4
    assert [s.encounter.get(r).conditions for r in (R1, R2)] == [("panicked",)] * 2
    assert last(s)[1] == (
        "Pirate raider 1: Fear 5 ≥ Morale 4: Panicked",
        "Pirate raider 2: Fear 5 ≥ Morale 4: still Panicked",
    )
    assert left(s, R1) == left(s, R2) == 2  # only Move, Run or Hide, but both actions


def test_r_wound_4_a_hero_who_lost_both_actions_may_still_declare_extra_ones() -> None:
    """R-WOUND-4: "If the Hero loses 2 wounds in 1 turn, it loses both actions, (but it may
    take more actions through the normal method of taking extra actions with
    negatives.)" — the refusal says so, and three declared leave one at −1. (issue 18,
    readings)
    """
    s = duel(RAIDERS_FIRST)
    edit(s, K, lose_actions=2, lose_why=("wound", "wound"))
    play(s, EndTurn())  # Kestrel's turn: both actions lost
    refused(s, Attack(K, R1, "assault-laser"), "a Hero may still declare extra actions")
    s.apply(DeclareActions(3))
    assert left(s, K) == 1
    shot = plan_attack(s.encounter, Attack(K, R1, "assault-laser"), s.catalog)
    assert shot.tn.explain() == "Rifles 8 − 3 actions 1 = 7"


def test_r_atk_1_any_blade_thrown_does_strength_d6_less_a_die_per_band_past_short() -> None:
    """R-ATK-1 Throw: "the damage is a number of d6s equal to the character's Strength
    rating, (-1 for each range past short. So -1 for medium, -2 for long, and -3 for
    extreme long,) with a minimum of 1" — a raider (Strength 2) throwing its cutlass; the
    Dagger's card keeps its own thrown damage. (issue 18, Missing)
    """
    s = duel(RAIDERS_FIRST)  # raiders in the dig: Kestrel is Medium away, the camp Short
    far = plan_attack(s.encounter, Attack(R1, K, "cutlass", throw=True), s.catalog)
    assert (far.damage, far.dice, far.style.value) == ("1d6", 1, "agile")
    edit(s, K, zone="camp")
    near = plan_attack(s.encounter, Attack(R1, K, "cutlass", throw=True), s.catalog)
    assert near.damage == "2d6"
    dagger = plan_attack(s.encounter, Attack(K, R1, "dagger", throw=True), s.catalog)
    assert dagger.damage == "1d6+strength"
    refused(s, Attack(R1, K, "laser-pistol", throw=True), "not a throwing weapon")


def test_r_act_3_a_task_rolled_in_a_turn_of_extra_actions_takes_their_penalty() -> None:
    """R-ACT-3: "The more actions they take, the lower the chance of each succeeding" — with
    three declared, a Task action's roll (F2, the player's task screen) is at −1 like an
    attack; outside its turn it is not. (issue 18, Missing)
    """
    s = duel()
    s.apply(DeclareActions(3))
    kestrel = next(r for r in rollers(s.campaign, s.encounter, s.catalog) if r.who == K)
    task = own_task(kestrel, [Trait.SENSES, Trait.SAVVY])
    assert task.tn.explain() == "Senses 3 + Savvy 2 − 3 actions 1 = 4"
    raider = next(r for r in rollers(s.campaign, s.encounter, s.catalog) if r.who == R1)
    assert own_task(raider, [Trait.SENSES]).tn.value == 2 * 2  # no penalty off its turn


def test_r_act_5_a_quick_release_reload_takes_one_action() -> None:
    """R-ACT-5 Reloading: two actions, "(the first is free with a quick-release)" —
    Kestrel Vance's "Quick-release magazine: the first of the two reload actions is free",
    the GM's `quick-release` marker: a slug rifle's reload leaves her one action. (issue
    18, Missing)
    """
    s = duel()
    edit(s, K, weapons=(WeaponState("slug-rifle", 0, 10, recharge=False),))
    s.apply(SetCondition(K, "quick-release"))
    s.apply(TakeAction(K, "reload", "slug-rifle"))
    assert s.encounter.get(K).weapon("slug-rifle").charges == 10
    assert left(s, K) == 1
    assert last(s)[0] == "Kestrel Vance reloads Slug Rifle: 10 charges (R-ACT-5, 1 action)"


def test_r_atk_12_a_gun_swung_as_a_club() -> None:
    """R-ATK-12, Shooting in Melee: "The gun, however, can be used as a club, which does
    d6+Strength if it's a pistol, and has an additional +2 damage if it's a rifle" — a
    melee blow with a fighting style, no charge spent, no card effect. (issue 18, Missing)
    """
    s = duel(raiders_in="ridge")  # the raiders stand in Kestrel's zone
    pistol = plan_attack(s.encounter, Attack(K, R1, "laser-pistol", club=True), s.catalog)
    assert (pistol.melee, pistol.damage, pistol.style.value, pistol.cost) == (
        True,
        "1d6+strength",
        "agile",
        0,
    )
    rifle = plan_attack(
        s.encounter, Attack(K, R1, "assault-laser", club=True, style="power"), s.catalog
    )
    assert (rifle.damage, rifle.dice) == ("1d6+strength+2", 1)
    refused(s, Attack(K, R1, "dagger", club=True), "not a gun to swing as a club")
    play(s, Attack(K, R1, "laser-pistol", club=True), 1, 9, 9, 6, 9, 5)  # 3 d10 + Hero die 6
    kestrel = s.encounter.get(K)
    assert kestrel.weapon("laser-pistol").charges == 10  # nothing fired
    assert kestrel.engaged == (R1,)
    assert not any("fortune" in line for line in last(s, 2)[1])  # no card effect


def test_s8_a_pinned_hero_may_spend_luck_on_the_morale_roll_before_acting() -> None:
    """R-TASK-6: "A player can use a Luck point to re-roll any roll" — Pinned's "successful
    Morale roll in order to do anything which exposes it" too: she is asked before the
    action is spent; a re-roll that succeeds lets the attack go ahead, a roll kept loses
    it (§8). (issue 18 #14)
    """
    for answer, dice, fired in ((SpendCombatRerolls(1, 0), (2, 9, 2), True), (KEEP, (), False)):
        s = duel()
        s.apply(SetCondition(K, "pinned"))
        edit(s, K, luck=1)
        play(s, Attack(K, R1, "assault-laser", shots=1), 9, 3)  # Morale 4: the 9 fails
        assert isinstance(s.pending, PendingCombatRerolls)
        assert s.pending.question.startswith("Kestrel Vance's Pinned Morale roll")
        assert s.encounter.turn.used_by(K) == ()  # nothing spent while she decides
        play(s, answer, *dice)  # the re-roll 2 holds; then the shot: d10 9, Hero die 2
        assert s.encounter.turn.used_by(K) == ("attack",)
        assert (s.encounter.get(K).weapon("assault-laser").charges == 19) is fired


def test_s8_a_panicked_hero_may_spend_luck_on_its_morale_roll_at_the_end_of_its_turn() -> None:
    """§8 Panicked: "After doing so, the character makes a Morale roll. If the character
    succeeds, it becomes Shaken" — a roll like any (R-TASK-6: Luck re-rolls "any roll"):
    she is asked before her turn ends; the re-roll's success calms her to Shaken.
    (issue 18 #14)
    """
    s = duel()
    s.apply(SetCondition(K, "panicked"))
    edit(s, K, luck=1)
    play(s, EndTurn(), 9, 3)  # Morale 4: the 9 fails
    assert isinstance(s.pending, PendingCombatRerolls)
    assert s.pending.question.startswith("Kestrel Vance's Panicked Morale roll")
    assert s.encounter.turn.actor == K  # her turn has not ended yet
    play(s, SpendCombatRerolls(1, 0), 2)  # the d10 again: 2
    assert s.encounter.get(K).conditions == ("shaken",)
    assert s.encounter.turn.actor == RAIDERS
    assert s.encounter.get(K).luck == 0


def test_s8_a_bleeding_hero_may_spend_luck_on_its_stamina_roll_after_its_morale_roll() -> None:
    """R-TASK-6: "Luck: A player can use a Luck point to re-roll any roll" — §8 Bleeding's
    "Stamina roll at the beginning of each turn" is one. A turn's start that asked about
    the Morale roll first asks again about the Stamina roll; the Morale roll is not made
    twice and no line is logged twice. (issue 18 #14)
    """
    s = duel(RAIDERS_FIRST)
    edit(s, K, fear=5, luck=2)
    s.apply(SetCondition(K, "bleeding"))
    play(s, EndTurn(), 7, 3)  # Morale 4: d10 7 fails
    assert s.pending is not None and s.pending.question.startswith("Kestrel Vance's Morale")
    play(s, SpendCombatRerolls(1, 0), 2, 9, 2)  # the d10 again: 2; Stamina 6: d10 9 fails
    assert isinstance(s.pending, PendingCombatRerolls)
    assert s.pending.question.startswith("Kestrel Vance's Bleeding Stamina roll: d10 9")
    refused(s, EndTurn(), "answer the pending question first")
    title, lines = last(s)
    assert title == "Round 1: Kestrel Vance's turn: re-rolls"
    assert lines[1].startswith("Kestrel Vance: Morale roll: d10 2")
    assert lines[2].startswith("Kestrel Vance: Bleeding: Stamina roll: d10 9")
    play(s, SpendCombatRerolls(1, 0), 3)  # the d10 again: 3
    title, lines = last(s)
    assert title == "Round 1: Kestrel Vance's turn: re-rolls"
    assert lines[0].startswith("re-rolls (1 Luck): d10 3")
    assert lines[1:] == ("Kestrel Vance: the bleeding stops",)
    kestrel = s.encounter.get(K)
    assert (kestrel.luck, kestrel.fear, kestrel.conditions) == (0, 4, ())
    assert left(s, K) == 2


def test_s8_a_confused_hero_may_spend_luck_on_its_roll_or_keep_it() -> None:
    """R-TASK-6 "re-roll any roll" on §8 Confused's "Savvy + Senses − 1 roll at the
    beginning of each turn. If unsuccessful, the character can only do a Run action": the
    re-roll's success frees the turn; a roll kept leaves it Run and Hide only. (issue 18
    #14)
    """
    for answer, dice, free in ((SpendCombatRerolls(1, 0), (1,), True), (KEEP, (), False)):
        s = duel(RAIDERS_FIRST)
        edit(s, K, luck=1)
        s.apply(SetCondition(K, "confused"))
        play(s, EndTurn(), 10, 1)  # d10 10 fails
        assert isinstance(s.pending, PendingCombatRerolls)
        assert s.pending.question.startswith("Kestrel Vance's Confused Savvy + Senses − 1 roll")
        play(s, answer, *dice)
        assert s.pending is None
        if free:
            s.apply(Move(K, "trench"))
            assert s.encounter.get(K).zone == "trench"
        else:
            refused(s, Move(K, "trench"), "not a plain Move")
            assert "Kestrel Vance: only Run and/or Hide this turn" in last(s)[1]


def test_r_atk_4_a_minion_units_fear_is_given_to_the_unit_and_the_gm_may_split_it() -> None:
    """§5 Making an Attack: "The target of the attack gets a number of Fear tokens based on
    the number of hits … The Fear on a target is given to an individual, or a unit" — a
    hit on one raider frightens its unit; `SetFear` sets the unit's, or one figure's.
    (issue 18 #16)
    """
    s = duel()  # two pirate raiders in the dig: one unit
    play(s, Attack(K, R1, "assault-laser", shots=1), 1, 2)  # one hit, in the open
    play(s, AnswerDive("none"), 1)  # Defense d10 1: avoided
    assert (s.encounter.get(R1).fear, s.encounter.get(R2).fear) == (1, 1)
    s.apply(SetFear(R1, 4))  # the unit: each figure holds 4
    assert (s.encounter.get(R1).fear, s.encounter.get(R2).fear) == (4, 4)
    s.apply(SetFear(R2, 0, unit=False))  # a split: this figure alone
    assert (s.encounter.get(R1).fear, s.encounter.get(R2).fear) == (4, 0)
    refused(s, SetFear(R2, 0, unit=False), "already holds 0 Fear")
    refused(s, SetFear(K, -1), "Fear is 0 to 99")
    s.apply(SetFear(K, 2))  # a Hero holds its own
    assert s.encounter.get(K).fear == 2 and s.encounter.get(R1).fear == 4


def test_s7_a_painful_wound_after_its_encounter_takes_one_off_a_turn_the_hero_moved() -> None:
    """§7 row 13, Painful wound: "from now on through this encounter, all target numbers
    are at -1. After this encounter, Target numbers are at -1 if the character moved
    during the same turn as taking the action." A Hero carrying the row into a later fight
    attacks at −1 after a Move, as it was before without one; while the encounter's
    `painful` marker lasts, the marker's −1 is the only one. (issue 18, missing items)
    """
    s = duel(RAIDERS_FIRST)
    s.apply(EndTurn())  # Kestrel's turn
    edit(s, K, chart=("painful-wound",))  # carried from an earlier encounter
    aim = Attack(K, R1, "laser-pistol")
    still = plan_attack(s.encounter, aim, s.catalog).tn
    s.apply(Move(K, "trench"))
    moved = plan_attack(s.encounter, aim, s.catalog).tn
    assert moved.value == still.value - 1 and "painful-wound, moved 1" in moved.explain()
    (roller,) = [r for r in rollers(s.campaign, s.encounter, s.catalog) if r.who == K]
    assert roller.moved and own_task(roller, [Trait.AGILITY]).tn.value == (
        own_task(replace(roller, moved=False), [Trait.AGILITY]).tn.value - 1
    )
    s.apply(SetCondition(K, "painful"))  # the encounter it was taken in: −1 on every TN
    marked = plan_attack(s.encounter, aim, s.catalog).tn
    assert marked.value == still.value - 1 and "painful-wound" not in marked.explain()
    pinned = duel(RAIDERS_FIRST)
    pinned.apply(EndTurn())
    edit(pinned, K, chart=("painful-wound",))
    pinned.apply(SetCondition(K, "pinned"))
    play(pinned, Move(K, "trench"), 9, 2)  # Morale 4: the 9 fails, the Move is lost
    assert pinned.encounter.get(K).zone == "ridge"
    assert plan_attack(pinned.encounter, aim, pinned.catalog).tn == still  # it never moved


def test_r_wound_5_a_hero_may_spend_luck_on_the_stamina_roll_to_keep_its_weapon() -> None:
    """R-TASK-6: "Luck: A player can use a Luck point to re-roll any roll" — the severely
    wounded Hero's "Stamina roll" to keep hold of its weapon (R-WOUND-5) is one: she is
    asked, the re-roll keeps the rifle, then the chart is rolled and the attack goes on.
    (issue 18 #14)
    """
    s = duel(RAIDERS_FIRST)
    edit(s, K, wounds=2, luck=1)
    play(s, Attack(R2, K, "laser-pistol"), 1, 7, 8, 9)  # one hit
    play(s, AnswerDive("none"), 9, 3)  # Defense d10 9: through; she may re-roll it
    play(s, KEEP, 6, 3, 5, 9, 2)  # 2d6 [6→3, 5] = 14: severe; Stamina 6 − 2: d10 9 fails
    assert isinstance(s.pending, PendingCombatRerolls)
    assert s.pending.question.startswith("Kestrel Vance's grip Stamina roll: d10 9 > TN 4 ✗")
    assert last(s)[1][-1].startswith("Stamina roll: d10 9 > TN 4 ✗")
    refused(s, EndTurn(), "answer the pending question first")
    play(s, SpendCombatRerolls(1, 0), 1, 3, 2)  # the d10 again: 1; chart d10 3; 1d6 2
    title, lines = last(s)
    assert title == "Kestrel Vance defends"
    assert lines[0].startswith("re-rolls (1 Luck): d10 1")
    assert lines[1].startswith("Stamina roll: d10 1 (re-rolled 1) ≤ TN 4 ✓")
    assert lines[1].endswith(": keeps hold of Assault Laser (R-WOUND-5)")
    assert lines[2] == "Severe Wound chart: d10 3 + 8 past Health + 2×0 earlier = 11"
    kestrel = s.encounter.get(K)
    assert (kestrel.luck, kestrel.severe) == (0, 1)
    assert not kestrel.weapon("assault-laser").dropped and s.pending is None


def test_r_atk_10_a_hero_hit_in_a_limb_may_spend_luck_on_its_stamina_roll() -> None:
    """R-TASK-6 "re-roll any roll" on R-ATK-10's limb hit: "the character must make a
    Stamina roll minus the damage … or the limb is useless": a Hero asked after a failure
    keeps the limb with a successful re-roll, or loses it keeping the roll; the attack's
    next hit follows either way. (issue 18 #14)
    """
    for answer, dice, lamed in ((SpendCombatRerolls(1, 0), (1,), False), (KEEP, (), True)):
        s = duel(RAIDERS_FIRST)
        edit(s, K, luck=1)
        hit = AttackState(R1, K, "laser-pistol", 2, location=Location.LIMB)
        rng = Scripted(3, 2, 9, 3)  # hit 1: 2d6 3 + 2 = 5; Stamina 6 − 5: d10 9 fails
        out = resolve(s.encounter, hit, rng, s.catalog, Step.DAMAGE)
        pending = out.pending
        assert isinstance(pending, PendingCombatRerolls) and pending.tail is not None
        assert pending.question.startswith("Kestrel Vance's limb Stamina roll: d10 9 > TN 1 ✗")
        assert pending.attack is not None and pending.attack.hits == 1  # hit 2 waits
        rng = Scripted(*dice, 1, 1, 1, 3)  # the re-roll (if any); hit 2: 2d6 1 + 1, limb 1
        done = spend_combat_rerolls(out.encounter, answer, pending, rng, s.catalog)
        assert done.pending is None and rng.done()
        lines = [line for entry in done.log for line in entry.lines]
        assert ("lamed" in done.encounter.get(K).conditions) == lamed
        assert lines[-2].startswith("hit 2: damage 2d6! [1, 1] = 2")
        assert lines[-1].endswith(": keeps using the limb")


def test_s8_a_roll_the_turn_start_made_before_a_question_is_not_made_again() -> None:
    """R-TASK-6 at a turn's start: the Bleeding roll that stopped the bleeding stands when
    the Confused roll after it asks, and is not rolled again once she answers. (issue 18
    #14, review)
    """
    s = duel(RAIDERS_FIRST)
    edit(s, K, luck=1)
    s.apply(SetCondition(K, "bleeding"))
    s.apply(SetCondition(K, "confused"))
    play(s, EndTurn(), 1, 2, 10, 1)  # Stamina 6: d10 1 stops it; Confused: d10 10 fails
    assert isinstance(s.pending, PendingCombatRerolls)
    assert s.pending.question.startswith("Kestrel Vance's Confused")
    play(s, KEEP)  # no die: nothing is rolled again
    kestrel = s.encounter.get(K)
    assert not level(kestrel, "bleeding") and "confused" in kestrel.conditions
    lines = [line for entry in s.log[-2:] for line in entry.gm_lines]
    assert lines.count("Kestrel Vance: the bleeding stops") == 1
    assert "Kestrel Vance: only Run and/or Hide this turn" in lines


def test_r_fear_2_each_target_of_a_cone_panics_from_its_own_fear_before_the_burst() -> None:
    """R-FEAR-2: "If a Minion has enough Fear tokens to become Shaken twice in a single
    action, it becomes Panicked" — counted from each target's own Fear before the burst,
    not the first target's: a trooper at Fear 5 (Morale 3) hit through by suppressive fire
    after a raider at Fear 9 reaches 6 and panics. (review of issue 18)
    """
    s = duel()
    play(s, AddCombatants("minion", "corporate-trooper", "pirates", "dig"), 5)
    trooper = "corporate-trooper-1"
    edit(s, R1, fear=9)
    edit(s, trooper, fear=5)
    # Defense: raider d10 9 > 7, trooper d10 9 > 6; Fear die 1 − 1 = 0; 1d4 1 and 1
    play(s, Suppress(K, "assault-laser", (R1, trooper)), 9, 9, 1, 1, 1)
    hit = s.encounter.get(trooper)
    assert hit.fear == 6 and "panicked" in hit.conditions
    assert "Corporate trooper panics: Fear 6 ≥ 2 × Morale in one action (R-FEAR-2)" in [
        line for entry in s.log[-3:] for line in entry.gm_lines
    ]


def test_r_atk_8_a_units_figure_in_cover_is_pinned_by_the_fear_its_unit_took() -> None:
    """R-ATK-8 "if the target is behind cover, and the number of Fear tokens exceeds the
    target's Morale, the target is Pinned", with §5's "The Fear on a target is given to an
    individual, or a unit": the unit was the target, so its figure in cover is Pinned by
    the 5 Fear a shot at its unit-mate in the open gave it. (issue 18 #16)
    """
    s = duel()
    edit(s, R2, cover=Cover.LIGHT)
    play(s, Attack(K, R1, "assault-laser"), 1, 1, 1, 1, 1, 2)  # 5 hits at TN 8
    play(s, AnswerDive("none"), 1, 1, 1, 1, 1)  # Defense: every hit avoided
    r1, r2 = s.encounter.get(R1), s.encounter.get(R2)
    assert (r1.fear, r2.fear) == (5, 5)
    assert "pinned" not in r1.conditions and "pinned" in r2.conditions  # in the open: not
    assert "Pirate raider 2 is Pinned: Fear 5 > Morale 4 (R-ATK-8)" in last(s)[1]
