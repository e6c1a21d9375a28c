"""Free-flowing tasks in the Session: a named roller's Luck and Clues pay for re-rolls
(R-TASK-6, R-CHAR-9), opposed and group tasks (hsm_tui/rules/contests.py).
"""

from __future__ import annotations

from hsm_tui.campaign.freeflow import PendingRerolls
from hsm_tui.campaign.party import AddHero, GrantClues
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import RollGroup, RollOpposed, RollTask, SpendRerolls
from tests.campaign import new_session, play, refused

TN = task_tn([("Agility", 3), ("Senses", 2)])  # 5
K = "party:kestrel-vance"


def test_r_char_9_a_party_heroes_luck_and_clues_pay_for_task_rerolls() -> None:
    s = new_session(AddHero("kestrel-vance"), GrantClues("kestrel-vance", 1))
    play(s, RollTask(TN, Rank.HERO, label="Climb", rerolls=1, who=K), 9, 2)
    pending = s.pending
    assert isinstance(pending, PendingRerolls)
    assert (pending.available, pending.free) == (1 + 2 + 1, 1)  # free + Luck 2 + Clues 1
    assert s.log[-1].title == "Kestrel Vance: Climb (Hero)"
    refused(s, SpendRerolls(5, 0), "only 4 re-roll")
    play(s, SpendRerolls(3, 0, clues=1), 9, 9, 3)  # 1 free, then 1 Clue and 1 Luck
    member = s.campaign.member("kestrel-vance")
    assert (member.luck, member.clues) == (1, 0)
    assert s.log[-1].lines[-1].startswith("re-rolled 3 d10 + 0 Hero die (1 Luck, 1 Clue(s)): ")
    s.undo()
    assert s.campaign.member("kestrel-vance").luck == 2  # undo gives the pools back


def test_r_char_9_luck_runs_out_then_clues_pay() -> None:
    s = new_session(AddHero("kestrel-vance"), GrantClues("kestrel-vance", 2))
    play(s, RollTask(TN, Rank.HERO, who=K), 9, 2)
    play(s, SpendRerolls(3, 0), 9, 9, 9)  # no free ones: Luck 2, then 1 Clue
    member = s.campaign.member("kestrel-vance")
    assert (member.luck, member.clues) == (0, 1)


def test_opposed_task_logs_exact_odds_both_rolls_and_the_winner() -> None:
    s = new_session()
    first = RollTask(TN, Rank.HERO, label="Kestrel")
    second = RollTask(task_tn([("Agility", 2), ("Senses", 2)]), Rank.MINION, label="Raider")
    play(s, RollOpposed(first, second, label="Chase"), 2, 4, 4)  # margins 3 and 0
    entry = s.log[-1]
    assert entry.title == "Chase"
    assert entry.lines[0].startswith("odds: Kestrel ")
    assert entry.lines[-1] == "Kestrel wins"
    refused(s, RollOpposed(RollTask(TN, Rank.HERO, rerolls=1), second), "without re-rolls")


def test_group_task_counts_successes_against_what_the_group_needs() -> None:
    s = new_session()
    tasks = tuple(RollTask(TN, Rank.MINION, label=f"porter {i}") for i in range(1, 4))
    play(s, RollGroup(tasks, need="half", label="Haul the crate"), 2, 9, 5)
    lines = s.log[-1].lines
    assert lines[0].startswith("needs half of 3: odds ")
    assert lines[-1] == "2 of 3 succeed: the group succeeds"
    refused(s, RollGroup(tasks, need="most"), "any, half or all")
    refused(s, RollGroup(()), "1 to 20 rollers")
