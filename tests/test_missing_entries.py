"""Issue 20 §5: a campaign that names pack entries the loaded packs no longer have opens
with each one named, kept as saved (a placeholder where it is shown), never dropped.
"""

from __future__ import annotations

from pathlib import Path

from hsm_tui.campaign.combat import AddCombatants, AddZone
from hsm_tui.campaign.party import AddHero, AddToRoster
from hsm_tui.packs import load
from hsm_tui.persistence import store
from hsm_tui.table.session import Session


def test_a_save_naming_entries_the_packs_lost_opens_and_names_each(tmp_path: Path) -> None:
    session = Session(seed=1)
    session.load_content()
    for command in (
        AddHero("kestrel-vance"),
        AddToRoster("minion", "cultist-zealot"),
        AddZone("dig"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
    ):
        session.apply(command)
    path = store.save(session, tmp_path / "lost.toml")
    empty = tmp_path / "packs"
    empty.mkdir()
    later = Session(seed=1, content=load([empty]))  # the packs are gone since the save
    answer = store.load(later, path)
    assert "hero 'kestrel-vance' is not in the loaded packs" in answer
    assert "roster: minion 'cultist-zealot' is not in the loaded packs" in answer
    assert "Pirate raider: entry 'pirate-raider' is not in the loaded packs" in answer
    assert "(Pirate raider cannot use it)" in answer
    assert later.campaign.roster == session.campaign.roster  # kept, not dropped
    assert later.encounter.combatants == session.encounter.combatants
