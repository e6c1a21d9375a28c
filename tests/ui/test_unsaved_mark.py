"""Issue 19 #11: at 80×24 (the title bar folded away) F4 and F7 still say when the
campaign has changes not in its file, and stop saying it once saved."""

from __future__ import annotations

from pathlib import Path

from hsm_tui.campaign.combat import AddZone
from hsm_tui.persistence import store
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp


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
