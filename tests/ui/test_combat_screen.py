"""The combat screen driven through the real app with Pilot, keys only (R-COMBAT-1).

Seed 7 with the shipped dig-site ambush: Kestrel Vance acts first, then Captain Roan
Maddox, then the Pirate boarders; every die below follows from that seed.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from hsm_tui.campaign.combat import PendingCombatRerolls, PendingDive
from hsm_tui.rules import Cover, Rank
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.board_dialog import BoardScreen
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.help import HelpScreen
from hsm_tui.ui.screens.reroll_dialog import RerollDialog

SEED = 7
BOARDER = "pirate-boarder-1"


def _app() -> HsmApp:
    return HsmApp(Session(seed=SEED))


async def _keys(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


async def _fight(pilot: Pilot) -> CombatScreen:
    """F4, load the example encounter, start combat (initiative rolled)."""
    await _keys(pilot, "f4", "L", "s")
    screen = pilot.app.screen
    assert isinstance(screen, CombatScreen)
    return screen


def _panel(app: HsmApp) -> str:
    return str(app.screen.query_one("#combat-attack").render())


def _errors(app: HsmApp) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "error"]


async def _to_boarders_turn(pilot: Pilot) -> None:
    """Kestrel shoots boarder 1 (keeps the roll, boarder 1 alone dives: the unit, Shaken
    by the Fear it shares, keeps one action each), Roan runs to the ruins.
    """
    await _keys(pilot, "a", "enter", "k", "l", "n", "M", "1", "n")


async def test_r_init_1_start_rolls_initiative_and_selects_the_actor() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        enc = app.session.encounter
        assert enc.active and enc.round == 1
        assert screen.selected == "kestrel-vance-1" == enc.turn.actor
        order = str(screen.query_one("#combat-initiative").render())
        assert "▶14 Kestrel Vance" in order and "Pirate raider ×5" in order
        assert screen.query_one("#combat-initiative").border_title == "Round 1"


async def test_r_atk_2_attack_panel_previews_exact_odds_then_rolls() -> None:
    """R-ATK-2/6: `a` aims at the nearest enemy with the first weapon, odds shown live."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a")
        assert screen.draft is not None and screen.draft.target == BOARDER
        text = _panel(app)
        assert "Assault Laser (rifles, 5 d10) at Pirate boarder 1, short range" in text
        assert "TN Rifles 8 = 8" in text and "≥1 through 96.2%" in text
        await _keys(pilot, "w")  # laser pistol
        assert "Laser Pistol" in _panel(app)
        await _keys(pilot, "w")  # dagger: melee needs the same zone
        assert "✗ cannot attack" in _panel(app) and "melee needs the same zone" in _panel(app)
        await _keys(pilot, "w", "right")
        assert screen.draft.target == "pirate-boarder-2"
        await _keys(pilot, "escape")
        assert screen.draft is None and app.session.encounter.turn.used == ()


