"""Spots on the way (R-ACT-2 imagination mode): a lone Move goes halfway along a band,
the next Move completes it; a spot nobody stands in goes (and undo brings it back); a
zone the GM names is short enough for the board and never looks like a spot.

Kestrel Vance on the ridge against two raiders in the dig: ridge–dig Medium, ridge–camp
Short, ridge–trench Melee (``duel``: Kestrel acts first, Luck spent, so no questions).
"""

from __future__ import annotations

from hsm_tui.campaign.combat import (
    AddZone,
    ClearEncounter,
    CloseIn,
    EndCombat,
    EndTurn,
    Move,
    RemoveCombatant,
    SetCondition,
    TakeAction,
    on_the_way,
    routes,
)
from hsm_tui.campaign.combat.setup import MAX_ZONE_NAME, zone_name_refusal
from hsm_tui.rules import RangeBand
from hsm_tui.table.session import Session
from tests.campaign import play, refused
from tests.campaign.test_combat_engine import R1, RAIDERS_FIRST, K, duel

HALF_CAMP, HALF_DIG, SHORT_OF_DIG = (
    "ridge → camp (short, halfway)",
    "ridge → dig (medium, halfway)",
    "ridge → dig (short)",
)


def _to_kestrels_next_turn(s: Session) -> None:
    s.apply(EndTurn())
    while s.encounter.turn.actor != K:
        s.apply(EndTurn())


def test_r_act_2_a_lone_move_toward_a_zone_at_short_goes_halfway() -> None:
    """The issue's case: one action left, and the camp at Short is still a step closer."""
    s = duel()
    s.apply(TakeAction(K, "aim"))
    s.apply(Move(K, "camp"))
    enc = s.encounter
    assert enc.get(K).zone == HALF_CAMP and HALF_CAMP in enc.zones
    assert enc.zone_band(HALF_CAMP, "camp") is RangeBand.SHORT  # half a band: still Short
    assert enc.zone_band(HALF_CAMP, "dig") is RangeBand.MEDIUM  # the ridge's bands
    assert enc.zone_band(HALF_CAMP, "ridge") is RangeBand.MELEE  # a Move back
    assert enc.turn.used_by(K) == ("aim", "move")
    assert s.log[-1].title == f"Kestrel Vance moves to {HALF_CAMP} (out of cover)"
    assert on_the_way(HALF_CAMP) == ("ridge", "camp", RangeBand.SHORT, True)


def test_r_act_2_the_next_move_completes_the_band_this_turn_as_the_run() -> None:
    s = duel()
    s.apply(Move(K, "camp"))
    (camp,) = [r for r in routes(s.encounter, K) if r.move.zone == "camp"]
    assert camp.completes and camp.possible and camp.close_in is None and camp.halfway is None
    s.apply(Move(K, "camp"))  # Move was taken: the Run that goes with it (R-ACT-1)
    assert s.encounter.get(K).zone == "camp"
    assert s.encounter.turn.used_by(K) == ("move", "run")
    assert HALF_CAMP not in s.encounter.zones  # nobody left there: the spot goes
    assert not any(HALF_CAMP in t[:2] for t in s.encounter.bands)


def test_r_act_2_halfway_along_a_medium_band_then_on_to_the_spot_short_of_it() -> None:
    s = duel()
    s.apply(Move(K, "dig"))
    assert s.encounter.get(K).zone == HALF_DIG
    assert s.encounter.zone_band(HALF_DIG, "dig") is RangeBand.MEDIUM
    _to_kestrels_next_turn(s)
    s.apply(Move(K, "dig"))  # a later turn: the Move completes the band
    enc = s.encounter
    assert enc.get(K).zone == SHORT_OF_DIG and HALF_DIG not in enc.zones
    assert enc.zone_band(SHORT_OF_DIG, "dig") is RangeBand.SHORT
    assert enc.turn.used_by(K) == ("move",)


def test_r_act_2_the_move_menu_offers_halfway_beside_move_and_run() -> None:
    s = duel()
    s.apply(TakeAction(K, "aim"))  # one action left
    (camp,) = [r for r in routes(s.encounter, K) if r.move.zone == "camp"]
    assert not camp.possible and "needs 2 actions, only 1 left" in camp.cost
    assert camp.halfway == Move(K, "camp") and camp.halfway_why == ""
    (trench,) = [r for r in routes(s.encounter, K) if r.move.zone == "trench"]
    assert trench.halfway is None  # at Melee band a Move gets there


def test_r_act_2_a_slowed_mover_completes_no_band_with_a_run() -> None:
    s = duel()
    s.apply(Move(K, "camp"))
    s.apply(SetCondition(K, "slowed"))
    refused(s, Move(K, "camp"), "stopped in passing")


def test_issue_36_4_a_close_in_lost_to_pinned_leaves_no_spot() -> None:
    """§8: a Pinned mover fails its Morale roll: the Move + Run is lost, and the spot it
    would have run to never appears in a menu, on the board or in F7."""
    s = duel()
    s.apply(SetCondition(K, "pinned"))
    zones = s.encounter.zones
    play(s, CloseIn(K, "dig"), 9, 2)  # Morale 4: the 9 fails
    assert s.encounter.get(K).zone == "ridge"
    assert s.encounter.zones == zones and s.encounter.turn.used_by(K) == ("move", "run")
    assert s.log[-1].title == "Kestrel Vance is Pinned"


def test_issue_36_4_a_spot_left_empty_goes_and_undo_brings_it_back() -> None:
    s = duel()
    s.apply(CloseIn(K, "dig"))
    assert SHORT_OF_DIG in s.encounter.zones
    _to_kestrels_next_turn(s)
    with_spot = s.encounter
    s.apply(Move(K, "dig", run=True))
    assert SHORT_OF_DIG not in s.encounter.zones
    assert s.log[-1].lines[-1] == f"nobody is left at {SHORT_OF_DIG}: the spot goes"
    s.undo()
    assert s.encounter == with_spot


def test_issue_36_4_a_spot_stays_while_someone_is_in_it() -> None:
    s = duel(RAIDERS_FIRST)
    s.apply(CloseIn(R1, "ridge"))
    s.apply(CloseIn("pirate-raider-2", "ridge"))
    spot = s.encounter.get(R1).zone
    s.apply(EndTurn())
    s.apply(RemoveCombatant(R1))
    assert spot in s.encounter.zones  # raider 2 is still there
    s.apply(RemoveCombatant("pirate-raider-2"))
    assert spot not in s.encounter.zones


def test_issue_36_4_a_new_encounter_keeps_the_scene_not_the_spots() -> None:
    s = duel()
    s.apply(Move(K, "camp"))
    s.apply(EndCombat())
    s.apply(ClearEncounter(keep_zones=True))
    assert s.encounter.zones == ("ridge", "dig", "trench", "camp")
    assert all(on_the_way(z) is None for t in s.encounter.bands for z in t[:2])


def test_issue_36_10_a_zone_name_fits_the_board_and_never_reads_as_a_spot() -> None:
    assert zone_name_refusal((), "x" * MAX_ZONE_NAME) == ""
    long = "x" * 200
    assert zone_name_refusal((), long) == "a zone name is at most 24 characters (this one has 200)"
    s = duel()
    refused(s, AddZone(long), "at most 24 characters")
    refused(s, AddZone("ridge → dig (short)"), "→ marks a spot on the way")
