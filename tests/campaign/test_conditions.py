"""§8 conditions (RULES.md "Fear and conditions"): markers the GM sets and what the engine
does with them at the start and end of turns and on every roll.
"""

from __future__ import annotations

import pytest

from hsm_tui.campaign.combat import Attack, EndTurn, Move, SetCondition, plan_attack
from hsm_tui.campaign.conditions import level
from tests.campaign import play, refused
from tests.campaign.test_combat_engine import R1, R2, RAIDERS_FIRST, K, duel, left, to_raiders


def test_s8_set_and_clear_conditions_with_levels_and_refusals() -> None:
    s = duel()
    s.apply(SetCondition(R1, "dazed", 2))
    assert s.encounter.get(R1).conditions == ("dazed:2",)
    assert s.log[-1].title.startswith("Pirate raider 1: dazed 2: loses n actions")
    s.apply(SetCondition(R1, "dazed", 0))
    assert s.encounter.get(R1).conditions == ()
    s.apply(SetCondition(K, "prone"))
    assert s.encounter.get(K).prone
    refused(s, SetCondition(K, "prone"), "already prone")
    refused(s, SetCondition(R1, "dazed", 0), "is not dazed")
    refused(s, SetCondition(R1, "sleepy"), "unknown condition 'sleepy'")
    refused(s, SetCondition(R1, "shaken", 2), "shaken is set 0 \\(clear\\) to 1")
    refused(s, SetCondition(R1, "encumbered", 10), "0 \\(clear\\) to 9")


def test_s8_dazed_loses_its_actions_at_the_start_of_the_next_turn_then_ends() -> None:
    s = duel()
    s.apply(SetCondition(R1, "dazed", 2))
    to_raiders(s)
    assert (left(s, R1), left(s, R2)) == (0, 2)
    assert "Pirate raider 1: Dazed: loses 2 action(s)" in s.log[-1].gm_lines
    assert level(s.encounter.get(R1), "dazed") == 0


def test_s8_encumbered_and_shaken_penalties_add_up_on_the_attack_tn() -> None:
    s = duel()
    s.apply(SetCondition(K, "encumbered", 2))
    s.apply(SetCondition(K, "shaken"))
    plan = plan_attack(s.encounter, Attack(K, R1, "assault-laser"), s.catalog)
    assert plan.tn.value == 8 - 3
    assert "conditions 3" in plan.tn.explain()


def test_s8_pinned_fails_its_morale_roll_and_loses_the_attack() -> None:
    s = duel()
    s.apply(SetCondition(K, "pinned"))
    play(s, Attack(K, R1, "assault-laser"), 9, 2)  # Morale 4: the 9 fails
    assert s.log[-1].title == "Kestrel Vance is Pinned"
    assert s.log[-1].gm_lines[0].endswith("fails: the attack is lost (§8)")
    assert left(s, K) == 1 and s.encounter.get(R1).fear == 0
    m = duel()
    m.apply(SetCondition(K, "pinned"))
    play(m, Move(K, "camp", run=True), 3, 2)  # a Move exposes her too: the 3 passes
    assert m.encounter.get(K).zone == "camp"


def test_s8_pinned_ends_when_fear_is_no_longer_above_morale() -> None:
    s = duel()
    s.apply(SetCondition(R1, "pinned"))
    to_raiders(s)
    assert "Pirate raider 1: no longer Pinned (Fear 0 ≤ Morale 4)" in s.log[-1].gm_lines


def test_s8_panicked_rolls_morale_at_the_end_of_its_turn_and_calms_to_shaken() -> None:
    s = duel()
    s.apply(SetCondition(R1, "panicked"))
    to_raiders(s)
    refused(s, Attack(R1, K, "laser-pistol"), "Panicked: only Move, Run or Hide")
    play(s, EndTurn(), 3)  # Morale 4: the 3 passes
    raider = s.encounter.get(R1)
    assert "shaken" in raider.conditions and "panicked" not in raider.conditions
    assert s.log[-2].gm_lines == (
        "Pirate raider 1: Panicked: Morale roll: d10 3 ≤ TN 4 ✓: calms down to Shaken",
    )


def test_s8_bleeding_rolls_stamina_adds_tokens_and_knocks_out_at_stamina() -> None:
    s = duel(RAIDERS_FIRST)  # raiders act first: Kestrel's turn starts after theirs
    s.apply(SetCondition(K, "bleeding"))
    play(s, EndTurn(), 9, 2)  # Stamina 6: the 9 fails → 1 token
    kestrel = s.encounter.get(K)
    assert level(kestrel, "bleed-tokens") == 1 and level(kestrel, "bleeding")
    assert "Kestrel Vance: a Stamina token (1 of 6)" in s.log[-1].gm_lines
    edit_tokens = SetCondition(K, "bleeding", 0)
    s.apply(edit_tokens)  # a Medical roll stopped it (the GM clears the marker)
    assert not level(s.encounter.get(K), "bleeding")


def test_s8_confused_failure_allows_only_run_or_hide_this_turn() -> None:
    s = duel()
    s.apply(SetCondition(R1, "confused"))
    play(s, EndTurn(), 5)  # Savvy 2 + Senses 2 − 1 = 3: the 5 fails
    assert "Pirate raider 1: only Run and/or Hide this turn" in s.log[-1].gm_lines
    refused(s, Attack(R1, K, "laser-pistol"), "Confused and failed its roll")
    s.apply(Move(R1, "camp", run=True))
    assert s.encounter.get(R1).zone == "camp"


def test_s8_nauseated_rolls_against_stamina_before_the_attack() -> None:
    s = duel()
    s.apply(SetCondition(K, "nauseated"))
    play(s, Attack(K, R1, "assault-laser"), 7, 9, 9, 9, 9, 9, 2)  # 7 > Stamina 6 − 1: −1
    lines = s.log[-1].gm_lines
    assert "nausea d10 7 > 5: −1" in lines
    assert any(line.startswith("TN Rifles 8 − nausea 1 = 7") for line in lines)


def test_s8_fatigued_confirms_a_successful_trait_roll() -> None:
    s = duel()
    s.apply(SetCondition(R1, "fatigued"))
    s.apply(SetCondition(R1, "confused"))
    play(s, EndTurn(), 2, 8)  # the Confused roll passes (2 ≤ 3) but the confirmation fails
    assert "Fatigued, confirm: d10 8 > TN 3 ✗" in s.log[-1].gm_lines[0]
    refused(s, Attack(R1, K, "laser-pistol"), "Confused and failed its roll")


@pytest.mark.parametrize("name", ["stunned", "grappled"])
def test_s8_state_markers_are_shown_and_left_to_the_gm(name: str) -> None:
    s = duel()
    s.apply(SetCondition(R1, name))
    assert name in s.encounter.get(R1).conditions
