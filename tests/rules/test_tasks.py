"""Characters (hsm_tui.rules.models) and tasks, attacks, Defense (hsm_tui.rules.tasks)."""

from __future__ import annotations

import random

import pytest

from hsm_tui.rules.errors import RulesError
from hsm_tui.rules.models import Cover, Derived, Rank, Rating, Trait, Traits, parse_trait
from hsm_tui.rules.tasks import (
    HeroFace,
    Modifier,
    PoolKind,
    PoolRoll,
    TargetNumber,
    card_reroll,
    defense_value,
    die_success,
    hero_threshold,
    overflow,
    reroll,
    roll_attack,
    roll_defense,
    roll_pool,
    roll_task,
    task_tn,
    wound_steps,
)
from tests.scripted import ScriptedRNG


def task(target: int, d10: int, hero: int | None, rank: Rank = Rank.HERO) -> PoolRoll:
    return PoolRoll(PoolKind.TASK, target, rank, (d10,), hero)


# --- R-CHAR: traits -------------------------------------------------------------------


SHEET = Traits(strength=3, agility=2, knowledge=1, savvy=4, senses=3, charm=2, luck=1)


@pytest.mark.parametrize(
    ("derived", "value"),
    [
        (Derived.HEALTH, 6),  # Strength×2
        (Derived.STAMINA, 6),  # Strength×2
        (Derived.MORALE, 5),  # Savvy+Luck
        (Derived.DODGE, 5),  # Senses+Agility
        (Derived.INITIATIVE, 9),  # Senses+Savvy+Agility
        (Derived.ATHLETICS, 5),  # Strength+Agility
        (Derived.LEARNING, 5),  # Knowledge+Savvy
    ],
)
def test_r_char_3_derived_traits(derived, value):
    assert SHEET.derived(derived) == value
    assert SHEET[derived] == value


def test_r_char_3_initiative_is_not_clamped_to_8():
    top = Traits(senses=4, savvy=4, agility=4)
    assert top[Derived.INITIATIVE] == 12


def test_r_char_2_primary_traits_by_key():
    assert SHEET[Trait.SAVVY] == 4
    assert SHEET[Trait.CHARM] == 2


@pytest.mark.parametrize("bad", [0, 5, -1, "3", 2.5, None])
def test_r_char_2_traits_must_be_1_to_4(bad):
    with pytest.raises(RulesError, match="agility"):
        Traits(agility=bad)


@pytest.mark.parametrize("value", [1, 4])
def test_r_char_2_trait_range_bounds_are_allowed(value):
    assert Traits(luck=value).luck == value


def test_r_char_3_overrides_replace_only_their_derived_trait():
    traits = Traits(strength=2, overrides=((Derived.HEALTH, 5),))
    assert traits[Derived.HEALTH] == 5
    assert traits[Derived.STAMINA] == 4


def test_as_values_names_every_primary_and_derived_trait():
    values = SHEET.as_values()
    assert set(values) == {t.value for t in Trait} | {d.value for d in Derived}
    assert values["initiative"] == 9
    assert values["strength"] == 3


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Appearance", Trait.CHARM),
        (" charm ", Trait.CHARM),
        ("DODGE", Derived.DODGE),
        ("pistols", Rating.PISTOLS),
        ("Agile", Rating.AGILE),
    ],
)
def test_parse_trait_names(name, expected):
    assert parse_trait(name) is expected


def test_parse_trait_unknown_name():
    with pytest.raises(RulesError, match="unknown trait"):
        parse_trait("beauty")


# --- R-TASK-1: target numbers -----------------------------------------------------------


def test_r_task_1_two_traits_and_a_skill_add():
    assert task_tn([("Agility", 3), ("Senses", 2)], skill=("Stealth", 1)).value == 6


def test_r_task_1_one_trait_is_doubled():
    tn = task_tn([("Strength", 3)])
    assert tn.value == 6
    assert [p.label for p in tn.parts] == ["Strength", "Strength"]


def test_r_task_1_talent_adds_one():
    assert task_tn([("Savvy", 2), ("Senses", 2)], talent="Sharp").value == 5


