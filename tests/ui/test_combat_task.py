"""Issue 19 #13: a Task action in combat (R-ACT-2) opens F2 on its actor, and F2 keeps
Who between visits.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import ACTIONS
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.task_roller import TaskRollerScreen
from hsm_tui.ui.widgets.stepper import Stepper
from tests.ui.test_combat_screen import _app, _fight, _keys

KESTREL = "kestrel-vance-1"
TASK_KEY = str(list(ACTIONS).index("task") + 1)


async def test_r_act_2_a_task_action_opens_f2_with_the_actor_as_who() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "A", TASK_KEY)
        assert app.session.encounter.turn.used_by(KESTREL) == ("task",)
        roller = app.screen
        assert isinstance(roller, TaskRollerScreen)
        assert roller.query_one("#who", Stepper).value == KESTREL
        assert roller.roller is not None and roller.roller.name == "Kestrel Vance"
        await _keys(pilot, "f4")
        assert isinstance(app.screen, CombatScreen)
        await _keys(pilot, "n", "f2")  # another turn: F2 still rolls for Kestrel
        assert app.screen.query_one("#who", Stepper).value == KESTREL


async def test_other_actions_stay_on_f4() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "A", str(list(ACTIONS).index("dodge") + 1))
        assert isinstance(app.screen, CombatScreen)
