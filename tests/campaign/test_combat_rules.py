"""The pure combat rules in ``hsm_tui.rules.combat`` (RULES.md §3–§7)."""

from __future__ import annotations

import pytest

from hsm_tui.rules import RangeBand, Rank, Rating, RulesError, Traits, parse
from hsm_tui.rules.combat import (
    AttackSituation,
    InitiativeRoll,
    WoundResult,
    apply_wound_steps,
    attack_dice,
    attack_tn,
    extra_action_penalty,
    initiative_order,
    max_actions,
    range_penalty,
    severe_wound_modifier,
    throw_damage,
    wound_penalty,
)
from tests.campaign import pack
from tests.scripted import ScriptedRNG

B = RangeBand


# -- R-COMBAT-3 range ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("weapon_range", "band", "penalty"),
    [
        (B.MEDIUM, B.MELEE, 0),
        (B.MEDIUM, B.SHORT, 0),
        (B.MEDIUM, B.MEDIUM, 0),
        (B.MEDIUM, B.LONG, -1),
        (B.MEDIUM, B.EXTRA_LONG, -2),
        (B.MEDIUM, B.BEYOND, -3),
        (B.MELEE, B.SHORT, -1),
        (B.SHORT, B.BEYOND, -4),  # no hard maximum
        (B.EXTRA_LONG, B.LONG, 0),
    ],
)
def test_r_combat_3_range_penalty_minus_one_per_band_beyond_listed_range(
    weapon_range: RangeBand, band: RangeBand, penalty: int
) -> None:
    assert range_penalty(weapon_range, band) == penalty


# -- R-ACT-1/3 actions -----------------------------------------------------------------
@pytest.mark.parametrize(("actions", "penalty"), [(1, 0), (2, 0), (3, -1), (4, -2), (6, -4)])
def test_r_act_3_extra_actions_cost_n_minus_2_on_every_action(actions: int, penalty: int) -> None:
    assert extra_action_penalty(actions) == penalty


def test_r_act_1_minions_exactly_two_actions_heroes_uncapped() -> None:
    assert max_actions(Rank.MINION) == 2
    assert max_actions(Rank.HERO) is None


# -- R-ATK-1/2 attack dice -------------------------------------------------------------
AGILITY_3 = Traits(strength=3, agility=3)


def test_r_atk_1_wild_style_attacks_agility_plus_one() -> None:
    assert attack_dice(Rating.WILD, AGILITY_3, None) == 4
    assert attack_dice(Rating.WILD, Traits(agility=1), None) == 2


def test_r_atk_1_power_style_is_one_attack() -> None:
    assert attack_dice(Rating.POWER, AGILITY_3, None) == 1
    # even with a melee weapon that prints its own attacks
    assert attack_dice(Rating.POWER, AGILITY_3, parse("3")) == 1


def test_r_atk_1_agile_style_attacks_agility() -> None:
    assert attack_dice(Rating.AGILE, AGILITY_3, None) == 3
    assert attack_dice(Rating.AGILE, Traits(agility=4), None) == 4


def test_r_atk_1_melee_weapon_printing_attacks_uses_them_with_wild_or_agile() -> None:
    whip = pack().catalog.weapons["whip"]
    assert attack_dice(Rating.AGILE, AGILITY_3, whip.attacks) == 1
    assert attack_dice(Rating.WILD, AGILITY_3, whip.attacks) == 1


def test_r_atk_2_ranged_dice_are_the_rate_of_fire() -> None:
    weapons = pack().catalog.weapons
    assert attack_dice(Rating.RIFLES, AGILITY_3, weapons["assault-laser"].attacks) == 5
    assert attack_dice(Rating.RIFLES, AGILITY_3, weapons["slug-rifle"].attacks) == 2


