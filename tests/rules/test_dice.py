"""Dice expressions (hsm_tui.rules.dice): parsing, errors, rolls that keep every die."""

from __future__ import annotations

import random

import pytest

from hsm_tui.rules import dice
from hsm_tui.rules.dice import Const, Dice, Ref, parse, roll, strength_die
from hsm_tui.rules.errors import DiceSyntaxError, RulesError, UnknownTraitError
from tests.scripted import ScriptedRNG

# --- parsing ------------------------------------------------------------------------


def test_parse_ndm_is_a_die_pool():
    assert parse("2d6").terms == ((1, Dice(2, 6)),)


def test_parse_dm_means_one_die():
    assert parse("d8").terms == ((1, Dice(1, 8)),)


def test_parse_constants_plus_and_minus():
    expr = parse("2d6 + 1 - d4 - 3")
    assert expr.terms == ((1, Dice(2, 6)), (1, Const(1)), (-1, Dice(1, 4)), (-1, Const(3)))


@pytest.mark.parametrize(
    ("source", "terms"),
    [
        ("-d4+3", ((-1, Dice(1, 4)), (1, Const(3)))),
        ("+2", ((1, Const(2)),)),
        (" - 1", ((-1, Const(1)),)),
    ],
)
def test_parse_leading_sign(source, terms):
    assert parse(source).terms == terms


def test_parse_is_case_insensitive():
    assert parse("2D6+AGILITY").terms == ((1, Dice(2, 6)), (1, Ref("agility")))


@pytest.mark.parametrize("name", ["strength", "Charm", "appearance", "DODGE", "pistols", "wild"])
def test_r_char_2_to_4_names_parse_as_references(name):
    assert parse(f"1+{name}").references == frozenset([name.lower()])


def test_r_dmg_1_bang_marks_an_exploding_pool():
    ((_, term),) = parse("3d6!").terms
    assert term == Dice(3, 6, explode=True)
    assert str(term) == "3d6!"


def test_expression_str_is_canonical():
    assert str(parse(" -d4 + 2D6!+ Agility - 3")) == "-1d4+2d6!+agility-3"


def test_constant_value_only_without_dice_or_names():
    assert parse("3-1+4").constant() == 6
    assert parse("-2").constant() == -2
    assert parse("d6+1").constant() is None
    assert parse("luck").constant() is None


# --- syntax errors: exact positions and messages ---------------------------------------


@pytest.mark.parametrize(
    ("source", "position", "reason"),
    [
        ("2d", 1, "expected the number of sides after 'd'"),
        ("2d6+1d", 5, "expected the number of sides after 'd'"),
        ("d", 0, "expected the number of sides after 'd'"),
        ("2d6+", 4, "expression ends after an operator"),
        ("2d6 + ", 5, "expression ends after an operator"),
        ("-", 1, "expression ends after an operator"),
        ("2d6+*3", 4, "unexpected '*'"),
        ("2d6!!", 4, "unexpected '!'"),
        ("3 4", 2, "expected '+' or '-' between terms"),
        ("1d6 6", 4, "expected '+' or '-' between terms"),
        ("2d6+-1", 4, "expected a die, number or trait, not '-'"),
        ("+-1", 1, "expected a die, number or trait, not '-'"),
        ("", 0, "empty dice expression"),
        ("   ", 0, "empty dice expression"),
        ("0d6", 0, "dice count must be 1–100, got 0"),
        ("101d6", 0, "dice count must be 1–100, got 101"),
        ("2d1", 2, "a die's sides must be 2–1000, got 1"),
        ("1+2d0", 4, "a die's sides must be 2–1000, got 0"),
        ("10001", 0, "a constant must be 0–10000, got 10001"),
        ("xyzzy", 0, "unknown name 'xyzzy'"),
    ],
)
def test_syntax_error_position_and_reason(source, position, reason):
    with pytest.raises(DiceSyntaxError) as info:
        parse(source)
    assert info.value.position == position
    assert info.value.reason == reason
    assert info.value.expression == source


