"""Actions left and lost, in words (R-ACT-1/2/5, R-WOUND-4, R-ATK-5, §8 Shaken and Dazed):
the move menu's routes count the actions the mover has left, and every refusal for want
of actions names what took them instead of a generic "wounds, Shaken, dive".
"""

from __future__ import annotations

import re

from hsm_tui.campaign.combat import (
    TOO_FAR,
    AnswerDive,
    Attack,
    DeclareActions,
    EndCombat,
    EndTurn,
    Move,
    SetCondition,
    TakeAction,
    action_refusal,
    carried_losses,
    move_refusal,
    routes,
)
from hsm_tui.campaign.encounter import Combatant
from hsm_tui.rules import RangeBand
from tests.campaign import edit, play, refused
from tests.campaign.test_combat_engine import R1, R2, RAIDERS_FIRST, K, duel, last, left, to_raiders

WOUND_AND_DIVE = "1 wound: −1 action (R-WOUND-4); dived for cover: −1 action (R-ATK-5)"


def by_zone(s, cid: str = K) -> dict:
    return {r.move.zone: r for r in routes(s.encounter, cid)}


def wounded_after_a_dive():
    """Raider 1 hits Kestrel in the open; she dives into light cover (R-ATK-5), the hit
    still gets through for one wound (R-WOUND-4); then her turn starts with both lost.
    """
    s = duel(RAIDERS_FIRST)
    play(s, Attack(R1, K, "laser-pistol"), 1, 9, 9, 9)  # 1 hit
    play(s, AnswerDive("light"), 9, 3, 5, 4)  # Defense 7: 9 through; 2d6 9 > Health 6
    assert s.encounter.get(K).lose_why == ("dive", "wound")
    play(s, EndTurn())
    return s


# -- routes (R-ACT-2) count the actions left (R-ACT-1) --------------------------------
def test_r_act_2_with_one_action_left_move_and_run_is_not_offered_as_possible() -> None:
    """R-ACT-2: Move + Run is 2 actions. After an attack Kestrel has 1 left: the camp (Short)
    is in reach but not now, and the route says it needs 2 with only 1 left; the trench
    (Melee band) is still a Move. Picking the camp anyway is refused with the same words
    the route carries, not "no actions left".
    """
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    found = by_zone(s)
    camp, trench, dig = found["camp"], found["trench"], found["dig"]
    assert (camp.reachable, camp.possible, camp.left, camp.actions) == (True, False, 1, 2)
    assert camp.cost == "Move + Run needs 2 actions, only 1 left"
    assert camp.why == (
        "Move + Run (R-ACT-2) takes 2 actions, but Kestrel Vance has only 1 left this turn:"
        " used 1 (attack)"
    )
    assert camp.why == move_refusal(s.encounter, camp.move)
    refused(s, camp.move, f"^{re.escape(camp.why)}$")
    assert (trench.possible, trench.cost, trench.why) == (True, "Move, 1 action", "")
    assert (dig.reachable, dig.cost, dig.why) == (False, TOO_FAR, "")
    play(s, trench.move)
    assert s.encounter.get(K).zone == "trench"


def test_r_act_1_with_no_action_left_no_route_is_possible() -> None:
    s = duel()
    s.apply(TakeAction(K, "dodge"))
    s.apply(TakeAction(K, "aim"))
    found = by_zone(s)
    assert found["trench"].cost == "Move needs 1 action, none left"
    assert found["camp"].cost == "Move + Run needs 2 actions, none left"
    assert found["trench"].why == "Kestrel Vance has no actions left this turn"
    assert not any(r.possible for r in found.values())


def test_r_act_1_a_second_move_is_refused_by_name_not_by_count() -> None:
    """R-ACT-1: no action twice. After a Move Kestrel still has 1 action, but not a Move."""
    s = duel()
    play(s, Move(K, "trench"))
    ridge = by_zone(s)["ridge"]
    assert (ridge.reachable, ridge.possible, ridge.left) == (True, False, 1)
    assert ridge.cost == (
        "not now: Kestrel Vance already took move this turn: no action twice (R-ACT-1)"
    )


def test_r_act_2_routes_off_turn_do_not_count_actions_but_say_whose_turn_it_is() -> None:
    s = duel()
    camp = by_zone(s, R1)["camp"]
    assert (camp.band, camp.left, camp.possible) == (RangeBand.SHORT, None, False)
    assert camp.cost == "not now: it is not Pirate raider 1's turn"


