"""What a new GM met on the combat screen, by keys through the real app (Pilot): a weapon
short of charges (R-ATK-2/3), moving between zones (R-ACT-2), the suppressive fire
dialog's odds (R-ATK-16), re-rolling the Hero die (R-TASK-6) and the small dead ends.

Seed 7 with the shipped dig-site ambush, as in test_combat_screen.py: Kestrel Vance (a
Hero with an Assault Laser and a Laser Pistol, Agility 3) acts first, in the ruins.
"""

from __future__ import annotations

from dataclasses import replace

from hsm_tui.campaign.combat import (
    AddZone,
    CloseIn,
    EndTurn,
    Move,
    PendingCombatRerolls,
    PendingDive,
    SetBand,
    Suppress,
    TakeAction,
    plan_suppress,
)
from hsm_tui.campaign.encounter import WeaponState
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.fear_dialog import FearDialog
from hsm_tui.ui.screens.reroll_dialog import RerollDialog
from hsm_tui.ui.screens.suppress_dialog import SuppressDialog
from hsm_tui.ui.widgets.keybar import KeyBar
from hsm_tui.ui.widgets.stepper import Stepper
from tests.ui.test_combat_screen import (
    BOARDER,
    _app,
    _errors,
    _fight,
    _keys,
    _panel,
    _to_boarders_turn,
)

KESTREL = "kestrel-vance-1"


def _arm(app: HsmApp, cid: str, weapon: str, charges: int) -> None:
    """Set one weapon's charges (a fight some turns on), or give the combatant it."""
    enc = app.session.encounter
    c = enc.get(cid)
    held = [w.id for w in c.weapons]
    if weapon in held:
        weapons = tuple(replace(w, charges=charges) if w.id == weapon else w for w in c.weapons)
    else:
        weapons = (*c.weapons, WeaponState(weapon, charges, 8, recharge=False))
    app.session.encounter = enc.with_combatant(replace(c, weapons=weapons))


def _keybar(app: HsmApp) -> str:
    return str(app.screen.query_one(KeyBar).render())


# -- 1. a weapon short of charges (R-ATK-2/3) -----------------------------------------
async def test_r_atk_3_aim_starts_at_the_shots_the_charges_pay_for() -> None:
    """R-ATK-3: the Laser Pistol (1+Agility = 4 shots) with 2 charges aims 2 shots and
    rolls; `]` past the charges is refused in the panel and `[` (refused before) fixes it.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        _arm(app, KESTREL, "laser-pistol", 2)
        await _keys(pilot, "a", "w")
        assert screen.draft is not None and screen.draft.shots == 2
        assert "2/4 shots" in _panel(app) and "Laser Pistol (pistols, 2 d10)" in _panel(app)
        await _keys(pilot, "right_square_bracket")
        panel = _panel(app)
        assert "✗ cannot attack: Laser Pistol has 2 charge(s), needs 3" in panel
        assert "[ fires fewer: up to 2 shot(s)" in panel
        await _keys(pilot, "left_square_bracket")
        assert screen.draft.shots == 2 and "✗" not in _panel(app)
        await _keys(pilot, "enter")
        assert app.session.encounter.get(KESTREL).weapon("laser-pistol").charges == 0


async def test_r_atk_3_an_empty_weapon_says_how_it_gets_charges_back() -> None:
    """R-ATK-3: an empty laser recharges 1 a turn it does not fire (no key does it
    sooner); R-ACT-5: an empty reloading gun names `l`, which reloads the aimed weapon.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        _arm(app, KESTREL, "assault-laser", 0)
        _arm(app, KESTREL, "boarding-scattergun", 0)
        await _keys(pilot, "a")
        panel = _panel(app)
        assert "✗ cannot attack: Assault Laser has 0 charge(s)" in panel
        assert "regains 1 charge at the end of each turn it does not fire" in panel
        assert "w picks another weapon" in panel and "l reloads" not in panel
        await _keys(pilot, "w", "w", "w")
        assert screen.draft.weapon == "boarding-scattergun"
        assert "l reloads it (2 actions) · w picks another weapon" in _panel(app)
        await _keys(pilot, "l")
        kestrel = app.session.encounter.get(KESTREL)
        assert kestrel.weapon("boarding-scattergun").charges == 8
        assert app.session.encounter.turn.used_by(KESTREL) == ("reload", "reload (second action)")