def test_unknown_name_suggests_the_closest_one():
    with pytest.raises(DiceSyntaxError) as info:
        parse("1d6+Agilty")
    assert info.value.position == 4
    assert info.value.reason == "unknown name 'Agilty' (did you mean 'agility'?)"


def test_syntax_error_message_points_at_the_character():
    with pytest.raises(DiceSyntaxError) as info:
        parse("2d6+*3")
    lines = str(info.value).splitlines()
    assert lines[0] == "unexpected '*' at position 5 in '2d6+*3'"
    assert lines[1:] == ["  2d6+*3", "      ^"]
    assert info.value.short == lines[0]


def test_syntax_error_is_a_rules_error_and_a_value_error():
    assert issubclass(DiceSyntaxError, RulesError)
    assert issubclass(DiceSyntaxError, ValueError)


def test_non_text_expression_is_a_syntax_error():
    with pytest.raises(DiceSyntaxError):
        parse(3)  # type: ignore[arg-type]


# --- the Strength die (R-ATK-1) -------------------------------------------------------


@pytest.mark.parametrize(("strength", "sides"), [(1, 4), (2, 6), (3, 8), (4, 10), (5, 12)])
def test_r_atk_1_strength_die_table(strength, sides):
    assert strength_die(strength) == sides
    resolved = parse("strdie+1").resolve({"Strength": strength})
    assert resolved.terms == ((1, Dice(1, sides)), (1, Const(1)))


@pytest.mark.parametrize("strength", [0, 6, -1])
def test_r_atk_1_strength_die_beyond_the_table_is_an_error(strength):
    with pytest.raises(RulesError, match="no Strength die"):
        strength_die(strength)
    with pytest.raises(RulesError, match="no Strength die"):
        parse("strdie").resolve({"strength": strength})


def test_r_atk_1_strength_die_needs_a_strength():
    with pytest.raises(UnknownTraitError, match="Strength"):
        parse("STRDIE").resolve({"agility": 3})


# --- resolving names ------------------------------------------------------------------


def test_resolve_replaces_names_case_insensitively():
    expr = parse("1+Agility").resolve({"AGILITY": 3})
    assert expr.terms == ((1, Const(1)), (1, Const(3)))
    assert expr.constant() == 4
    assert expr.references == frozenset()


@pytest.mark.parametrize(
    ("source", "values"),
    [("appearance", {"charm": 3}), ("charm", {"Appearance": 3}), ("Appearance", {"CHARM": 3})],
)
def test_r_char_2_appearance_is_charm(source, values):
    assert roll(source, random.Random(0), values).total == 3


def test_resolve_missing_trait_raises_unknown_trait_error():
    with pytest.raises(UnknownTraitError, match="'agility'"):
        parse("1+agility").resolve({"strength": 2})
    with pytest.raises(UnknownTraitError):
        roll("d6+luck", random.Random(0))


# --- rolling --------------------------------------------------------------------------


def test_roll_with_the_same_seed_is_the_same():
    a = roll("4d6+2", random.Random(42))
    b = roll("4d6+2", random.Random(42))
    assert a == b
    assert [d.rolls for d in a.dice] == [d.rolls for d in b.dice]


def test_roll_keeps_every_die():
    result = roll("3d8+2d4-1", random.Random(7))
    assert [d.sides for d in result.dice] == [8, 8, 8, 4, 4]
    assert all(len(d.rolls) == 1 and 1 <= d.value <= d.sides for d in result.dice)
    assert result.total == sum(d.value for d in result.dice) - 1


def test_roll_accepts_a_parsed_expression():
    expr = parse("2d6")
    rng = ScriptedRNG(3, 4)
    assert roll(expr, rng).total == 7
    assert rng.done()


def test_roll_scripted_plain_dice_do_not_explode():
    rng = ScriptedRNG(6, 6)
    result = roll("2d6", rng)
    assert [d.rolls for d in result.dice] == [(6,), (6,)]
    assert result.total == 12
    assert rng.done()
    assert rng.calls == [(1, 6), (1, 6)]


