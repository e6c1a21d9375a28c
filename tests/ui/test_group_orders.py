"""Issue 19 #12: cover, zone and Move for a whole Minion group in one pick (R-ACT-2),
on F4 (``z``) and in the builder (``g``); each is one Batch, so one ``u`` undoes it.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import Move, SetCover, for_group
from hsm_tui.rules import Cover
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.widgets.encounter_list import EncounterList
from tests.ui.test_combat_screen import _app, _fight, _keys
from tests.ui.test_encounter_builder import _app as _builder_app
from tests.ui.test_encounter_builder import _open, _set_up_dig_site

BOARDERS = ("pirate-boarder-1", "pirate-boarder-2", "pirate-boarder-3")


def test_for_group_gives_each_standing_member_in_the_zone_the_order() -> None:
    from hsm_tui.persistence.encounter_file import encounter_commands, read_encounter
    from hsm_tui.table.session import Session
    from hsm_tui.ui.screens.combat import EXAMPLE

    session = Session(seed=7)
    session.load_content()
    for command in encounter_commands(read_encounter(EXAMPLE, session.catalog), session.catalog):
        session.apply(command)
    orders = for_group(session.encounter, Move("pirate-boarder-2", "ruins", run=True))
    assert [o.combatant for o in orders] == [
        "pirate-boarder-2",
        "pirate-boarder-1",
        "pirate-boarder-3",
    ]
    assert {o.zone for o in orders} == {"ruins"} and all(o.run for o in orders)
    assert for_group(session.encounter, SetCover("kestrel-vance-1", "heavy")) == (
        SetCover("kestrel-vance-1", "heavy"),
    )


async def test_r_act_2_z_moves_the_whole_boarder_group_in_one_pick_and_one_undo() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "n", "n", "z")  # the boarders' turn
        dialog = app.screen
        assert isinstance(dialog, DecisionDialog)
        labels = [o.label for o in dialog.options]
        assert "all 3 hide in light cover (1 action each)" in labels
        assert "all 3 to ridge (short): Move + Run, 2 actions" in labels
        await _keys(pilot, "b")  # to the ridge
        enc = app.session.encounter
        assert [enc.get(b).zone for b in BOARDERS] == ["ridge"] * 3
        assert all(enc.turn.left(b) == 0 for b in BOARDERS)
        await _keys(pilot, "u")
        assert [app.session.encounter.get(b).zone for b in BOARDERS] == ["dig pit"] * 3


async def test_r_act_2_group_cover_in_a_fight_is_a_hide_for_each_member() -> None:
    """Taking cover on its turn is a Hide (R-ACT-2), for a group as for one figure: an
    action each, none twice, none without an action left; ✗ with the engine's reason
    before the pick, and a pick refused changes nothing.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "n", "n", "z", "2")  # the boarders' turn: all hide, medium
        enc = app.session.encounter
        assert {enc.get(b).cover for b in BOARDERS} == {Cover.MEDIUM}
        assert all(enc.turn.used_by(b) == ("hide",) for b in BOARDERS)
        await _keys(pilot, "z")
        labels = [o.label for o in app.screen.options]
        assert labels[3].startswith("✗ all 3 hide in heavy cover (1 action each) — ")
        assert labels[3].endswith("already took hide this turn: no action twice (R-ACT-1)")
        await _keys(pilot, "3")
        assert {app.session.encounter.get(b).cover for b in BOARDERS} == {Cover.MEDIUM}
        await _keys(pilot, "z", "b")  # Move + Run to the ridge takes 2: refused, one left
        assert {app.session.encounter.get(b).zone for b in BOARDERS} == {"dig pit"}
        await _keys(pilot, "u")  # one undo step takes the whole group out of cover again
        assert {app.session.encounter.get(b).cover for b in BOARDERS} == {Cover.NONE}


async def test_r_act_2_a_group_move_out_of_turn_is_marked_before_the_pick() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)  # Kestrel's turn: the boarders cannot move now
        await _keys(pilot, *["down"] * 9, "z")
        labels = [o.label for o in app.screen.options]
        assert all(label.startswith("✗ all 3 to") for label in labels[4:])


async def test_builder_g_puts_the_whole_raider_group_in_one_cover_or_zone() -> None:
    app = _builder_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _open(pilot)
        _set_up_dig_site(app)
        await pilot.pause()
        await _keys(pilot, "right")  # the encounter list
        app.screen.query_one(EncounterList).picked = "pirate-raider-3"
        await _keys(pilot, "g", "3")  # all three raiders in heavy cover
        raiders = [c for c in app.session.encounter.combatants if c.entry == "pirate-raider"]
        assert {c.cover for c in raiders} == {Cover.HEAVY}
        await _keys(pilot, "u")
        assert app.session.encounter.get("pirate-raider-1").cover is Cover.NONE
        await _keys(pilot, "g", "b")  # all three to the dig pit (a: ruins, b: dig pit)
        raiders = [c for c in app.session.encounter.combatants if c.entry == "pirate-raider"]
        assert {c.zone for c in raiders} == {"dig pit"}
        assert app.session.log[-1].step == "setup"


async def test_r_act_2_placing_is_for_the_set_up_a_fight_moves() -> None:
    import pytest

    from hsm_tui.campaign.combat import Place
    from hsm_tui.rules import RulesError

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        before = app.session.encounter
        with pytest.raises(RulesError, match="the fight is on: Kestrel Vance moves"):
            app.session.apply(Place("kestrel-vance-1", "ridge"))
        assert app.session.encounter == before


async def test_builder_g_during_the_fight_marks_the_zones_before_the_pick() -> None:
    """F7 while the fight is on: cover still goes for the whole group, a zone shows the
    engine's ✗ (a Move takes a combatant there) instead of being refused after the pick.
    """
    from hsm_tui.table.seat_choices import place_options

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        enc = app.session.encounter
        labels = [o.label for o in place_options(enc, enc.get("pirate-boarder-1"))]
        assert labels == [
            f"✗ all 3 to {zone} — the fight is on: Pirate boarder 1 moves (m) to another"
            " zone (R-ACT-2)"
            for zone in ("ruins", "ridge")
        ]
