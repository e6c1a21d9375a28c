"""Checkpoints of the undo history in a campaign file: the first undo after opening
replays only the steps after the last one, and the whole history stays undoable back to
the campaign's start, through saves made at any point of it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hsm_tui.cli.campaign import problems
from hsm_tui.persistence import checkpoints, store
from hsm_tui.rules import Rank, RulesError
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
