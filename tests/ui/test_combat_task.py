"""Issue 19 #13: a Task action in combat (R-ACT-2) opens F2 on its actor, and F2 keeps
Who between visits.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import (
    ACTIONS,
    AddCombatants,
    AddZone,
    ClearEncounter,
    RemoveCombatant,
)
from hsm_tui.campaign.party import PARTY, AddHero, rollers
from hsm_tui.table.seat_choices import same_roller
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.screens.task_roller import TaskRollerScreen
from hsm_tui.ui.widgets.stepper import Stepper
from tests.campaign import pack
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


def hero_and_twin() -> Session:
    """Kestrel in the dig as the party's, and a villain made from her entry (same name)."""
    s = Session(seed=7, content=pack())
    for command in (
        AddHero("kestrel-vance"),
        AddZone("dig"),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("hero", "kestrel-vance", "villains", "dig"),
    ):
        s.apply(command)
    return s


async def test_who_follows_a_party_hero_out_of_the_fight_and_back_by_id_not_name() -> None:
    """F2's Who names the same Hero after it leaves the fight (``party:<hero id>``) and
    after an undo brings it back; a villain made from the same entry bears the same name
    but is not that Hero: once it is gone, Who does not jump to the party's.
    """
    s = hero_and_twin()
    hero, twin = (c.id for c in s.encounter.combatants)
    assert len({c.name for c in s.encounter.combatants}) == 1  # one name, two combatants
    app = HsmApp(s)
    async with app.run_test(size=(80, 24)) as pilot:
        await _keys(pilot, "f2")
        who = app.screen.query_one("#who", Stepper)
        who.value = twin
        s.apply(RemoveCombatant(twin))
        await pilot.pause()
        assert who.value != hero  # the twin left: not the party's Kestrel now
        who.value = hero
        s.apply(ClearEncounter())
        await pilot.pause()
        assert who.value == f"{PARTY}kestrel-vance"  # left the fight: rolls on as the party's
        s.undo()
        await pilot.pause()
        assert who.value == hero  # back in the fight


def test_same_roller_keeps_a_roller_and_follows_only_the_partys_own_hero() -> None:
    s = hero_and_twin()
    before = s.encounter
    hero, twin = (c.id for c in before.combatants)
    now = rollers(s.campaign, before, s.catalog)
    assert [same_roller(w, before, before, now) for w in (hero, twin, "")] == [hero, twin, ""]
    s.apply(ClearEncounter())
    after = rollers(s.campaign, s.encounter, s.catalog)
    assert same_roller(hero, before, s.encounter, after) == f"{PARTY}kestrel-vance"
    assert same_roller(twin, before, s.encounter, after) == twin  # rolls no more
