"""The undo history keeps each step's log as its length and the entries the step changed
(a re-roll's note, an entry opened to the players), not a copy of the whole log: undo and
the state a save writes as the history's start rebuild it exactly.
"""

from __future__ import annotations

from hsm_tui.campaign.party import AddHero, GrantClues
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import OpenEntry, RollTask, SpendRerolls
from tests.campaign import new_session, play

TN = task_tn([("Agility", 3), ("Senses", 2)])
K = "party:kestrel-vance"


def test_undo_and_the_history_start_rebuild_logs_a_step_changed() -> None:
    s = new_session(AddHero("kestrel-vance"), GrantClues("kestrel-vance", 1))
    start = s.log
    logs = []
    for command, dice in (
        (RollTask(TN, Rank.HERO, label="Climb", rerolls=1, who=K), (9, 2)),
        (SpendRerolls(3, 0, clues=1), (9, 9, 3)),  # adds a note to the roll's entry
        (RollTask(TN, Rank.MINION, "Secret", hidden=True), (4,)),
        (OpenEntry(len(s.log) + 2), ()),  # opens the secret roll: changes its entry
    ):
        logs.append(s.log)
        play(s, command, *dice)
    assert s.log[len(start)].lines != logs[1][len(start)].lines  # the note changed it
    assert s.log[-2].visibility != logs[3][-1].visibility  # opened since
    assert s.frozen().start.log == ()  # the history starts at the campaign's start
    while logs:
        s.undo()
        assert s.log == logs.pop()  # visibility and lines included
