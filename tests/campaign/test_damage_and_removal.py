"""Damage the GM applies outside an attack (R-DMG-2, R-WOUND-1/2/5/6, R-OTHER-6 falls)
and combatants leaving the encounter.
"""

from __future__ import annotations

import random

from hsm_tui.campaign.combat import (
    ApplyDamage,
    PendingCombatRerolls,
    RemoveCombatant,
    RollChart,
    SpendCombatRerolls,
)
from hsm_tui.persistence import store
from hsm_tui.table.session import Session
from tests.campaign import edit, pack, play, refused
from tests.campaign.test_combat_engine import R1, R2, K, duel


def test_r_dmg_2_gm_damage_wounds_a_hero_step_by_step() -> None:
    s = duel()
    s.apply(ApplyDamage(K, 7))  # Health 6: one step
    kestrel = s.encounter.get(K)
    assert (kestrel.wounds, kestrel.lose_actions) == (1, 1)
    assert s.log[-1].lines == ("7 damage vs Health 6 → 1 wound step(s): now at −1",)
    s.apply(ApplyDamage(K, 5, nonlethal=True))  # Stamina 6: nothing
    assert s.encounter.get(K).nonlethal == 0


def test_r_wound_5_gm_damage_past_minus_2_rolls_the_chart() -> None:
    s = duel()
    play(s, ApplyDamage(K, 19), 1, 2, 10, 4)  # 3 steps; grip kept; d10 10 + 1 = 11; 1d6 4
    kestrel = s.encounter.get(K)
    assert kestrel.wounds == 3 and kestrel.severe == 1
    assert s.log[-1].lines[-3:] == (
        "Severe Wound chart: d10 10 + 1 past Health + 2×0 earlier = 11",
        f"→ Stunned: {s.catalog.chart_rows(11)[0].text}",
        "Kestrel Vance marked stunned for its next 4 turns (1d6 [4] = 4):"
        " no Run; stays put its first timed turn (chart 11)",
    )
    assert kestrel.conditions == ("stunned",)  # §7 row's condition, for its next 4 turns
    assert s.pending is None


def test_r_wound_2_gm_damage_takes_a_minion_out_and_bad_values_are_refused() -> None:
    s = duel()
    s.apply(ApplyDamage(R1, 5))  # Health 4
    assert s.encounter.get(R1).out
    refused(s, ApplyDamage(R1, 5), "already out of the fight")
    refused(s, ApplyDamage(K, -1), "damage is 0 to 999")


def test_a_combatant_leaves_and_its_group_keeps_its_place_until_the_last_one_goes() -> None:
    s = duel()
    s.apply(RemoveCombatant(R1))
    assert [c.id for c in s.encounter.combatants] == [K, R2]
    assert len(s.encounter.order) == 2  # raider 2 still holds the group's slot
    refused(s, RemoveCombatant(K), "acting now: end its turn first")
    s.apply(RemoveCombatant(R2))
    assert [r.actor for r in s.encounter.order] == [K]
    refused(s, RemoveCombatant("nobody"), "no combatant 'nobody'")


def test_removing_an_opponent_ends_the_engagement() -> None:
    s = duel(raiders_in="ridge")
    edit(s, R1, engaged=(K,))
    edit(s, K, engaged=(R1,))
    s.apply(RemoveCombatant(R1))
    assert s.encounter.get(K).engaged == ()


def test_r_wound_5_gm_damage_asks_a_hero_about_luck_on_the_grip_roll(tmp_path) -> None:
    """R-TASK-6 (Luck re-rolls any roll) holds for a severe wound the GM applies or rolls
    outside an attack as in one: the grip Stamina roll is asked about, then the chart goes
    on; the question survives a save (no attack to resume after it)."""
    s = duel()
    edit(s, K, luck=1)
    play(s, ApplyDamage(K, 19), 9, 2)  # 3 steps: severe; grip d10 9 fails
    pending = s.pending
    assert isinstance(pending, PendingCombatRerolls) and pending.attack is None
    assert pending.question.startswith("Kestrel Vance's grip Stamina roll: d10 9")
    play(s, SpendCombatRerolls(1, 0), 1, 10, 5)  # the d10 again: 1; d10 10 + 1 = 11; 1d6 5
    title, lines = s.log[-1].title, s.log[-1].lines
    assert title == "Kestrel Vance takes damage" and s.pending is None
    assert lines[-4].endswith(": keeps hold of Assault Laser (R-WOUND-5)")
    assert lines[-3] == "Severe Wound chart: d10 10 + 1 past Health + 2×0 earlier = 11"
    kestrel = s.encounter.get(K)
    assert (kestrel.luck, kestrel.severe, kestrel.prone) == (0, 1, True)
    assert not kestrel.weapon("assault-laser").dropped

    chart = duel()
    edit(chart, K, luck=1)
    play(chart, RollChart(K, overflow=2), 9, 2)  # the GM's chart roll: the grip first
    assert isinstance(chart.pending, PendingCombatRerolls)
    chart.rng = random.Random(5)  # a real generator's state to save (not the scripted dice)
    loaded = Session(content=pack())
    store.load(loaded, store.save(chart, tmp_path / "grip.toml"))
    assert loaded.pending == chart.pending
    for session in (chart, loaded):
        play(session, SpendCombatRerolls(0, 0), 3)  # kept: dropped; chart d10 3 + 2 = 5
    assert loaded.encounter == chart.encounter and loaded.log == chart.log
    assert chart.log[-1].title == "Kestrel Vance: Severe Wound"
    assert chart.encounter.get(K).weapon("assault-laser").dropped
