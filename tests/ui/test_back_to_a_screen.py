"""Issue 19 #16: coming back to a screen lands where the GM needs it: F5 on the Hero
just wounded, F6 at the newest entry, home in a fight saying where it goes on.
"""

from __future__ import annotations

from pathlib import Path

from textual.containers import VerticalScroll
from textual.widgets import Static

from hsm_tui.campaign.combat import ApplyDamage
from hsm_tui.persistence.store import load, save
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.chart import ChartScreen
from hsm_tui.ui.widgets.stepper import Stepper
from tests.ui.test_combat_screen import SEED, _app, _fight, _keys

ROAN = "roan-maddox-1"


async def test_r_wound_5_f5_opens_on_the_hero_just_wounded() -> None:
    """Kestrel comes first in F5's list; a fall wounds Roan: F5 opens on Roan, and the
    GM's own pick (h) then stays until another wound falls.
    """
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "f5")
        hero = app.screen.query_one("#chart-hero", Stepper)
        assert hero.value == "kestrel-vance-1"
        await _keys(pilot, "f4")
        app.session.apply(ApplyDamage(ROAN, 8))
        assert app.session.encounter.get(ROAN).wounds
        await _keys(pilot, "f5")
        assert isinstance(app.screen, ChartScreen) and hero.value == ROAN
        await _keys(pilot, "h", "f4", "f5")
        assert hero.value != ROAN  # no new wound: the GM's pick stays


async def test_f6_opens_at_the_newest_entry_after_scrolling_up() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "f6", "pageup", "pageup")
        view = app.screen.query_one("#log-view", VerticalScroll)
        assert view.scroll_y < view.max_scroll_y
        await _keys(pilot, "f4", "a", "enter", "k", "1", "f6")
        await pilot.pause()
        assert view.scroll_y == view.max_scroll_y


async def test_r_combat_1_a_campaign_opened_mid_fight_says_f4_continues(tmp_path: Path) -> None:
    saved = Session(seed=SEED)
    async with HsmApp(saved).run_test(size=(80, 24)) as pilot:
        await _fight(pilot)
        await _keys(pilot, "n", "n", "n", "n", "n", "n", "n")  # round 2
        fight_round = saved.encounter.round
        assert fight_round == 2
        save(saved, tmp_path / "mid-fight.toml")
    session = Session(seed=SEED)
    session.load_content()
    load(session, tmp_path / "mid-fight.toml")
    async with HsmApp(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        go = str(pilot.app.screen.query_one("#start-here", Static).render())
        assert go.startswith("round 2 — F4 continues\nthe fight")


async def test_r_other_6_f5_opens_on_the_party_hero_a_fall_wounded_between_fights() -> None:
    """Two Heroes in the party, no fight: damage from a fall (F8 W's command) wounds the
    second; F5 lists the first first, and opens on the second.
    """
    from hsm_tui.campaign.party import AddHero

    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    session.apply(AddHero("roan-maddox"))
    session.apply(ApplyDamage("party:roan-maddox", 8))
    assert session.party_now().member("roan-maddox").wounds
    assert session.last_wounded() == "party:roan-maddox"
    async with HsmApp(session).run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f5")
        hero = pilot.app.screen.query_one("#chart-hero", Stepper)
        assert hero.choices[0][1] == "party:kestrel-vance" and hero.value == "party:roan-maddox"
