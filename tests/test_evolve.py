"""``evolve`` copies a frozen record with other fields: a value the old record worked out
from its fields (``once``) must not travel into the copy unless its fields are unchanged.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import AddCombatants, AddZone
from hsm_tui.campaign.encounter import Turn, evolve
from hsm_tui.rules import Rank, RulesError
from hsm_tui.rules.tasks import PoolKind, PoolRoll
from tests.campaign import new_session


def test_a_value_worked_out_once_is_worked_out_again_for_the_copy() -> None:
    roll = PoolRoll(PoolKind.TASK, 5, Rank.MINION, (3, 9), None)
    assert roll.successes == 1  # cached on the record
    assert evolve(roll, target=9).successes == 2


def test_an_encounters_id_index_follows_its_combatants_only() -> None:
    s = new_session(AddZone("dig"), AddCombatants("minion", "pirate-raider", "p", "dig", count=2))
    enc = s.encounter
    first = enc.combatants[0]
    assert enc.get(first.id) is first  # the index is built
    kept = evolve(enc, turn=Turn(first.group))
    assert "_where" in kept.__dict__  # the same combatants: the index still holds
    fewer = evolve(enc, combatants=enc.combatants[1:])
    assert "_where" not in fewer.__dict__
    try:
        fewer.get(first.id)
    except RulesError:
        pass
    else:
        raise AssertionError("a copy without the combatant still finds it")
