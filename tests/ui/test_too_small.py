"""Below 80×24 the GM's screens ask for a larger window, as the player's do, instead of
losing columns silently (F4's ``OU`` for OUT, F7's pack list four cells wide); the
request stays over a mode switch and goes once the window is large enough again."""

from __future__ import annotations

from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.encounter_builder import EncounterBuilderScreen
from hsm_tui.ui.too_small import TooSmallScreen
from tests.ui.test_player_app import screen_text


async def test_below_80x24_every_gm_screen_asks_to_enlarge_the_window() -> None:
    app = HsmApp(Session(seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        await pilot.resize_terminal(79, 24)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "Please enlarge the window to at least 80×24" in screen_text(app)
        for key in ("f7", "f5", "f8"):  # another screen: asked there too
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, TooSmallScreen), key
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)
        await pilot.press("f4")  # the request left over F4 goes as F4 shows again
        await pilot.pause()
        assert isinstance(app.screen, CombatScreen)


async def test_a_gm_starting_in_a_small_window_is_asked_then_shown_the_screen() -> None:
    app = HsmApp(Session(seed=1))
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(100, 24)
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, EncounterBuilderScreen)
