"""What every screen shares: quitting safely, help that says where to go, readable undo.

Found by a new-GM walkthrough (issue 6): `q` quit at once and lost the session, the help
never listed the other screens, and undo toasts read ``Undone: SpendCombatRerolls``.
"""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

from hsm_tui.campaign.party import AddHero, GrantClues
from hsm_tui.table.session import Session
from hsm_tui.ui.app import PLACES, HsmApp
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.help import HelpScreen
from tests.ui.test_task_roller import _frame_text

SEED = 5


def _session_with_a_hero() -> Session:
    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    return session


async def test_q_quits_at_once_when_the_session_holds_nothing() -> None:
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert app._exit  # the app is on its way out


async def test_q_asks_first_once_there_is_something_to_lose() -> None:
    app = HsmApp(_session_with_a_hero())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)
        assert "not saved" in str(app.screen.question)
        await pilot.press("escape")  # stay
        await pilot.pause()
        assert not app._exit and not isinstance(app.screen, DecisionDialog)
        await pilot.press("q", "q")  # ask, then quit anyway
        await pilot.pause()
        assert app._exit


async def test_help_says_how_to_close_and_lists_every_screen() -> None:
    app = HsmApp(Session(seed=SEED))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        assert "Esc, F1 or q closes" in text
        for place in PLACES:
            assert f"| {place.key.upper()} | {place.title} |" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_undo_names_what_it_took_back_in_one_message() -> None:
    session = _session_with_a_hero()
    session.apply(GrantClues("kestrel-vance", 1))
    app = HsmApp(session)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1  # the first undo's message made way for the second's
        assert messages[0].startswith("Undone: ") and "AddHero" not in messages[0]
        assert session.campaign.party == ()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_help_overlay(snap_compare, size) -> None:
    """F1 on the combat screen: its keys first, then the screens and the quick reference."""

    async def help_on_combat(pilot) -> None:
        await pilot.press("f4")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)

    assert snap_compare(
        HsmApp(_session_with_a_hero()), terminal_size=size, run_before=help_on_combat
    )


async def _decision_help(pilot) -> None:
    """F1 in a decision dialog (the quit question is one): the generic Decision help."""
    await pilot.press("q")
    await pilot.pause()
    assert isinstance(pilot.app.screen, DecisionDialog)
    await pilot.press("f1")
    await pilot.pause()
    assert isinstance(pilot.app.screen, HelpScreen)


async def test_decision_help_reads_line_by_line_at_80x24() -> None:
    """A walkthrough found its table's key column wrapped one word a line at 80 columns."""
    app = HsmApp(_session_with_a_hero())
    async with app.run_test(size=(80, 24)) as pilot:
        await _decision_help(pilot)
        frame = _frame_text(app)
        for line in ("its key chooses that answer", "Esc closes without choosing"):
            assert line in frame, line


def test_snapshot_decision_help_80x24(snap_compare) -> None:
    assert snap_compare(
        HsmApp(_session_with_a_hero()), terminal_size=(80, 24), run_before=_decision_help
    )
