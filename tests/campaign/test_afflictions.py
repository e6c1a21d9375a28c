"""§8 Nauseated and Fatigued on free-flowing tasks (F2), and the conditions a party Hero
keeps between fights (issue 18 #6). Each test quotes the rulebook's Conditions section.
"""

from __future__ import annotations

from fractions import Fraction

from hsm_tui.campaign.combat import AddZone, ClearEncounter, SetCondition
from hsm_tui.campaign.conditions import afflicted_success
from hsm_tui.campaign.freeflow import PendingRerolls
from hsm_tui.campaign.party import AddHero, AddParty, rollers
from hsm_tui.rules import Rank, task_odds, task_tn
from hsm_tui.table.session import RollTask
from tests.campaign import edit, new_session, play, refused
from tests.campaign.test_combat_engine import K, duel

HERO = "kestrel-vance"
PARTY_K = f"party:{HERO}"
TN = task_tn([("Agility", 3), ("Senses", 2)])  # 5


def test_s8_fatigued_a_successful_task_is_rolled_again_to_confirm() -> None:
    """§8 Fatigued: "The character must re-roll all successful Trait rolls. (Re-rolls can
    be made after this re-roll.)" — an F2 task of a party Hero outside a fight: the 3
    succeeds, the confirming 9 fails, and the re-roll question serves the confirmation.
    """
    s = new_session(AddHero(HERO), SetCondition(PARTY_K, "fatigued"))
    assert s.campaign.member(HERO).conditions == ("fatigued",)
    play(s, RollTask(TN, Rank.HERO, who=PARTY_K), 3, 2, 9, 2)
    lines = s.log[-1].lines
    assert "Fatigued: success 25.0%" in lines  # 1/2 twice running
    assert lines[-2:] == (
        "roll d10 3 ≤ TN 5 ✓ · Hero die 2 · blank",
        "Fatigued, confirm: d10 9 > TN 5 ✗ · Hero die 2 · blank",
    )
    pending = s.pending
    assert isinstance(pending, PendingRerolls) and not pending.roll.success


def test_s8_nauseated_every_task_rolls_a_d10_against_stamina_minus_one() -> None:
    """§8 Nauseated: "Every time the character rolls a Task, it also rolls a single d10
    against Stamina (-1) … If the Stamina roll was a failure, the target number of the Task
    being attempted is reduced by 1. When the character rolls a Misfortune while
    nauseated, it vomits." — Kestrel (Stamina 6) on F2 in a fight.
    """
    s = duel()
    s.apply(SetCondition(K, "nauseated"))
    play(s, RollTask(TN, Rank.HERO, who=K), 8, 5, 1)  # nausea 8 > 5: TN 4; d10 5 fails
    lines = s.log[-1].lines
    assert "nausea d10 8 > 5: −1" in lines
    assert lines[-2:] == (
        "roll d10 5 > TN 4 ✗ · Hero die 1 ✗ Misfortune",
        "Misfortune while Nauseated: it vomits (§8)",
    )
    assert "Nauseated: success" in lines[-4]


def test_s8_afflicted_odds_are_exact() -> None:
    """The odds shown count the conditions: Fatigued without re-rolls succeeds twice
    running (p²); Nauseated averages the TN and the TN − 1 by the d10's chance to hold.
    """
    p = task_odds(5, Rank.HERO).success
    assert afflicted_success(5, Rank.HERO, 0, None, True) == p * p
    holds = Fraction(5, 10)  # Stamina 6: d10 ≤ 5
    lower = task_odds(4, Rank.HERO).success
    assert afflicted_success(5, Rank.HERO, 0, holds, False) == holds * p + holds * lower
    one, best = p, task_odds(5, Rank.HERO, 1).success
    assert afflicted_success(5, Rank.HERO, 1, None, True) == one * best + best - one


def test_a_party_hero_keeps_lasting_conditions_between_fights_and_no_others() -> None:
    """§8 Fatigued "goes away only when the character has at least one hour of
    uninterrupted rest": a party Hero carries it into a fight and back out; Fear's Shaken
    is the fight's and stays behind; outside a fight only the lasting ones are set.
    """
    s = new_session(AddHero(HERO), AddZone("ridge"))
    s.apply(SetCondition(PARTY_K, "encumbered", 1))
    roller = next(r for r in rollers(s.campaign, s.encounter, s.catalog) if r.who == PARTY_K)
    assert roller.condition_penalty == -1  # R-OTHER-1 Encumbered: −1 to all TNs, on F2 too
    refused(s, SetCondition(PARTY_K, "shaken"), "outside a fight a Hero keeps only")
    s.apply(SetCondition(PARTY_K, "fatigued"))
    s.apply(AddParty("ridge"))
    kestrel = s.encounter.combatants[0]
    assert kestrel.conditions == ("encumbered:1", "fatigued")
    s.apply(SetCondition(kestrel.id, "nauseated"))  # in the encounter: on its combatant
    now = s.encounter.get(kestrel.id).conditions
    edit(s, kestrel.id, conditions=(*now, "painful", "shaken"))  # what a fight left on her
    s.apply(ClearEncounter())  # the party takes back what lasts
    assert s.campaign.member(HERO).conditions == ("encumbered:1", "fatigued", "nauseated")