def test_r_task_1_only_the_largest_difficulty_counts():
    tn = task_tn([("Savvy", 3), ("Senses", 3)], difficulties=[1, 3, 2])
    assert tn.value == 3
    assert [p.value for p in tn.parts if p.value < 0] == [-3]


def test_r_task_1_modifiers_add_on_top_of_the_difficulty():
    tn = task_tn(
        [("Agility", 3), ("Senses", 3)],
        difficulties=[2, 1],
        modifiers=[Modifier("wound", -1), Modifier("range", -1), Modifier("nothing", 0)],
    )
    assert tn.value == 6 - 2 - 1 - 1
    labels = [p.label for p in tn.parts]
    assert labels == ["Agility", "Senses", "medium difficulty", "wound", "range"]


def test_r_task_1_explain_names_every_part():
    tn = task_tn(
        [("Agility", 3), ("Senses", 2)],
        skill=("Stealth", 1),
        talent="Sneaky",
        difficulties=[2],
        modifiers=[Modifier("wound", -1)],
    )
    assert tn.explain() == (
        "Agility 3 + Senses 2 + Stealth 1 + Talent (Sneaky) 1 − medium difficulty 2 − wound 1 = 4"
    )


def test_r_task_1_difficulty_beyond_heavy_is_labelled_extreme():
    tn = task_tn([("Luck", 2)], difficulties=[5])
    text = tn.explain()
    assert text.startswith("Luck 2 + Luck 2 − extreme")
    assert text.endswith("difficulty 5 = -1")


def test_r_task_1_plus_adds_situational_modifiers():
    tn = task_tn([("Luck", 2)]).plus(Modifier("aim", 1), Modifier("zero", 0))
    assert tn.value == 5
    assert len(tn.parts) == 3


def test_target_number_without_parts():
    assert TargetNumber(()).explain() == "TN 0"


@pytest.mark.parametrize("traits", [[], [("a", 1), ("b", 1), ("c", 1)]])
def test_r_task_1_needs_one_or_two_traits(traits):
    with pytest.raises(RulesError):
        task_tn(traits)


def test_r_task_1_negative_difficulty_is_refused():
    with pytest.raises(RulesError, match="difficulty"):
        task_tn([("Luck", 2)], difficulties=[-1])


# --- R-TASK-2/3: the d10 ------------------------------------------------------------------


@pytest.mark.parametrize("tn", range(1, 13))
@pytest.mark.parametrize("d10", range(1, 11))
def test_r_task_2_roll_at_most_tn_succeeds(tn, d10):
    assert die_success(d10, tn) is (d10 <= tn and d10 != 10)


@pytest.mark.parametrize("tn", [10, 11, 15, 99])
def test_r_task_3_natural_10_fails_even_at_tn_10_or_more(tn):
    assert not die_success(10, tn)
    assert die_success(9, tn)
    assert not task(tn, 10, 6).success


# --- R-TASK-4: TN below 1 ---------------------------------------------------------------


@pytest.mark.parametrize(("tn", "need"), [(0, 2), (-1, 3), (-2, 4), (-3, 5), (-4, 6), (-5, 7)])
def test_r_task_4_hero_threshold(tn, need):
    assert hero_threshold(tn) == need


def test_r_task_4_hero_tn_zero_needs_one_on_d10_and_two_on_hero_die():
    assert task(0, 1, 2).success
    assert task(0, 1, 6).success
    assert not task(0, 1, 1).success
    assert not task(0, 2, 6).success


def test_r_task_4_hero_tn_minus_4_needs_a_six():
    assert task(-4, 1, 6).success
    assert not task(-4, 1, 5).success


@pytest.mark.parametrize("tn", [-5, -6, -20])
def test_r_task_4_hero_tn_minus_5_or_less_is_impossible(tn):
    assert not task(tn, 1, 6).success


@pytest.mark.parametrize("tn", [0, -1, -4])
@pytest.mark.parametrize("d10", [1, 2, 10])
def test_r_task_4_minion_tn_at_most_zero_always_fails(tn, d10):
    assert not task(tn, d10, None, Rank.MINION).success


