"""Every engine option from the combat screen's keyboard, through the real app (Pilot).

Seed 7 with the shipped dig-site ambush (``L``): Kestrel Vance (a Hero with an Assault
Laser, Suppression 10/d8) acts first; Pirate boarder 1 is her nearest enemy.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from hsm_tui.campaign.combat import (
    ACTIONS,
    AddCombatants,
    Attack,
    PendingCombatRerolls,
    SetCondition,
    Suppress,
    plan_suppress,
)
from hsm_tui.rules import Cover
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.conditions_dialog import ConditionsDialog
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.help import HelpScreen
from hsm_tui.ui.screens.sheet import SheetScreen
from hsm_tui.ui.screens.suppress_dialog import SuppressDialog
from tests.ui.test_combat_screen import BOARDER, _app, _fight, _keys

KESTREL = "kestrel-vance-1"


def _text(app: HsmApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


def _errors(app: HsmApp) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "error"]


async def test_r_atk_10_called_shot_at_the_head_shows_in_the_tn_and_rolls() -> None:
    """`k` twice: a called shot at the head, −3 ranged in the TN; Enter rolls it."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a", "k")
        assert "TN Rifles 8 − called shot 3 = 5" in _text(app, "#combat-attack")
        await _keys(pilot, "k")
        assert screen.draft is not None
        assert screen.draft.command() == Attack(
            KESTREL, BOARDER, "assault-laser", called_shot=True, location="head"
        )
        panel = _text(app, "#combat-attack")
        assert "Options: called shot: head" in panel and "called shot 3 = 5" in panel
        await _keys(pilot, "enter")
        assert isinstance(app.session.pending, PendingCombatRerolls)
        entry = next(
            e for e in app.session.log if e.title == "Kestrel Vance attacks Pirate boarder 1"
        )
        assert "TN Rifles 8 − called shot 3 = 5" in entry.gm_lines
        assert app.session.encounter.turn.used_by(KESTREL) == ("attack",)


async def test_r_atk_10_k_cycles_called_shot_locations_back_to_none() -> None:
    """Each step of `k` says on the panel what it is: the first, at no named location, is
    a called shot at another spot (the penalty alone, the GM rules the hit)."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a")
        seen = []
        for _ in range(4):
            await _keys(pilot, "k")
            options = _text(app, "#combat-attack").splitlines()[0]
            seen.append((screen.draft.called_shot, screen.draft.location, options))
        assert [s[:2] for s in seen] == [(True, ""), (True, "head"), (True, "limb"), (False, "")]
        assert "called shot: other spot (GM's call)" in seen[0][2]
        assert "called shot: head (+d8 damage)" in seen[1][2]
        assert "called shot: limb (Stamina roll)" in seen[2][2]
        assert "called shot" not in seen[3][2]


async def test_r_atk_2_modifier_shots_and_rerolls_reach_the_command() -> None:
    """± modifier in the TN (R-ATK-2), fewer shots save charges (R-ATK-3), free re-rolls
    granted (R-TASK-6): each key changes the previewed attack, Enter sends them all.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a", "plus", "plus", "minus", "left_square_bracket")
        await _keys(pilot, "left_square_bracket", "e", "e")
        panel = _text(app, "#combat-attack")
        assert "+1 · 3/5 shots · 2 free re-roll(s)" in panel
        assert "Assault Laser (rifles, 3 d10)" in panel and "= 9" in panel
        await _keys(pilot, "right_square_bracket", "right_square_bracket", "right_square_bracket")
        assert screen.draft.shots is None  # back to the full rate of fire, no further
        await _keys(pilot, "left_square_bracket")
        assert screen.draft.command() == Attack(
            KESTREL, BOARDER, "assault-laser", modifier=1, shots=4, rerolls=2
        )
        await _keys(pilot, "enter")
        laser = app.session.encounter.get(KESTREL).weapon("assault-laser")
        assert laser.charges == 16  # 4 shots, 1 charge each


