"""The full-screen session log: live re-render, search, Markdown export (Pilot)."""

from __future__ import annotations

import io
import os
from datetime import datetime
from pathlib import Path

import pytest
from rich.console import Console
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from hsm_tui.campaign.combat import AddCombatants, AddZone, RollChart, SetBand
from hsm_tui.campaign.party import SetScene
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import RollTask, Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.help import HelpScreen
from hsm_tui.ui.screens.log import LogScreen, export_path
from tests.campaign import edit

SEED = 7


def _session() -> Session:
    """A short story: an encounter set up, a task rolled, a Severe Wound rolled."""
    session = Session(seed=SEED)
    session.load_content()
    for command in (
        AddZone("ridge"),
        AddZone("camp"),
        SetBand("ridge", "camp", "medium"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "camp", count=2),
        RollTask(task_tn([("Agility", 2), ("Senses", 2)]), Rank.HERO, label="Climb the ridge"),
        RollChart("kestrel-vance-1", 3),
    ):
        if isinstance(command, RollChart):  # Luck spent: the grip roll asks nothing
            edit(session, "kestrel-vance-1", luck=0)
        session.apply(command)
    return session


def _body(app: HsmApp) -> str:
    """The log's text as printed on a wide console (wrapping aside)."""
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(app.screen.query_one("#log-body", Static).content)
    return console.export_text()


def _title(app: HsmApp) -> str:
    return str(app.screen.query_one("#log-view").border_title)


async def _open(pilot) -> None:
    await pilot.app.push_screen(LogScreen())
    await pilot.pause()


async def test_log_shows_every_entry_with_its_lines() -> None:
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        body = _body(app)
        assert "#1 Zone ridge" in body and "#6 Climb the ridge (Hero)" in body
        assert "TN Agility 2 + Senses 2 = 4" in body
        assert "Severe Wound chart: d10 " in body and "+ 3 past Health + 2×0 earlier =" in body
        assert _title(app) == "Log (7 entries)"


async def test_log_follows_the_session_and_unsubscribes_when_closed() -> None:
    session = _session()
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        subscribers = len(session._subscribers)
        for n in range(20):
            session.apply(AddZone(f"wreck {n}"))
        await pilot.pause()
        assert "#27 Zone wreck 19" in _body(app) and _title(app) == "Log (27 entries)"
        view = app.screen.query_one("#log-view", VerticalScroll)
        assert view.max_scroll_y > 0
        assert view.scroll_y == view.max_scroll_y  # anchored: the newest entry stays in view
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert view.scroll_y == view.max_scroll_y  # …and after a resize
        app.pop_screen()
        await pilot.pause()
        assert len(session._subscribers) == subscribers - 1


