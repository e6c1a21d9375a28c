"""Who can roll a free-flowing task and what their sheet brings to it: skills (R-CHAR-6),
Talents (R-CHAR-5) and Advantages (R-CHAR-6, R-TASK-6), from the pack entry.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import AddCombatants, AddZone
from hsm_tui.campaign.party import AddHero, Roller, rollers
from hsm_tui.rules import Rank
from tests.campaign import edit, new_session


def _rollers(s) -> dict[str, Roller]:
    return {r.who: r for r in rollers(s.campaign, s.encounter, s.catalog)}


def test_r_char_5_6_a_party_hero_brings_her_skills_talents_and_advantages() -> None:
    s = new_session(AddHero("kestrel-vance"))
    kestrel = _rollers(s)["party:kestrel-vance"]
    assert kestrel.rank is Rank.HERO
    assert kestrel.talents == ("Firefights", "Squad tactics")
    assert kestrel.advantages[0] == "Combat veteran: one re-roll on Morale rolls while under fire"
    assert ("rifles", 2) in kestrel.skills


def test_r_char_5_6_combatants_bring_their_entrys_sheet() -> None:
    s = new_session(
        AddZone("ridge"),
        AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "ridge"),
    )
    guide, raider = _rollers(s).values()
    assert (guide.name, raider.name) == ("Tamsin Reyes, veteran guide", "Pirate raider")
    assert guide.rank is None  # R-CHAR-8: Hero or Minion rules not picked yet
    assert guide.talents == ("Tracking", "Wilderness lore")
    assert guide.advantages[0].startswith("Knows the ground: one re-roll")
    assert (raider.rank, raider.talents) == (Rank.MINION, ())


def test_a_combatant_whose_entry_is_not_loaded_brings_no_sheet() -> None:
    s = new_session(AddZone("ridge"), AddCombatants("sidekick", "veteran-guide", "g", "ridge"))
    [cid] = [c.id for c in s.encounter.combatants]
    assert _rollers(s)[cid].skills  # the pack's Tamsin Reyes has skills …
    edit(s, cid, entry="gone")
    guide = _rollers(s)[cid]
    assert (guide.skills, guide.talents, guide.advantages) == ((), (), ())  # … a stranger none