async def test_r_atk_5_whole_round_by_keys_then_undo() -> None:
    """A round by keys only: attack (R-ATK-2), re-roll choice (R-TASK-6), dive (R-ATK-5),
    Move+Run (R-ACT-2), a minion attack in two keys, end turns; `u` restores the state.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a", "enter")
        assert isinstance(app.session.pending, PendingCombatRerolls)
        assert isinstance(app.screen, RerollDialog)
        await _keys(pilot, "k")  # keep the roll: the dive question follows
        assert isinstance(app.session.pending, PendingDive)
        await _keys(pilot, "l")  # boarder 1 alone dives into light cover (R-ATK-5)
        for member in (BOARDER, "pirate-boarder-2", "pirate-boarder-3"):
            boarder = app.session.encounter.get(member)
            dived = boarder.cover is Cover.LIGHT and boarder.prone and boarder.lose_actions == 1
            assert dived == (member == BOARDER)
        assert "Dive for cover" in [e.title for e in app.session.log]
        await _keys(pilot, "n", "M", "1")  # Roan: Move+Run to the ruins (one band)
        assert app.session.encounter.get("roan-maddox-1").zone == "ruins"
        await _keys(pilot, "n")
        assert screen.selected == BOARDER  # the group's first member is selected
        await _keys(pilot, "down")  # boarder 1, Shaken and dived, has no action left
        before = app.session.encounter
        await _keys(pilot, "a", "enter")  # minion attacks its nearest enemy: 2 keys
        assert app.session.encounter.turn.used_by("pirate-boarder-2") == ("attack",)
        assert isinstance(app.screen, DecisionDialog)  # Tamsin is hit in the open
        await _keys(pilot, "n")  # stays put: Defense and damage follow
        assert app.session.pending is None
        assert app.session.log[-1].title == "Tamsin Reyes, veteran guide defends"
        assert screen.selected == "pirate-boarder-3"  # next member who has not attacked
        await _keys(pilot, "u")  # the answer first: the dive question is back
        assert isinstance(app.session.pending, PendingDive)
        assert isinstance(app.screen, CombatScreen) and "Waiting" in _panel(app)
        await _keys(pilot, "u")  # then the attack itself, dice included
        assert app.session.encounter == before and app.session.pending is None
        await _keys(pilot, "y", "y")
        assert app.session.log[-1].title == "Tamsin Reyes, veteran guide defends"
        while app.session.encounter.round == 1:
            await _keys(pilot, "n")
            while isinstance(app.screen, DecisionDialog | RerollDialog):
                await _keys(pilot, "enter")
        assert app.session.encounter.round == 2
        assert screen.selected == app.session.encounter.turn.actor == "kestrel-vance-1"


async def test_r_atk_2_group_attack_is_one_batch_and_one_undo() -> None:
    """`g`: every boarder still able attacks the target as one Batch; its answers are the
    only other undo steps.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _to_boarders_turn(pilot)
        before = app.session.encounter
        await _keys(pilot, "g")
        answers = 0
        while isinstance(app.screen, DecisionDialog | RerollDialog):
            await _keys(pilot, "n" if isinstance(app.session.pending, PendingDive) else "enter")
            answers += 1
        turn = app.session.encounter.turn
        members = app.session.encounter.members(turn.actor)
        assert len(members) == 3  # boarder 1, Shaken and dived, has no action left
        assert [turn.used_by(m.id) for m in members] == [(), ("attack",), ("attack",)]
        titles = [e.title for e in app.session.log]
        assert sum(t.startswith("Pirate boarder") and "attacks" in t for t in titles) == 2
        await _keys(pilot, *["u"] * (answers + 1))
        assert app.session.encounter == before


