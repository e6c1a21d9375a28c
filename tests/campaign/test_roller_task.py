"""A player's own task (issue 21): the engine builds it from the roller's own scores,
R-TASK-1 with R-WOUND-3's wound marker, §8's condition penalty and R-CHAR-5's Talent."""

from __future__ import annotations

from dataclasses import replace

from hsm_tui.campaign.freeflow import own_task
from hsm_tui.campaign.party import AddHero, rollers
from hsm_tui.rules import Rank, Trait
from hsm_tui.table.session import Session


def test_r_task_1_a_rollers_task_counts_its_wounds_conditions_and_talent() -> None:
    session = Session(seed=1)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    (kestrel,) = rollers(session.campaign, session.encounter, session.catalog)
    hurt = replace(kestrel, wound_penalty=-1, condition_penalty=-1)
    agility, senses = kestrel.traits[Trait.AGILITY], kestrel.traits[Trait.SENSES]
    plain = own_task(hurt, [Trait.AGILITY, Trait.SENSES])
    assert plain.tn.value == agility + senses - 2 and plain.rerolls == 0
    assert (plain.rank, plain.who) == (Rank.HERO, "party:kestrel-vance")
    doubled = own_task(hurt, [Trait.AGILITY], ("Stealth", 2), talent="Sneaky", difficulty=1)
    assert doubled.tn.value == 2 * agility + 2 + 1 - 1 - 2 and doubled.rerolls == 1


def test_s7_maimed_takes_one_off_every_later_charm_task() -> None:
    """§7 (the chart's Maimed, row 19): "−1 to every TN that involves Charm from now on":
    a party Hero who carries it rolls Charm tasks one lower, in F2 and on the player's
    own task screen; a task without Charm is as before.
    """
    session = Session(seed=1)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    (kestrel,) = rollers(session.campaign, session.encounter, session.catalog)
    maimed = replace(kestrel, chart=("maimed",))
    charm = [Trait.CHARM, Trait.SAVVY]
    assert own_task(maimed, charm).tn.value == own_task(kestrel, charm).tn.value - 1
    assert "maimed 1" in own_task(maimed, charm).tn.explain()
    other = [Trait.AGILITY, Trait.SENSES]
    assert own_task(maimed, other).tn == own_task(kestrel, other).tn
    member = replace(session.campaign.member("kestrel-vance"), chart=("maimed",))
    campaign = session.campaign.with_member(member)  # carried from the chart as any row
    (carried,) = rollers(campaign, session.encounter, session.catalog)
    assert carried.chart == ("maimed",) and carried.lasting(charm)
