"""Campaign files from the home screen (issue 6, item 1): S saves (naming the campaign the
first time), O opens a recent one, C starts afresh, q offers to save; a fight saved with
a question waiting (R-TASK-6 re-rolls, R-ATK-5 dive) resumes exactly in another app.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from hsm_tui.campaign.combat import PendingCombatRerolls
from hsm_tui.campaign.party import AddHero, GrantClues
from hsm_tui.persistence import store
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.campaign import CampaignScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.name_dialog import NameDialog
from hsm_tui.ui.screens.picker import PickerScreen
from hsm_tui.ui.screens.reroll_dialog import RerollDialog

SEED = 7


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves into its own ``saves/`` (relative, so snapshots do not show tmp)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir(exist_ok=True)  # hsm saves here, not in the data folder
    return tmp_path / "saves"


def _session(*heroes: str, seed: int = SEED) -> Session:
    session = Session(seed=seed)
    session.load_content()
    for hero in heroes:
        session.apply(AddHero(hero))
    return session


async def _keys(pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


def _subtitle(app: HsmApp) -> str:
    return str(app.screen.sub_title)


def _messages(app: HsmApp, severity: str = "information") -> list[str]:
    return [n.message for n in app._notifications if n.severity == severity]


async def test_s_names_the_campaign_then_saves_and_the_title_tracks_unsaved(saves) -> None:
    app = HsmApp(_session("kestrel-vance"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert "unsaved" in _subtitle(app)
        await _keys(pilot, "S")
        assert isinstance(app.screen, NameDialog)
        message = app.screen.query_one("#name-message", Static)
        assert "1 to 60 characters" in str(message.render())  # empty: said beside the field
        await _keys(pilot, "enter")
        assert isinstance(app.screen, NameDialog)  # not taken
        await _keys(pilot, *"Lost Relics")
        assert "saves/lost-relics.toml" in str(message.render())
        await _keys(pilot, "enter")
        assert isinstance(app.screen, CampaignScreen)
        assert (saves / "lost-relics.toml").is_file()
        assert app.session.campaign.name == "Lost Relics"
        assert _subtitle(app).endswith("lost-relics.toml")
        await _keys(pilot, "plus")  # a Clue: unsaved again
        assert "unsaved" in _subtitle(app)
        await _keys(pilot, "S")  # the second save goes straight to the file
        assert isinstance(app.screen, CampaignScreen)
        assert "unsaved" not in _subtitle(app)
        await _keys(pilot, "u")  # undo back past the save point: unsaved
        assert "unsaved" in _subtitle(app)
        await _keys(pilot, "y")  # and redo to it: saved again
        assert "unsaved" not in _subtitle(app)


async def test_r_task_6_a_fight_saved_mid_question_resumes_exactly_in_another_app() -> None:
    """Save with the re-roll split waiting (R-TASK-6), open it in a second app with other
    dice, answer the same way in both: the same dice come up, the same log follows.
    """
    first = HsmApp(Session(seed=SEED))
    async with first.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4", "L", "s", "a", "enter", "escape")
        assert isinstance(first.session.pending, PendingCombatRerolls)
        await _keys(pilot, "f8", "S", *"Dig site", "enter")
        assert first.session.file is not None
        await _keys(pilot, "f4", "o", "1", "down", "0", "enter")
        expected = first.session.log
    second = HsmApp(Session(seed=SEED + 1))
    async with second.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "O")
        assert isinstance(second.screen, PickerScreen)
        await _keys(pilot, "enter")
        assert isinstance(second.session.pending, PendingCombatRerolls)
        assert "Dig site" in _subtitle(second)
        await _keys(pilot, "f4", "o")
        assert isinstance(second.screen, RerollDialog)
        await _keys(pilot, "1", "down", "0", "enter")
        assert second.session.log == expected
        await _keys(pilot, "escape", "u")  # the dive can wait; undo came along with the file
        assert isinstance(second.session.pending, PendingCombatRerolls)


async def test_open_lists_newest_first_and_a_broken_file_is_a_message(saves) -> None:
    older = _session("kestrel-vance")
    store.save(older, saves / "older.toml", now=datetime(2026, 11, 1, 20, 0))
    newer = _session("roan-maddox")
    store.save(newer, saves / "newer.toml", now=datetime(2026, 11, 2, 20, 0))
    (saves / "broken.toml").write_text(
        'format = "hsm-tui campaign"\nformat_version = = 1\nseed = 1\n'
    )
    for day, name in enumerate(("older", "newer", "broken"), start=1):
        stamp = datetime(2026, 11, day).timestamp()
        os.utime(saves / f"{name}.toml", (stamp, stamp))  # the order recent() sorts by
    app = HsmApp(_session())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _keys(pilot, "O")
        assert isinstance(app.screen, PickerScreen)
        labels = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert "broken.toml" in labels[0] and labels[0].startswith("⚠")  # newest: written last
        assert "newer.toml" in labels[1] and "Captain Roan Maddox" in labels[1]
        assert "older.toml" in labels[2]
        await _keys(pilot, "enter")  # the broken one: a message, nothing changes
        errors = _messages(app, "error")
        assert errors and "broken.toml" in errors[-1] and "line" in errors[-1]
        assert app.session.campaign.party == () and app.session.file is None
        await _keys(pilot, "O", "down", "down", "enter")
        assert [m.entry for m in app.session.campaign.party] == ["kestrel-vance"]
        assert app.session.file == Path("saves/older.toml")


async def test_c_asks_before_losing_unsaved_changes_and_s_saves_first(saves) -> None:
    app = HsmApp(_session("kestrel-vance"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "C")
        assert isinstance(app.screen, DecisionDialog)
        await _keys(pilot, "escape")  # stay: nothing lost
        assert app.session.campaign.party
        await _keys(pilot, "C", "s")  # save first: names it, saves, then starts afresh
        assert isinstance(app.screen, NameDialog)
        await _keys(pilot, *"Before", "enter")
        assert (saves / "before.toml").is_file()
        assert app.session.campaign.party == () and app.session.file is None
        assert not app.session.can_undo
        await _keys(pilot, "a", *"kestrel", "enter", "C", "d")  # d: lose the changes
        assert app.session.campaign.party == ()


async def test_q_can_save_then_quit(saves) -> None:
    app = HsmApp(_session("kestrel-vance"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "q", "s", *"Evening one", "enter")
        assert app._exit
    assert (saves / "evening-one.toml").is_file()


async def test_a_save_that_cannot_be_written_says_why_and_keeps_the_session(
    saves, monkeypatch
) -> None:
    saves.rmdir()
    saves.write_text("a file where the folder should be")
    monkeypatch.setenv("HSM_SAVES", "saves")  # named: a file there is not passed over
    app = HsmApp(_session("kestrel-vance"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _keys(pilot, "S", *"Nowhere", "enter")
        errors = _messages(app, "error")
        assert errors and "cannot save saves/nowhere.toml" in errors[-1]
        assert app.session.file is None and "unsaved" in _subtitle(app)
        await _keys(pilot, "q")  # still asks: nothing was saved
        assert isinstance(app.screen, DecisionDialog)


async def test_save_as_from_the_palette_writes_a_second_file(saves) -> None:
    session = _session("kestrel-vance")
    store.save(session, saves / "first.toml")
    session.apply(GrantClues("kestrel-vance", 1))
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "ctrl+p", *"save campaign as")
        await _keys(pilot, "enter")
        assert isinstance(app.screen, NameDialog)
        await _keys(pilot, *"Second", "enter")
        assert app.session.file == saves / "second.toml"
        assert (saves / "first.toml").is_file() and (saves / "second.toml").is_file()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_open_picker(snap_compare, size, saves) -> None:
    for seed, hero, name, day in (
        (1, "kestrel-vance", "first", 1),
        (2, "roan-maddox", "second", 2),
    ):
        session = _session(hero, seed=seed)
        store.save(session, saves / f"{name}.toml", now=datetime(2026, 11, day, 21, 30))
        stamp = datetime(2026, 11, day, 21, 30).timestamp()
        os.utime(saves / f"{name}.toml", (stamp, stamp))  # the order recent() sorts by

    async def show(pilot) -> None:
        await pilot.pause()
        await pilot.press("O")
        await pilot.pause()

    assert snap_compare(HsmApp(_session()), terminal_size=size, run_before=show)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_name_dialog(snap_compare, size) -> None:
    async def show(pilot) -> None:
        await pilot.pause()
        await pilot.press("S", *"Relic Hunters of Kharon")
        await pilot.pause()

    assert snap_compare(HsmApp(_session("kestrel-vance")), terminal_size=size, run_before=show)


async def test_every_screen_follows_when_the_campaign_is_swapped_under_it(saves) -> None:
    """Views own no state (DESIGN.md): a new or opened campaign re-renders every screen,
    whichever was on top, and none of them breaks on the combatants that vanished.
    """
    app = HsmApp(Session(seed=SEED))
    screens = ("f2", "f3", "f4", "f5", "f6", "f7", "f8")
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4", "L", "s", "a", "enter", "escape", *screens)
        fight = store.save(app.session, saves / "fight.toml")
        for top in ("f4", "f7", "f2", "f5"):
            await _keys(pilot, top)
            app.session.new_campaign()
            await _keys(pilot, *screens, top, "down", "enter", "escape")
            assert app.session.encounter.combatants == ()
            store.load(app.session, fight)
            await _keys(pilot, *screens, top, "down", "escape")
            assert isinstance(app.session.pending, PendingCombatRerolls)
            assert app.is_running and app._exception is None


async def test_declining_an_overwrite_or_a_failed_write_leaves_the_name_alone(saves) -> None:
    store.save(_session("roan-maddox"), saves / "taken.toml")
    app = HsmApp(_session("kestrel-vance"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _keys(pilot, "S", *"Taken", "enter")
        assert isinstance(app.screen, DecisionDialog)  # another campaign's file: asks
        await _keys(pilot, "escape")
        assert app.session.campaign.name == "New campaign" and app.session.file is None
        (saves / "blocked.toml").mkdir()  # a folder where the file should go
        await _keys(pilot, "S", *"Blocked", "enter", "o")  # overwrite it: cannot
        assert _messages(app, "error")[-1].startswith("cannot save saves/blocked.toml")
        assert app.session.campaign.name == "New campaign"  # the rename was taken back
        assert not any(e.title.startswith("Campaign renamed") for e in app.session.log)
