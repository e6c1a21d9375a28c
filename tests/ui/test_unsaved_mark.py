"""Every GM screen says when the campaign has changes not in its file, at 80×24 too (F4
and F7 fold their title bar away there, so a panel's border says it), and stops saying it
once saved; one place draws it (``SessionScreen.show_unsaved``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hsm_tui.campaign.combat import AddZone
from hsm_tui.persistence import store
from hsm_tui.table.session import Session
from hsm_tui.ui.app import PLACES, HsmApp
from tests.ui.test_player_app import screen_text


async def test_f4_and_f7_say_unsaved_at_80x24_until_saved(tmp_path: Path) -> None:
    session = Session(seed=1)
    session.load_content()
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        session.apply(AddZone("ridge"))
        for key, panel in (("f4", "#combat-table"), ("f7", "#builder-zones")):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.query_one(panel).border_subtitle == "unsaved"
        store.save(session, tmp_path / "c.toml")
        session.apply(AddZone("dig"))
        session.undo()  # the state is the saved one again
        await pilot.pause()
        assert app.screen.query_one("#builder-zones").border_subtitle == ""


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_every_gm_screen_says_unsaved_until_saved(tmp_path: Path, size) -> None:
    session = Session(seed=1)
    session.load_content()
    app = HsmApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session.apply(AddZone("ridge"))
        for place in PLACES:
            await pilot.press(place.key)
            await pilot.pause()
            assert "unsaved" in screen_text(app), place.title
        store.save(session, tmp_path / "c.toml")  # on F7: the screen hears it at once
        await pilot.pause()
        assert "unsaved" not in screen_text(app)
        for place in PLACES:  # the others when shown again
            await pilot.press(place.key)
            await pilot.pause()
            assert "unsaved" not in screen_text(app), place.title
