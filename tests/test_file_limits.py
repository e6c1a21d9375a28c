"""A save writes only what open reads back: the log once (the state before the undo
history counts the entries it shares with the state now), nothing larger than open
reads (refused before the old file is touched), and a file over the limit is refused
by its size, before a byte of it is read.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest

from hsm_tui.campaign.combat import AddZone
from hsm_tui.cli.campaign import problems
from hsm_tui.persistence import lines, reader, store
from hsm_tui.persistence.store import CampaignFileError
from hsm_tui.table.session import Session
from tests.campaign import pack
from tests.test_persistence import duel, everything


def _mid_campaign(tmp_path: Path) -> tuple[Session, Session]:
    """A fight opened from a file without undo history (the history starts there), then
    two zones added: (the state the history starts at, the session now)."""
    played = duel(seed=5)
    data = {k: v for k, v in played.to_data().items() if k != "undo"}
    start = Session(content=pack())
    start.load_data(data)
    session = Session(content=pack())
    session.load_data(data)
    session.apply(AddZone("cave"))
    session.apply(AddZone("shaft"))
    return start, session


def test_the_log_is_written_once_when_the_history_starts_mid_campaign(tmp_path: Path) -> None:
    start, session = _mid_campaign(tmp_path)
    path = store.save(session, tmp_path / "c.toml")
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["undo"]["start"]["log_from_state"] == len(start.log) > 0
    assert data["undo"]["start"]["log"] == ""
    for entry in session.log:
        assert text.count(lines.entry_line(entry)) == 1
    opened = Session(content=pack())
    store.load(opened, path)
    assert everything(opened) == everything(session)
    opened.undo()
    opened.undo()
    assert (opened.log, opened.encounter) == (start.log, start.encounter)
    assert not opened.can_undo


def test_a_start_counting_more_entries_than_the_state_has_is_refused(tmp_path: Path) -> None:
    _, session = _mid_campaign(tmp_path)
    path = store.save(session, tmp_path / "c.toml")
    text = path.read_text(encoding="utf-8")
    shared = f"log_from_state = {len(session.log) - 2}\n"
    assert shared in text
    path.write_text(text.replace(shared, "log_from_state = 99\n"), encoding="utf-8")
    message = (
        f"{path}: key undo.start.log_from_state: 99 is outside 0 to {len(session.log)}"
        " (the entries of the state's log)"
    )
    assert problems(path) == [message]  # hsm campaign check
    with pytest.raises(CampaignFileError, match=re.escape(message)):
        store.load(Session(content=pack()), path)


def test_a_save_larger_than_open_reads_is_refused_and_the_file_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = duel(seed=5)
    path = store.save(session, tmp_path / "c.toml")
    before = path.read_bytes()
    size = len(store.encode(session.to_data, path))
    monkeypatch.setattr(reader, "LIMIT", size - 1)
    session.apply(AddZone("cave"))
    with pytest.raises(CampaignFileError) as caught:
        store.save(session, path)
    message = str(caught.value)
    assert message.startswith(f"not saved: {path} would be ")
    assert f"bytes, more than the {size - 1} bytes a campaign file may be to open" in message
    assert path.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["c.toml"]


def test_a_file_over_the_limit_is_refused_without_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.toml"
    with open(path, "wb") as sparse:  # 300 MB that take no disk
        sparse.truncate(300 * 1024 * 1024)
    read: list[int] = []
    real_read = os.read

    def counted(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        read.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counted)
    with pytest.raises(CampaignFileError) as caught:
        store.read(path)
    assert str(caught.value) == f"cannot open {path}: larger than 256 MB: not read"
    assert sum(read) == 0
