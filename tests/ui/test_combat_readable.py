"""Issue 19 §7–§10: F4 readable at 80×24 and 120×40 with more combatants than rows.

Seed 7 with the shipped dig-site ambush and three more raiders on the ridge (15 rows):
Kestrel Vance acts first, the boarders third.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from hsm_tui.campaign.combat import AddCombatants
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.widgets.combatants import CombatantTable
from hsm_tui.ui.widgets.labels import side_tags, zone_text
from tests.ui.test_combat_screen import _app, _keys


async def _crowded_fight(pilot: Pilot) -> None:
    """The example with 15 combatants, combat started: Kestrel's turn."""
    await _keys(pilot, "f4", "L")
    pilot.app.session.apply(AddCombatants("minion", "pirate-raider", "pirates", "ridge", count=3))
    await _keys(pilot, "s")


def _table(app: HsmApp) -> CombatantTable:
    return app.screen.query_one(CombatantTable)


async def _aim_at_the_last_row(pilot: Pilot) -> str:
    """Kestrel aims, then steps the target to the last combatant in the table."""
    await _keys(pilot, "a")
    last = pilot.app.session.encounter.combatants[-1].id
    for _ in range(20):
        if pilot.app.screen.draft.target == last:
            break
        await _keys(pilot, "right")
    return last


async def test_issue_19_7_selected_acting_and_target_rows_stay_in_view() -> None:
    """Fifteen rows in twelve lines: the acting Hero at the top and the target at the
    bottom both show, the rows between fold into one ``⋯ N more`` line.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _crowded_fight(pilot)
        table = _table(app)
        assert len(app.session.encounter.combatants) > table.size.height - 3
        target = await _aim_at_the_last_row(pilot)
        shown = table.shown_ids
        assert "kestrel-vance-1" in shown and target in shown
        lines = [table.render_line(y).text for y in range(table.size.height)]
        assert any("⋯" in line and "more" in line for line in lines)
        await _keys(pilot, "escape", "n", "n")  # the boarders' turn: every member in view
        acting = app.session.encounter.members(app.session.encounter.turn.actor)
        assert {c.id for c in acting} <= set(table.shown_ids)


async def test_issue_19_7_the_attack_panel_names_the_targets_wounds() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _crowded_fight(pilot)
        await _keys(pilot, "a")
        panel = str(app.screen.query_one("#combat-attack").render())
        assert "at Pirate boarder 1, short range · unhurt" in panel


def test_issue_19_8_side_tags_stay_apart_and_spots_say_where_they_lead() -> None:
    assert side_tags(["heroes", "enemies"]) == {"heroes": "her", "enemies": "ene"}
    assert side_tags(["pirates", "pirate hunters"]) == {"pirates": "pir", "pirate hunters": "pi2"}
    spot = "ruins → landing pad (medium)"
    assert zone_text(spot, 40) == spot
    assert zone_text(spot, 14) == "→landing pad M"
    assert zone_text(spot, 7) == "→land M"
    assert zone_text("landing pad", 7) == "landin…"


async def test_issue_19_8_the_narrow_table_shows_tags_and_where_a_spot_leads() -> None:
    """Kestrel closes in on the ridge: her zone reads ``→ridge S``, not ``ruins…``; the
    sides read ``exp``/``pir`` with the legend in the table's title.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4", "L", "s", "m", "2")
        table = _table(app)
        assert str(table.get_cell("kestrel-vance-1", "Zone")).strip() == "→ridg S"
        assert str(table.get_cell("kestrel-vance-1", "Side")).strip() == "exp"
        assert table.border_title == "Combatants · exp=expedition pir=pirates"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_crowded_fight_keeps_actor_and_target(snap_compare, size) -> None:
    """Issue 19: the acting Hero, the target (◎) and its wounds in view at both sizes."""

    async def aim(pilot: Pilot) -> None:
        await _crowded_fight(pilot)
        await _aim_at_the_last_row(pilot)

    assert snap_compare(_app(), terminal_size=size, run_before=aim)


async def test_issue_19_10_suppressive_fire_refused_before_the_dialog_opens() -> None:
    """R-ATK-16 once per turn: a second `S` says why in full instead of opening a dialog
    whose header was cut off where it gave the reason.
    """
    from hsm_tui.ui.screens.suppress_dialog import SuppressDialog

    app = _app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _keys(pilot, "f4", "L", "s", "S")
        dialog = app.screen
        assert isinstance(dialog, SuppressDialog)
        title = dialog.query_one("#suppress-title")
        assert title.size.width == dialog.query_one("#suppress-box").content_size.width
        await _keys(pilot, "space", "enter")
        while app.session.pending is not None:
            await _keys(pilot, "enter")
        assert "kestrel-vance-1" in app.session.encounter.turn.suppressed
        await _keys(pilot, "S")
        assert not isinstance(app.screen, SuppressDialog)
        said = [n.message for n in app._notifications]
        assert said[-1].startswith("No suppressive fire: suppressive fire once per turn")


async def test_issue_19_15_luck_and_clues_of_the_selected_hero_on_f4() -> None:
    """R-CHAR-9: the selected Hero's pools head the attack panel and its options line
    while aiming; a Minion shows none.
    """
    from hsm_tui.campaign.combat import SetPools

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4", "L", "s")
        panel = app.screen.query_one("#combat-attack")
        assert str(panel.render()).startswith("Kestrel Vance · Luck 2 · Clues 0")
        app.session.apply(SetPools("kestrel-vance-1", 1, 3))
        await _keys(pilot, "a")
        assert "Options: none (plain attack) · Luck 1 · Clues 3" in str(panel.render())
        await _keys(pilot, "escape", "n", "n")  # the boarders' turn
        assert "Luck" not in str(panel.render())


async def test_issue_19_9_at_120x40_table_and_range_board_fit_with_a_spot_on_the_way() -> None:
    """R-COMBAT-2: after Kestrel closes in on the ridge (a spot ``ruins → ridge (short)``)
    every column, Chg last, is in the table, and every band leads its line on the board.
    """
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await _keys(pilot, "f4", "L", "s", "m", "2")
        table = _table(app)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert table.render_line(0).text.rstrip().endswith("Chg")
        board = app.screen.query_one("#combat-range")
        lines = str(board.render()).splitlines()
        assert all(len(line) <= board.content_size.width for line in lines)
        pairs = [line for line in lines if "↔" in line]
        assert len(pairs) == 6
        assert all(line[2:].split()[0] in ("short", "medium", "not") for line in pairs)
        assert any("→ridg" in line for line in pairs)  # the spot, shortened by meaning
