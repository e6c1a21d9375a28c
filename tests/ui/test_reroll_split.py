"""The re-roll dialog's split between d10s and the Hero die (R-TASK-6), by keys (Pilot).

The split rebalances itself: raising one die when every available re-roll is spent takes
one from the other die, so the dialog never shows more than is available and the GM never
has to lower one field before raising the other.
"""

from __future__ import annotations

from textual.pilot import Pilot

from hsm_tui.campaign.combat import PendingCombatRerolls
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.reroll_dialog import RerollDialog
from hsm_tui.ui.widgets.stepper import Stepper
from tests.campaign.test_rerolls import kestrel_defending
from tests.ui.test_combat_screen import _app as _combat_app
from tests.ui.test_combat_screen import _fight
from tests.ui.test_task_roller import _app, _focus

KESTREL = "kestrel-vance-1"


async def _keys(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


async def _dialog(pilot: Pilot, rerolls: str) -> RerollDialog:
    """Roll a task with ``rerolls`` free re-rolls and open the waiting decision (e)."""
    await _focus(pilot, "rerolls")
    await _keys(pilot, rerolls, "r", "e")
    dialog = pilot.app.screen
    assert isinstance(dialog, RerollDialog)
    return dialog


def _split(app: HsmApp) -> tuple[int, int]:
    screen = app.screen
    return (
        screen.query_one("#reroll-d10", Stepper).value,
        screen.query_one("#reroll-hero", Stepper).value,
    )


async def test_r_task_6_right_on_the_hero_die_moves_the_only_reroll_over() -> None:
    """The walkthrough: 1 re-roll suggested on the d10; ↓ → puts it on the Hero die at
    once (to clear a ✗ Misfortune) and Enter spends it there.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _dialog(pilot, "1")
        assert _split(app) == (1, 0)
        await _keys(pilot, "down", "right")
        assert _split(app) == (0, 1)
        await _keys(pilot, "enter")
        assert app.session.pending is None
        assert app.session.log[-1].lines[-1].startswith("re-rolled 0 d10 + 1 Hero die")


async def test_r_task_6_raising_either_die_at_the_limit_takes_from_the_other() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _dialog(pilot, "2")
        assert _split(app) == (2, 0)
        await _keys(pilot, "down", "right")
        assert _split(app) == (1, 1)
        await _keys(pilot, "2")  # a digit too: both on the Hero die
        assert _split(app) == (0, 2)
        await _keys(pilot, "up", "right")  # and back, one at a time
        assert _split(app) == (1, 1)
        await _keys(pilot, "left", "down", "left")  # lowering gives nothing back by itself
        assert _split(app) == (0, 0)


async def test_r_task_6_a_split_set_by_code_is_kept_possible_too() -> None:
    """The old over-the-limit refusal cannot happen: the field set last wins."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await _dialog(pilot, "1")
        dialog.query_one("#reroll-hero", Stepper).value = 1
        await pilot.pause()
        assert _split(app) == (0, 1)
        await _keys(pilot, "k")  # keep the first roll: nothing spent
        assert app.session.pending is None
        assert "kept the first roll" in app.session.log[-1].lines[-1]


async def test_r_task_6_combat_attack_moves_the_rerolls_to_the_hero_die() -> None:
    """The same dialog after an attack (seed 7: Hero die 1 ✗ Misfortune, 2 Luck): the
    best odds put 1 re-roll on the d10s; → → on the Hero die puts both there, Enter spends
    them, Luck pays (R-CHAR-9) and the engine takes the split.
    """
    app = _combat_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "a", "enter")
        pending = app.session.pending
        assert isinstance(pending, PendingCombatRerolls) and isinstance(app.screen, RerollDialog)
        assert pending.available == 2 and _split(app) == (1, 0)
        await _keys(pilot, "down", "right", "right")
        assert _split(app) == (0, 2)
        await _keys(pilot, "enter")
        assert not isinstance(app.session.pending, PendingCombatRerolls)
        assert app.session.encounter.get(KESTREL).luck == 0


async def test_r_task_6_the_dialog_shows_each_splits_odds_and_cost() -> None:
    """Issue 19 #14: the engine's exact odds for the split on screen, and what it costs
    in Luck and Clues with what is left (R-CHAR-9); both follow the split as it changes.
    """
    from hsm_tui.rules.odds import percent, reroll_odds

    app = _combat_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "a", "enter")
        roll = app.session.pending.roll

        def shown() -> str:
            return str(app.screen.query_one("#reroll-odds").render())

        chance, _ = reroll_odds(roll, 1, 0)
        assert f"This split: ≥1 hit {percent(chance)}" in shown()
        assert "Costs 1 Luck → Luck 1, Clues 0 left" in shown()
        await _keys(pilot, "down", "right", "right")  # both on the Hero die
        chance, expected = reroll_odds(roll, 0, 2)
        assert f"≥1 hit {percent(chance)} · expected {float(expected):.2f}" in shown()
        assert "Costs 2 Luck → Luck 0, Clues 0 left" in shown()


async def test_r_task_6_a_task_split_reads_as_its_chance_of_success() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _dialog(pilot, "1")
        text = str(app.screen.query_one("#reroll-odds").render())
        assert text.startswith("This split: success ") and "Costs 1 free" in text


async def test_r_atk_6_a_defenders_dialog_opens_on_the_split_letting_fewest_through() -> None:
    """Kestrel defending at 7 (light cover), 2 of 3 hits through, Luck 3: the dialog opens
    on 2 d10 (0.60 hits through expected), not 1 (1.30), and says so.
    """
    app = HsmApp(kestrel_defending())
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f4", "o")
        assert isinstance(app.screen, RerollDialog)
        assert _split(app) == (2, 0)
        hint = app.screen.query_one("#reroll-hint").render()
        assert str(hint) == "Suggested: 2 d10 + 0 Hero die"
        odds = str(app.screen.query_one("#reroll-odds").render())
        assert "≥1 through 51.0% · expected 0.60" in odds
