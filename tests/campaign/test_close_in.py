"""R-ACT-2 in imagination mode: Move+Run is "one full band closer". Toward a zone farther
than Short the mover runs to a spot one band along the way, a zone the engine adds.
"""

from __future__ import annotations

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    CloseIn,
    EndTurn,
    SetBand,
    StartCombat,
)
from hsm_tui.rules import RangeBand, RulesError
from hsm_tui.table.session import Session
from tests.campaign import new_session

RAIDER = "pirate-raider-1"


def _field() -> Session:
    """Raiders in the dig, Long from Kestrel on the ridge; the camp Short from the ridge
    and Medium from the dig. The raiders act first (seed 3).
    """
    session = new_session(
        AddZone("ridge"),
        AddZone("dig"),
        AddZone("camp"),
        SetBand("ridge", "dig", "long"),
        SetBand("ridge", "camp", "short"),
        SetBand("dig", "camp", "medium"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        seed=3,
    )
    session.apply(StartCombat())
    assert session.encounter.turn.actor.startswith("pirate-raider")
    return session


def test_r_act_2_close_in_runs_one_band_nearer_to_a_new_spot() -> None:
    session = _field()
    session.apply(CloseIn(RAIDER, "Ridge"))  # zone names in any case
    enc = session.encounter
    spot = "dig → ridge (medium)"
    assert enc.get(RAIDER).zone == spot and spot in enc.zones
    assert enc.zone_band(spot, "dig") is RangeBand.SHORT  # one band from where it was
    assert enc.zone_band(spot, "ridge") is RangeBand.MEDIUM  # one band nearer: Long → Medium
    # the camp: as far as the dig was (Medium), within what ridge ↔ camp (Short) allows
    assert enc.zone_band(spot, "camp") is RangeBand.MEDIUM
    assert enc.turn.used_by(RAIDER) == ("move", "run")  # R-ACT-2: Move + Run, both actions
    assert session.log[-2].title == "Pirate raider 1 closes in on ridge: one band nearer (R-ACT-2)"


def test_r_act_2_a_second_mover_joins_the_spot_and_the_next_turn_goes_on() -> None:
    session = _field()
    session.apply(CloseIn(RAIDER, "ridge"))
    session.apply(CloseIn("pirate-raider-2", "ridge"))
    enc = session.encounter
    assert enc.zones.count("dig → ridge (medium)") == 1
    assert enc.get("pirate-raider-2").zone == enc.get(RAIDER).zone
    while not session.encounter.turn.actor.startswith("pirate-raider"):
        session.apply(EndTurn())
    session.apply(EndTurn())
    while not session.encounter.turn.actor.startswith("pirate-raider"):
        session.apply(EndTurn())
    session.apply(CloseIn(RAIDER, "ridge"))  # Medium → Short: named from the first origin
    assert session.encounter.get(RAIDER).zone == "dig → ridge (short)"
    assert session.encounter.zone_band("dig → ridge (short)", "ridge") is RangeBand.SHORT


def test_r_act_2_close_in_toward_a_medium_zone_lands_short_of_it() -> None:
    session = _field()
    session.apply(CloseIn(RAIDER, "camp"))
    assert session.encounter.get(RAIDER).zone == "dig → camp (short)"
    assert session.encounter.zone_band("dig → camp (short)", "camp") is RangeBand.SHORT


@pytest.mark.parametrize(
    ("toward", "message"),
    [
        ("dig", r"Pirate raider 1 is already in dig"),
        ("trench", r"trench is short from dig: move there \(m\) instead"),
        ("moon", r"no zone"),
    ],
)
def test_close_in_is_only_for_zones_farther_than_short(toward: str, message: str) -> None:
    session = _field()
    session.apply(AddZone("trench"))
    session.apply(SetBand("dig", "trench", "short"))
    before = session.encounter
    with pytest.raises(RulesError, match=message):
        session.apply(CloseIn(RAIDER, toward))
    assert session.encounter == before


def test_close_in_undoes_the_spot_too() -> None:
    session = _field()
    zones, bands = session.encounter.zones, session.encounter.bands
    session.apply(CloseIn(RAIDER, "ridge"))
    session.undo()
    assert (session.encounter.zones, session.encounter.bands) == (zones, bands)


def test_a_spot_on_the_way_reads_once_in_the_move_menu() -> None:
    """Issue 19 #5: the spot's name holds its band to where it leads; the menu says how
    far it is from the mover in words, not in a second bracket."""
    from hsm_tui.campaign.combat import routes

    session = _field()
    session.apply(CloseIn(RAIDER, "ridge"))
    places = [r.place for r in routes(session.encounter, "pirate-raider-2")]
    assert "dig → ridge (medium), short from here" in places
    assert "camp (medium)" in places
    assert not any(") (" in place for place in places)