async def test_r_atk_3_group_attack_skips_an_empty_member_with_the_reason() -> None:
    """R-ATK-2/3: `g` with boarder 1's scattergun empty: the other two fire, boarder 1
    is skipped and the log says why (before, its refusal stopped the whole group).
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _to_boarders_turn(pilot)
        _arm(app, BOARDER, "boarding-scattergun", 0)
        await _keys(pilot, "g")
        while isinstance(app.screen, DecisionDialog | RerollDialog):
            await _keys(pilot, "n" if isinstance(app.session.pending, PendingDive) else "enter")
        turn = app.session.encounter.turn
        assert turn.used_by(BOARDER) == ()
        assert [turn.used_by(f"pirate-boarder-{n}") for n in (2, 3)] == [("attack",)] * 2
        name = app.session.encounter.get(BOARDER).name  # the member without charges
        skipped = next(e for e in app.session.log if e.title == f"Skipped: {name}")
        assert "Boarding Scattergun has 0 charge(s)" in skipped.lines[0]
        assert "reloading refills it" in skipped.lines[0]


# -- 2. moving between zones (R-ACT-2) ------------------------------------------------
async def test_r_act_2_move_lists_what_reaches_each_zone_and_goes_there() -> None:
    """R-ACT-2: `m` lists each zone with its band and what it takes; a zone at Short is a
    Move + Run (picked: both actions spent), at Melee one Move; at Medium it closes in.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        app.session.apply(AddZone("trench"))
        app.session.apply(SetBand("ruins", "trench", "melee"))
        await _keys(pilot, "m")
        dialog = app.screen
        assert isinstance(dialog, DecisionDialog)
        assert [o.label for o in dialog.options] == [
            "dig pit (short): Move + Run, 2 actions",
            "ridge (medium): close in one band, Move + Run",
            "trench (melee): Move, 1 action",
            "dig pit (short): halfway, Move, 1 action",
            "ridge (medium): halfway, Move, 1 action",
        ]
        assert dialog.options[0].command == Move(KESTREL, "dig pit", run=True)
        assert dialog.options[1].command == CloseIn(KESTREL, "ridge")
        await _keys(pilot, "3")
        assert app.session.encounter.get(KESTREL).zone == "trench"
        assert app.session.encounter.turn.used_by(KESTREL) == ("move",)
        await _keys(pilot, "m")  # what cannot be done now is marked before it is picked
        labels = [o.label for o in app.screen.options]
        assert labels[0] == (
            "✗ ruins (melee): not now: Kestrel Vance already took move this turn:"
            " no action twice (R-ACT-1)"
        )
        await _keys(pilot, "escape")
        await _keys(pilot, "n", "m", "1")  # Captain Roan Maddox, in the dig pit
        roan = app.session.encounter.get("roan-maddox-1")
        assert roan.zone == "ruins" and app.session.encounter.turn.used_by(roan.id) == (
            "move",
            "run",
        )
        assert not _errors(app)


async def test_r_act_2_with_one_action_left_a_move_goes_halfway_and_the_next_completes() -> None:
    """Issue 36 #11: a Hero with one action left still closes on a zone at Short: the
    lone Move goes halfway (a spot at the bands of the zone it left), and the next Move
    toward it, a turn later, gets there; the spot then goes.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        app.session.apply(TakeAction(KESTREL, "aim"))
        await _keys(pilot, "m")
        labels = [o.label for o in app.screen.options]
        assert labels[0].startswith("✗ dig pit (short): Move + Run needs 2 actions, only 1 left")
        assert labels[2] == "dig pit (short): halfway, Move, 1 action"
        await _keys(pilot, "3")
        spot = "ruins → dig pit (short, halfway)"
        assert app.session.encounter.get(KESTREL).zone == spot
        await _keys(pilot, "n")
        while app.session.encounter.turn.actor != KESTREL:
            app.session.apply(EndTurn())
        await _keys(pilot, "m")
        pick = next(o for o in app.screen.options if o.command == Move(KESTREL, "dig pit"))
        assert pick.label == "dig pit (short): Move, completing the band, 1 action"
        await _keys(pilot, pick.key)
        assert app.session.encounter.get(KESTREL).zone == "dig pit"
        assert spot not in app.session.encounter.zones
        assert not _errors(app)


# -- 3. suppressive fire from the engine's plan (R-ATK-16) ----------------------------
async def test_r_atk_16_suppress_dialog_rows_are_the_plans_with_odds() -> None:
    """R-ATK-16: `S` shows plan_suppress's candidates, each in range with its hit and
    Fear odds, and the aimed target ticked.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "a", "S")
        dialog = app.screen
        assert isinstance(dialog, SuppressDialog)
        command = Suppress(KESTREL, "assault-laser", (BOARDER,))
        plan = plan_suppress(app.session.encounter, command, app.session.catalog)
        expected = SuppressDialog.from_plan(plan)
        assert dialog.candidates == expected.candidates and dialog.ticked == [BOARDER]
        odds = [c.odds for c in dialog.candidates if c.in_range]
        assert odds and all(o.startswith("hit ") and "· Fear " in o for o in odds)


