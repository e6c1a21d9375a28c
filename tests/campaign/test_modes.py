"""R-COMBAT-1 the two modes, R-ATK-9 Parry re-rolls on melee Defense."""

from __future__ import annotations

from hsm_tui.campaign.combat import Attack, EndCombat, EndTurn, SetCondition, plan_attack
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import RollTask
from tests.campaign import play, refused
from tests.campaign.test_combat_engine import R1, K, duel, to_raiders


def test_r_combat_1_the_gm_switches_between_free_flowing_and_combat_explicitly() -> None:
    s = duel()
    assert s.encounter.active and s.encounter.turn is not None
    s.apply(EndCombat())
    assert not s.encounter.active and s.encounter.turn is None
    refused(s, EndTurn(), "no turn is under way: start combat first")
    refused(s, Attack(K, R1, "assault-laser"), "start combat first")
    tn = task_tn([("Agility", 3), ("Senses", 3)])
    play(s, RollTask(tn, Rank.HERO), 3, 2)  # free-flowing tasks roll at any time
    assert s.log[-1].title.startswith("Task")


def test_r_atk_9_a_parry_source_is_a_free_reroll_on_melee_defense_only() -> None:
    s = duel(raiders_in="ridge")
    s.apply(SetCondition(R1, "parry"))
    melee = plan_attack(s.encounter, Attack(K, R1, "dagger"), s.catalog)
    ranged = plan_attack(s.encounter, Attack(K, R1, "assault-laser"), s.catalog)
    no_parry = duel(raiders_in="ridge")
    plain = plan_attack(no_parry.encounter, Attack(K, R1, "dagger"), no_parry.catalog)
    assert melee.through(s.encounter)[0] > plain.through(no_parry.encounter)[0]
    assert ranged.through(s.encounter) == plan_attack(
        no_parry.encounter, Attack(K, R1, "assault-laser"), no_parry.catalog
    ).through(no_parry.encounter)
    # one hit (1 ≤ Agile 6), through the first Defense die 9, the parry re-roll 2 stops it
    play(s, Attack(K, R1, "dagger"), 1, 9, 9, 2, 9, 2)
    assert "(re-rolled 2)" in s.log[-1].lines[0] and s.encounter.get(R1).fear == 1
    to_raiders(s)
