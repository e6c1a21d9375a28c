"""The combat screen's attack panel computes the engine's plan once per change.

Before the panel became a widget, ``a`` then Enter planned the attack three times and
drew the panel twice for ``a``, once at the width before aiming, and once more on Enter
for the draft just rolled.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from hsm_tui.campaign.combat import plan_attack
from hsm_tui.table.session import Session
from hsm_tui.table.views import unhurt, wound_word
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.widgets import attack_panel
from hsm_tui.ui.widgets.attack_panel import AttackPanel, target_wounds
from tests.test_views import ambush


async def test_r_atk_2_aim_and_roll_plan_the_attack_once(monkeypatch: pytest.MonkeyPatch) -> None:
    planned: list[object] = []
    drawn: list[bool] = []
    draw = AttackPanel.render

    def counting_plan(*args: object) -> object:
        planned.append(args[1])
        return plan_attack(*args)  # type: ignore[arg-type]

    def counting_render(panel: AttackPanel) -> object:
        drawn.append(panel.draft is not None)
        return draw(panel)

    monkeypatch.setattr(attack_panel, "plan_attack", counting_plan)
    monkeypatch.setattr(AttackPanel, "render", counting_render)
    app = HsmApp(Session(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4", "L", "s")
        await pilot.pause()
        planned.clear()
        drawn.clear()
        await pilot.press("a")
        await pilot.pause()
        assert len(planned) == 1 and drawn == [True]  # aimed: planned and drawn once
        await pilot.press("enter")
        await pilot.pause()
        assert len(planned) == 1  # the roll: no preview of the draft just rolled
        assert drawn == [True, False]  # drawn once more, with the aim done


def test_the_panel_and_the_players_word_agree_on_unhurt() -> None:
    """The panel's " · unhurt" is the engine's notion (views.unhurt), not its own table text
    read back: whatever the wound track, the GM and the players say the same.
    """
    raider = ambush().encounter.get("pirate-raider-1")
    for state in [
        {},
        {"wounds": 1},
        {"nonlethal": 1},
        {"unconscious": True},
        {"out": True},
        {"wounds": 0, "nonlethal": 0, "prone": True},
    ]:
        c = replace(raider, **state)
        assert (target_wounds(c) == " · unhurt") is (wound_word(c) == "unhurt"), state
        assert unhurt(c) is (not state or state == {"wounds": 0, "nonlethal": 0, "prone": True})
