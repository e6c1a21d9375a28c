"""The campaign lock (issue 20, the reliability run): a campaign open in one hsm-tui is
held; a second one is told who holds it; a lock whose process is gone is free; a save to
a campaign another hsm-tui holds is refused.
"""

from __future__ import annotations

import os
import socket
import tomllib
from pathlib import Path

import pytest
import tomli_w

from hsm_tui.persistence import lock, store
from hsm_tui.persistence.store import CampaignFileError
from hsm_tui.table.session import Session

DEAD = 999_999_999


def held_by(file: Path, pid: int, host: str | None = None) -> lock.Holder:
    """Write a lock of ``file`` as another process would."""
    holder = lock.Holder("kara", host or socket.gethostname(), pid, "2026-03-01 20:15:30")
    lock.lock_path(file).write_text(tomli_w.dumps(holder.__dict__))
    return holder


def test_a_free_campaign_is_held_then_released(tmp_path: Path) -> None:
    file = tmp_path / "c.toml"
    lock.acquire(file)
    written = tomllib.loads(lock.lock_path(file).read_text())
    assert (written["pid"], written["host"]) == (os.getpid(), socket.gethostname())
    assert lock.lock_path(file).name == ".c.toml.lock"
    assert lock.unit_key(file) is None  # this process: not "another"
    lock.acquire(file)  # again: still ours
    lock.release(file)
    assert not lock.lock_path(file).exists()


@pytest.mark.parametrize("where", ["this host", "another host"])
def test_another_holder_is_named_and_may_be_taken_over(tmp_path: Path, where: str) -> None:
    file = tmp_path / "c.toml"
    pid = os.getppid() if where == "this host" else DEAD  # another host: pid unknowable
    holder = held_by(file, pid, None if where == "this host" else "elsewhere")
    assert lock.unit_key(file) == holder
    with pytest.raises(lock.Locked) as caught:
        lock.acquire(file)
    assert str(caught.value) == (
        f"{file} is open in another hsm-tui: kara on {holder.host} (process {pid})"
        " since 2026-03-01 20:15:30"
    )
    lock.release(file)  # not ours: stays
    assert lock.unit_key(file) == holder
    lock.acquire(file, take_over=True)
    assert lock.unit_key(file) is None and lock.lock_path(file).exists()


@pytest.mark.parametrize("content", ["dead", "garbage", "fifo"])
def test_a_lock_of_a_process_gone_or_unreadable_is_free(tmp_path: Path, content: str) -> None:
    file = tmp_path / "c.toml"
    if content == "dead":
        held_by(file, DEAD)
    elif content == "garbage":
        lock.lock_path(file).write_text("pid = = 3")
    else:
        os.mkfifo(lock.lock_path(file))
    assert lock.unit_key(file) is None
    if content != "fifo":
        lock.acquire(file)
        assert lock.unit_key(file) is None


def test_a_save_to_a_campaign_another_hsm_holds_is_refused(tmp_path: Path) -> None:
    session = Session(seed=1)
    path = store.save(session, tmp_path / "c.toml")
    before = path.read_bytes()
    holder = held_by(path, os.getppid())
    session.rename("Mine")
    with pytest.raises(CampaignFileError) as caught:
        store.save(session, path)
    assert str(caught.value) == (
        f"not saved: another hsm-tui holds {path} now ({holder}); save under another name"
    )
    assert path.read_bytes() == before
    assert [e.path.name for e in store.recent(tmp_path)] == ["c.toml"]  # the lock is hidden
