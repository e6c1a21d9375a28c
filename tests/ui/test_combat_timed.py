"""F4 ``N`` and ``K``: the GM's note on a combatant and an effect for some of its turns,
each one command through the engine, shown in the attack panel for the selected row
(§7 row 11 Stunned's turns, the GM's "stunned 2 more rounds")."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from hsm_tui.campaign.encounter import Countdown
from hsm_tui.ui.screens.countdown_dialog import CountdownDialog
from hsm_tui.ui.screens.note_dialog import NoteDialog
from hsm_tui.ui.widgets.combatants import CombatantTable
from tests.ui.test_combat_screen import _app, _fight, _keys, _panel

K = "kestrel-vance-1"


async def _note_and_stun(pilot: Pilot) -> None:
    """Kestrel's turn: a note on her, then stunned for her next 2 turns."""
    await _fight(pilot)
    await _keys(pilot, "N", *"owes Roan a favour", "enter")
    await _keys(pilot, "K", "down", "2", "enter")


async def test_s7_row_11_the_gm_notes_and_times_stunned_from_the_keys() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _note_and_stun(pilot)
        kestrel = app.session.encounter.get(K)
        assert kestrel.note == "owes Roan a favour"
        assert kestrel.countdowns == (Countdown("stunned", 2, 2),)
        assert "stunned" in kestrel.conditions
        panel = _panel(app)
        assert "Note owes Roan a favour" in panel
        assert "Cond. stunned (2 more turns)" in panel
        cell = str(app.screen.query_one(CombatantTable).get_cell(K, "Cond.")).strip()
        assert cell == "Stn2"  # its turns to come, in the 80-column short form
        await _keys(pilot, "m")  # the move menu: a Move+Run marked ✗ with the engine's reason
        labels = [o.label for o in app.screen.options]  # type: ignore[attr-defined]
        assert any(x.startswith("✗") and x.endswith("no Run (§7 row 11)") for x in labels)
        await _keys(pilot, "escape", "u", "u")  # both undone, one key each
        assert app.session.encounter.get(K).note == ""


async def test_the_dialogs_show_the_engines_refusal_and_enter_keeps_them_open() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "K", "ctrl+u", *"shaken")
        assert isinstance(app.screen, CountdownDialog)
        message = str(app.screen.query_one("#checked-message").render())
        assert message == "✗ shaken is not timed: Fear ends it"
        await _keys(pilot, "enter")
        assert isinstance(app.screen, CountdownDialog)  # refused: nothing sent
        await _keys(pilot, "escape", "N", "enter")
        assert isinstance(app.screen, NoteDialog)
        assert "has no note" in str(app.screen.query_one("#checked-message").render())
        await _keys(pilot, "escape")
        assert app.session.encounter.get(K).countdowns == () and len(app.session.history) == 2


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_note_and_countdown_in_the_panel(snap_compare, size) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_note_and_stun)


def test_snapshot_countdown_dialog(snap_compare) -> None:
    async def open_it(pilot: Pilot) -> None:
        await _note_and_stun(pilot)
        await _keys(pilot, "K")

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=open_it)