async def test_refused_command_notifies_and_changes_nothing() -> None:
    """R-ACT-6 standing up needs Prone; R-ACT-1 no action twice: a second move in the
    turn is refused. Each refusal changes nothing.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        before, log = app.session.encounter, app.session.log
        await _keys(pilot, "p")
        assert "is not Prone" in _errors(app)[-1]
        assert app.session.encounter == before and app.session.log == log
        await _keys(pilot, "m", "1")  # Move + Run to the dig pit: both actions spent
        before, log = app.session.encounter, app.session.log
        await _keys(pilot, "m", "1")
        assert isinstance(app.screen, CombatScreen)
        errors = _errors(app)
        assert len(errors) == 1  # one refusal at a time: a stack of them hid the screen
        assert "no action twice (R-ACT-1)" in errors[0]
        assert app.session.encounter == before and app.session.log == log


async def test_r_act_3_declare_extra_actions_then_undo() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        before = app.session.encounter
        await _keys(pilot, "x")  # asks how many: 2 to 5
        assert isinstance(app.screen, DecisionDialog)
        assert [o.key for o in app.screen.options] == ["2", "3", "4", "5"]
        await _keys(pilot, "3")
        assert app.session.encounter.turn.declared == 3
        assert "●●●" in str(app.screen.query_one("#combat-initiative").render())
        await _keys(pilot, "u")
        assert app.session.encounter == before


async def test_r_act_2_single_key_actions_and_end_combat() -> None:
    """d Dodge, i Aim (R-ACT-2); l refuses without a reloadable weapon (R-ACT-5);
    E asks, then ends combat (R-COMBAT-1); s starts anew, the Sidekick still playing by
    the rules chosen for the encounter (R-CHAR-8).
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "d", "i")
        enc = app.session.encounter
        assert enc.turn.used_by("kestrel-vance-1") == ("dodge", "aim")
        assert "dodging" in enc.get("kestrel-vance-1").conditions
        await _keys(pilot, "l")
        assert app.session.encounter == enc
        await _keys(pilot, "E")
        assert isinstance(app.screen, DecisionDialog)
        assert "round 1? Still standing: expedition 4, pirates 8." in app.screen.question
        await _keys(pilot, "escape")  # Esc keeps the fight going
        assert app.session.encounter.active
        await _keys(pilot, "E", "y")
        assert not app.session.encounter.active
        assert "Not in combat" in str(app.screen.query_one("#combat-initiative").render())
        await _keys(pilot, "s")  # R-CHAR-8: the Sidekick keeps its rules all encounter
        assert app.session.encounter.active
        assert app.session.encounter.get("veteran-guide-1").plays_as is Rank.MINION


async def test_r_atk_5_escape_keeps_the_decision_and_o_reopens_it() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "a", "enter", "escape")
        assert isinstance(app.screen, CombatScreen)
        pending = app.session.pending
        assert isinstance(pending, PendingCombatRerolls)
        assert "Waiting" in _panel(app)
        await _keys(pilot, "n")  # no other command while the decision waits
        assert app.session.pending == pending
        assert any(
            "answer the pending question first" in e and e.endswith("(F4, then o answers it)")
            for e in _errors(app)
        )
        await _keys(pilot, "o")
        assert isinstance(app.screen, RerollDialog)
        await _keys(pilot, "1", "down", "0", "enter")  # 1 d10 re-roll, Hero die kept
        assert app.session.encounter.get("kestrel-vance-1").luck == 1
        assert isinstance(app.session.pending, PendingDive)