async def test_search_filters_live_and_escape_clears() -> None:
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("slash", *"stamina roll")
        await pilot.pause()
        assert app.screen.query_one("#log-search", Input).has_focus
        body = _body(app)
        assert "Kestrel Vance: Severe Wound" in body and "Zone ridge" not in body
        assert _title(app) == "Log: 1 of 7 match “stamina roll”"
        await pilot.press("x")  # typed into the search, not an export
        await pilot.pause()
        assert "No entry mentions “stamina rollx”" in _body(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query_one("#log-search", Input).value == ""
        assert "Zone ridge" in _body(app) and _title(app) == "Log (7 entries)"
        assert app.screen.query_one("#log-view").has_focus


async def test_empty_log_says_so() -> None:
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        assert "The log is empty" in _body(app)


async def test_export_writes_markdown_under_saves(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir(exist_ok=True)  # hsm saves here, not in the data folder
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("x", "x")  # twice in one second: two files, none overwritten
        await pilot.pause()
        files = sorted((tmp_path / "saves").glob("session-log-*.md"))
        assert len(files) == 2
        text = files[0].read_text(encoding="utf-8")
        assert text.startswith("# Session log ") and "(seed 7)" in text
        assert "## #6 Climb the ridge (Hero)" in text
        assert "- TN Agility 2 + Senses 2 = 4" in text
        messages = [n.message for n in app._notifications]
        assert any(f"{files[0]}" in m for m in messages)  # the full path, wherever it ran


async def test_export_goes_beside_the_campaign_files_in_hsm_saves(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir(exist_ok=True)  # HSM_SAVES wins over a saves/ here
    monkeypatch.setenv("HSM_SAVES", str(tmp_path / "campaigns"))
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("x")
        await pilot.pause()
    assert len(list((tmp_path / "campaigns").glob("session-log-*.md"))) == 1
    assert not any((tmp_path / "saves").iterdir())


async def test_export_into_an_unusable_folder_notifies_the_error(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("HSM_SAVES", str(tmp_path / "saves"))
    (tmp_path / "saves").write_text("a file where the folder should be")
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("x")
        await pilot.pause()
        [note] = [n for n in app._notifications if n.severity == "error"]
        assert f"Could not write {tmp_path / 'saves'}/session-log-" in note.message
        assert "exists" in note.message  # the reason the OS gave
        assert isinstance(app.screen, LogScreen)  # still running


async def test_export_into_a_read_only_folder_notifies_the_error(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    saves = tmp_path / "saves"
    saves.mkdir()
    saves.chmod(0o555)
    if os.geteuid() == 0:  # root ignores the mode bits: refuse the way the OS would
        real_open = Path.open

        def refuse(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
            if self.parent.name == "saves":
                raise PermissionError(13, "Permission denied", str(self))
            return real_open(self, *args, **kwargs)

        monkeypatch.setattr(Path, "open", refuse)
    app = HsmApp(_session())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _open(pilot)
            await pilot.press("x")
            await pilot.pause()
            [note] = [n for n in app._notifications if n.severity == "error"]
            assert f"Could not write {tmp_path / 'saves'}/session-log-" in note.message
            assert "Permission denied" in note.message
            assert isinstance(app.screen, LogScreen)
    finally:
        saves.chmod(0o755)
    assert list(saves.iterdir()) == []


async def test_f1_shows_the_log_keys() -> None:
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "export the whole log" in app.screen.screen_help


@pytest.mark.parametrize(("size", "query"), [((80, 24), ""), ((120, 40), "kestrel")])
def test_snapshot_log_screen(snap_compare, size, query) -> None:
    async def show(pilot) -> None:
        await _open(pilot)
        if query:
            await pilot.press("slash", *query)
        await pilot.pause()

    assert snap_compare(HsmApp(_session()), terminal_size=size, run_before=show)


def test_an_export_is_named_once_never_over_another(tmp_path: Path) -> None:
    """The one name an export writes and an error names: the first free in the second, and
    the first one still when the folder is not made yet or is no folder."""
    now = datetime(2026, 11, 26, 6, 30, 5)
    first = tmp_path / "session-log-20261126-063005.md"
    assert export_path(now, tmp_path) == first
    first.write_text("")
    assert export_path(now, tmp_path) == tmp_path / "session-log-20261126-063005-2.md"
    assert (
        export_path(now, tmp_path / "later", "fight-1-log").name == "fight-1-log-20261126-063005.md"
    )
    assert export_path(now, first).parent == first  # a file where the folder should be


async def test_p_exports_the_log_as_the_players_read_it(tmp_path: Path, monkeypatch) -> None:
    """The group's recap: no GM-only entry, no GM number (the GM's roll reads "TN hidden"),
    each entry numbered as the players number it, and no seed to replay the dice with."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir(exist_ok=True)
    session = _session()
    session.apply(SetScene("the raiders wait in the camp"))  # the GM's notes
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("p")  # not shared: the one reading there is, every seat's
        await pilot.pause()
    (export,) = (tmp_path / "saves").glob("players-log-table-*.md")
    text = export.read_text(encoding="utf-8")
    assert "the log as the table reads it" in text and "seed" not in text
    assert "raiders wait" not in text and "Scene notes" not in text
    assert "TN hidden" in text and "TN Agility 2 + Senses 2 = 4" not in text
    assert "## #1 " in text and "## #2 " in text  # its own numbers, from 1


async def test_the_gm_speaks_to_the_table_from_f6() -> None:
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        await pilot.press("apostrophe")
        await pilot.pause()
        await pilot.press(*"Night falls", "enter")
        await pilot.pause()
        assert app.session.log[-1].title == "GM to the table: Night falls"
        await pilot.press("quotation_mark")  # not shared: nobody to whisper to
        await pilot.pause()
        assert any("No seat to whisper to" in n.message for n in app._notifications)
