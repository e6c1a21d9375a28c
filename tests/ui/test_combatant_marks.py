"""The Cond. column (§8): the gravest mark first (a Panicked figure is never hidden behind
``PIN+2``), in words where they fit, else three capitalised letters that read apart
(``ShkMel``), ``+N`` for the rest; counters with their condition (``Bld2``, not ``bld+1``);
every mark spelled out for the panel beside the table, and a legend on F1.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.pilot import Pilot

from hsm_tui.campaign.combat import SetCondition
from hsm_tui.campaign.conditions import (
    CONDITIONS,
    ENGINE_MARKS,
    HEALTH_MARKERS,
    TOKENS,
    with_condition,
)
from hsm_tui.ui.screens.help import HelpScreen
from hsm_tui.ui.widgets.combatants import CombatantTable
from hsm_tui.ui.widgets.marks import LOOKS, cond_cell, legend, spelled_marks
from tests.campaign.test_combat_engine import K, duel
from tests.ui.test_combat_screen import _app, _keys

KESTREL, ROAN = "kestrel-vance-1", "roan-maddox-1"


def _kestrel(*conditions: str, prone: bool = False):
    return replace(duel().encounter.get(K), conditions=conditions, prone=prone)


def test_r_fear_2_panicked_shows_before_pinned_and_the_rest_are_counted() -> None:
    marked = _kestrel("pinned", "panicked", "shaken", prone=True)
    assert cond_cell(marked, False, 6) == "Pan+3"
    assert cond_cell(marked, False, 24) == "panicked, Pin, Shk, Prn"
    assert cond_cell(marked, False, 26) == "panicked, pinned, Shk, Prn"
    assert cond_cell(marked, True, 12) == "PanPinShk+2"


def test_two_marks_at_80_columns_read_apart_and_one_word_is_spelled() -> None:
    assert cond_cell(_kestrel("shaken"), True, 6) == "ShkMel"
    assert cond_cell(_kestrel("shaken"), False, 6) == "shaken"
    assert cond_cell(_kestrel(prone=True), True, 6) == "PrnMel"
    assert cond_cell(_kestrel(), False, 6) == "–"


def test_at_120_columns_the_words_fit_where_they_can() -> None:
    assert cond_cell(_kestrel("dazed:2", "shaken"), False, 24) == "shaken, dazed 2"
    both = _kestrel("dazed:2", "encumbered:1", "fatigued")
    assert cond_cell(both, False, 24) == "dazed 2, Enc1, Fat"


def test_a_counter_goes_with_its_condition() -> None:
    bleeding = _kestrel("bleeding", f"{TOKENS}:2")
    assert cond_cell(bleeding, False, 6) == "Bld2"
    assert cond_cell(bleeding, False, 24) == "bleeding 2"
    assert spelled_marks(bleeding, False) == ["bleeding, 2 Stamina tokens"]
    dying = _kestrel("dying", f"{HEALTH_MARKERS}:1")
    assert spelled_marks(dying, False) == ["dying (bleeding out), 1 Health marker"]


def test_the_panel_spells_every_mark_gravest_first() -> None:
    marked = replace(_kestrel("shaken", "pinned", "dazed:2", prone=True), hidden=True)
    assert spelled_marks(marked, True) == [
        "pinned", "shaken", "dazed 2", "prone", "in melee", "hidden from the players"
    ]  # fmt: skip


def test_every_mark_the_engine_sets_has_its_short_form_and_the_legend_names_it() -> None:
    engine = {*CONDITIONS, *ENGINE_MARKS, TOKENS, HEALTH_MARKERS, "prone", "melee", "hidden"}
    assert engine <= LOOKS.keys()
    shorts = [look.short for look in LOOKS.values()]
    assert len(set(shorts)) == len(shorts) and all(len(s) == 3 for s in shorts)
    assert all(f"{look.short} {look.word}" in legend() for look in LOOKS.values())


# -- on F4: the column, the panel beside it, F1's legend ------------------------------
RAIDER = "pirate-raider-1"


async def _marked_fight(pilot: Pilot) -> None:
    """The example, combat started; a Panicked, Pinned, Shaken raider selected, Kestrel
    bleeding (2 Stamina tokens), Roan Dazed 2, Encumbered 1 and Fatigued."""
    await _keys(pilot, "f4", "L", "s")
    session = pilot.app.session
    for who, condition, level in (
        (RAIDER, "pinned", 1), (RAIDER, "panicked", 1), (RAIDER, "shaken", 1),
        (KESTREL, "bleeding", 1), (ROAN, "dazed", 2), (ROAN, "encumbered", 1),
        (ROAN, "fatigued", 1),
    ):  # fmt: skip
        session.apply(SetCondition(who, condition, level))
    kestrel = with_condition(session.encounter.get(KESTREL), TOKENS, 2)
    session.encounter = session.encounter.with_combatant(kestrel)
    session._notify()  # a state set up directly: the views redraw as after a command
    while pilot.app.screen.selected != RAIDER:
        await _keys(pilot, "down")


async def test_f4_the_selected_rows_marks_are_all_in_the_panel_and_f1_keys_them() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _marked_fight(pilot)
        table = app.screen.query_one(CombatantTable)
        assert str(table.get_cell(RAIDER, "Cond.")).strip() == "Pan+2"
        assert str(table.get_cell(KESTREL, "Cond.")).strip() == "Bld2"
        panel = str(app.screen.query_one("#combat-attack").render())
        assert "Cond. panicked · pinned · shaken" in panel
        await _keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        assert "Pan panicked · Pin pinned" in app.screen.screen_help


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_conditions_column(snap_compare, size) -> None:
    """80×24: ``Pan+2``, ``Bld2``, ``Daz2+2``; 120×40: the words where they fit."""
    assert snap_compare(_app(), terminal_size=size, run_before=_marked_fight)