@pytest.mark.parametrize(("agility", "dice"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_r_atk_2_rate_of_fire_expression_one_plus_agility(agility: int, dice: int) -> None:
    pistol = pack().catalog.weapons["laser-pistol"]
    assert pistol.attacks is not None and pistol.attacks.source == "1+agility"
    assert attack_dice(Rating.PISTOLS, Traits(agility=agility), pistol.attacks) == dice


def test_r_atk_2_bow_rate_of_fire_is_agility() -> None:
    bow = pack().catalog.weapons["bow"]
    assert attack_dice(Rating.RIFLES, Traits(agility=2), bow.attacks) == 2


def test_r_atk_2_rate_of_fire_is_at_least_one() -> None:
    assert attack_dice(Rating.PISTOLS, Traits(agility=1), parse("agility-3")) == 1


def test_r_atk_2_ranged_weapon_without_rate_of_fire_or_with_dice_is_refused() -> None:
    with pytest.raises(RulesError, match="rate of fire"):
        attack_dice(Rating.PISTOLS, AGILITY_3, None)
    with pytest.raises(RulesError, match="must be a number, not dice"):
        attack_dice(Rating.PISTOLS, AGILITY_3, parse("1d4"))


# -- R-ATK-1 throw ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("strength", "bands", "dice"),
    [(3, 0, "3d6"), (3, 1, "2d6"), (3, 2, "1d6"), (3, 5, "1d6"), (4, -1, "4d6"), (1, 0, "1d6")],
)
def test_r_atk_1_throw_damage_strength_d6_minus_a_die_per_band_past_short(
    strength: int, bands: int, dice: str
) -> None:
    assert str(throw_damage(strength, bands)) == dice


# -- R-ATK-2 attack TN -----------------------------------------------------------------
def test_r_atk_2_attack_tn_is_the_rating_alone_without_modifiers() -> None:
    tn = attack_tn("Rifles", 8, B.LONG, B.MEDIUM)
    assert tn.value == 8
    assert tn.explain() == "Rifles 8 = 8"


def test_r_atk_2_attack_tn_labels_every_modifier_and_they_add() -> None:
    situation = AttackSituation(
        wound_penalty=-1,
        condition_penalty=-1,
        actions_declared=4,
        called_shot=True,
        shooting_in_melee=Rating.PISTOLS,
        size_difference=-1,
        other=2,
    )
    tn = attack_tn("Pistols", 7, B.MEDIUM, B.EXTRA_LONG, situation)
    assert [(p.label, p.value) for p in tn.parts] == [
        ("Pistols", 7),
        ("range extra-long", -2),
        ("wound", -1),
        ("conditions", -1),
        ("4 actions", -2),
        ("called shot", -3),
        ("shooting in melee", -1),
        ("size", -1),
        ("situation", 2),
    ]
    assert tn.value == 7 - 2 - 1 - 1 - 2 - 3 - 1 - 1 + 2
    assert tn.explain() == (
        "Pistols 7 − range extra-long 2 − wound 1 − conditions 1 − 4 actions 2"
        " − called shot 3 − shooting in melee 1 − size 1 + situation 2 = -2"
    )


def test_r_atk_10_called_shot_minus_3_ranged_minus_2_melee() -> None:
    ranged = attack_tn("Rifles", 8, B.LONG, B.SHORT, AttackSituation(called_shot=True))
    melee = attack_tn("Agile", 6, B.MELEE, B.MELEE, AttackSituation(called_shot=True, melee=True))
    assert ranged.value == 5 and ("called shot", -3) in [(p.label, p.value) for p in ranged.parts]
    assert melee.value == 4 and ("called shot", -2) in [(p.label, p.value) for p in melee.parts]


@pytest.mark.parametrize(
    ("rating", "penalty"), [(Rating.PISTOLS, -1), (Rating.RIFLES, -2), (Rating.VEHICLE, 0)]
)
def test_r_atk_12_shooting_in_melee_pistol_minus_1_rifle_minus_2(
    rating: Rating, penalty: int
) -> None:
    tn = attack_tn("Gun", 7, B.LONG, B.MELEE, AttackSituation(shooting_in_melee=rating))
    assert tn.value == 7 + penalty


@pytest.mark.parametrize(("difference", "value"), [(-2, 4), (-1, 5), (0, 6), (1, 7), (2, 8)])
def test_r_atk_15_size_smaller_target_harder_larger_easier(difference: int, value: int) -> None:
    situation = AttackSituation(size_difference=difference)
    assert attack_tn("Agile", 6, B.MELEE, B.MELEE, situation).value == value


def test_r_act_3_two_declared_actions_add_no_modifier() -> None:
    tn = attack_tn("Rifles", 8, B.LONG, B.LONG, AttackSituation(actions_declared=2))
    assert tn.explain() == "Rifles 8 = 8"


# -- R-WOUND-3 -------------------------------------------------------------------------
@pytest.mark.parametrize(("wounds", "penalty"), [(0, 0), (1, -1), (2, -2), (3, -2), (-1, 0)])
def test_r_wound_3_wound_marker_penalty(wounds: int, penalty: int) -> None:
    assert wound_penalty(wounds) == penalty


# -- R-WOUND-1/2/6 wound steps ---------------------------------------------------------
def test_r_wound_1_hero_first_step_is_minus_one() -> None:
    assert apply_wound_steps(Rank.HERO, 1, (3,), 0, 0) == WoundResult(
        steps_taken=1,
        wounds=1,
        nonlethal=0,
        taken_out=False,
        severe=False,
        unconscious=False,
        overflow=3,
    )


def test_r_wound_1_hero_two_steps_of_one_hit_reach_minus_two() -> None:
    result = apply_wound_steps(Rank.HERO, 2, (8, 2), 0, 0)
    assert (result.steps_taken, result.wounds, result.severe) == (2, 2, False)


def test_r_wound_1_third_step_is_severe_with_the_final_steps_overflow() -> None:
    # D 20 against Health 6: 3 steps, overflows D − k×H = 14, 8, 2
    result = apply_wound_steps(Rank.HERO, 3, (14, 8, 2), 0, 0)
    assert (result.steps_taken, result.wounds, result.severe, result.overflow) == (3, 3, True, 2)


def test_r_wound_1_once_severe_the_rest_of_the_hit_is_ignored() -> None:
    result = apply_wound_steps(Rank.HERO, 5, (29, 23, 17, 11, 5), 0, 0)
    assert (result.steps_taken, result.wounds, result.severe, result.overflow) == (3, 3, True, 17)


def test_r_wound_1_from_minus_two_one_step_is_severe() -> None:
    result = apply_wound_steps(Rank.HERO, 2, (8, 2), 2, 0)
    assert (result.steps_taken, result.wounds, result.severe, result.overflow) == (1, 3, True, 8)


def test_r_wound_1_wound_while_severely_wounded_is_another_severe_wound() -> None:
    result = apply_wound_steps(Rank.HERO, 2, (7, 1), 3, 0)
    assert (result.steps_taken, result.wounds, result.severe, result.overflow) == (1, 3, True, 7)


def test_r_dmg_2_no_steps_no_change() -> None:
    assert apply_wound_steps(Rank.HERO, 0, (), 1, 1) == WoundResult(0, 1, 1, False, False, False, 0)
    assert not apply_wound_steps(Rank.MINION, 0, (), 0, 0).taken_out


@pytest.mark.parametrize("steps", [1, 2, 4])
def test_r_wound_2_minion_taken_out_by_the_first_step(steps: int) -> None:
    overflows = tuple(range(steps * 3, 0, -3))
    result = apply_wound_steps(Rank.MINION, steps, overflows, 0, 0)
    assert result.taken_out and result.steps_taken == 1
    assert not result.severe and result.wounds == 0


def test_r_wound_2_minion_taken_out_by_non_lethal_damage_too() -> None:
    assert apply_wound_steps(Rank.MINION, 1, (1,), 0, 0, lethal=False).taken_out


def test_r_char_8_undecided_sidekick_cannot_take_wounds() -> None:
    with pytest.raises(RulesError, match="Sidekick"):
        apply_wound_steps(Rank.SIDEKICK, 1, (1,), 0, 0)


def test_r_wound_6_non_lethal_moves_its_own_marker() -> None:
    result = apply_wound_steps(Rank.HERO, 2, (5, 1), 0, 0, lethal=False)
    assert (result.wounds, result.nonlethal, result.unconscious, result.severe) == (
        0,
        2,
        False,
        False,
    )


def test_r_wound_6_non_lethal_continues_from_the_lethal_marker() -> None:
    # lethal at −1 + a non-lethal wound → non-lethal at −2
    result = apply_wound_steps(Rank.HERO, 1, (2,), 1, 0, lethal=False)
    assert (result.steps_taken, result.wounds, result.nonlethal) == (1, 1, 2)


def test_r_wound_6_lethal_never_continues_from_the_non_lethal_marker() -> None:
    result = apply_wound_steps(Rank.HERO, 1, (2,), 0, 2)
    assert (result.wounds, result.nonlethal, result.severe) == (1, 2, False)


def test_r_wound_6_past_minus_two_non_lethal_is_unconscious_without_a_chart_roll() -> None:
    result = apply_wound_steps(Rank.HERO, 1, (3,), 0, 2, lethal=False)
    assert (result.nonlethal, result.unconscious, result.severe) == (3, True, False)
    big = apply_wound_steps(Rank.HERO, 4, (9, 6, 3, 0), 0, 0, lethal=False)
    assert (big.steps_taken, big.nonlethal, big.unconscious, big.severe) == (3, 3, True, False)


def test_r_wound_6_non_lethal_on_a_full_track_knocks_out() -> None:
    result = apply_wound_steps(Rank.HERO, 1, (1,), 3, 0, lethal=False)
    assert (result.steps_taken, result.unconscious, result.severe) == (0, True, False)


# -- §7 Severe Wound chart modifier ----------------------------------------------------
@pytest.mark.parametrize(
    ("overflow", "earlier", "modifier"), [(0, 0, 0), (3, 0, 3), (0, 2, 4), (5, 1, 7), (-2, 1, 2)]
)
def test_s7_severe_wound_modifier_overflow_plus_two_per_earlier_severe(
    overflow: int, earlier: int, modifier: int
) -> None:
    assert severe_wound_modifier(overflow, earlier) == modifier


# -- R-INIT-2 initiative order ---------------------------------------------------------
def _roll(
    actor: str, side: str, rank: Rank, total: int, player: bool = False, rating: int = 6
) -> InitiativeRoll:
    return InitiativeRoll(actor, side, rank, player, rating, total - rating)


def _order(rolls: list[InitiativeRoll], *dice: int) -> list[str]:
    rng = ScriptedRNG(*dice)
    order = initiative_order(rolls, rng)  # type: ignore[arg-type]
    assert rng.done()
    return [r.actor for r in order]


def test_r_init_1_initiative_total_is_d10_plus_rating() -> None:
    assert InitiativeRoll("a", "x", Rank.HERO, False, 8, 7).total == 15


def test_r_init_2_highest_goes_first() -> None:
    rolls = [
        _roll("low", "a", Rank.HERO, 9),
        _roll("high", "b", Rank.MINION, 16),
        _roll("mid", "a", Rank.MINION, 12),
    ]
    assert _order(rolls) == ["high", "mid", "low"]


def test_r_init_2_cross_side_tie_hero_before_sidekick_before_minion() -> None:
    rolls = [
        _roll("minion", "villains", Rank.MINION, 12),
        _roll("sidekick", "villains", Rank.SIDEKICK, 12),
        _roll("hero", "heroes", Rank.HERO, 12),
    ]
    assert _order(rolls) == ["hero", "sidekick", "minion"]


def test_r_init_2_cross_side_tie_same_rank_player_character_first() -> None:
    rolls = [
        _roll("villain", "villains", Rank.HERO, 11),
        _roll("pc", "heroes", Rank.HERO, 11, player=True),
    ]
    assert _order(rolls) == ["pc", "villain"]


def test_r_init_2_remaining_cross_side_tie_rerolls_until_it_breaks() -> None:
    rolls = [
        _roll("villain", "villains", Rank.HERO, 11),
        _roll("rival", "rivals", Rank.HERO, 11),
    ]
    rng = ScriptedRNG(4, 4, 2, 9)  # 4 = 4 ties again; then 2 < 9
    order = initiative_order(rolls, rng)  # type: ignore[arg-type]
    assert rng.done()
    assert [r.actor for r in order] == ["rival", "villain"]
    assert [r.tiebreak for r in order] == [(9,), (2,)]


def test_r_init_2_tie_on_one_side_keeps_listed_order_without_rolling() -> None:
    rolls = [
        _roll("second", "heroes", Rank.HERO, 10),
        _roll("first", "heroes", Rank.HERO, 10),
    ]
    assert _order(rolls) == ["second", "first"]  # no dice: the side chooses


def test_r_init_2_rank_tiebreak_rolls_no_dice() -> None:
    rolls = [_roll("m", "v", Rank.MINION, 10), _roll("h", "h", Rank.HERO, 10)]
    assert _order(rolls) == ["h", "m"]  # ScriptedRNG() would fail on any roll


def test_r_init_2_more_than_ten_tied_across_sides_is_refused() -> None:
    rolls = [_roll(f"v{i}", f"side{i}", Rank.MINION, 10) for i in range(11)]
    with pytest.raises(RulesError, match="more than ten"):
        initiative_order(rolls, ScriptedRNG())  # type: ignore[arg-type]