def test_r_dmg_1_exploding_chain_continues_while_max_shows():
    rng = ScriptedRNG(6, 6, 2, 3)
    result = roll("2d6!", rng)
    assert [d.rolls for d in result.dice] == [(6, 6, 2), (3,)]
    assert [d.value for d in result.dice] == [14, 3]
    assert result.total == 17
    assert rng.done()


def test_r_dmg_1_explode_all_explodes_every_die():
    rng = ScriptedRNG(4, 4, 4, 1, 5)
    result = roll("1d4+1d6", rng, explode_all=True)
    assert [d.rolls for d in result.dice] == [(4, 4, 4, 1), (5,)]
    assert result.total == 18
    assert rng.done()


def test_r_dmg_1_only_marked_pools_explode_without_explode_all():
    rng = ScriptedRNG(6, 4, 4)
    result = roll("1d6!+1d4", rng)
    assert [d.rolls for d in result.dice] == [(6, 4), (4,)]
    assert result.total == 14
    assert rng.done()


def test_r_dmg_1_a_die_below_its_maximum_stops_the_chain():
    rng = ScriptedRNG(5)
    assert roll("d6!", rng).dice[0].rolls == (5,)
    assert rng.done()


def test_roll_strength_die_resolves_to_the_table_die():
    rng = ScriptedRNG(8, 3)
    result = roll("strdie", rng, {"strength": 3}, explode_all=True)
    assert rng.calls == [(1, 8), (1, 8)]
    assert result.total == 11


def test_roll_many_exploding_dice_stay_in_range():
    rng = random.Random(5)
    for _ in range(200):
        for die in roll("3d4", rng, explode_all=True).dice:
            assert all(1 <= r <= 4 for r in die.rolls)
            assert all(r == 4 for r in die.rolls[:-1])
            assert die.rolls[-1] != 4


# --- explain --------------------------------------------------------------------------


def test_explain_shows_chains_and_total():
    result = roll("2d6!+2", ScriptedRNG(6, 6, 2, 3))
    assert result.explain() == "2d6! [6→6→2, 3] + 2 = 19"


def test_explain_with_subtraction_and_a_trait():
    result = roll("-1d6+agility", ScriptedRNG(2), {"agility": 3})
    assert result.explain() == "− 1d6 [2] + 3 = 1"


def test_explain_marks_dice_exploded_by_explode_all():
    result = roll("1d4-1", ScriptedRNG(4, 2), explode_all=True)
    assert result.explain() == "1d4! [4→2] − 1 = 5"


def test_die_roll_str_joins_the_chain():
    assert str(dice.DieRoll(6, (6, 6, 1))) == "6→6→1"


@pytest.mark.parametrize("sides", [1, 2, 3, 6, 7, 8, 10, 12, 16, 20])
def test_r_dmg_1_faces_draw_what_choice_draws_from_one_seed(sides):
    """The fast draw for a plain ``random.Random`` is ``choice``'s very draw: a seeded
    roll (a forecast's, a replayed one) is the same dice either way, and the generator is
    left in the same state."""
    fast, slow = random.Random(f"dice:{sides}"), random.Random(f"dice:{sides}")
    drawn = dice.faces(fast, sides, 500)
    assert drawn == [slow.choice(range(1, sides + 1)) for _ in range(500)]
    assert fast.getstate() == slow.getstate()


def test_faces_from_another_source_are_asked_through_choice():
    class Counting(random.Random):
        asked = 0

        def choice(self, seq):  # type: ignore[override]
            Counting.asked += 1
            return super().choice(seq)

    assert len(dice.faces(Counting(1), 10, 4)) == 4
    assert Counting.asked == 4


def test_an_expression_travels_to_another_process_without_its_kept_hash():
    """Its hash is kept once worked out; a str hashes otherwise in a forecast's worker
    process, so the pickle leaves it out and the copy works it out anew."""
    import pickle

    expr = parse("2d6+strength")
    table = {expr: 1}
    copy = pickle.loads(pickle.dumps(expr))
    assert "_hash" not in copy.__dict__
    assert copy == expr and hash(copy) == hash(expr) and table[copy] == 1
