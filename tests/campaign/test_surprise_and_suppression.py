"""R-INIT-3 surprise and initiative bonuses; R-ATK-16 suppressive fire."""

from __future__ import annotations

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    Attack,
    EndTurn,
    SetBand,
    SetPools,
    StartCombat,
    Suppress,
)
from hsm_tui.rules import Cover
from tests.campaign import new_session, play, refused
from tests.campaign.test_combat_engine import R1, R2, K, duel, left

RAIDERS = "pirate-raider@pirates"


def _unstarted():
    return new_session(
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "medium"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        SetPools(K, luck=0),
    )


def test_r_init_3_a_waiting_character_gets_a_free_surprise_round_first() -> None:
    s = _unstarted()
    play(s, StartCombat(surprise=(K,)), 1, 9)  # raiders win initiative 16 to 9
    assert s.encounter.round == 0
    assert s.log[-1].title == "Surprise round (R-INIT-3): Kestrel Vance's turn"
    play(s, EndTurn())
    assert s.log[-1].title == "Round 1: Pirate raider ×2's turn"
    play(s, EndTurn())
    assert s.log[-1].title == "Round 1: Kestrel Vance's turn"


def test_r_init_3_knowing_where_they_wait_adds_senses_to_initiative() -> None:
    s = _unstarted()
    play(s, StartCombat(bonus=((R1, 3),)), 5, 1)  # raiders d10 1 + 7 + 3 = 11 vs 13
    lines = s.log[-2].lines
    assert lines[1] == "2. Pirate raider ×2: d10 1 + Initiative 7 (+3 R-INIT-3) = 11"


def test_r_atk_16_suppressive_fire_defense_plus_two_fear_die_by_band_and_divers() -> None:
    s = duel()
    play(s, Suppress(K, "assault-laser", (R1, R2), dive=(R2,)), 9, 5, 3)
    r1, r2 = s.encounter.get(R1), s.encounter.get(R2)
    # R1: Dodge 5 + 2 = 7, the 9 is a hit: 1d4 3 (no wound) and 1 Fear; Fear die 5 − 1
    assert (r1.fear, r1.wounds, r1.out) == (4 + 1, 0, False)
    assert (r2.fear, r2.prone, r2.cover, r2.lose_actions) == (4, True, Cover.LIGHT, 1)
    lines = s.log[-2].lines
    assert "Fear die d8: 5" in lines
    assert "Pirate raider 1 (medium) gains 4 Fear" in lines
    assert s.log[-1].lines[0].startswith("hit 1: damage 1d4! [3] = 3 vs Health 4")
    assert s.encounter.get(K).weapon("assault-laser").charges == 20 - 10
    assert left(s, K) == 1
    refused(s, Attack(K, R1, "assault-laser"), "laid down suppressive fire this turn")
    refused(s, Suppress(K, "laser-pistol", (R1,)), "suppressive fire once per turn")


def test_r_atk_16_refusals() -> None:
    s = duel()
    refused(s, Suppress(K, "dagger", (R1,)), "no Suppression rating")
    refused(s, Suppress(K, "assault-laser", ()), "1 to 10 targets")
    refused(s, Suppress(K, "assault-laser", (R1,), dive=(R2,)), "only targets in the cone")
    refused(s, Suppress(K, "assault-laser", (K,)), "not a standing enemy")
