"""The suppressive-fire dialog at 80×24 (R-ATK-16): a long cone's odds scroll, not cut."""

from __future__ import annotations

from textual.containers import VerticalScroll

from hsm_tui.ui.screens.suppress_dialog import SuppressDialog
from tests.ui.test_combat_screen import _app, _fight, _keys


async def test_r_atk_16_a_long_plan_scrolls_with_pgdn_and_shows_its_last_line() -> None:
    """Three targets make more odds lines than the box shows: a scrollbar appears and
    PgDn brings the last line (the chance of any hit comes first) into view.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "S", "space", "down", "space", "down", "space")
        dialog = app.screen
        assert isinstance(dialog, SuppressDialog) and len(dialog.ticked) == 3
        box = dialog.query_one("#suppress-plan-box", VerticalScroll)
        assert box.virtual_size.height > box.size.height  # the wrapped lines do not fit
        assert box.max_scroll_y > 0 and box.scroll_y == 0
        await _keys(pilot, "pagedown")
        assert box.scroll_y == box.max_scroll_y  # the last line is in view
        assert dialog.query_one("OptionList").has_focus  # the keys stay on the list