def test_r_act_3_bought_actions_count_in_the_routes() -> None:
    """R-WOUND-4 / R-ACT-3: a Hero who lost both actions may still buy a third."""
    s = wounded_after_a_dive()
    assert by_zone(s)["camp"].cost == "Move + Run needs 2 actions, none left"
    play(s, DeclareActions(4))
    camp = by_zone(s)["camp"]
    assert (camp.left, camp.possible, camp.cost) == (2, True, "Move + Run, 2 actions")


# -- the causes, in the rules' words -----------------------------------------------------
def test_r_wound_4_r_atk_5_turn_start_and_refusal_name_the_wound_and_the_dive() -> None:
    s = wounded_after_a_dive()
    assert last(s) == (
        "Round 1: Kestrel Vance's turn",
        (f"Kestrel Vance loses 2 actions — {WOUND_AND_DIVE}",),
    )
    kestrel = s.encounter.get(K)
    assert (kestrel.lose_actions, kestrel.lose_why, left(s, K)) == (0, (), 0)
    why = action_refusal(s.encounter, Attack(K, R1, "assault-laser"))
    assert why == (
        f"Kestrel Vance has no actions left this turn: lost 2 — {WOUND_AND_DIVE};"
        " a Hero may still declare extra actions (x, R-ACT-3)"  # R-WOUND-4 (issue 18)
    )
    assert by_zone(s)["trench"].why == why


def test_s8_shaken_costs_its_action_and_move_and_run_says_so() -> None:
    """§8 Shaken: −1 action. A Shaken raider has 1 action: Move + Run needs 2, and the
    refusal names Shaken as what took the other.
    """
    s = duel()
    edit(s, R1, fear=4)  # Fear ≥ Morale 4 at its turn start: Shaken (R-FEAR-1)
    to_raiders(s)
    assert "Pirate raider 1 loses 1 action — Shaken: −1 action (§8)" in last(s)[1]
    camp = by_zone(s, R1)["camp"]
    assert camp.cost == "Move + Run needs 2 actions, only 1 left"
    assert camp.why == (
        "Move + Run (R-ACT-2) takes 2 actions, but Pirate raider 1 has only 1 left this"
        " turn: lost 1 — Shaken: −1 action (§8)"
    )
    assert by_zone(s, R2)["camp"].possible  # its group-mate is not Shaken


def test_s8_dazed_names_its_level() -> None:
    s = duel()
    s.apply(SetCondition(R1, "dazed", 2))
    to_raiders(s)
    assert "Pirate raider 1 loses 2 actions — Dazed 2: −2 actions (§8)" in last(s)[1]
    assert action_refusal(s.encounter, Attack(R1, K, "laser-pistol")) == (
        "Pirate raider 1 has no actions left this turn: lost 2 — Dazed 2: −2 actions (§8)"
    )


def test_r_act_5_full_defense_needs_both_actions_before_either_is_spent() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    refused(
        s,
        TakeAction(K, "full-defense"),
        r"^full-defense \(R-ACT-5\) takes 2 actions, but Kestrel Vance has only 1 left"
        r" this turn: used 1 \(attack\)$",
    )
    assert left(s, K) == 1


def test_r_wound_4_carried_losses_group_causes_and_cover_an_uncounted_rest() -> None:
    """A combatant's losses grouped by cause; a count set without one (a GM edit) still
    gets the rules' words rather than nothing.
    """
    s = duel()
    kestrel: Combatant = edit(s, K, lose_actions=4, lose_why=("wound", "dive", "wound"))
    assert carried_losses(kestrel) == (
        "2 wounds: −2 actions (R-WOUND-4)",
        "dived for cover: −1 action (R-ATK-5)",
        "wounds or a dive: −1 action (R-WOUND-4, R-ATK-5)",
    )
    assert carried_losses(edit(s, K, lose_actions=0, lose_why=())) == ()


def test_r_wound_4_r_atk_5_actions_still_to_lose_end_with_the_fight() -> None:
    """Losses are for the next turn of that fight: ending combat drops them, so a new fight
    started in the same encounter does not open with "loses 2 actions".
    """
    s = duel(RAIDERS_FIRST)
    play(s, Attack(R1, K, "laser-pistol"), 1, 9, 9, 9)
    play(s, AnswerDive("light"), 9, 3, 5, 4)
    assert s.encounter.get(K).lose_actions == 2
    s.apply(EndCombat())
    kestrel = s.encounter.get(K)
    assert (kestrel.lose_actions, kestrel.lose_why, carried_losses(kestrel)) == (0, (), ())
