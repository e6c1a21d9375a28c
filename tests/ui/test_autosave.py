"""Autosave and recovery (issue 20, item 1): after a change the session is written to
``saves/.autosave/`` within two seconds, off the key's path; a normal save removes it; on
start and on O an autosave newer than its campaign file is offered: recover or discard.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from pathlib import Path

import pytest

from hsm_tui.campaign.party import AddHero, GrantClues
from hsm_tui.persistence import autosave, store
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.campaign import CampaignScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.picker import PickerScreen


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test in its own ``saves/``, with a short autosave delay."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir(exist_ok=True)  # hsm saves here, not in the data folder
    monkeypatch.delenv("HSM_SAVES", raising=False)
    monkeypatch.setattr(autosave, "DELAY", 0.05)
    return tmp_path / "saves"


def _session(*heroes: str) -> Session:
    session = Session(seed=7)
    session.load_content()
    for hero in heroes:
        session.apply(AddHero(hero))
    return session


async def _until(pilot, done, seconds: float = 3.0) -> None:
    """Let the app (and the autosave thread) run until ``done()``."""
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "timed out"
        await pilot.pause()
        await asyncio.sleep(0.02)


GONE = autosave.Writer(socket.gethostname(), 999_999_999)
"""An hsm-tui that no longer runs (no process has that id)."""


def _autosaves(saves: Path) -> list[Path]:
    return sorted((saves / autosave.FOLDER).glob("*.toml"))


def _clues(path: Path) -> int:
    session = _session()
    store.load(session, path)
    return session.campaign.party[0].clues


async def test_a_change_is_autosaved_and_a_save_removes_the_autosave(saves: Path) -> None:
    app = HsmApp(_session("kestrel-vance"), guard=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("plus")  # a Clue
        await _until(pilot, lambda: len(_autosaves(saves)) == 1)
        [auto] = _autosaves(saves)
        assert auto.name.startswith("unnamed-")
        await _until(pilot, lambda: _clues(auto) == 1)
        await pilot.press("S", *"Relics", "enter")
        await _until(pilot, lambda: isinstance(app.screen, CampaignScreen))
        assert (saves / "relics.toml").is_file()
        assert _autosaves(saves) == []
        await pilot.press("plus")
        mine = autosave.path_for(saves / "relics.toml", "")  # named by this process
        await _until(pilot, lambda: _autosaves(saves) == [mine])
        await _until(pilot, lambda: _clues(mine) == 2)
        assert _clues(saves / "relics.toml") == 1
        await pilot.press("S")
        await _until(pilot, lambda: _autosaves(saves) == [])


def _campaign_with_a_newer_autosave(saves: Path) -> tuple[Path, Path, Session]:
    session = _session("kestrel-vance")
    path = store.save(session, saves / "relics.toml")
    session.apply(GrantClues("kestrel-vance", 3))
    auto = autosave.path_for(path, "", writer=GONE)
    autosave.write(session.frozen(), auto)
    later = path.stat().st_mtime + 10
    os.utime(auto, (later, later))
    return path, auto, session


def _app_on(path: Path) -> HsmApp:
    """The app as ``hsm play path`` starts it."""
    opened = _session()
    store.load(opened, path)
    return HsmApp(opened, guard=True)


async def _answer(pilot, key: str) -> None:
    """Answer the recovery question with ``key``; back on home."""
    app = pilot.app
    await _until(pilot, lambda: isinstance(app.screen, DecisionDialog))
    await pilot.press(key)
    await _until(pilot, lambda: isinstance(app.screen, CampaignScreen))


async def test_start_offers_a_newer_autosave_and_r_recovers_it(saves: Path) -> None:
    path, auto, played = _campaign_with_a_newer_autosave(saves)
    app = _app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, DecisionDialog))
        assert "relics.toml" in app.screen.question
        await _answer(pilot, "r")
        assert app.session.campaign == played.campaign
        assert (app.session.file, app.session.unsaved) == (path, True)
        assert "relics.toml" in str(app.screen.sub_title)
        await pilot.press("S")  # saves to the campaign file, and the autosave goes
        await _until(pilot, lambda: not auto.exists())
        assert _clues(path) == 3


async def test_d_discards_the_autosave_keeping_it_aside(saves: Path) -> None:
    path, auto, _ = _campaign_with_a_newer_autosave(saves)
    app = _app_on(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answer(pilot, "d")
        assert app.session.campaign.party[0].clues == 0 and not app.session.unsaved
        assert not auto.exists()
        assert _clues(auto.with_name(f"{auto.name}.discarded")) == 3


async def test_o_offers_the_autosave_of_the_campaign_picked(saves: Path) -> None:
    path, _, played = _campaign_with_a_newer_autosave(saves)
    app = HsmApp(_session(), guard=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, DecisionDialog))
        await pilot.press("escape")  # not now: it stays, and O offers it again
        await pilot.press("O")
        await _until(pilot, lambda: isinstance(app.screen, PickerScreen))
        await pilot.press("enter")
        await _answer(pilot, "r")
        assert app.session.campaign == played.campaign
        assert app.session.file is not None and app.session.file.resolve() == path


async def test_an_unnamed_session_is_recovered_and_goes_on_in_an_autosave_of_its_own(
    saves: Path,
) -> None:
    played = _session("kestrel-vance")
    played.apply(GrantClues("kestrel-vance", 2))
    auto = autosave.path_for(None, "20260301-201530", writer=GONE)
    autosave.write(played.frozen(), auto)
    app = HsmApp(_session(), guard=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _answer(pilot, "r")
        assert app.session.campaign == played.campaign and app.session.file is None
        await pilot.press("plus")
        mine = autosave.path_for(None, "20260301-201530", saves.resolve())  # this process's
        await _until(pilot, lambda: mine.exists() and _clues(mine) == 3)
        assert _autosaves(saves) == [mine]  # the one recovered goes once this one is written


async def test_without_autosave_nothing_is_written_or_offered(saves: Path) -> None:
    _, auto, _ = _campaign_with_a_newer_autosave(saves)
    app = HsmApp(_session("kestrel-vance"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CampaignScreen)
        await pilot.press("plus")
        await asyncio.sleep(0.2)
        assert [p.name for p in _autosaves(saves)] == [auto.name]


async def test_a_campaign_that_cannot_be_opened_leaves_the_session_and_its_autosave(
    saves: Path,
) -> None:
    """Opening a broken file changes nothing: the play in hand and its autosave stay (it
    used to be set aside before the open was even tried)."""
    from hsm_tui.ui.files import _offer_or_load

    broken = saves / "broken.toml"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("not a campaign", encoding="utf-8")
    app = HsmApp(_session("kestrel-vance"), guard=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("plus")  # a Clue
        await _until(pilot, lambda: len(_autosaves(saves)) == 1)
        [auto] = _autosaves(saves)
        _offer_or_load(app, broken)
        await pilot.pause()
        assert _autosaves(saves) == [auto] and app.session.campaign.party[0].clues == 1
