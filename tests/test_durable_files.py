"""Saves that survive a power cut: every rename into place (the save, each backup moved
on, the autosave, a discarded autosave) is followed by a flush of its folder, and a whole
save that never took its name (the machine stopped between the write and the rename) is
kept beside the campaign and offered, never removed as a crash's leftover.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from hsm_tui.campaign.party import AddHero, GrantClues
from hsm_tui.persistence import atomic, autosave, store, unfinished
from hsm_tui.table.session import Session
from tests.campaign import pack

DEAD = 999_999_999  # above any pid_max: no such process


class Recorder:
    """``os.replace`` and ``os.fsync`` as they were called, in order: ("rename", the
    folder of the new name) and ("fsync", the inode of what was flushed)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, int]] = []
        real_replace, real_fsync = os.replace, os.fsync

        def replace(source: str | Path, target: str | Path) -> None:
            real_replace(source, target)
            self.calls.append(("rename", os.stat(Path(target).parent).st_ino))

        def fsync(fd: int) -> None:
            real_fsync(fd)
            self.calls.append(("fsync", os.fstat(fd).st_ino))

        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "fsync", fsync)

    def renames_not_flushed(self) -> list[int]:
        """Each rename whose folder was not flushed before the next rename (or the end)."""
        missed = []
        for i, (call, folder) in enumerate(self.calls):
            if call != "rename":
                continue
            after = self.calls[i + 1 :]
            until = next((j for j, (c, _) in enumerate(after) if c == "rename"), len(after))
            if ("fsync", folder) not in after[:until]:
                missed.append(i)
        return missed


def _session() -> Session:
    session = Session(seed=1, content=pack())
    session.apply(AddHero("kestrel-vance"))
    return session


def test_every_save_and_backup_rename_is_followed_by_a_flush_of_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    session = _session()
    path = tmp_path / "c.toml"
    for _ in range(store.BACKUPS + 2):  # every backup name in use, each moved on
        session.apply(GrantClues("kestrel-vance", 1))
        store.save(session, path)
    renames = [c for c in recorder.calls if c[0] == "rename"]
    assert len(renames) == 5 + (0 + 1 + 2 + 3 + 3)  # each save, each backup moved on
    assert recorder.renames_not_flushed() == []
    assert {folder for _, folder in renames} == {os.stat(tmp_path).st_ino}


def test_an_autosave_and_its_discard_flush_the_autosave_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    auto = autosave.path_for(tmp_path / "c.toml", "")
    autosave.write(_session().frozen(), auto)
    autosave.discard(auto)
    renames = [c for c in recorder.calls if c[0] == "rename"]
    assert len(renames) == 2 and recorder.renames_not_flushed() == []
    assert {folder for _, folder in renames} == {os.stat(auto.parent).st_ino}


def test_the_recorder_sees_a_rename_left_unflushed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(monkeypatch)
    (tmp_path / "a").write_text("a")
    os.replace(tmp_path / "a", tmp_path / "b")
    atomic.move_into_place(tmp_path / "b", tmp_path / "c")
    assert recorder.renames_not_flushed() == [0]


def _unfinished(path: Path, session: Session, pid: int = DEAD, cut: int = 0) -> Path:
    """What a save of ``session`` to ``path`` leaves when the machine stops between its
    write and its rename (``cut``: that many bytes short)."""
    data = store.encode(session.to_data, path)
    tmp = path.with_name(f".{path.name}.{pid}.k2j3h4x9.tmp")
    tmp.write_bytes(data[: len(data) - cut])
    now = time.time()
    os.utime(path, (now - 10, now - 10))  # the file saved 10 s ago, the save cut 5 s ago
    os.utime(tmp, (now - 5, now - 5))
    return tmp


@pytest.mark.parametrize("step", ["open", "save"])
def test_a_whole_save_that_did_not_take_its_name_is_kept_and_found(
    tmp_path: Path, step: str
) -> None:
    session = _session()
    path = store.save(session, tmp_path / "c.toml")
    session.apply(GrantClues("kestrel-vance", 2))
    whole = _unfinished(path, session)
    torn = _unfinished(path, session, pid=DEAD - 1, cut=40)  # its last lines never written
    if step == "open":
        store.load(Session(content=pack()), path)
    else:
        store.save(Session(seed=1, content=pack()), path)
    assert whole.exists() and not torn.exists()
    if step == "open":
        assert unfinished.found(path) == [whole]
        assert unfinished.campaign_of(whole) == path
        recovered = Session(content=pack())
        store.load(recovered, whole, mark=False)
        assert recovered.campaign.party[0].clues == 2
    else:  # the file is newer now: the next save or open removes it
        assert unfinished.found(path) == []
        store.load(Session(content=pack()), path)
        assert not whole.exists()


def test_an_older_save_left_or_one_still_being_written_is_not_offered(tmp_path: Path) -> None:
    session = _session()
    path = store.save(session, tmp_path / "c.toml")
    older = _unfinished(path, session)
    os.utime(older, (path.stat().st_mtime - 5,) * 2)  # before the file
    running = _unfinished(path, session, pid=os.getppid())
    assert unfinished.found(path) == []
    store.load(Session(content=pack()), path)
    assert not older.exists() and running.exists()


def test_a_discarded_unfinished_save_is_set_aside_in_sight(tmp_path: Path) -> None:
    session = _session()
    path = store.save(session, tmp_path / "c.toml")
    tmp = _unfinished(path, session)
    kept = unfinished.discard(tmp)
    assert kept.name == f"c.toml.{DEAD}.k2j3h4x9.tmp.discarded" and kept.exists()
    assert unfinished.found(path) == []
    store.load(Session(content=pack()), path)
    assert kept.exists()
