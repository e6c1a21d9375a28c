"""F4 and F7 ``J``: a side's dive policy (R-ATK-5) picked by keys, sent to the engine."""

from __future__ import annotations

import pytest

from hsm_tui.campaign.combat import AddCombatants, AddZone
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp


@pytest.mark.parametrize("screen", ["f7", "f4"])
async def test_r_atk_5_j_sets_a_sides_dive_policy(screen) -> None:
    session = Session(seed=3)
    session.load_content()
    session.apply(AddZone("dig"))
    session.apply(AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2))
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(screen)
        await pilot.pause()
        await pilot.press("J")
        await pilot.pause()
        await pilot.press("1")  # the pirates
        await pilot.pause()
        await pilot.press("2")  # stay put
        await pilot.pause()
        assert session.encounter.dive_policy == (("pirates", "stay"),)
        assert session.log[-1].title == "pirates: Minions stay put when hit (R-ATK-5)"
