"""Screens that follow the session repaint only what changed (issue 33: twenty players
and the GM share one loop): the player's fight table row by row, the log once per new
entry for every seat, and the GM's combat screen widgets only when their text changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget

from hsm_tui.campaign.combat import SetCover
from hsm_tui.rules.secret import secret
from hsm_tui.table.session import LogEntry
from hsm_tui.table.views import _entry
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.player.table import FIGHT_COLUMNS
from hsm_tui.ui.widgets.attack_panel import AttackPanel
from hsm_tui.ui.widgets.combatants import CombatantTable
from hsm_tui.ui.widgets.initiative import InitiativeList
from hsm_tui.ui.widgets.line_table import GAP, LineTable, Row, column_widths, fit, row_line
from hsm_tui.ui.widgets.range_board import RangeBoard
from hsm_tui.ui.widgets.roll_log import wrap_entry
from tests.share.conftest import fight

ROWS = (
    Row(("▶", "Kestrel Vance", "heroes", "ridge", "—", "unhurt"), own=True),
    Row(("", "Pirate raider 1", "pirates", "dig", "medium", "unhurt")),
)


def test_fitted_columns_take_their_widest_cell_and_the_rest_share_what_is_left() -> None:
    widths = column_widths(49, FIGHT_COLUMNS, ROWS)  # the fight's box at 80×24
    assert sum(widths) + GAP * (len(widths) - 1) == 49
    assert widths[0] == 1 and widths[4] == len("medium")  # the marker, the cover
    assert widths == [1, 13, 5, 5, 6, 9]  # the name first: "Kestrel Vance" whole
    nobody = column_widths(49, FIGHT_COLUMNS, [replace(r, cells=("", *r.cells[1:])) for r in ROWS])
    light = column_widths(
        49, FIGHT_COLUMNS, [replace(r, cells=(*r.cells[:4], "light", "unhurt")) for r in ROWS]
    )
    assert nobody == light == widths  # nobody acting, a new cover: no column moves


@pytest.mark.parametrize(
    ("text", "width", "shown"),
    [
        ("dig", 5, "dig  "),
        ("Pirate raider 1", 8, "Pirate …"),
        ("東京の港", 5, "東京…"),
        ("ab", 0, ""),
    ],
)
def test_a_cell_fills_its_width_exactly_cut_with_an_ellipsis(text, width, shown) -> None:
    assert fit(text, width) == shown and cell_len(fit(text, width)) == width


def test_a_row_is_one_segment_per_run_of_one_style() -> None:
    """The seat's own hero's name in bold, the rest of its row plain; a header in bold."""
    widths = column_widths(49, FIGHT_COLUMNS, ROWS)
    own = row_line(ROWS[0].cells, tuple(widths), tuple(c.own_bold for c in FIGHT_COLUMNS))
    assert [(s.text.strip(), bool(s.style and s.style.bold)) for s in own] == [
        ("▶", False),
        ("Kestrel Vance", True),
        ("hero…  ridge  —       unhurt", False),
    ]
    headings = tuple(c.heading for c in FIGHT_COLUMNS)
    header = row_line(headings, tuple(widths), (True,) * len(widths))
    [segment] = list(header)
    assert segment.style is not None and segment.style.bold


class _TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LineTable(FIGHT_COLUMNS)


async def test_a_changed_row_is_the_only_line_repainted() -> None:
    app = _TableApp()
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(LineTable)
        table.show(ROWS)
        await pilot.pause()
        dirty: list[tuple[Region, ...]] = []
        table.refresh = lambda *regions, **_: dirty.append(regions)  # type: ignore[method-assign]
        hurt = replace(ROWS[1], cells=(*ROWS[1].cells[:5], "wounded"))
        table.show((ROWS[0], hurt))
        assert dirty == [(Region(0, 2, table.content_region.width, 1),)]  # row 2, under the header
        assert "wounded" in table.render_line(2).text and "Kestrel" in table.render_line(1).text


def test_a_wrapped_entry_is_shared_only_with_an_equal_entry() -> None:
    """A seat is handed back the lines of an entry equal to its own: the GM's entry with a
    hidden number and a player's, redacted, never share one."""
    gm = LogEntry(3, "gm", "Pirate raider 1 shoots", (f"Defense {secret('4')}: 2 through",))
    player = _entry(gm)
    assert player is not None and player != gm
    assert wrap_entry(gm, 40) is wrap_entry(replace(gm), 40)  # equal: wrapped once
    gm_text = " ".join(s.text for s in wrap_entry(gm, 40))
    player_text = " ".join(s.text for s in wrap_entry(player, 40))
    assert "4" in gm_text and "4" not in player_text and "hidden" in player_text


async def test_the_gms_combat_widgets_repaint_only_when_their_text_changed() -> None:
    """A cover change moves one row of the GM's table and adds a log entry: the panel, the
    initiative and the range board say the same and are left alone."""
    session = fight()
    app = HsmApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        whole: list[str] = []
        screen = app.screen

        def counting(widget: Widget) -> Any:
            original = widget.refresh

            def refresh(*regions: Region, **options: Any) -> Any:
                if not regions:
                    whole.append(type(widget).__name__)
                return original(*regions, **options)

            return refresh

        for kind in (AttackPanel, InitiativeList, RangeBoard, CombatantTable):
            widget = screen.query_one(kind)
            widget.refresh = counting(widget)  # type: ignore[method-assign]
        app.call_later(session.apply, SetCover("pirate-raider-1", "heavy"))
        await pilot.pause()
        assert whole == []
        assert (
            screen.query_one(CombatantTable)
            .get_cell("pirate-raider-1", "Cover")
            .plain.startswith("heavy")
        )