def test_r_task_4_hero_with_gate_met_counts_each_one_in_an_attack():
    attack = PoolRoll(PoolKind.TASK, -1, Rank.HERO, (1, 1, 4), 3)
    assert attack.successes == 2
    assert PoolRoll(PoolKind.TASK, -1, Rank.HERO, (1, 1, 4), 2).successes == 0


# --- R-TASK-5: the Hero die -------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "face"),
    [
        (1, HeroFace.MISFORTUNE),
        (2, HeroFace.BLANK),
        (3, HeroFace.BLANK),
        (4, HeroFace.SPECIAL_4),
        (5, HeroFace.SPECIAL_5),
        (6, HeroFace.FORTUNE),
    ],
)
def test_r_task_5_hero_face_of(value, face):
    assert HeroFace.of(value) is face


def test_r_task_5_faces_have_distinct_marks_for_fortune_and_misfortune():
    marks = {f: f.symbol for f in HeroFace}
    assert marks[HeroFace.FORTUNE] != marks[HeroFace.MISFORTUNE]
    assert marks[HeroFace.BLANK] not in (marks[HeroFace.FORTUNE], marks[HeroFace.MISFORTUNE])


def test_r_task_5_fortune_happens_on_a_failure_too():
    roll = task(3, 9, 6)
    assert not roll.success
    assert roll.face is HeroFace.FORTUNE


def test_r_task_5_minion_has_no_hero_die():
    roll = roll_task(ScriptedRNG(4), 5, Rank.MINION)
    assert roll.hero is None
    assert roll.face is None


def test_r_task_5_hero_rolls_the_d10_then_the_hero_die():
    rng = ScriptedRNG(4, 6)
    roll = roll_task(rng, 5, Rank.HERO)
    assert rng.calls == [(1, 10), (1, 6)]
    assert (roll.first, roll.hero) == ((4,), 6)
    assert roll.success


# --- R-TASK-6: re-rolls -----------------------------------------------------------------


def test_r_task_6_reroll_keeps_the_lowest_d10s_and_the_highest_hero_die():
    first = PoolRoll(PoolKind.TASK, 5, Rank.HERO, (7, 9), 2)
    rng = ScriptedRNG(3, 10, 5)
    after = reroll(first, rng, d10=2, hero=1)
    assert rng.done()
    assert after.rerolled == (3, 10)
    assert after.hero_rerolled == (5,)
    assert after.kept == (3, 7)
    assert after.hero == 5
    assert after.successes == 1
    assert after.first == (7, 9)  # the first roll is kept too


def test_r_task_6_ends_with_as_many_dice_as_first_rolled():
    first = task(5, 9, None, Rank.MINION)
    after = reroll(first, ScriptedRNG(8, 2, 5), d10=3)
    assert after.kept == (2,)
    assert after.dice == 1


def test_r_task_6_a_worse_reroll_does_not_lose_the_first_result():
    after = reroll(task(5, 3, 4), ScriptedRNG(9, 1), d10=1, hero=1)
    assert after.kept == (3,)
    assert after.hero == 4


def test_r_task_6_refuses_a_second_reroll():
    after = reroll(task(5, 9, 3), ScriptedRNG(8), d10=1)
    assert after.rerolls_spent
    with pytest.raises(RulesError, match="already"):
        reroll(after, ScriptedRNG(1), d10=1)


def test_r_task_6_zero_rerolls_still_spend_the_chance():
    after = reroll(task(5, 9, 3), ScriptedRNG())
    assert after.rerolls_spent
    assert after.kept == (9,)


def test_r_task_6_a_card_reroll_joins_the_dice_left_by_the_rerolls():
    """§10 Assault Laser Special 5 after R-TASK-6: the card's d10 competes with the dice
    kept after the Luck re-rolls (not the first roll's), and the re-rolled Hero die stands.
    """
    first = PoolRoll(PoolKind.TASK, 8, Rank.HERO, (9, 9, 9), 2)
    after = reroll(first, ScriptedRNG(1, 5), d10=1, hero=1)
    assert (after.kept, after.hero, after.successes) == ((1, 9, 9), 5, 1)
    rng = ScriptedRNG(2)
    card = card_reroll(after, rng)
    assert rng.done() and rng.calls == [(1, 10)]
    assert card.rerolled == (1, 2) and card.hero_rerolled == (5,)
    assert (card.kept, card.hero, card.successes) == ((1, 2, 9), 5, 2)


