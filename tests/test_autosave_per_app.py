"""One autosave per running hsm-tui: two on one campaign (one of them read-only) never
write or remove each other's; only one left by a process that no longer runs is offered
for recovery, named after it.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from hsm_tui.campaign.party import AddHero, GrantClues
from hsm_tui.persistence import autosave, store
from hsm_tui.persistence.autosave import Autosaver, Writer
from hsm_tui.table.session import Session
from tests.campaign import pack
from tests.test_autosaver import ByHand

HERE = socket.gethostname()
GONE = Writer(HERE, 999_999_999)
RUNNING = Writer(HERE, os.getppid())  # another process, running all along


def _played(file: Path, clues: int) -> Session:
    session = Session(seed=1, content=pack())
    session.apply(AddHero("kestrel-vance"))
    if file.exists():
        store.load(session, file)
    session.apply(GrantClues("kestrel-vance", clues))
    return session


def _clues(path: Path) -> int:
    session = Session(content=pack())
    store.load(session, path, mark=False)
    return session.campaign.party[0].clues


def test_two_apps_on_one_campaign_write_and_remove_only_their_own(tmp_path: Path) -> None:
    file = store.save(_played(tmp_path / "c.toml", 0), tmp_path / "c.toml")
    theirs = autosave.path_for(file, "", writer=RUNNING)
    autosave.write(_played(file, 1).frozen(), theirs)  # the other app's change
    session = _played(file, 2)  # this app, read-only or not
    session.file = file
    host = ByHand(session)
    saver = Autosaver(host)
    saver.changed()
    host.timers.pop()()
    saver.close()
    mine = autosave.path_for(file, "")
    assert mine != theirs and _clues(mine) == 2 and _clues(theirs) == 1
    store.save(session, file)
    saver.saved(file)
    assert not mine.exists() and _clues(theirs) == 1  # a save removes this app's only


def test_recovery_offers_the_autosave_of_the_app_that_stopped_not_of_one_running(
    tmp_path: Path,
) -> None:
    """A adds a Clue, read-only B another, A is killed: A's play is offered, and B's is
    not while B runs (it is B's to save)."""
    file = store.save(_played(tmp_path / "c.toml", 0), tmp_path / "c.toml")
    a_auto = autosave.path_for(file, "", writer=GONE)
    b_auto = autosave.path_for(file, "", writer=RUNNING)
    autosave.write(_played(file, 1).frozen(), a_auto)
    autosave.write(_played(file, 2).frozen(), b_auto)
    for auto in (a_auto, b_auto):
        os.utime(auto, (file.stat().st_mtime + 10,) * 2)
    assert autosave.recoverable(file=file) == [a_auto]
    assert autosave.recoverable(tmp_path) == [a_auto]
    assert autosave.writer_of(a_auto) == GONE and autosave.campaign_of(a_auto) == file
    assert (GONE.running, RUNNING.running, Writer("elsewhere", 1).running) == (False, True, None)


def test_an_autosave_of_an_older_hsm_tui_is_still_found(tmp_path: Path) -> None:
    file = store.save(_played(tmp_path / "c.toml", 0), tmp_path / "c.toml")
    old = file.parent / autosave.FOLDER / file.name
    autosave.write(_played(file, 3).frozen(), old)
    os.utime(old, (file.stat().st_mtime + 10,) * 2)
    assert autosave.recoverable(file=file) == [old]
    assert autosave.writer_of(old) is None and autosave.campaign_of(old) == file
