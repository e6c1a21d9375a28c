"""Re-rolls in combat (R-TASK-6, R-CHAR-9, R-ACT-2 Aim and Dodge): a Hero with Luck or
Clues decides after seeing the roll; free re-rolls go first; all are rolled at once.
"""

from __future__ import annotations

import pytest

from hsm_tui.campaign.combat import (
    AnswerDive,
    Attack,
    PendingCombatRerolls,
    PendingDive,
    SetCover,
    SetPools,
    SpendCombatRerolls,
    TakeAction,
)
from hsm_tui.table.session import Session
from tests.campaign import play, refused
from tests.campaign.test_combat_engine import R1, RAIDERS_FIRST, K, duel


def lucky(first: tuple[int, int] = (5, 1), luck: int = 2, clues: int = 1):
    s = duel(first)
    s.apply(SetPools(K, luck=luck, clues=clues))
    return s


def test_r_char_9_a_hero_with_luck_is_asked_after_a_missed_die() -> None:
    s = lucky()
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)  # 5 misses, blank Hero die
    pending = s.pending
    assert isinstance(pending, PendingCombatRerolls)
    assert (pending.free, pending.luck, pending.clues, pending.stage) == (0, 2, 1, "attack")
    assert s.log[-1].lines[-1].startswith("roll d10 9, 9, 9, 9, 9 vs TN 8 → 0 hits")
    assert [o.key for o in pending.options] == ["k", "1", "2", "3"]
    assert pending.options[1].command == SpendCombatRerolls(1, 0, clues=0)  # Luck first
    assert pending.options[3].label.endswith("2 Luck, 1 Clue(s)")
    refused(s, SpendCombatRerolls(4, 0), "only Luck 2 and Clues 1")
    refused(s, SpendCombatRerolls(1, 0, clues=2), r"2 Clue\(s\) cannot pay for 1")
    play(s, SpendCombatRerolls(1, 0), 3)  # one Luck: a 3 replaces a 9 → 1 hit
    assert s.encounter.get(K).luck == 1 and s.encounter.get(K).clues == 1
    assert s.log[-1].lines[0].startswith("re-rolls (1 Luck): ")
    assert isinstance(s.pending, PendingDive)  # the attack goes on: 1 hit, dive?


def test_r_task_6_keep_spends_nothing_and_the_attack_goes_on() -> None:
    s = lucky()
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    play(s, SpendCombatRerolls(0, 0))
    assert s.pending is None and s.encounter.get(K).luck == 2
    assert s.log[-1].lines[:2] == ("keeps the roll", "no hit")


def test_r_act_2_aim_is_a_free_reroll_spent_with_the_paid_ones_at_once() -> None:
    s = lucky(luck=1, clues=0)
    s.apply(TakeAction(K, "aim"))
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert isinstance(s.pending, PendingCombatRerolls) and s.pending.free == 1
    play(s, SpendCombatRerolls(2, 0), 1, 1)  # 1 free (Aim) + 1 Luck, rolled together
    assert s.encounter.get(K).luck == 0
    assert s.log[-1].lines[0].startswith("re-rolls (1 free, 1 Luck): ")
    assert isinstance(s.pending, PendingDive)