def test_r_task_6_a_worse_card_reroll_changes_nothing():
    after = reroll(PoolRoll(PoolKind.TASK, 8, Rank.MINION, (3, 9), None), ScriptedRNG(1), d10=1)
    card = card_reroll(after, ScriptedRNG(10))
    assert card.kept == after.kept == (1, 3) and card.successes == 2
    assert card_reroll(after, ScriptedRNG(), d10=0).kept == (1, 3)
    with pytest.raises(RulesError, match="negative"):
        card_reroll(after, ScriptedRNG(), d10=-1)


def test_r_task_6_minions_cannot_reroll_the_hero_die():
    with pytest.raises(RulesError, match="Hero die"):
        reroll(task(5, 9, None, Rank.MINION), ScriptedRNG(3), hero=1)


@pytest.mark.parametrize(("d10", "hero"), [(-1, 0), (0, -1)])
def test_r_task_6_refuses_negative_counts(d10, hero):
    with pytest.raises(RulesError, match="negative"):
        reroll(task(5, 9, 3), ScriptedRNG(), d10=d10, hero=hero)


def test_r_task_6_hero_reroll_can_make_up_a_tn_below_one():
    first = task(-2, 1, 2)
    assert not first.success
    assert reroll(first, ScriptedRNG(4), hero=1).success


# --- pools --------------------------------------------------------------------------


def test_r_char_8_sidekick_must_roll_as_hero_or_minion():
    with pytest.raises(RulesError, match="Sidekick"):
        roll_pool(random.Random(0), 5, 1, Rank.SIDEKICK)
    with pytest.raises(RulesError, match="Sidekick"):
        roll_task(random.Random(0), 5, Rank.SIDEKICK)


def test_a_pool_needs_at_least_one_die():
    with pytest.raises(RulesError, match="at least one"):
        roll_pool(random.Random(0), 5, 0, Rank.HERO)


def test_pool_rolls_are_replayable_with_a_seed():
    a = roll_attack(random.Random(9), 6, 5, Rank.HERO)
    b = roll_attack(random.Random(9), 6, 5, Rank.HERO)
    assert a == b
    assert len(a.first) == 5
    assert all(1 <= d <= 10 for d in a.first)
    assert 1 <= a.hero <= 6


def test_r_atk_2_each_success_is_a_hit():
    rng = ScriptedRNG(1, 5, 10, 7, 3)
    attack = roll_attack(rng, 6, 4, Rank.HERO)
    assert rng.done()
    assert attack.first == (1, 5, 10, 7)
    assert attack.successes == 2


def test_r_atk_2_natural_10_misses_even_at_high_tn():
    attack = roll_attack(ScriptedRNG(10, 9, 10), 12, 3, Rank.MINION)
    assert attack.successes == 1


def test_r_atk_6_defense_die_above_defense_lets_the_hit_through():
    defense = roll_defense(ScriptedRNG(5, 6, 10), 3, 5, Rank.MINION)
    assert defense.kind is PoolKind.DEFENSE
    assert defense.successes == 2  # 6 and 10 go through; 5 is not more than 5


def test_r_atk_6_defense_10_stops_every_hit():
    defense = roll_defense(ScriptedRNG(10, 10, 10, 1), 3, 10, Rank.HERO)
    assert defense.successes == 0


def test_r_atk_6_defense_0_lets_every_hit_through():
    assert roll_defense(ScriptedRNG(1, 1), 2, 0, Rank.MINION).successes == 2


def test_r_atk_6_defense_reroll_keeps_the_lowest():
    first = roll_defense(ScriptedRNG(9, 8), 2, 4, Rank.MINION)
    after = reroll(first, ScriptedRNG(2), d10=1)
    assert after.kept == (2, 8)
    assert after.successes == 1