async def test_r_atk_1_style_throw_grapple_hand_and_reaction_keys() -> None:
    """`s` steps a melee weapon's style (R-ATK-1) and refuses for a gun; T, G, h, R set
    the throw (R-ATK-1), grapple (R-ATK-17), hand (R-ATK-11) and reaction options.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a", "s")
        assert screen.draft.style is None and app.session.encounter.active
        await _keys(pilot, "w", "w", "s")  # the dagger: its agile → wild
        assert screen.draft.weapon == "dagger" and screen.draft.style == "wild"
        await _keys(pilot, "s")
        panel = _text(app, "#combat-attack")  # no enemy in her zone: melee is refused
        assert "Options: power" in panel and "melee needs the same zone" in panel
        await _keys(pilot, "s")
        assert screen.draft.style == "agile"
        await _keys(pilot, "T")
        assert "Options: agile · throw" in _text(app, "#combat-attack")
        await _keys(pilot, "T", "G", "h", "R")
        draft = screen.draft
        assert (draft.grapple, draft.hand, draft.reaction, draft.style) == (
            True,
            "main",
            "standby",
            None,
        )
        assert "✗ cannot attack" in _text(app, "#combat-attack")


async def test_refused_options_show_in_the_panel_notify_and_change_nothing() -> None:
    """R-ATK-10: a Minion's called shot is refused in the panel and on Enter; R-CHAR-9:
    pools for a Minion are refused; nothing changes in the encounter or the log.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, *["down"] * 4)  # Pirate raider 1
        assert screen.selected == "pirate-raider-1"
        before, log = app.session.encounter, app.session.log
        await _keys(pilot, "a", "k")
        assert "called shots are for Heroes (R-ATK-10)" in _text(app, "#combat-attack")
        await _keys(pilot, "enter")
        assert any("called shots are for Heroes" in e for e in _errors(app))
        await _keys(pilot, "escape", "P")  # a Minion has no pools: no editor opens
        assert isinstance(app.screen, CombatScreen)
        assert any("no Luck or Clues (R-CHAR-9)" in e for e in _errors(app))
        assert app.session.encounter == before and app.session.log == log


async def test_r_atk_16_suppressive_fire_through_the_modal() -> None:
    """`S`: tick two boarders, the second dives (R-ATK-5); Enter fires Suppress."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "S")
        dialog = app.screen
        assert isinstance(dialog, SuppressDialog)
        assert dialog.most == 10 and dialog.weapon == "assault-laser"
        first = dialog.candidates[0]
        assert (first.id, first.band, first.cover, first.in_range) == (
            BOARDER,
            "short",
            "open",
            True,
        )
        await _keys(pilot, "enter")  # nothing ticked yet: stays open
        assert app.screen is dialog
        await _keys(pilot, "space", "down", "v")
        assert dialog.ticked == [BOARDER, "pirate-boarder-2"]
        cone = Suppress(KESTREL, "assault-laser", dialog.ticked, ("pirate-boarder-2",))
        plan = plan_suppress(app.session.encounter, cone, app.session.catalog)
        shown = str(dialog.query_one("#suppress-plan").render()).splitlines()
        assert shown[0] == plan.preview()[-1]  # ≥1 target hit, exact, first
        assert shown[1:] == list(plan.preview()[1:-1])  # each target, then the Fear
        assert any("dives" in line for line in shown)
        await _keys(pilot, "enter")
        assert isinstance(app.screen, (CombatScreen, DecisionDialog))
        enc = app.session.encounter
        assert enc.get(KESTREL).weapon("assault-laser").charges == 10
        assert KESTREL in enc.turn.suppressed
        diver = enc.get("pirate-boarder-2")
        assert diver.prone and diver.cover is Cover.LIGHT
        assert any(
            e.title == "Kestrel Vance lays down suppressive fire (R-ATK-16)"
            for e in app.session.log
        )


async def test_suppress_dialog_returns_the_command() -> None:
    """The dialog only builds ``Suppress``: ticked order kept, divers among the ticked."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        answers: list[Suppress | None] = []
        nothing = Suppress(KESTREL, "assault-laser", ())
        plan = plan_suppress(app.session.encounter, nothing, app.session.catalog)
        dialog = SuppressDialog.from_plan(plan)
        assert dialog.ticked == [] and dialog.most == 10
        app.push_screen(dialog, answers.append)
        await pilot.pause()
        dialog.ticked = ["b", "a"]
        dialog.diving = {"a"}
        dialog.action_fire()
        await pilot.pause()
        assert answers == [Suppress(KESTREL, "assault-laser", ("b", "a"), ("a",))]


async def test_s8_conditions_modal_applies_one_batch_and_one_undo_reverts_it() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        before = app.session.encounter
        await _keys(pilot, "C")
        assert isinstance(app.screen, ConditionsDialog)
        await _keys(pilot, "right", "down", "down", "down", "2")  # shaken on, dazed 2
        await _keys(pilot, *["down"] * 15, "right")  # prone
        assert "shaken 0→1, dazed 0→2, prone 0→1" in _text(app, "#conditions-changes")
        await _keys(pilot, "enter")
        kestrel = app.session.encounter.get(KESTREL)
        assert kestrel.conditions == ("dazed:2", "shaken") and kestrel.prone
        cell = app.screen.query_one("#combat-table").get_cell(KESTREL, "Cond.")
        assert str(cell).strip() == "Shk+2"  # Shaken first, then 2 more (prone among them)
        await _keys(pilot, "u")
        assert app.session.encounter == before


