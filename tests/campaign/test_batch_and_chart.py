"""Batch commands (a Minion group acting on one key, one undo step) and the GM's own
Severe Wound chart roll (R-WOUND-5, §7).
"""

from __future__ import annotations

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AnswerDive,
    Attack,
    ChooseChartRow,
    EndTurn,
    PendingChartChoice,
    PendingDive,
    RollChart,
    SetPools,
    group_attack,
)
from hsm_tui.table.session import Batch, Session
from tests.campaign import edit, play, refused, state
from tests.campaign.test_combat_engine import R1, R2, RAIDERS_FIRST, K, duel

ROAN = "roan-maddox-1"
GROUP = Batch((Attack(R1, K, "laser-pistol"), Attack(R2, K, "laser-pistol")))


def test_r_init_1_group_attack_waits_for_the_dive_then_goes_on_as_one_undo_step() -> None:
    s = duel(RAIDERS_FIRST)
    before = state(s)
    play(s, GROUP, 1, 2, 9, 9)  # raider 1: 2 hits on Kestrel in the open → dive?
    assert isinstance(s.pending, PendingDive)
    assert s.queue == (GROUP.commands[1],)
    refused(s, EndTurn(), "answer the pending question first")
    play(
        s, AnswerDive("none"), 9, 8, 3, 1, 1, 1, 1, 9, 9, 9, 9
    )  # 2 through, 2d6 of 1s each; raider 2 misses
    assert s.queue == () and s.pending is None
    assert [e.title for e in s.log[-2:]] == [
        "Kestrel Vance defends",
        "Pirate raider 2 attacks Kestrel Vance",
    ]
    s.undo()  # the answer
    assert isinstance(s.pending, PendingDive) and s.queue == (GROUP.commands[1],)
    s.undo()  # the whole group attack
    assert (s.encounter, s.log, s.pending, s.queue) == (before.encounter, before.log, None, ())


def test_batch_skips_a_refused_command_with_its_reason_but_refuses_a_bad_first() -> None:
    s = duel(RAIDERS_FIRST)
    refused(
        s, Batch((Attack(R1, K, "no-such-gun"), Attack(R2, K, "laser-pistol"))), "does not carry"
    )
    play(s, Batch((Attack(R1, K, "laser-pistol"), Attack(R2, K, "cutlass"))), 9, 9, 9, 9)
    assert s.log[-1].title == "Skipped: Pirate raider 2"
    assert "melee needs the same zone" in s.log[-1].lines[0]
    refused(s, Batch(()), "the batch is empty")
    refused(s, Batch((EndTurn(issuer="player-1"),)), "every command of a batch")


def test_r_wound_5_gm_rolls_the_chart_with_the_s7_modifier() -> None:
    s = duel()
    play(s, RollChart(K, overflow=2), 1, 2, 3)  # keeps hold; d10 3 + 2 + 2×0 = 5: Scarred
    kestrel = s.encounter.get(K)
    assert (kestrel.severe, kestrel.prone) == (1, True)
    assert s.log[-1].lines[1] == "Severe Wound chart: d10 3 + 2 past Health + 2×0 earlier = 5"
    assert kestrel.chart[-1] == s.catalog.chart_rows(5)[0].id
    play(s, RollChart(K, overflow=0), 1, 2, 9, 3)  # 9 + 0 + 2×1 = 11: Stunned, 1d6 3
    assert s.log[-1].lines[1].endswith("+ 2×1 earlier = 11")


def test_s7_gm_chart_roll_on_13_asks_which_row() -> None:
    s = duel()
    play(s, RollChart(K, overflow=3), 1, 2, 10)
    assert isinstance(s.pending, PendingChartChoice) and s.pending.total == 13
    assert s.pending.resume is None
    play(s, ChooseChartRow("limb-injury"))
    assert s.encounter.get(K).chart == ("limb-injury",) and s.pending is None


@pytest.mark.parametrize(
    ("command", "match"),
    [
        (RollChart(R1, 0), "the chart is for Heroes"),
        (RollChart(K, -1), "overflow past Health is 0 to 99"),
        (RollChart("nobody", 0), "no combatant 'nobody'"),
    ],
)
def test_r_wound_2_chart_roll_refusals_change_nothing(command: RollChart, match: str) -> None:
    refused(duel(), command, match)


def _two_heroes(raiders_in: str) -> Session:
    """Kestrel and Roan on the ridge; the pirate raiders' turn."""
    s = duel(RAIDERS_FIRST, raiders_in=raiders_in)
    play(s, AddCombatants("hero", "roan-maddox", "heroes", "ridge", player=True), 1)
    s.apply(SetPools(ROAN, luck=0))  # no re-roll questions
    return s


def test_r_atk_2_a_group_member_whose_target_fell_turns_to_the_nearest_enemy() -> None:
    """A Minion group's attack goes on when its target falls: the next member shoots the
    nearest standing enemy it can attack, and the log says why; a plain attack on the
    fallen is still refused.
    """
    s = _two_heroes("camp")
    edit(s, K, unconscious=True)  # taken down by the member before
    refused(s, Attack(R2, K, "laser-pistol"), "Kestrel Vance")
    play(s, Attack(R1, K, "laser-pistol", or_nearest=True), 9, 9, 9, 9)  # four misses
    entry = next(e for e in reversed(s.log) if e.title.startswith("Pirate raider 1 attacks"))
    assert entry.title == "Pirate raider 1 attacks Captain Roan Maddox"
    assert entry.lines[1] == "Kestrel Vance is down: Pirate raider 1 turns to Captain Roan Maddox"
    assert s.encounter.turn.used_by(R1) == ("attack",)


def test_r_other_5_a_member_locked_in_melee_strikes_its_own_opponent() -> None:
    s = _two_heroes("ridge")
    raider = s.encounter.get(R1)
    edit(s, R1, weapons=tuple(reversed(raider.weapons)), engaged=(ROAN,))  # cutlass first
    edit(s, ROAN, engaged=(R1,))
    attacks = group_attack(s.encounter, K, s.catalog)
    assert [(a.attacker, a.target, a.weapon) for a in attacks] == [
        (R1, ROAN, "cutlass"),
        (R2, K, "laser-pistol"),
    ]
    assert all(a.or_nearest for a in attacks)
