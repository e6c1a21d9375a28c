"""The campaign lock in the app (issue 20): ``hsm play`` holds the campaign it has open;
one another hsm-tui holds is offered read-only (S then saves under another name) or
taken over; opening another campaign or starting a new one lets the old one go.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from hsm_tui.campaign.party import AddHero, GrantClues
from hsm_tui.persistence import autosave, lock, store
from hsm_tui.table.session import Session
from hsm_tui.ui.screens.campaign import CampaignScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.name_dialog import NameDialog
from tests.test_campaign_lock import held_by
from tests.ui.test_autosave import _app_on, _until


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HSM_SAVES", raising=False)
    return tmp_path / "saves"


def _saved(saves: Path, name: str) -> Path:
    session = Session(seed=3)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    return store.save(session, saves / f"{name}.toml")


async def test_a_campaign_held_elsewhere_opens_read_only_and_s_saves_as(saves: Path) -> None:
    path = _saved(saves, "relics")
    holder = held_by(path, os.getppid())
    app = _app_on(path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, DecisionDialog))
        assert app.screen.question == f"{path} is open in another hsm-tui: {holder}."
        await pilot.press("r")
        await _until(pilot, lambda: isinstance(app.screen, CampaignScreen))
        assert app.read_only == path and app.locked is None
        await pilot.press("plus", "S")
        await _until(pilot, lambda: isinstance(app.screen, NameDialog))
        await pilot.press("escape")
        assert lock.unit_key(path) == holder  # still theirs


async def test_take_over_holds_it_and_saves_go_to_it(saves: Path) -> None:
    path = _saved(saves, "relics")
    held_by(path, os.getppid())
    app = _app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, DecisionDialog))
        await pilot.press("t")
        await _until(pilot, lambda: isinstance(app.screen, CampaignScreen))
        assert app.locked == path and app.read_only is None and lock.unit_key(path) is None
        await pilot.press("plus", "S")
        await _until(pilot, lambda: not app.session.unsaved)


async def test_the_campaign_open_is_held_and_let_go_on_open_and_new(saves: Path) -> None:
    relics, dust = _saved(saves, "relics"), _saved(saves, "dust")
    os.utime(dust, (1, 1))  # older: second in the open list
    app = _app_on(relics)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: app.locked == relics)
        assert lock.lock_path(relics).exists()
        await pilot.press("O")
        await pilot.pause()
        await pilot.press("down", "enter")
        await _until(pilot, lambda: app.locked is not None and app.locked.name == "dust.toml")
        assert not lock.lock_path(relics).exists() and lock.lock_path(dust).exists()
        await pilot.press("C")
        await _until(pilot, lambda: app.locked is None)
        assert not lock.lock_path(dust).exists()


async def test_the_autosave_offer_waits_until_campaign_in_use_is_answered(saves: Path) -> None:
    path = _saved(saves, "relics")
    held_by(path, os.getppid())
    gone = autosave.Writer(socket.gethostname(), 999_999_999)
    auto = autosave.path_for(path, "", writer=gone)
    played = Session(seed=3)
    played.load_content()
    store.load(played, path)
    played.apply(GrantClues("kestrel-vance", 2))
    autosave.write(played.frozen(), auto)
    os.utime(auto, (path.stat().st_mtime + 10,) * 2)
    app = _app_on(path)

    def dialogs() -> list[str]:
        return [s.title_text for s in app.screen_stack if isinstance(s, DecisionDialog)]

    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: dialogs() == ["Campaign in use"])
        await pilot.pause(0.1)
        assert dialogs() == ["Campaign in use"]  # the offer is not stacked on it
        await pilot.press("r")  # read-only
        await _until(pilot, lambda: dialogs() == ["Recover an autosave?"])
        assert f"({gone} stopped before a save)" in app.screen.question
        assert str(gone) == f"hsm-tui process 999999999 on {socket.gethostname()}"
