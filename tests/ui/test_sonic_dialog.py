"""F4 `S` with the Sonic Relik (issue 18 #5): the cone dialog at 80×24 shows the engine's
plan (exact odds, ✗ and its reason) and fires the ``SonicBlast`` it builds.
"""

from __future__ import annotations

from dataclasses import replace

from textual.pilot import Pilot

from hsm_tui.campaign.combat import SonicBlast, plan_sonic
from hsm_tui.campaign.encounter import WeaponState
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from hsm_tui.ui.screens.sonic_dialog import SonicDialog
from tests.ui.test_combat_screen import BOARDER, _app, _fight, _keys

KESTREL = "kestrel-vance-1"
RELIK = "sonic-relik"


def _arm(app: HsmApp, charges: int = 10) -> None:
    """Kestrel's only weapon is a Sonic Relik (so `S` offers its cone)."""
    enc = app.session.encounter
    relik = WeaponState(RELIK, charges, 10, recharge=False)
    app.session.encounter = enc.with_combatant(replace(enc.get(KESTREL), weapons=(relik,)))


async def test_sonic_relik_cone_through_the_dialog() -> None:
    """Sonic Relik card: "Everyone in that cone who can hear must roll Stamina or take the
    die type of damage for each charge used": `S`, tick a boarder, two charges, d6, Enter.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        _arm(app)
        await _keys(pilot, "S")
        dialog = app.screen
        assert isinstance(dialog, SonicDialog)
        await _keys(pilot, "enter")  # nothing ticked: the engine's refusal, stays open
        assert app.screen is dialog
        assert str(dialog.query_one("#sonic-plan").render()).startswith("✗ the cone needs")
        ids = [t.combatant.id for t in dialog.plan.candidates]  # allies too, nearest first
        await _keys(pilot, *["down"] * ids.index(BOARDER), "space", "right_square_bracket", "d")
        assert dialog.command == SonicBlast(KESTREL, RELIK, 2, 1, (BOARDER,))
        plan = plan_sonic(app.session.encounter, dialog.command, app.session.catalog)
        shown = str(dialog.query_one("#sonic-plan").render()).splitlines()
        assert shown == list(plan.preview()[1:]) and "fails" in shown[0]
        assert "2 of 10 charge(s) · die 1d6 · a failure takes 2d6" in str(
            dialog.query_one("#sonic-count").render()
        )
        await _keys(pilot, "enter")
        assert isinstance(app.screen, (CombatScreen, DecisionDialog))
        assert app.session.encounter.get(KESTREL).weapon(RELIK).charges == 8
        assert any(
            e.title.endswith("fires the Sonic Relik (Stamina or damage)") for e in app.session.log
        )


async def test_sonic_relik_out_of_charges_says_why_before_a_dialog() -> None:
    """R-ATK-3 "A weapon without enough charge cannot fire": the engine's reason, no dialog."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        _arm(app, charges=0)
        await _keys(pilot, "S")
        assert isinstance(app.screen, CombatScreen)
        shown = [n.message for n in app._notifications]
        assert "No sonic blast: Sonic Relik has no charges left (R-ATK-3)" in shown


def test_snapshot_sonic_modal(snap_compare) -> None:
    """The cone at 80×24: every row, the charges and die, two targets' odds under the list."""

    async def cone(pilot: Pilot) -> None:
        await _fight(pilot)
        _arm(pilot.app)  # type: ignore[arg-type]
        await _keys(pilot, "S")
        ids = [t.combatant.id for t in pilot.app.screen.plan.candidates]  # type: ignore[attr-defined]
        await _keys(pilot, *["down"] * ids.index(BOARDER), "space", "down", "space", "d")

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=cone)


async def test_sonic_relik_aimed_opens_its_cone_at_the_target_and_die() -> None:
    """`a` with the Relik, `D` for its die, then `S`: the cone starts from that aim."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _fight(pilot)
        _arm(app)
        await _keys(pilot, "a", "D", "D")
        draft = screen.draft
        assert draft is not None and draft.weapon == RELIK and draft.damage_choice
        await _keys(pilot, "S")
        dialog = app.screen
        assert isinstance(dialog, SonicDialog)
        assert dialog.command == SonicBlast(KESTREL, RELIK, 1, draft.damage_choice, (draft.target,))