async def test_r_char_9_pools_modal_sets_luck_and_clues() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "P", "right", "right", "down", "right", "enter")
        kestrel = app.session.encounter.get(KESTREL)
        assert (kestrel.luck, kestrel.clues) == (4, 1)


async def test_sheet_shows_live_values() -> None:
    """`v`: traits, ratings, weapons with charges, wounds, Fear vs Morale, conditions with
    their §8 text, pools; it follows the session while open; ↓ pages to the next one,
    and a Sidekick shows both rule sets with the one it plays (R-CHAR-8).
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "a", "left_square_bracket", "enter", "k", "n")  # 4 shots fired
        await _keys(pilot, "v")
        sheet = app.screen
        assert isinstance(sheet, SheetScreen)
        left, right = _text(app, "#sheet-left"), _text(app, "#sheet-right")
        assert "Kestrel Vance — Hero · expedition" in _text(app, "#sheet-title")
        assert "Rifles 8" in _text(app, "#sheet-traits")
        assert "Morale 4" in left and "Fear 0 vs Morale 4" in left and "Luck 2" in left
        assert "Assault Laser 16/20" in right and "suppression 10/d8" in right
        app.session.apply(SetCondition(KESTREL, "shaken"))  # another view's change
        await pilot.pause()
        assert "shaken: loses 1 action" in _text(app, "#sheet-right")
        await _keys(pilot, "down", "down", "down")
        assert "Tamsin Reyes" in _text(app, "#sheet-title")
        right = _text(app, "#sheet-right")
        assert "▸ as a minion (this encounter)" in right and "as a hero" in right
        await _keys(pilot, "escape")
        assert isinstance(app.screen, CombatScreen)


async def test_r_act_2_action_menu_lists_every_action_and_asks_the_weapon() -> None:
    """`A`: every TakeAction action with its cost; draw asks which weapon (R-ACT-5)."""
    assert all(kind.hint for kind in ACTIONS.values())
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "A")
        menu = app.screen
        assert isinstance(menu, DecisionDialog)
        assert [o.command.action for o in menu.options] == list(ACTIONS)
        await _keys(pilot, "6")  # standby
        assert "standby" in app.session.encounter.get(KESTREL).conditions
        await _keys(pilot, "A", "a")  # draw → which weapon?
        assert isinstance(app.screen, DecisionDialog)
        assert [o.label for o in app.screen.options] == ["Assault Laser", "Laser Pistol", "Dagger"]
        await _keys(pilot, "2")
        assert app.session.encounter.turn.used_by(KESTREL) == ("standby", "draw")
        assert app.session.log[-1].title == "Kestrel Vance draws Laser Pistol (R-ACT-5)"


async def test_help_and_palette_list_the_new_keys() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        for words in ("Attack options", "suppressive fire", "conditions (§8)", "character sheet"):
            assert words in app.screen.screen_help
        await _keys(pilot, "escape", "ctrl+p")
        await pilot.press(*"suppressive")
        await pilot.pause(0.3)
        await _keys(pilot, "enter")
        await pilot.pause()
        assert isinstance(app.screen, SuppressDialog)


async def _aim_with_options(pilot: Pilot) -> None:
    await _fight(pilot)
    await _keys(pilot, "a", "k", "k", "plus", "left_square_bracket", "e")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_attack_panel_with_options(snap_compare, size) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_aim_with_options)


def test_snapshot_suppress_modal(snap_compare) -> None:
    async def suppress(pilot: Pilot) -> None:
        await _fight(pilot)
        await _keys(pilot, "S", "space", "down", "v")

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=suppress)


def test_snapshot_conditions_modal(snap_compare) -> None:
    async def conditions(pilot: Pilot) -> None:
        await _fight(pilot)
        await _keys(pilot, "C", "right", "down", "down", "down", "2")

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=conditions)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_sheet(snap_compare, size) -> None:
    async def sheet(pilot: Pilot) -> None:
        await _fight(pilot)
        await _keys(pilot, "a", "enter", "k", "1", "v")

    assert snap_compare(_app(), terminal_size=size, run_before=sheet)


async def test_r_other_5_a_fallen_foe_no_longer_reads_as_in_melee() -> None:
    """The engagement stays on record, but the sheet and the table's "melee" mark show
    only standing opponents: a taken-out Minion no longer fights (R-WOUND-2, R-OTHER-5).
    """
    from dataclasses import replace

    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        session = app.session
        for me, foe in ((KESTREL, BOARDER), (BOARDER, KESTREL)):
            c = session.encounter.get(me)
            session.encounter = session.encounter.with_combatant(replace(c, engaged=(foe,)))
        session._notify()  # a state set up directly: the views redraw as after a command
        await _keys(pilot, "v")
        assert "in melee with Pirate boarder 1" in _text(app, "#sheet-left")
        await _keys(pilot, "escape")
        table = app.screen.query_one("#combat-table")
        assert "Mel" in str(table.get_cell(KESTREL, "Cond."))  # in melee, 80 columns
        boarder = session.encounter.get(BOARDER)
        session.encounter = session.encounter.with_combatant(replace(boarder, out=True))
        session._notify()
        await _keys(pilot, "v")
        assert "in melee with" not in _text(app, "#sheet-left")
        await _keys(pilot, "escape")
        assert "Mel" not in str(table.get_cell(KESTREL, "Cond."))


async def test_r_atk_5_the_sheet_names_why_actions_will_be_lost() -> None:
    """A boarder who dived for cover loses an action next turn; the sheet says why."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a", "enter", "k", "1")  # Kestrel fires; boarder 1 dives
        assert app.session.encounter.get(BOARDER).lose_why == ("dive",)
        while screen.selected != BOARDER:
            await _keys(pilot, "down")
        await _keys(pilot, "v")
        assert "next turn — dived for cover: −1 action (R-ATK-5)" in _text(app, "#sheet-left")


