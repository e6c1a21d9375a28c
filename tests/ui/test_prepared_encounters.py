"""F7 ``P``: encounters prepared ahead, driven with Pilot by keys only (issue 36 item 21).
The GM keeps the builder's encounter by name, sees each prepared one with its forecast,
loads one when the party gets there (and again for a rematch), drops, exports and imports
encounter files. Set-up is R-COMBAT-2's; a Sidekick's rules stay R-CHAR-8's.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from hsm_tui.campaign.combat import EndCombat, StartCombat
from hsm_tui.campaign.prepared import KeepEncounter
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.encounter_builder import EncounterBuilderScreen
from hsm_tui.ui.screens.prepared_dialog import PreparedDialog, TextDialog
from tests.ui.test_encounter_builder import _app, _errors, _keys, _open, _set_up_dig_site

NAME = "Dig site ambush"


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HSM_SAVES", str(tmp_path))


async def _prepared(pilot: Pilot) -> PreparedDialog:
    """The builder with the dig site built, then its prepared list, forecasts played."""
    await _open(pilot)
    _set_up_dig_site(pilot.app)
    await _keys(pilot, "P")
    await _played(pilot)
    assert isinstance(pilot.app.screen, PreparedDialog)
    return pilot.app.screen


async def _played(pilot: Pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _rows(app: HsmApp) -> list[str]:
    options = app.screen.query_one("#prepared-list", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def _typed(pilot: Pilot, text: str) -> None:
    """Into the open text dialog, in place of what it offered."""
    assert isinstance(pilot.app.screen, TextDialog)
    pilot.app.screen.query_one(Input).value = text
    await _keys(pilot, "enter")


async def test_r_combat_2_k_keeps_the_builders_encounter_and_enter_loads_it_for_a_rematch() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _prepared(pilot)
        assert _rows(app) == []  # nothing prepared yet: the note says k and i
        await _keys(pilot, "k", *NAME, "enter")
        await _played(pilot)
        assert [p.name for p in app.session.campaign.prepared] == [NAME]
        [row] = _rows(app)
        assert row.startswith(f"{NAME} · 3 zone(s); expedition 2 vs pirates 3")
        assert "wins expedition" in row and "draws" in row  # its forecast, in a thread
        built = app.session.encounter
        await _keys(pilot, "escape", "N", "z")  # a new encounter: zones and all go
        assert app.session.encounter.combatants == ()
        await _keys(pilot, "P", "enter")  # nothing to lose: loaded at once
        assert isinstance(app.screen, EncounterBuilderScreen)
        assert _lineup(app.session.encounter) == _lineup(built)
        await _keys(pilot, "P", "enter")  # a rematch: over an encounter, it asks first
        assert isinstance(app.screen, DecisionDialog)
        await _keys(pilot, "y")
        assert isinstance(app.screen, EncounterBuilderScreen)
        assert [p.name for p in app.session.campaign.prepared] == [NAME]


def _lineup(enc: object) -> list[tuple[str, str, str, object]]:
    return sorted((c.entry, c.side, c.zone, c.cover) for c in enc.combatants)  # type: ignore[attr-defined]


async def test_a_load_during_a_fight_is_marked_with_the_engines_reason_and_refused() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open(pilot)
        _set_up_dig_site(app)
        app.session.apply(KeepEncounter(NAME))
        app.session.apply(StartCombat())
        fight = app.session.encounter
        await _keys(pilot, "P")
        await _played(pilot)
        [row] = _rows(app)
        assert "✗ combat is under way: end it first (F4 E)" in row
        await _keys(pilot, "enter")
        assert app.session.encounter is fight
        assert any("combat is under way" in e for e in _errors(app))
        app.session.apply(EndCombat())
        await pilot.pause()
        assert "✗" not in _rows(app)[0]  # the list follows the session


async def test_x_drops_and_u_brings_it_back_and_forecasts_are_played_once() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await _prepared(pilot)
        await _keys(pilot, "k", *NAME, "enter")
        await _played(pilot)
        kept = dict(dialog.forecasts)
        await _keys(pilot, "x")
        assert app.session.campaign.prepared == () and _rows(app) == []
        await _keys(pilot, "u")
        assert [p.name for p in app.session.campaign.prepared] == [NAME]
        await _keys(pilot, "escape", "P")
        assert "wins expedition" in _rows(app)[0]  # at once: the builder kept it
        assert app.screen.forecasts == kept


async def test_e_exports_and_i_imports_an_encounter_file_asking_before_replacing(
    tmp_path: Path,
) -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _prepared(pilot)
        await _keys(pilot, "k", *NAME, "enter", "e")
        await _typed(pilot, str(tmp_path / "encounters" / "dig-site-ambush.toml"))  # offered
        written = tmp_path / "encounters" / "dig-site-ambush.toml"
        assert written.is_file() and f'name = "{NAME}"' in written.read_text()
        prepared = app.session.campaign.prepared
        await _keys(pilot, "i")
        await _typed(pilot, str(written))
        assert isinstance(app.screen, DecisionDialog)  # its name is prepared already
        await _keys(pilot, "r")
        assert app.session.campaign.prepared == prepared  # the same encounter, read back
        bad = tmp_path / "bad.toml"
        bad.write_text("[[zone]]\nname = 'a'\n[[combatant]]\nentry = 'nobody'\n")
        await _keys(pilot, "i")
        await _typed(pilot, str(bad))
        assert any(e.startswith(f"{bad}:3: combatant #1 needs") for e in _errors(app))
        assert app.session.campaign.prepared == prepared


async def _listed(pilot: Pilot) -> None:
    """Two prepared, and one a hand-edited file left needing an entry no pack has."""
    await _open(pilot)
    _set_up_dig_site(pilot.app)
    session = pilot.app.session
    session.apply(KeepEncounter(NAME))
    session.apply(KeepEncounter("Rematch at the ridge"))
    prep = session.campaign.prepared[0]
    rows = (replace(prep.rows[0], kind="minion", entry="sand-wyrm", side="wyrms"),)
    edited = replace(prep, name="The wyrm pit", rows=(*prep.rows[1:], *rows))
    session.campaign = replace(session.campaign, prepared=(*session.campaign.prepared, edited))
    await _keys(pilot, "P")
    await _played(pilot)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_prepared_encounters_on_f7(snap_compare, size) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_listed)


async def test_k_under_a_kept_name_says_it_replaces_it_before_enter() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _prepared(pilot)
        await _keys(pilot, "k", *NAME, "enter")
        await _keys(pilot, "escape", "x")  # the builder loses a combatant
        await _keys(pilot, "P", "k", *NAME.upper())
        said = str(app.screen.query_one("#name-message").render())
        assert said == f"✓ Enter keeps the builder's encounter in place of {NAME.upper()!r}"
        await _keys(pilot, "enter")
        [prep] = app.session.campaign.prepared
        assert prep.name == NAME.upper() and prep.size == 4
        await _keys(pilot, "u")  # the one kept before comes back
        assert [p.size for p in app.session.campaign.prepared] == [5]
