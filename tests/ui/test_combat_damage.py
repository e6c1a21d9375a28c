"""Damage from outside an attack (`W`) and leaving the encounter (`X`), by keys (Pilot).

Seed 7 with the shipped dig-site ambush: Kestrel Vance (a Hero, Health 6, Stamina 6) acts
first and is selected; ↑ three times selects Pirate boarder 1 (a Minion, Health 6).
"""

from __future__ import annotations

from dataclasses import replace

from textual.pilot import Pilot
from textual.widgets import Input

from hsm_tui.campaign.combat import ApplyDamage, RemoveCombatant
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.damage_dialog import DamageDialog
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.help import HelpScreen
from tests.ui.test_combat_screen import BOARDER, _app, _errors, _fight, _keys, _panel

KESTREL = "kestrel-vance-1"
TO_BOARDER = ("up", "up", "up")
"""From Kestrel (first row) up to Pirate boarder 1."""


def _text(app: HsmApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


def _wounds(app: HsmApp, cid: str) -> str:
    """The combatant table's Wnd cell."""
    return str(app.screen.query_one("#combat-table").get_cell(cid, "Wnd")).strip()


async def _damage_dialog(pilot: Pilot, *select: str) -> DamageDialog:
    """F4, the example fight, then ``W`` on the selected combatant."""
    await _fight(pilot)
    await _keys(pilot, *select, "W")
    dialog = pilot.app.screen
    assert isinstance(dialog, DamageDialog)
    return dialog


async def test_r_dmg_2_damage_by_keys_is_the_engines_apply_damage() -> None:
    """R-OTHER-6, R-DMG-2: 13 damage exceeds Health 6 twice → two wound steps; a Hero goes
    to −2 (R-WOUND-1) and loses 2 actions (R-WOUND-4). The same ``ApplyDamage`` sent to the
    session directly gives the same encounter; ``u`` undoes it.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _damage_dialog(pilot)
        before = app.session.encounter
        assert "Damage to Kestrel Vance" in _text(app, "#damage-title")
        assert _text(app, "#damage-traits") == "Health 6 · Stamina 6"
        await _keys(pilot, "1", "3")
        assert _text(app, "#damage-preview") == "13 damage vs Health 6 → 2 wound step(s): now at −2"
        assert _text(app, "#damage-message") == "✓ Enter applies"
        await _keys(pilot, "enter")
        assert isinstance(app.screen, CombatScreen)
        kestrel = app.session.encounter.get(KESTREL)
        assert (kestrel.wounds, kestrel.nonlethal, kestrel.lose_actions) == (2, 0, 2)
        assert _wounds(app, KESTREL) == "−2"
        assert app.session.log[-1].title == "Kestrel Vance takes damage"
        assert app.session.log[-1].lines[0].startswith("13 damage vs Health 6 → 2 wound step(s)")
        by_keys = app.session.encounter
        await _keys(pilot, "u")
        assert app.session.encounter == before
        app.session.apply(ApplyDamage(KESTREL, 13))
        assert app.session.encounter == by_keys


async def test_r_wound_6_non_lethal_damage_is_measured_against_stamina() -> None:
    """R-WOUND-6: ctrl+n (or ↓ to the field, then a digit) makes it non-lethal: compared
    with Stamina, it moves the non-lethal marker and leaves the lethal one alone.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await _damage_dialog(pilot)
        await _keys(pilot, "1", "3", "ctrl+n")
        assert dialog.nonlethal
        preview = "13 damage vs Stamina 6 → 2 wound step(s): now at −2"
        assert _text(app, "#damage-preview") == preview
        await _keys(pilot, "ctrl+n")
        assert not dialog.nonlethal
        await _keys(pilot, "down", "1")  # the toggle field: 1 on
        assert dialog.nonlethal
        await _keys(pilot, "enter")
        kestrel = app.session.encounter.get(KESTREL)
        assert (kestrel.wounds, kestrel.nonlethal) == (0, 2)
        assert _wounds(app, KESTREL) == "s−2"
        assert "13 damage vs Stamina 6" in app.session.log[-1].lines[0]


async def test_r_wound_2_a_minion_is_taken_out_by_one_wound_step() -> None:
    """R-DMG-2, R-WOUND-2: 7 > Health 6 is one step: the boarder is taken out."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _damage_dialog(pilot, *TO_BOARDER)
        assert "Damage to Pirate boarder 1" in _text(app, "#damage-title")
        await _keys(pilot, "7", "enter")
        assert app.session.encounter.get(BOARDER).out
        assert _wounds(app, BOARDER) == "OUT"
        assert "taken out (R-WOUND-2)" in app.session.log[-1].lines[0]


async def test_r_dmg_2_invalid_amount_shows_why_and_applies_nothing() -> None:
    """The amount is a whole number 0–99, checked as it is typed; Enter on anything else
    (or on nothing) keeps the dialog open and sends no command.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _damage_dialog(pilot)
        enc, log = app.session.encounter, app.session.log
        field = app.screen.query_one("#damage-amount", Input)
        assert _text(app, "#damage-message") == ""  # nothing typed yet: no reproach
        for typed in ("abc", "-3", "100", "2.5", "?"):
            await _keys(pilot, *typed)
            assert _text(app, "#damage-message") == "✗ a whole number 0–99", typed
            assert field.has_class("-invalid")
            assert _text(app, "#damage-preview") == "Measured against Health 6 (R-DMG-2)"
            await _keys(pilot, "enter")
            assert isinstance(app.screen, DamageDialog)
            await _keys(pilot, "ctrl+u")  # clear the field
        assert not field.has_class("-invalid")
        await _keys(pilot, "enter")  # empty
        assert _text(app, "#damage-message") == "✗ a whole number 0–99"
        assert isinstance(app.screen, DamageDialog)
        assert app.session.encounter == enc and app.session.log == log


async def test_escape_cancels_the_damage() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _damage_dialog(pilot)
        enc, log = app.session.encounter, app.session.log
        await _keys(pilot, "9", "escape")
        assert isinstance(app.screen, CombatScreen)
        assert app.session.encounter == enc and app.session.log == log


async def test_remove_combatant_asks_first_and_undo_brings_it_back() -> None:
    """`X` (or Delete) asks; Esc keeps the boarder, `y` removes it; `u` restores it."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        before = app.session.encounter
        await _keys(pilot, *TO_BOARDER, "X")
        assert isinstance(app.screen, DecisionDialog)
        assert app.screen.title_text == "Remove combatant"
        assert "Remove Pirate boarder 1 from the encounter?" in app.screen.question
        await _keys(pilot, "escape")
        assert app.session.encounter == before
        await _keys(pilot, "delete", "y")
        assert isinstance(app.screen, CombatScreen)
        enc = app.session.encounter
        assert BOARDER not in [c.id for c in enc.combatants]
        assert len(enc.members("pirate-boarder@pirates")) == 2
        assert app.session.log[-1].title == "Pirate boarder 1 leaves the encounter"
        assert screen.selected in [c.id for c in enc.combatants]
        await _keys(pilot, "u")
        assert app.session.encounter == before
        assert _wounds(app, BOARDER) == "–"  # the row is back


async def test_the_engine_refuses_to_remove_whoever_is_acting() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        before = app.session.encounter
        await _keys(pilot, "X", "y")
        assert isinstance(app.screen, CombatScreen)
        assert any("acting now: end its turn first" in e for e in _errors(app))
        assert app.session.encounter == before


async def test_removing_the_aimed_target_elsewhere_moves_the_aim_on() -> None:
    """Another view (or the palette) removes the target being aimed at: the attack panel
    takes the next nearest enemy instead of failing.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        await _keys(pilot, "a")
        assert screen.draft is not None and screen.draft.target == BOARDER
        app.session.apply(RemoveCombatant(BOARDER))
        await pilot.pause()
        assert screen.draft is not None and screen.draft.target == "pirate-boarder-2"
        assert "Pirate boarder 2" in _text(app, "#combat-attack")


async def test_help_lists_damage_and_remove_and_the_dialog_has_its_own() -> None:
    """The palette lists every described binding by construction (ui/commands.py)."""
    app = _app()
    assert "| W | damage from outside an attack" in CombatScreen.HELP
    assert "| X / Delete | remove from the encounter" in CombatScreen.HELP
    async with app.run_test(size=(80, 24)) as pilot:
        await _damage_dialog(pilot, *TO_BOARDER)
        await _keys(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        assert "Non-lethal damage is" in app.screen.screen_help


def test_snapshot_damage_dialog(snap_compare) -> None:
    async def damage(pilot: Pilot) -> None:
        await _damage_dialog(pilot, *TO_BOARDER)
        await _keys(pilot, "1", "3")

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=damage)


async def test_r_wound_6_a_hero_knocked_out_on_its_own_turn_says_it_cannot_act() -> None:
    """R-WOUND-6: past −2 non-lethal, unconscious; `a` says why instead of doing nothing,
    and the panel says `n` ends its turn.
    """
    app = _app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _fight(pilot)
        app.session.apply(ApplyDamage(KESTREL, 19, nonlethal=True))
        await pilot.pause()
        assert app.session.encounter.get(KESTREL).unconscious
        assert "unconscious: cannot act (n ends its turn)" in _panel(app)
        await _keys(pilot, "a")
        assert app.screen.draft is None
        assert "Kestrel Vance is unconscious: no attack" in [n.message for n in app._notifications]


async def test_r_wound_5_a_dropped_weapon_is_marked_and_aiming_takes_one_in_hand() -> None:
    """R-WOUND-5: a dropped weapon reads "dropped" and `a` aims with the next one held."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        kestrel = app.session.encounter.get(KESTREL)
        first, *_ = kestrel.weapons
        dropped = replace(kestrel, weapons=(replace(first, dropped=True), *kestrel.weapons[1:]))
        app.session.encounter = app.session.encounter.with_combatant(dropped)
        app.screen.refresh_from_session()
        await pilot.pause()
        assert "dropped (A: interact)" in _panel(app)
        await _keys(pilot, "a")
        assert app.screen.draft.weapon == kestrel.weapons[1].id


async def test_r_combat_1_a_side_with_nobody_standing_is_announced_once() -> None:
    app = _app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _fight(pilot)
        foes = [c for c in app.session.encounter.combatants if c.side != "expedition"]
        for c in foes[:-1]:
            app.session.apply(ApplyDamage(c.id, 40))
        await _keys(pilot, "n")  # an applied command: nothing decided yet
        assert not [n for n in app._notifications if n.title == "Fight decided"]
        app.screen._apply(ApplyDamage(foes[-1].id, 40))
        await _keys(pilot, "n")
        decided = [n.message for n in app._notifications if n.title == "Fight decided"]
        assert decided == [f"Nobody on {foes[-1].side} is left standing: E ends the fight"]
