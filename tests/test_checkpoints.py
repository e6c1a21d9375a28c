"""Checkpoints of the undo history in a campaign file: the first undo after opening
replays only the steps after the last one, and the whole history stays undoable back to
the campaign's start, through saves made at any point of it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hsm_tui.cli.campaign import problems
from hsm_tui.persistence import checkpoints, session_file, store
from hsm_tui.rules import Rank, RulesError
from hsm_tui.table.history import History
from hsm_tui.table.session import OpenEntry, RollTask, Session
from tests.campaign import pack
from tests.test_lazy_undo import TN, played
from tests.test_persistence import everything

EVERY = 4


@pytest.fixture(autouse=True)
def often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkpoints, "EVERY", EVERY)


def _long() -> Session:
    session = played()
    for n in range(13):
        session.apply(RollTask(TN, Rank.MINION, f"Task {n}"))
    return session


def _opened(path: Path) -> Session:
    loaded = Session(content=pack())
    store.load(loaded, path)
    return loaded


def _undo_all_alike(loaded: Session, session: Session) -> None:
    while session.can_undo:
        assert loaded.undo() == session.undo()
        assert everything(loaded) == everything(session)
    assert not loaded.can_undo


def test_the_first_undo_replays_only_the_steps_after_the_last_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _long()
    steps = len(session.history)
    loaded = _opened(store.save(session, tmp_path / "c.toml"))
    applied: list[object] = []
    real = Session._apply
    monkeypatch.setattr(Session, "_apply", lambda s, c: (applied.append(c), real(s, c))[1])
    assert loaded.undo() == session.undo()
    assert 0 < len(applied) <= EVERY and len(applied) == steps - (steps - 1) // EVERY * EVERY
    monkeypatch.undo()
    assert everything(loaded) == everything(session)
    _undo_all_alike(loaded, session)


def test_a_save_in_the_middle_of_the_history_keeps_it_whole(tmp_path: Path) -> None:
    session = _long()
    loaded = _opened(store.save(session, tmp_path / "c.toml"))
    for _ in range(6):  # into the file's history, past a checkpoint
        assert loaded.undo() == session.undo()
    for both in (loaded, session):
        both.apply(OpenEntry(2))  # an old entry changed: checkpoints before it rewritten
    again = _opened(store.save(loaded, tmp_path / "again.toml"))
    assert everything(again) == everything(session)
    _undo_all_alike(again, session)


def test_a_broken_checkpoint_drops_the_history_once_and_check_names_it(tmp_path: Path) -> None:
    path = store.save(_long(), tmp_path / "c.toml")
    text = path.read_text(encoding="utf-8")
    last = text.rindex('{"step": ')  # the last checkpoint: the first undo reads it
    count = text[text.index("checkpoints = ") : last].count("\n") - 1
    number = re.match(r'\{"step": (\d+)', text[last:])
    assert number is not None
    broken = f'{text[:last]}{{"step": 999{text[last + len(number[0]) :]}'
    path.write_text(broken, encoding="utf-8")
    loaded = _opened(path)
    key = f"undo.checkpoints[{count}].step"
    with pytest.raises(RulesError, match=rf"no longer leads .*\({re.escape(key)}: 999 is outside"):
        loaded.undo()
    assert not loaded.can_undo  # dropped, not offered again
    [problem] = problems(path)
    assert f"{key}: 999 is outside 0 to " in problem


def test_check_reads_each_step_once_and_plays_it_without_making_it_undoable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hsm campaign check`` replays every stretch between checkpoints in seconds at 50,000
    steps: each step is read once (not again for its stretch), and played without being
    kept for undo (keeping one compared the whole log before and after it)."""
    session = _long()
    steps = len(session.history)
    path = store.save(session, tmp_path / "c.toml")
    reads: list[int] = []
    real = session_file.read_steps
    monkeypatch.setattr(
        session_file, "read_steps", lambda lines: (reads.append(len(lines)), real(lines))[1]
    )

    def kept(*_: object) -> None:
        raise AssertionError("a check keeps no undo step")

    monkeypatch.setattr(History, "push", kept)
    assert problems(path) == []
    assert reads == [steps]


def test_check_names_the_first_step_that_stops_fitting_in_a_later_stretch(
    tmp_path: Path,
) -> None:
    path = store.save(_long(), tmp_path / "c.toml")
    text = path.read_text(encoding="utf-8")
    step = '"label": "Task 9"'
    assert text.count(step) == 1
    path.write_text(text.replace(step, '"label": "Task 99"'), encoding="utf-8")
    commands = text[text.index("commands = ") : text.index(step)].count("\n")
    [problem] = problems(path)
    assert f"key undo.commands[{commands - 1}]: the undo history stops fitting at step" in problem
    assert "its log entries are not the file's" in problem


def test_a_check_adds_log_entries_in_place_and_a_state_taken_keeps_its_own_log() -> None:
    """A check's replay (nothing else holds its log) adds each entry to the log in place,
    not by copying the whole log; a state taken on the way (a batch's member refused is
    put back to it) keeps the log as it was then."""
    session = played()
    session._checking = True
    before = session._snapshot()
    session._dispatch(RollTask(TN, Rank.MINION, "One"))
    grown = session.log
    session._dispatch(RollTask(TN, Rank.MINION, "Two"))
    assert session.log is grown
    assert [e.title for e in session.log[-2:]] == ["One (Minion)", "Two (Minion)"]
    assert type(before.log) is tuple and len(before.log) == len(session.log) - 2