def test_r_char_9_no_question_when_every_die_hit_or_without_pools() -> None:
    s = lucky()
    play(s, Attack(K, R1, "assault-laser"), 1, 1, 1, 1, 1, 2)  # 5 hits: nothing to gain
    assert isinstance(s.pending, PendingDive)
    dry = duel()  # Luck 0
    play(dry, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert dry.pending is None


def test_r_atk_6_a_lucky_hero_may_reroll_its_defense() -> None:
    s = duel(RAIDERS_FIRST)
    s.apply(SetPools(K, luck=1))
    play(s, Attack(R1, K, "laser-pistol"), 1, 2, 9, 9)  # 2 hits → dive?
    play(s, AnswerDive("none"), 9, 8, 3)  # Defense 6 (Hero die 3): both through
    pending = s.pending
    assert isinstance(pending, PendingCombatRerolls) and pending.stage == "defense"
    play(s, SpendCombatRerolls(1, 0), 2, 1, 1)  # a 2 replaces the 9: one through, 1d6 = 1
    kestrel = s.encounter.get(K)
    assert kestrel.luck == 0 and kestrel.wounds == 0
    assert s.log[-1].lines[0].startswith("re-rolls (1 Luck): Defense 6: ")


def kestrel_defending() -> Session:
    """Kestrel in light cover (Defense 6 + 1 = 7) with Luck 3: a raider's 3 hits, then her
    Defense d10 3, 9, 8 let 2 of them through; her re-roll question waits.
    """
    s = duel(RAIDERS_FIRST)
    s.apply(SetPools(K, luck=3))
    s.apply(SetCover(K, "light"))
    play(s, Attack(R1, K, "laser-pistol"), 1, 2, 3, 9)  # 3 hits → dive?
    return play(s, AnswerDive("none"), 3, 9, 8, 2)  # Defense 7: 9 and 8 through


def test_r_atk_6_a_defender_is_offered_a_reroll_for_each_hit_through() -> None:
    """R-ATK-6 / R-CHAR-9 Interpretation: 2 of 3 hits through, 3 re-rolls: 1 d10 leaves
    1.30 hits through expected, 2 d10 leave 0.60; the question opens on 2 d10, Luck-paid.
    """
    s = kestrel_defending()
    pending = s.pending
    assert isinstance(pending, PendingCombatRerolls) and pending.stage == "defense"
    assert (pending.roll.target, pending.roll.successes, pending.available) == (7, 2, 3)
    assert pending.suggested == (2, 0)
    play(s, SpendCombatRerolls(*pending.suggested), 1, 2)  # both stop a hit: none through
    assert s.encounter.get(K).luck == 1 and s.encounter.get(K).wounds == 0


@pytest.mark.parametrize("bad", [SetPools(R1, luck=1), SetPools(K, clues=-1)])
def test_r_char_9_pools_only_for_heroes_and_never_negative(bad: SetPools) -> None:
    refused(duel(), bad, "no Luck or Clues|0 to 99")


# -- card effects act on the dice after the re-rolls (R-TASK-5, R-TASK-6, §10) ---------
def test_r_task_6_assault_laser_special_5_rerolls_the_worst_die_after_luck_rerolls() -> None:
    """R-TASK-6 then R-TASK-5: the Hero die's face (itself re-rollable) triggers the card
    once every re-roll is in, so Special 5 ("re-roll lowest result") acts on the dice as
    they stand after Luck: here a Luck d10 (1) and a Luck Hero die (5) turn five misses and a
    blank into 1 hit and Special 5; the card's re-roll (2) then replaces a 9 → 2 hits.
    Before the fix the card re-rolled the first roll's dice and lost the Luck 1.
    """
    s = lucky()
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)  # 0 hits, blank Hero die
    assert isinstance(s.pending, PendingCombatRerolls)
    play(s, SpendCombatRerolls(1, 1), 1, 5, 2)  # Luck: d10 1, Hero die 5; then the card's 2
    lines = s.log[-1].lines
    assert lines[0] == (
        "re-rolls (2 Luck): d10 1, 9, 9, 9, 9 (re-rolled 1) vs TN 8 → 1 hit"
        " · Hero die 5 (of 2, 5) ◆ Special 5"
    )
    assert lines[1] == (
        "special5: re-roll the worst attack die: d10 1, 2, 9, 9, 9 (re-rolled 1, 2)"
        " vs TN 8 → 2 hits · Hero die 5 (of 2, 5) ◆ Special 5"
    )
    assert (
        lines[2] == "Pirate raider 1 and the rest of its unit (2 in all) gain 2 Fear each (R-ATK-4)"
    )
    assert isinstance(s.pending, PendingDive) and s.pending.attack.hits == 2


def test_r_act_2_aim_reroll_comes_before_the_special_5_reroll() -> None:
    """R-ACT-2 Aim (a free re-roll, no pool to ask about) then Special 5: the card's re-roll
    joins the dice the Aim re-roll left, so both gains count (3 hits, not 2).
    """
    s = duel()  # Luck 0: the Aim re-roll is spent at once
    s.apply(TakeAction(K, "aim"))
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 5, 2, 3)  # Aim d10 2, card d10 3
    lines = s.log[-1].lines
    assert "roll d10 1, 2, 9, 9, 9 (re-rolled 2) vs TN 8 → 2 hits · Hero die 5 ◆ Special 5" in lines
    assert (
        "special5: re-roll the worst attack die: d10 1, 2, 3, 9, 9 (re-rolled 2, 3)"
        " vs TN 8 → 3 hits · Hero die 5 ◆ Special 5"
    ) in lines
    assert isinstance(s.pending, PendingDive) and s.pending.attack.hits == 3


def test_r_task_4_special_5_after_a_hero_die_reroll_keeps_the_rerolled_hero_die() -> None:
    """R-TASK-4 at TN 0: a hit needs d10 1 and Hero die 2+. The Luck Hero die (5) lifts the
    gate the first Misfortune (1) closed; the card's re-roll (1) must count with that kept
    5, not with the first roll's 1 → 2 hits.
    """
    s = lucky()
    play(s, Attack(K, R1, "assault-laser", modifier=-8), 1, 5, 5, 5, 5, 1)  # gate shut: 0 hits
    play(s, SpendCombatRerolls(0, 1), 5, 1)  # Hero die 5 → 1 hit, Special 5; the card's 1
    assert isinstance(s.pending, PendingDive) and s.pending.attack.hits == 2
    assert s.encounter.get(R1).fear == 2