@pytest.mark.parametrize(
    ("dodge", "cover", "modifier", "value"),
    [
        (4, Cover.NONE, 0, 4),
        (4, Cover.LIGHT, 0, 5),
        (4, Cover.MEDIUM, 0, 6),
        (4, Cover.HEAVY, 0, 7),
        (4, Cover.HEAVY, -2, 5),
    ],
)
def test_r_atk_6_defense_value_is_dodge_plus_cover(dodge, cover, modifier, value):
    assert defense_value(dodge, cover, modifier) == value


# --- R-DMG-2: wound steps ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "steps"),
    [(0, 0), (1, 0), (4, 0), (5, 1), (8, 1), (9, 2), (12, 2), (13, 3), (16, 3), (17, 4), (-3, 0)],
)
def test_r_dmg_2_wound_steps_against_health_4(damage, steps):
    assert wound_steps(damage, 4) == steps


def test_r_dmg_2_health_one():
    assert [wound_steps(d, 1) for d in range(5)] == [0, 0, 1, 2, 3]


@pytest.mark.parametrize("health", [0, -2])
def test_r_dmg_2_health_below_one_is_an_error(health):
    with pytest.raises(RulesError, match="Health"):
        wound_steps(5, health)


def test_severe_wound_overflow_is_damage_past_k_times_health():
    assert [overflow(13, 4, k) for k in (1, 2, 3)] == [9, 5, 1]


# --- explain ---------------------------------------------------------------------------


def test_explain_task_success_with_fortune():
    assert task(6, 3, 6).explain() == "d10 3 ≤ TN 6 ✓ · Hero die 6 ★ Fortune"


def test_explain_task_failure_for_a_minion():
    assert task(4, 7, None, Rank.MINION).explain() == "d10 7 > TN 4 ✗"


def test_explain_natural_10():
    text = task(12, 10, 1).explain()
    assert "natural 10" in text
    assert "TN 12" in text
    assert "✗" in text
    assert "Misfortune" in text


def test_explain_reroll_shows_every_die_and_the_kept_ones():
    after = reroll(task(5, 9, 2), ScriptedRNG(3, 5), d10=1, hero=1)
    text = after.explain()
    assert text.startswith("d10 3 (re-rolled 3) ≤ TN 5 ✓")
    assert "Hero die 5 (of 2, 5)" in text
    assert "Special 5" in text


def test_explain_tn_below_one():
    assert task(0, 1, 4).explain() == (
        "TN 0 (needs d10 1 and Hero die 2+): d10 1 ✓ · Hero die 4 ◆ Special 4"
    )
    assert "Minions always fail" in task(-1, 1, None, Rank.MINION).explain()
    assert task(-1, 1, None, Rank.MINION).explain().endswith("✗")


def test_explain_attack_counts_hits():
    attack = PoolRoll(PoolKind.TASK, 6, Rank.MINION, (1, 5, 10), None)
    assert attack.explain() == "d10 1, 5, 10 vs TN 6 → 2 hits"
    one = PoolRoll(PoolKind.TASK, 6, Rank.MINION, (1, 9), None)
    assert one.explain().endswith("→ 1 hit")


def test_explain_defense():
    defense = PoolRoll(PoolKind.DEFENSE, 5, Rank.HERO, (10, 5, 6), 3)
    assert defense.explain() == (
        "Defense 5: d10 5, 6, 10 → 2 of 3 through, 1 avoided · Hero die 3 · blank"
    )


def test_r_char_9_pay_rerolls_free_first_then_luck_then_clues() -> None:
    from hsm_tui.rules.tasks import pay_rerolls

    assert pay_rerolls(3, free=1, luck=1, clues=2) == (1, 1)  # Luck runs out: a Clue
    assert pay_rerolls(3, free=1, luck=5, clues=2, asked_clues=2) == (0, 2)
    assert pay_rerolls(1, free=2, luck=0, clues=0) == (0, 0)
    with pytest.raises(RulesError, match="only Luck 1 and Clues 0"):
        pay_rerolls(3, free=1, luck=1, clues=0)
    with pytest.raises(RulesError, match="cannot pay"):
        pay_rerolls(2, free=0, luck=5, clues=5, asked_clues=3)
