"""A save that did not finish moving into place (hsm-tui or the machine stopped between
writing it and renaming it over the campaign) is offered on start like an autosave:
``r`` goes on from it, ``d`` sets it aside in sight.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hsm_tui.campaign.party import GrantClues
from hsm_tui.persistence import store, unfinished
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from tests.test_durable_files import _unfinished
from tests.ui.test_autosave import _answer, _app_on, _clues, _session, _until


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir()
    monkeypatch.delenv("HSM_SAVES", raising=False)
    return tmp_path / "saves"


def _cut_save(saves: Path) -> tuple[Path, Path]:
    """A campaign saved with no Clue, and its next save (3 Clues) cut before the rename."""
    session = _session("kestrel-vance")
    path = store.save(session, saves / "relics.toml")
    session.apply(GrantClues("kestrel-vance", 3))
    return path, _unfinished(path, session)


async def test_start_offers_the_unfinished_save_and_r_goes_on_from_it(saves: Path) -> None:
    path, cut = _cut_save(saves)
    app = _app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, DecisionDialog))
        assert app.screen.title_text == "Recover an unfinished save?"
        assert "relics.toml" in app.screen.question
        assert "did not finish moving into place" in app.screen.question
        await _answer(pilot, "r")
        assert app.session.campaign.party[0].clues == 3
        assert (app.session.file, app.session.unsaved) == (path, True)
        await pilot.press("S")
        await _until(pilot, lambda: not app.session.unsaved)
    assert _clues(path) == 3 and unfinished.found(path) == []
    assert not cut.exists()  # the file is newer now: the next open (_clues) removed it


async def test_d_sets_the_unfinished_save_aside(saves: Path) -> None:
    path, cut = _cut_save(saves)
    app = _app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answer(pilot, "d")
        assert app.session.campaign.party[0].clues == 0 and not cut.exists()
    assert _clues(saves / f"{cut.name.lstrip('.')}.discarded") == 3
