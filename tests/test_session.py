"""Session: commands, refusals, undo/redo with the RNG, replay, subscribers (DESIGN)."""

from __future__ import annotations

import pytest

from hsm_tui.rules import Rank, RulesError, task_tn
from hsm_tui.table.session import RollTask, Session, SpendRerolls

TN = task_tn([("Agility", 3), ("Senses", 2)])


def _roll(rerolls: int = 0, rank: Rank = Rank.HERO) -> RollTask:
    return RollTask(TN, rank, rerolls=rerolls)


def test_r_task_2_roll_logs_tn_odds_and_dice() -> None:
    session = Session(seed=1)
    session.apply(_roll())
    [entry] = session.log
    assert entry.gm_lines[0] == "TN Agility 3 + Senses 2 = 5"
    assert entry.gm_lines[1].startswith("odds success 50.0% (1/2)")
    assert entry.gm_lines[2].startswith("roll d10 ")


def test_r_task_6_pending_rerolls_then_spend() -> None:
    session = Session(seed=3)
    session.apply(_roll(rerolls=2))
    pending = session.pending
    assert pending is not None and pending.available == 2
    assert sum(pending.suggested) == 2
    session.apply(SpendRerolls(1, 1))
    assert session.pending is None
    assert session.log[-1].gm_lines[-1].startswith("re-rolled 1 d10 + 1 Hero die")


def test_refused_command_changes_nothing() -> None:
    session = Session(seed=3)
    session.apply(_roll(rerolls=1))
    state = (session.log, session.pending, session.rng.getstate(), list(session.history))
    with pytest.raises(RulesError, match="only 1 re-roll"):
        session.apply(SpendRerolls(1, 1))
    with pytest.raises(RulesError, match="only the GM"):
        session.apply(RollTask(TN, Rank.HERO, issuer="player:ana"))
    assert (session.log, session.pending, session.rng.getstate(), session.history) == state


def test_spend_without_pending_is_refused() -> None:
    with pytest.raises(RulesError, match="no roll waiting"):
        Session(seed=1).apply(SpendRerolls(0, 0))


def test_minion_cannot_reroll_the_hero_die() -> None:
    session = Session(seed=1)
    session.apply(_roll(rerolls=1, rank=Rank.MINION))
    with pytest.raises(RulesError, match="only Heroes"):
        session.apply(SpendRerolls(0, 1))
    assert session.pending is not None


def test_undo_everything_returns_the_start_state_and_redo_replays_dice() -> None:
    session = Session(seed=9)
    start = (session.log, session.pending, session.rng.getstate())
    session.apply(_roll(rerolls=2))
    session.apply(SpendRerolls(2, 0))
    session.apply(_roll())
    after = session.log
    for _ in range(3):
        session.undo()
    assert (session.log, session.pending, session.rng.getstate()) == start
    for _ in range(3):
        session.redo()
    assert session.log == after
    with pytest.raises(RulesError, match="nothing to redo"):
        session.redo()


def test_new_command_clears_redo() -> None:
    session = Session(seed=9)
    session.apply(_roll())
    session.undo()
    session.apply(_roll(rank=Rank.MINION))
    assert not session.can_redo
    with pytest.raises(RulesError, match="nothing to undo"):
        Session(seed=1).undo()


def test_replay_rebuilds_the_exact_state() -> None:
    session = Session(seed=42)
    session.apply(_roll(rerolls=1))
    session.apply(SpendRerolls(1, 0))
    session.apply(_roll(rank=Rank.MINION))
    again = Session.replay(42, session.history)
    assert again.log == session.log
    assert again.rng.getstate() == session.rng.getstate()


def test_subscribers_are_notified_and_can_leave() -> None:
    session = Session(seed=1)
    seen: list[int] = []
    unsubscribe = session.subscribe(lambda event: seen.append(len(event.session.log)))
    session.apply(_roll())
    session.undo()
    unsubscribe()
    session.redo()
    assert seen == [1, 0]


def test_a_combat_command_cannot_drop_pending_rerolls() -> None:
    """Any command but an answer is refused while a decision waits (nothing is lost)."""
    from hsm_tui.campaign.combat import AddZone

    session = Session(seed=3)
    session.apply(_roll(rerolls=1))
    with pytest.raises(RulesError, match="answer the pending question first: spend or keep"):
        session.apply(AddZone("bar"))
    assert session.pending is not None and session.encounter.zones == ()
    session.apply(_roll())  # a new task roll is taken: the first roll stands as rolled
    assert session.pending is None


def test_every_command_the_session_handles_is_a_command_a_campaign_file_can_hold() -> None:
    """A handled command missing from the ``Command`` union would save but not load."""
    import typing

    from hsm_tui.campaign.combat import ANSWERS, HANDLERS
    from hsm_tui.table.session import Command

    members = set(typing.get_args(Command))
    assert set(HANDLERS) | set(ANSWERS) <= members