@pytest.mark.parametrize("size", [(104, 30), (120, 40)])
async def test_the_wide_table_fits_its_panel_with_every_column(size) -> None:
    """The table cannot take focus, so it never scrolls sideways: long names and
    conditions (§8) are shortened until every column, Chg last, is in view; a column
    too narrow for its text shortens it by meaning (issue 19 #8), not by an ellipsis.
    """
    from hsm_tui.ui.widgets.combatants import CombatantTable

    app = _app()
    async with app.run_test(size=size) as pilot:
        await _fight(pilot)
        for condition in ("pinned", "shaken", "stunned"):
            app.session.apply(SetCondition(KESTREL, condition))
        await pilot.pause()
        table = app.screen.query_one(CombatantTable)
        room = table.scrollable_content_region.width
        assert table.virtual_size.width <= room
        assert table.render_line(0).text.rstrip().endswith("Chg")
        marks = str(table.get_cell(KESTREL, "Cond.")).strip()  # shortened, the gravest first
        assert marks in ("pinned, shaken, stunned", "pinned, Shk, Stn", "Pin, Shk, Stn")


async def test_r_char_8_ticking_an_undecided_sidekick_says_decide_first() -> None:
    """A Sidekick who joined mid-fight has no rules yet: ticking it in the cone shows the
    engine's refusal under the list instead of odds (it crashed the app before).
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        app.session.apply(AddCombatants("sidekick", "cult-defector", "pirates", "dig pit"))
        await _keys(pilot, "S")
        dialog = app.screen
        assert isinstance(dialog, SuppressDialog)
        while dialog.candidates[dialog.query_one("#suppress-targets").highlighted].name != (
            "Ansel Morrow, cult defector"
        ):
            await _keys(pilot, "down")
        await _keys(pilot, "space")
        shown = str(dialog.query_one("#suppress-plan").render())
        assert shown.startswith("cannot fire: Ansel Morrow, cult defector: decide first")
        await _keys(pilot, "v")  # diving needs no rules: the odds are back
        assert "≥1 target hit" in str(dialog.query_one("#suppress-plan").render())


async def test_r_act_2_hide_asks_into_which_cover_and_sets_it() -> None:
    """Issue 19 #4: Hide logged "the GM places it in cover" and left the cover at none;
    now `A`, hide asks light, medium or heavy and the engine sets it (R-ATK-6).
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "A", "8")  # hide
        assert isinstance(app.screen, DecisionDialog)
        assert [o.label for o in app.screen.options] == [
            "light (+1 Defense)",
            "medium (+2 Defense)",
            "heavy (+3 Defense)",
        ]
        await _keys(pilot, "2")
        kestrel = app.session.encounter.get(KESTREL)
        assert kestrel.cover is Cover.MEDIUM
        assert app.session.log[-1].title == (
            "Kestrel Vance hides in medium cover (R-ACT-2, R-ATK-6 +2 Defense)"
        )


