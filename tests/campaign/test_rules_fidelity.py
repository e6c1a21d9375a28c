"""Rules played as the book states them (issue 18): each test quotes the rulebook line it
follows and failed on the engine before the fix.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    Attack,
    EndTurn,
    Move,
    SetCondition,
    StartCombat,
)
from tests.campaign import edit, new_session, play, refused
from tests.campaign.test_combat_engine import R1, K, duel, last


def test_s8_confused_failure_allows_a_run_but_not_a_plain_move() -> None:
    """§8 Confused: "If unsuccessful, the character can only do a Run action, (not a Move
    action,) and/or a Hide action." (issue 18 #9)
    """
    s = duel()
    s.apply(SetCondition(R1, "confused"))
    play(s, EndTurn(), 5)  # Savvy 2 + Senses 2 − 1 = 3: the 5 fails
    refused(s, Move(R1, "camp"), "not a plain Move")
    s.apply(Move(R1, "camp", run=True))
    assert s.encounter.get(R1).zone == "camp"


def test_dagger_fortune_plus_one_to_tn_makes_up_a_tn_below_zero() -> None:
    """Dagger card, Fortune: +1 to the target number; R-TASK-4: below 1 a Hero's d10 of 1
    succeeds when the Hero die makes up the difference. At TN −5 the +1 gives −4, where a
    1 and a Hero die of 6 hit. (issue 18 #13)
    """
    s = duel(raiders_in="ridge")
    aim = Attack(K, R1, "dagger", modifier=-9, hand="main")  # Agile 6 − 9 − 2 = −5
    play(s, aim, 1, 9, 9, 6, 9, 2, 3)  # d10 1, 9, 9 · Hero die 6; Defense 9; damage 2, 3
    title, lines = last(s, 2)
    assert title == "Kestrel Vance attacks Pirate raider 1"
    assert "fortune: +1 to target number" in lines
    assert lines[-1] == "Pirate raider 1 gains 1 Fear (R-ATK-4)"  # one hit, not "no hit"
    assert s.encounter.get(R1).out


def test_r_wound_3_a_heros_wound_marker_lowers_its_initiative() -> None:
    """R-WOUND-3: "From now on, the Hero will have -1 to ALL traits" — Initiative is one.
    (issue 18 #15)
    """
    s = new_session(
        AddZone("dig"),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
    )
    edit(s, K, wounds=1)
    play(s, StartCombat(), 5, 1)
    first = s.log[-2].lines[0]
    assert first == "1. Kestrel Vance: d10 5 + Initiative 8 (wound -1 R-WOUND-3) = 12"