# -- 4. re-rolling the Hero die in combat (R-TASK-6) ----------------------------------
async def test_r_task_6_combat_rerolls_may_go_to_the_hero_die() -> None:
    """R-TASK-6: the roller splits the re-rolls between d10s and the Hero die; the
    combat dialog is the task roller's, with who pays shown (R-CHAR-9).
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        luck = app.session.encounter.get(KESTREL).luck
        await _keys(pilot, "a", "enter")
        pending = app.session.pending
        assert isinstance(pending, PendingCombatRerolls)
        dialog = app.screen
        assert isinstance(dialog, RerollDialog)
        assert dialog.query_one("#reroll-hero", Stepper) is not None
        pools = str(dialog.query_one("#reroll-pools").render())
        assert f"Free 0, then Luck {luck}, then Clues 0 (R-CHAR-9)" in pools
        assert "Close (answer later with o)" in _keybar(app)
        assert "Hero die 2 · blank" in pending.roll.explain()  # seed 7 (R-INIT-2 ties)
        await _keys(pilot, "0", "down", "1", "enter")  # the Hero die only
        assert app.session.encounter.get(KESTREL).luck == luck - 1
        lines = [line for e in app.session.log for line in e.lines]
        rerolled = next(line for line in lines if line.startswith("re-rolls (1 Luck)"))
        assert "Hero die 2 (of 2, 1)" in rerolled and "re-rolled" not in rerolled  # no d10


# -- 5. small dead ends ---------------------------------------------------------------
async def test_r_act_1_the_aim_panel_says_no_actions_left_before_enter() -> None:
    """R-ACT-1: after Dodge and Aim Kestrel has no action left: the panel says so
    instead of odds for an attack Enter would refuse.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "d", "i", "a")
        panel = _panel(app)
        assert "✗ cannot attack: Kestrel Vance has no actions left this turn" in panel
        assert "≥1 hit" not in panel


async def test_escape_in_a_waiting_decision_says_it_answers_later_with_o() -> None:
    """R-ATK-5: the dive question's Esc says what it does; a menu's Esc just closes."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "a", "enter", "k")  # keep the roll: the dive question
        assert isinstance(app.screen, DecisionDialog)
        assert "esc Close (answer later with o)" in _keybar(app)
        await _keys(pilot, "escape")
        assert isinstance(app.screen, CombatScreen) and app.session.pending is not None
        await _keys(pilot, "o", "1", "A")  # answered; the action menu is a menu
        assert isinstance(app.screen, DecisionDialog)
        assert "esc Close " in _keybar(app) and "answer later" not in _keybar(app)


async def test_r_atk_4_fear_dialog_sets_a_units_fear_or_one_figures() -> None:
    """R-ATK-4, §5 Making an Attack: "The Fear on a target is given to an individual, or a
    unit": `F` sets the Fear of the selected boarder's whole unit, or (a split) of that
    figure only; each is one undo step.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _to_boarders_turn(pilot)
        assert screen.selected == BOARDER
        unit = [
            m.id for m in app.session.encounter.members(app.session.encounter.get(BOARDER).group)
        ]
        await _keys(pilot, "F")
        assert isinstance(app.screen, FearDialog)
        assert "the unit (3)" in str(app.screen.query_one("#fear-unit", Stepper).render())
        await _keys(pilot, "9", "enter")
        assert [app.session.encounter.get(m).fear for m in unit] == [9, 9, 9]
        await _keys(pilot, "F", "down", "right", "up", "0", "enter")
        assert [app.session.encounter.get(m).fear for m in unit] == [0, 9, 9]
        assert app.session.log[-1].title == "Pirate boarder 1: Fear 0 (the GM's tokens)"
        await _keys(pilot, "u")
        assert [app.session.encounter.get(m).fear for m in unit] == [9, 9, 9]
