"""§7 row 6, Equipment destroyed: "Randomly choose one piece of equipment carried by the
character. It no longer operates." The pick, its refusals, the GM's own pick, undo, and
the campaign keeping it from fight to fight and in the file.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    Attack,
    ClearEncounter,
    EndCombat,
    RollChart,
    SetBand,
    SetDestroyed,
    StartCombat,
    Suppress,
    TakeAction,
    carried_items,
)
from hsm_tui.campaign.party import AddHero, AddParty
from hsm_tui.persistence import store
from hsm_tui.table.session import Session
from tests.campaign import new_session, pack, play, refused

K, R1 = "kestrel-vance-1", "pirate-raider-1"


def party_fight() -> Session:
    """Kestrel Vance of the party on the ridge, a pirate raider in the dig."""
    s = new_session(
        AddHero("kestrel-vance"),
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "medium"),
        AddParty("ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
    )
    return play(s, StartCombat(), 5, 1)


def test_s7_row_6_destroys_a_random_carried_piece_and_its_use_is_refused() -> None:
    s = party_fight()
    kestrel = s.encounter.get(K)
    assert [name for _, name in carried_items(kestrel, s.catalog)] == [
        "Assault Laser",
        "Laser Pistol",
        "Dagger",
        "Armoured vest",
        "Field medkit",
        "Rations and water",
    ]  # the pack's equipment list names her weapons too: each piece once
    # the grip roll (d10 1, Hero die 2) keeps hold; chart d10 6 + 0 = 6; the pick: 2 of 6
    play(s, RollChart(K, overflow=0), 1, 2, 6, 2)
    kestrel = s.encounter.get(K)
    assert kestrel.chart == ("equipment-destroyed",) and kestrel.destroyed == ("laser-pistol",)
    assert "Laser Pistol no longer works (a random pick of 6)" in s.log[-1].lines
    why = re.escape("Laser Pistol was destroyed (§7 Equipment destroyed): it no longer works")
    refused(s, Attack(K, R1, "laser-pistol"), why)
    refused(s, Suppress(K, "laser-pistol", (R1,)), why)
    refused(s, TakeAction(K, "draw", "laser-pistol"), why)
    s.undo()
    assert s.encounter.get(K).destroyed == ()


def test_s7_row_6_the_gm_picks_or_mends_a_piece_and_undo_takes_it_back() -> None:
    s = party_fight()
    s.apply(SetDestroyed(K, "Field medkit"))
    assert s.encounter.get(K).destroyed == ("Field medkit",)
    assert s.log[-1].title == (
        "Kestrel Vance's Field medkit no longer works (§7 Equipment destroyed, the GM's call)"
    )
    refused(s, SetDestroyed(K, "Field medkit"), "is destroyed already")
    refused(s, SetDestroyed(K, "jetpack"), "carries no 'jetpack'")
    s.apply(SetDestroyed(K, "Field medkit", destroyed=False))
    assert s.encounter.get(K).destroyed == ()
    s.undo()
    assert s.encounter.get(K).destroyed == ("Field medkit",)


def test_s7_row_6_a_party_hero_keeps_the_wreck_from_fight_to_fight_and_in_the_file(
    tmp_path: Path,
) -> None:
    s = party_fight()
    s.rng = random.Random(3)  # the file keeps a real generator's state
    s.apply(SetDestroyed(K, "laser-pistol"))
    s.apply(EndCombat())
    assert s.campaign.member("kestrel-vance").destroyed == ("laser-pistol",)
    store.save(s, tmp_path / "wreck.toml")
    loaded = Session(content=pack())
    store.load(loaded, tmp_path / "wreck.toml")
    assert loaded.campaign.member("kestrel-vance").destroyed == ("laser-pistol",)
    assert loaded.encounter.get(K).destroyed == ("laser-pistol",)
    refused(loaded, SetDestroyed(K, "laser-pistol"), "is destroyed already")
    loaded.apply(ClearEncounter())
    loaded.apply(AddParty("ridge"))  # the next fight: the pistol still does not work
    assert loaded.encounter.get(K).destroyed == ("laser-pistol",)


def test_s7_row_6_with_nothing_left_that_works_nothing_more_is_destroyed() -> None:
    s = party_fight()
    for key, _ in carried_items(s.encounter.get(K), s.catalog):
        s.apply(SetDestroyed(K, key))
    play(s, RollChart(K, overflow=0), 1, 2, 6)  # no die for a pick
    assert "Kestrel Vance carries nothing that still works" in s.log[-1].lines[-1]
