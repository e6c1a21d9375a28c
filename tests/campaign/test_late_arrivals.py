"""Combatants added during combat roll initiative and join the order (R-INIT-1)."""

from __future__ import annotations

from hsm_tui.campaign.combat import AddCombatants, EndTurn
from tests.campaign.test_actions import _session


def test_r_init_1_late_minions_form_a_new_group_with_their_own_initiative() -> None:
    session = _session()
    before = session.encounter
    current = before.turn.actor
    session.apply(AddCombatants("minion", "pirate-raider", "foes", "b", count=2))
    enc = session.encounter
    new = [c for c in enc.combatants if c.id not in {x.id for x in before.combatants}]
    assert {c.group for c in new} == {"pirate-raider@foes+2"}  # not merged into the first group
    assert [r.actor for r in enc.order].count("pirate-raider@foes+2") == 1
    assert enc.order[enc.turn_index].actor == current  # the turn in progress is kept
    assert "initiative d10" in session.log[-1].lines[0]


def test_r_init_1_a_late_group_gets_a_turn() -> None:
    session = _session()
    session.apply(AddCombatants("minion", "corporate-trooper", "foes", "b"))
    actors = set()
    for _ in range(6):  # two rounds of at most three actors
        actors.add(session.encounter.turn.actor)
        session.apply(EndTurn())
    assert any(actor.startswith("corporate-trooper") for actor in actors)


def test_adding_before_combat_rolls_nothing() -> None:
    from hsm_tui.campaign.combat import AddZone
    from hsm_tui.table.session import Session
    from tests.campaign import pack

    session = Session(seed=1, content=pack())
    session.apply(AddZone("a"))
    state = session.rng.getstate()
    session.apply(AddCombatants("minion", "pirate-raider", "foes", "a", count=3))
    assert session.rng.getstate() == state and session.encounter.order == ()
