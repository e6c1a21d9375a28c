"""The autosave's core (issue 20) runs under any host: the GM's app, ``hsm serve
--headless``'s loop, or this test's hand-driven timers, with no Textual in sight.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from hsm_tui.campaign.party import AddHero
from hsm_tui.persistence import autosave, store
from hsm_tui.persistence.autosave import Autosaver
from hsm_tui.table.session import Session


class ByHand:
    """A host whose timers run when the test says so."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.timers: list[Callable[[], object]] = []
        self.told: list[str] = []

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Any:
        self.timers.append(callback)
        return SimpleNamespace(stop=lambda: self.timers.remove(callback))

    def notify(self, message: str, *, title: str = "", severity: str = "information") -> None:
        self.told.append(message)

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        callback(*args, **kwargs)


def test_a_change_is_autosaved_once_its_timer_runs_and_a_save_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HSM_SAVES", str(tmp_path))
    session = Session(seed=7)
    session.load_content()
    host = ByHand(session)
    saver = Autosaver(host)
    session.subscribe(saver.changed)
    session.apply(AddHero("kestrel-vance"))
    session.apply(AddHero("mireille-ashdown"))
    assert len(host.timers) == 1  # two changes, one write to come
    host.timers.pop()()
    saver.close()  # the write under way finishes
    auto = autosave.path_for(None, saver.stamp)
    assert saver.current == auto and autosave.newer(auto) and not host.told
    file = tmp_path / "dig.toml"
    store.save(session, file)
    saver.saved(file)
    assert not auto.exists()