async def test_cover_cycles_and_move_picker_lists_bands() -> None:
    """R-ATK-6 cover on `c`; the zone picker names the band to each zone (R-COMBAT-2)."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "c")
        assert app.session.encounter.get("kestrel-vance-1").cover is Cover.MEDIUM
        await _keys(pilot, "M")
        dialog = app.screen
        assert isinstance(dialog, DecisionDialog)
        assert [o.label for o in dialog.options] == [
            "dig pit (short)",
            "ridge (medium): close in one band, Move + Run",  # R-ACT-2: a band nearer
        ]
        await _keys(pilot, "escape")
        assert app.session.encounter.get("kestrel-vance-1").zone == "ruins"


async def test_f1_help_lists_keys_and_quick_reference() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        assert "Fighting styles" in app.screen.screen_help
        assert "group attack" in app.screen.screen_help


async def test_every_combat_key_is_in_the_command_palette() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "ctrl+p")
        await pilot.press(*"end turn")
        await pilot.pause(0.3)
        await _keys(pilot, "enter")
        await pilot.pause()
        assert app.session.encounter.turn.actor == "roan-maddox-1"


async def test_empty_screen_explains_how_to_begin() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4")
        assert "L loads the example" in _panel(app)
        assert "F7 builds your own" in _panel(app) and "(heroes: F8)" in _panel(app)
        await _keys(pilot, "a", "n")
        assert app.session.encounter.combatants == ()


async def _mid_fight(pilot: Pilot) -> None:
    await _fight(pilot)
    await _to_boarders_turn(pilot)
    await _keys(pilot, "down", "a")  # boarder 2 aims (boarder 1, Shaken and dived, cannot)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_combat_mid_fight(snap_compare, size) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_mid_fight)


def test_snapshot_decision_dialog(snap_compare) -> None:
    async def dive(pilot: Pilot) -> None:
        await _mid_fight(pilot)
        await _keys(pilot, "enter")

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=dive)


async def test_a_long_table_folds_other_rows_around_the_selected_one() -> None:
    """40 combatants at 80×24: ↑ from the first row selects the last, which shows on the
    bottom line under the header; the rows left out fold into one ``⋯ N more`` line.
    """
    from hsm_tui.campaign.combat import AddCombatants, AddZone
    from hsm_tui.ui.widgets.combatants import CombatantTable

    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddZone("hold"))
    session.apply(AddCombatants("minion", "pirate-raider", "pirates", "hold", count=40))
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4", "down")
        table = app.screen.query_one(CombatantTable)
        rows_shown = table.scrollable_content_region.height - 1
        assert table.shown_ids[:2] == [c.id for c in session.encounter.combatants[:2]]
        await _keys(pilot, "up", "up")  # to the first, then round to the last
        last = session.encounter.combatants[-1]
        assert str(table.get_cell(last.id, "Name")).startswith("▸")
        assert table.scroll_offset.y == 0 and table.shown_ids[-1] == last.id
        assert str(table.render_line(0).text).startswith("Name")
        assert "⋯ 29 more" in table.render_line(1).text
        assert "▸" in table.render_line(rows_shown).text  # the bottom line


async def test_r_act_3_declaring_actions_outside_combat_says_how_to_start() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4", "L", "x")  # the encounter is loaded, combat not started
        assert isinstance(app.screen, CombatScreen)
        assert any("s starts combat" in n.message for n in app._notifications)


async def test_r_combat_2_b_shows_zones_and_bands_at_80_columns() -> None:
    """R-COMBAT-2: at 80×24 the side board is hidden; `b` shows zones, who is in each and
    every band, and Esc goes back to the fight.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        assert not screen.query_one("#combat-range").display
        await _keys(pilot, "b")
        board = app.screen
        assert isinstance(board, BoardScreen)
        text = str(board.query_one("#board").render())
        enc = app.session.encounter
        for zone in enc.zones:
            assert zone in text
        a, b, band = enc.bands[0]
        assert f"{a} ↔ {b}" in text and band.label in text
        await _keys(pilot, "escape")
        assert app.screen is screen


async def test_r_atk_2_enter_at_a_turn_start_aims_then_rolls() -> None:
    """The key bar calls Enter "Roll": with nothing aimed it aims (as a), then rolls."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "enter")
        assert screen.draft is not None and app.session.pending is None
        await _keys(pilot, "enter")
        assert isinstance(app.session.pending, PendingCombatRerolls)  # rolled: re-rolls asked


async def test_e_with_a_question_waiting_says_so_instead_of_asking() -> None:
    app = _app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _fight(pilot)
        await _keys(pilot, "a", "enter", "escape", "E")
        assert isinstance(app.screen, CombatScreen)  # no "end combat?" offer to refuse
        assert "answer the pending question first" in _errors(app)[-1]


async def test_r_task_6_the_gms_dialog_closes_when_its_question_is_answered_elsewhere() -> None:
    """A player (or undo) answered the question the GM's dialog shows: the dialog closes,
    and the GM's next key answers neither it nor the question that follows (R-ATK-5)."""
    from hsm_tui.campaign.combat import SpendCombatRerolls

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "a", "enter")
        asked = app.session.pending
        assert isinstance(app.screen, RerollDialog) and app.screen.answers is asked
        app.session.apply(SpendCombatRerolls(0, 0), answering=asked)  # kept, at another seat
        await pilot.pause()
        assert isinstance(app.screen, CombatScreen)
        assert any("no longer waits" in n.message for n in app._notifications)
        dive = app.session.pending
        assert isinstance(dive, PendingDive)
        await _keys(pilot, "1")
        assert app.session.pending is dive
