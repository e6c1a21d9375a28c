"""The attack preview (R-ATK-2/6, R-DMG-2): the odds a GM reads before rolling are the
exact figures of the attack the engine then rolls, and computing them changes nothing.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from hsm_tui.campaign.combat import (
    AnswerDive,
    ApplyDamage,
    Attack,
    SetCondition,
    TakeAction,
    plan_attack,
)
from hsm_tui.rules import Derived, RangeBand, RulesError, attack_odds, defense_odds
from tests.campaign import play, state
from tests.campaign.test_combat_engine import R1, RAIDERS_FIRST, K, duel, last

ONE = Fraction(1)


def test_r_atk_2_preview_hits_are_the_exact_attack_odds_at_the_rolled_tn() -> None:
    session = duel()
    plan = plan_attack(session.encounter, Attack(K, R1, "assault-laser"), session.catalog)
    assert plan.hits == attack_odds(plan.tn.value, plan.dice, plan.rank)
    assert plan.band is RangeBand.MEDIUM
    assert plan.tn.value == plan.attacker.ratings[plan.style]  # in range: no modifier


def test_r_atk_6_through_defense_composes_hits_and_defense_exactly() -> None:
    session = duel()
    enc = session.encounter
    plan = plan_attack(enc, Attack(K, R1, "assault-laser"), session.catalog)
    through = plan.through(enc)
    assert sum(through) == ONE
    defense = plan.defense(enc)
    expected_none = plan.hits.successes[0] + sum(
        p * defense_odds(h, defense, plan.target.rules_rank).successes[0]
        for h, p in enumerate(plan.hits.successes)
        if h
    )
    assert through[0] == expected_none
    assert through[0] >= plan.hits.successes[0]  # Defense can only stop hits


def test_r_dmg_2_preview_wound_odds_sum_to_one_and_show_in_the_lines() -> None:
    session = duel()
    enc = session.encounter
    plan = plan_attack(enc, Attack(K, R1, "assault-laser"), session.catalog)
    assert sum(plan.wounds().values()) == ONE
    lines = plan.preview(enc)
    assert lines[1].startswith("TN ")
    assert any("≥1 hit" in line for line in lines)
    assert any("through" in line for line in lines)


def test_preview_changes_nothing_and_refuses_like_the_attack() -> None:
    session = duel()
    before = state(session)
    plan_attack(session.encounter, Attack(K, R1, "assault-laser"), session.catalog)
    assert state(session) == before
    with pytest.raises(RulesError, match="cannot attack itself"):
        plan_attack(session.encounter, Attack(K, K, "assault-laser"), session.catalog)


def test_every_pending_decision_lists_its_answers_as_commands() -> None:
    """Views render any pending decision from ``options``: each is a real answer."""
    from hsm_tui.campaign.combat import (
        AnswerDive,
        AttackState,
        ChooseChartRow,
        DecideSidekick,
        PendingChartChoice,
        PendingDive,
        PendingSidekick,
    )
    from hsm_tui.rules import Cover

    dive = PendingDive(AttackState("a", "b", "w", 1), "dive?", Cover.LIGHT)
    assert [o.command for o in dive.options] == [
        AnswerDive("none"),
        AnswerDive("medium"),
        AnswerDive("heavy"),
    ]  # R-ATK-5: only better cover
    chart = PendingChartChoice("b", 13, ("painful", "limb"), "which?", names=("Painful", "Limb"))
    assert [o.label for o in chart.options] == ["Painful", "Limb", "roll for it (50/50)"]
    assert chart.options[-1].command == ChooseChartRow("random")
    side = PendingSidekick("s-1", "hero or minion?")
    assert {o.command for o in side.options} == {
        DecideSidekick("s-1", "hero"),
        DecideSidekick("s-1", "minion"),
    }
    for pending in (dive, chart, side):  # no key used twice in one question
        assert len({o.key for o in pending.options}) == len(pending.options)


def test_r_act_2_aim_and_the_gms_free_rerolls_are_in_the_odds_before_the_roll() -> None:
    """R-ACT-2 Aim gives one free re-roll on a later attack; R-TASK-6 free re-rolls are
    spent on missed dice, so the odds shown count them (and say so)."""
    session = duel()
    plain = plan_attack(session.encounter, Attack(K, R1, "assault-laser"), session.catalog)
    assert plain.free == 0
    session.apply(TakeAction(K, "aim"))
    aimed = plan_attack(session.encounter, Attack(K, R1, "assault-laser"), session.catalog)
    assert aimed.free == 1
    assert aimed.hits == attack_odds(aimed.tn.value, aimed.dice, aimed.rank, 1)
    assert aimed.hits.success > plain.hits.success
    assert aimed.preview(session.encounter)[2].endswith("(with 1 free re-roll(s))")
    more = Attack(K, R1, "assault-laser", rerolls=1)  # a Talent the GM grants: 2 in all
    assert plan_attack(session.encounter, more, session.catalog).free == 2


def test_r_atk_10_a_called_shot_at_the_head_adds_its_d8_to_the_wound_odds() -> None:
    session = duel()
    body = Attack(K, R1, "assault-laser", called_shot=True)
    head = Attack(K, R1, "assault-laser", called_shot=True, location="head")
    plain = plan_attack(session.encounter, body, session.catalog).wounds()
    aimed = plan_attack(session.encounter, head, session.catalog).wounds()
    assert aimed["0"] < plain["0"]  # the extra d8 makes a wound likelier


def test_pinned_attacker_is_told_of_the_morale_roll_before_the_attack() -> None:
    """§8 Pinned: the Morale roll comes before the attack, so the preview says so."""
    session = duel()
    attack = Attack(K, R1, "assault-laser")
    assert not any("Pinned" in line for line in _preview(session, attack))
    session.apply(SetCondition(K, "pinned"))
    assert _preview(session, attack)[-1].startswith("Pinned (§8): a Morale roll comes first")


def _preview(session, attack: Attack) -> tuple[str, ...]:
    return plan_attack(session.encounter, attack, session.catalog).preview(session.encounter)


def test_r_wound_3_a_wounded_shaken_hero_defends_lower_and_the_preview_says_why() -> None:
    """R-WOUND-3 / §8: Defense is a roll on Dodge, so a Hero's wound marker and Shaken
    lower it like any other TN (R-TASK-1: they add); a Minion has no marker.
    """
    session = duel()
    session.apply(ApplyDamage(K, 7))  # Health 6: one wound step → −1
    session.apply(SetCondition(K, "shaken", 1))
    enc = session.encounter
    plan = plan_attack(enc, Attack(R1, K, "laser-pistol"), session.catalog)
    dodge = plan.target.traits[Derived.DODGE]
    assert plan.defense(enc) == dodge - 2
    assert f"Defense Dodge {dodge} − wound 1 − conditions 1 = {dodge - 2}:" in "\n".join(
        plan.preview(enc)
    )
    session.apply(ApplyDamage(R1, 1))  # no wound step; a Minion's Defense stays Dodge
    back = plan_attack(session.encounter, Attack(K, R1, "assault-laser"), session.catalog)
    assert back.defense(session.encounter) == back.target.traits[Derived.DODGE]


def test_r_wound_3_the_rolled_defense_takes_the_marker_too() -> None:
    s = duel(RAIDERS_FIRST, raiders_in="ridge")
    s.apply(ApplyDamage(K, 13))  # past Health 6 twice → −2
    plan = plan_attack(s.encounter, Attack(R1, K, "laser-pistol"), s.catalog)
    assert plan.defense(s.encounter) == 6 - 2
    play(s, Attack(R1, K, "laser-pistol"), 1, 9, 9, 9)  # one hit
    play(s, AnswerDive("none"), 5, 2, 1, 1)  # 5 > Defense 4: through (it would not beat 6)
    assert last(s)[1][0] == (
        "Dodge 6 − wound 2 → Defense 4: d10 5 → 1 of 1 through, 0 avoided · Hero die 2 · blank"
    )
