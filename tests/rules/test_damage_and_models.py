"""Damage rolls (R-DMG-1/2, §7 overflow), combat ratings (R-CHAR-4) and input errors."""

from __future__ import annotations

import pytest

from hsm_tui.rules import (
    CombatRatings,
    Derived,
    HeroFace,
    PoolKind,
    PoolRoll,
    Rank,
    Rating,
    RulesError,
    Traits,
    roll_damage,
)
from hsm_tui.rules.dice import parse
from hsm_tui.rules.errors import DiceSyntaxError
from tests.scripted import ScriptedRNG


def test_r_dmg_1_damage_always_explodes() -> None:
    rng = ScriptedRNG(6, 6, 2, 3)  # first die 6→6→2, second die 3
    hit = roll_damage(rng, "2d6", health=4)
    assert [d.rolls for d in hit.roll.dice] == [(6, 6, 2), (3,)]
    assert hit.damage == 17 and rng.done()


def test_r_dmg_2_wound_steps_and_section_7_overflow() -> None:
    hit = roll_damage(ScriptedRNG(6, 6, 2, 3), "2d6", health=4)
    assert hit.steps == 4  # 17 > 4, > 8, > 12, > 16
    assert hit.overflows() == (13, 9, 5, 1)  # D − k×H for k = 1..4
    assert hit.explain() == "damage 2d6! [6→6→2, 3] = 17 vs Health 4 → 4 wound steps"


def test_r_dmg_2_damage_at_or_below_health_does_nothing() -> None:
    hit = roll_damage(ScriptedRNG(2), "1d6-3", health=2)
    assert (hit.damage, hit.steps, hit.overflows()) == (0, 0, ())
    assert hit.explain().endswith("→ 0 wound steps")


def test_r_atk_1_power_damage_adds_the_strength_die() -> None:
    hit = roll_damage(ScriptedRNG(3, 8, 1), "1d6+strdie", health=4, values={"strength": 3})
    assert [d.sides for d in hit.roll.dice] == [6, 8]
    assert hit.damage == 12  # 3 + (8→1)


def test_damage_against_no_health_is_refused() -> None:
    with pytest.raises(RulesError, match="Health must be at least 1"):
        roll_damage(ScriptedRNG(), "1d6", health=0)


def test_r_char_4_combat_ratings() -> None:
    ratings = CombatRatings(pistols=5, agile=3)
    assert ratings[Rating.PISTOLS] == 5 and ratings[Rating.AGILE] == 3
    assert ratings[Rating.RIFLES] == 0
    with pytest.raises(RulesError, match="wild rating"):
        CombatRatings(wild=-1)


def test_traits_travel_to_another_process_without_their_kept_hash() -> None:
    """Their hash is kept once worked out (an override's name is a str, which hashes
    otherwise in a forecast's worker), so the pickle leaves it out; equal traits hash alike."""
    import pickle

    traits = Traits(strength=3, overrides=((Derived.HEALTH, 5),))
    table = {traits: 1}
    copy = pickle.loads(pickle.dumps(traits))
    assert "_hash" not in copy.__dict__
    assert copy == traits and hash(copy) == hash(traits) and table[copy] == 1
    assert hash(Traits(strength=3, overrides=((Derived.HEALTH, 5),))) == hash(traits)


def test_r_char_2_bool_is_not_a_trait_value() -> None:
    with pytest.raises(RulesError, match="strength must be a whole number"):
        Traits(strength=True)


def test_r_task_5_hero_die_outside_1_to_6_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="1–6"):
        HeroFace.of(7)


def test_r_task_3_natural_ten_is_explained() -> None:
    roll = PoolRoll(PoolKind.TASK, 12, Rank.MINION, (10,), None)
    assert roll.explain() == "d10 10 (a natural 10 always fails) vs TN 12 ✗"


@pytest.mark.parametrize(("source", "position", "bad"), [("2d6x", 3, "x"), ("d6!x+1", 3, "x")])
def test_letters_glued_to_dice_point_at_the_letter(source: str, position: int, bad: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(source)
    assert caught.value.position == position and f"unexpected {bad!r}" in str(caught.value)


def test_r_task_4_explain_says_when_a_hero_cannot_succeed() -> None:
    roll = PoolRoll(PoolKind.TASK, -5, Rank.HERO, (1,), 6)
    assert "cannot succeed" in roll.explain() and "7+" not in roll.explain()