async def test_r_atk_12_b_swings_the_aimed_gun_as_a_club() -> None:
    """R-ATK-12: "The gun, however, can be used as a club" — B while aiming; the panel
    names it and the engine's plan refuses the blow at a target in another zone.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a", "B")
        assert screen.draft.club
        panel = _text(app, "#combat-attack")
        assert "Options: as a club" in panel and "melee needs the same zone" in panel
        await _keys(pilot, "B")
        assert not screen.draft.club


async def test_r_atk_11_the_off_hand_aims_another_weapon_than_the_main_hand_fired() -> None:
    """R-ATK-11: after the Laser Pistol fired from the main hand, `a` aims the off hand
    with another one-handed weapon; the pistol again is shown refused with the engine's
    reason, and Enter fires nothing.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a", "w", "h")
        assert (screen.draft.weapon, screen.draft.hand) == ("laser-pistol", "main")
        await _keys(pilot, "enter", "k", "n")  # keep the roll, no dive
        pistol = app.session.encounter.get(KESTREL).weapon("laser-pistol").charges
        await _keys(pilot, "a")
        assert (screen.draft.weapon, screen.draft.hand) == ("assault-laser", "off")
        assert "TN Rifles 8 − off hand 3 = 5" in _text(app, "#combat-attack")
        await _keys(pilot, "w")
        assert screen.draft.weapon == "laser-pistol"
        assert "✗ cannot attack: Laser Pistol attacked this turn" in _text(app, "#combat-attack")
        await _keys(pilot, "enter")
        assert app.session.encounter.get(KESTREL).weapon("laser-pistol").charges == pistol
        await _keys(pilot, "h", "h", "h")  # round to the off hand: a weapon it may use
        assert (screen.draft.weapon, screen.draft.hand) == ("assault-laser", "off")


async def test_r_act_5_the_action_menu_marks_what_the_engine_refuses_before_the_pick() -> None:
    """`A`: Kestrel carries nothing that reloads: reload is ✗ with the engine's reason, and
    so is each of her weapons; picking one anyway is refused with the same words and
    spends nothing (R-ACT-5). With 1 action left, Full defense (2 actions) is ✗ too.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "A")
        labels = {o.command.action: o.label for o in app.screen.options}
        assert labels["reload"].startswith("✗ reload (2 actions)")
        assert "Assault Laser is not reloaded" in labels["reload"]
        assert labels["aim"] == "aim (1 action): a free re-roll on a later attack this turn"
        await _keys(pilot, "4")  # reload → which weapon? each marked
        weapons = [o.label for o in app.screen.options]
        assert weapons[2] == "✗ Dagger — Dagger is not reloaded: it holds no charges"
        await _keys(pilot, "1")
        assert _errors(app)[-1].endswith(
            "Assault Laser is not reloaded: it regains 1 charge each turn it does not fire"
            " (R-ATK-3)"
        )
        assert app.session.encounter.turn.used_by(KESTREL) == ()
        await _keys(pilot, "A", "1")  # aim
        await _keys(pilot, "A")
        labels = {o.command.action: o.label for o in app.screen.options}
        assert labels["full-defense"].startswith("✗ full-defense (2 actions)")
        assert "has only 1 left" in labels["full-defense"]


async def test_s7_row_6_the_sheet_shows_destroyed_gear_and_d_is_the_gms_pick() -> None:
    """§7 Equipment destroyed by the GM's hand from the sheet (`v`, `D`): the weapon
    reads DESTROYED and is refused, an item shows under Equipment destroyed; `u` mends.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "v", "D")
        labels = [o.label for o in app.screen.options]
        assert labels[:2] == [
            "Assault Laser: works — destroy it",
            "Laser Pistol: works — destroy it",
        ]
        await _keys(pilot, "2")
        assert isinstance(app.screen, SheetScreen)
        assert "Laser Pistol 10/10 DESTROYED (§7)" in _text(app, "#sheet-right")
        await _keys(pilot, "D", "4")  # the armoured vest
        assert "Armoured vest: no longer works" in _text(app, "#sheet-right")
        await _keys(pilot, "D")
        assert app.screen.options[1].label == "Laser Pistol: destroyed — mend it"
        await _keys(pilot, "escape", "escape", "u")
        assert app.session.encounter.get(KESTREL).destroyed == ("laser-pistol",)
        await _keys(pilot, "a", "w")
        assert "✗ cannot attack: Laser Pistol was destroyed" in _text(app, "#combat-attack")
