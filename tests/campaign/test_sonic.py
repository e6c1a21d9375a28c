"""The Sonic Relik's cone (issue 18 #5). Rulebook, Sonic Relik card, Special: "The wielder
user sets the Dmg. to a die type and fires it in a direction. The sound fires as a cone.
Everyone in that cone who can hear must roll Stamina or take the die type of damage for
each charge used." (RULES.md §10 weapon cards). Each test failed before the SonicBlast
command existed.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    DecideSidekick,
    EndTurn,
    PendingCombatRerolls,
    SetBand,
    SetCondition,
    SetPools,
    SonicBlast,
    SpendCombatRerolls,
    StartCombat,
    TakeAction,
    plan_sonic,
    sonic_weapons,
)
from hsm_tui.persistence import store
from hsm_tui.rules import Derived, Rank, task_odds
from hsm_tui.rules.errors import NotPermitted
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from tests.campaign import Scripted, charges, edit, new_session, pack, play, refused, set_charges
from tests.campaign.test_combat_engine import last, left

RELIK = "sonic-relik"
W, R1, R2, K = "cult-defector-1", "pirate-raider-1", "pirate-raider-2", "kestrel-vance-1"
WATCHER = Seat(Role.WATCHER, "wes")
D8 = 2  # the card's options: 1d4, 1d6, 1d8, 1d10, 1d12


def armed(seed: int | None = None) -> Session:
    """Ansel (the cult defector, a Hero) holds a full Sonic Relik on the ridge; two pirate
    raiders in the dig (Medium), the camp at Long; his turn first (``seed`` 5 rolls it so).
    """
    s = new_session(
        AddZone("ridge"),
        AddZone("dig"),
        AddZone("camp"),
        SetBand("ridge", "dig", "medium"),
        SetBand("ridge", "camp", "long"),
        AddCombatants("sidekick", "cult-defector", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        DecideSidekick(W, "hero"),
        SetPools(W, luck=0),
        seed=seed or 0,
    )
    if seed is not None:  # dice a campaign file can replay
        s.apply(StartCombat())
        return s
    return play(s, StartCombat(), 9, 3)


def test_sonic_relik_each_hearer_rolls_stamina_or_takes_the_die_per_charge() -> None:
    """Sonic Relik card: "Everyone in that cone who can hear must roll Stamina or take the
    die type of damage for each charge used": 3 charges of d8 → a failure takes 3d8 against
    Health (R-DMG-2); a pass takes nothing; the charges are spent (R-ATK-3).
    """
    s = armed()
    play(s, SonicBlast(W, RELIK, 3, D8, (R1, R2)), 9, 1, 2, 3, 1)  # R1 fails, R2 holds
    assert charges(s, W, RELIK) == 7
    assert left(s, W) == 1  # the blast is its Attack action (R-ACT-1)
    title, lines = last(s, 2)
    assert title == "Ansel Morrow, cult defector fires the Sonic Relik (Stamina or damage)"
    assert lines[0] == "Sonic Relik: 3 charge(s), Stamina or 3d8 at 2 target(s)"
    assert lines[1].startswith("Pirate raider 1: Stamina roll: d10 9") and "fails" in lines[1]
    assert lines[2].startswith("Pirate raider 2: Stamina roll: d10 1") and "holds" in lines[2]
    _, hit = last(s)
    assert hit[0] == "hit 1: damage 3d8! [2, 3, 1] = 6 vs Health 4 → 1 wound step → " + (
        "Pirate raider 1 is taken out (R-WOUND-2)"
    )
    assert s.encounter.get(R1).out and not s.encounter.get(R2).out
    assert s.encounter.get(R2).fear == 0  # who holds gains nothing


def test_sonic_relik_stamina_is_a_trait_roll_with_conditions() -> None:
    """§8 Shaken "−1 on all rolls" and R-WOUND-3 apply to the cone's Stamina roll as to any
    trait roll: a Shaken raider (Stamina 4) rolls against 3, so a 4 fails.
    """
    s = armed()
    s.apply(SetCondition(R1, "shaken"))
    play(s, SonicBlast(W, RELIK, 1, 0, (R1,)), 4, 1)  # 4 > 3: fails; 1d4 shows 1
    _, lines = last(s, 2)
    assert "fails" in lines[1]
    assert s.encounter.get(R1).fear == 1  # R-ATK-7: one more Fear per hit through


def test_sonic_relik_plan_shows_exact_odds_the_roll_then_plays() -> None:
    """Exact odds before firing: a raider's Stamina 4 fails 6 in 10, Shaken 7 in 10; a
    failure's 3d8 wounds Health 4 unless it totals 4 or less (4 of 512 rolls).
    """
    s = armed()
    s.apply(SetCondition(R2, "shaken"))
    plan = plan_sonic(s.encounter, SonicBlast(W, RELIK, 3, D8, (R1, R2)), s.catalog)
    one, two = plan.cone
    assert (one.fails, two.fails) == (Fraction(3, 5), Fraction(7, 10))
    assert plan.wounded(two) == Fraction(7, 10) * Fraction(508, 512)
    assert plan.preview()[2] == (
        "Pirate raider 2: Stamina TN 3, Health 4: fails 70.0% · wounded 69.5%"
    )
    assert [t.combatant.id for t in plan.candidates] == [R1, R2]  # anyone standing in range
    assert sonic_weapons(s.encounter.get(W), s.catalog) == (RELIK,)


def test_sonic_relik_refusals_come_from_the_engine() -> None:
    """R-ATK-3 "A weapon without enough charge cannot fire"; R-ACT-1 one Attack a turn,
    on its own turn; the card's Medium range; the cone needs someone in it.
    """
    s = armed()
    set_charges(s, W, RELIK, 2)
    refused(s, SonicBlast(W, RELIK, 3, D8, (R1,)), "spends 1 to 2 charge\\(s\\), not 3")
    refused(s, SonicBlast(W, RELIK, 0, D8, (R1,)), "not 0")
    set_charges(s, W, RELIK, 0)
    refused(s, SonicBlast(W, RELIK, 1, D8, (R1,)), "no charges left")
    set_charges(s, W, RELIK, 2)
    refused(s, SonicBlast(W, RELIK, 1, D8, ()), "at least one target")
    refused(s, SonicBlast(W, RELIK, 1, 9, (R1,)), "5 damage option")
    refused(s, SonicBlast(W, "dagger", 1, 0, (R1,)), "fires no sonic cone")
    refused(s, SonicBlast(R1, "laser-pistol", 1, 0, (W,)), "fires no sonic cone")
    s.apply(TakeAction(W, "dodge"))
    play(s, SonicBlast(W, RELIK, 1, 0, (R1,)), 1)  # holds
    refused(s, SonicBlast(W, RELIK, 1, 0, (R1,)), "no action twice")
    tired = armed()
    tired.apply(TakeAction(W, "dodge"))
    tired.apply(TakeAction(W, "aim"))
    refused(tired, SonicBlast(W, RELIK, 1, 0, (R1,)), "no actions left")
    play(s, EndTurn())
    refused(s, SonicBlast(W, RELIK, 1, 0, (R1,)), "not Ansel Morrow, cult defector's turn")
    s2 = armed()
    edit(s2, R2, zone="camp")
    refused(s2, SonicBlast(W, RELIK, 1, 0, (R2,)), "beyond Sonic Relik's medium range")
    stuck = armed()
    ansel = stuck.encounter.get(W)
    edit(stuck, W, weapons=tuple(replace(w, stuck=2 * (w.id == RELIK)) for w in ansel.weapons))
    refused(
        stuck,
        SonicBlast(W, RELIK, 1, 0, (R1,)),
        "Sonic Relik is stuck: Interact to free it \\(2 action",
    )


def test_sonic_relik_a_minions_stamina_and_health_are_the_gms() -> None:
    """Issue 21: a Minion's Stamina TN and Health are the GM's numbers in the log."""
    s = armed()
    play(s, SonicBlast(W, RELIK, 1, 4, (R1,)), 9, 5)
    gm = [line for entry in s.log[-2:] for line in entry.gm_lines]
    seen = [line for entry in s.view(WATCHER).log[-2:] for line in entry.lines]
    assert any("TN 4" in line for line in gm) and any("Health 4" in line for line in gm)
    assert not any(re.search(r"(TN|Health) \d", line) for line in seen), seen


def test_sonic_relik_round_trips_through_a_campaign_file_and_undo(tmp_path: Path) -> None:
    """A SonicBlast in the history saves, loads and undoes like any command."""
    s = armed(seed=5)
    assert s.encounter.turn is not None and s.encounter.turn.actor == W
    s.apply(SonicBlast(W, RELIK, 1, 4, (R1,)))
    assert store.save(s, tmp_path / "sonic.toml") == tmp_path / "sonic.toml"
    loaded = Session(content=pack())
    store.load(loaded, tmp_path / "sonic.toml")
    assert loaded.encounter == s.encounter
    loaded.undo()
    assert loaded.encounter.get(W).weapon(RELIK).charges == 10
    assert loaded.encounter.get(R1).traits[Derived.HEALTH] == 4 and not loaded.encounter.get(R1).out


def test_s8_pinned_wielder_rolls_morale_before_the_blast() -> None:
    """§8 Pinned: "must make a Morale roll before doing anything that exposes it to the
    shooter (including shoot back)": the blast is an attack, so a failure loses it.
    """
    s = armed()
    s.apply(SetCondition(W, "pinned"))
    play(s, SonicBlast(W, RELIK, 2, 0, (R1,)), 10, 3)  # Morale: a natural 10 fails
    title, lines = last(s)
    assert title == "Ansel Morrow, cult defector is Pinned" and "sonic blast is lost" in lines[0]
    assert charges(s, W, RELIK) == 10 and left(s, W) == 1  # the action, not the charges
    play(s, EndTurn())
    play(s, EndTurn())  # the raiders pass; at Fear 0 the marker ends: the GM sets it again
    s.apply(SetCondition(W, "pinned"))
    play(s, SonicBlast(W, RELIK, 2, 0, (R1,)), 1, 3, 1)  # Morale 1 succeeds; R1 holds
    pinned, fired = s.log[-2:]
    assert pinned.title == "Ansel Morrow, cult defector is Pinned"
    assert pinned.gm_lines[0].endswith("it goes ahead")
    assert fired.title.endswith("fires the Sonic Relik (Stamina or damage)")
    assert charges(s, W, RELIK) == 8


def test_sonic_relik_an_ally_hero_rolls_stamina_with_its_wound_marker() -> None:
    """R-WOUND-3 "−1 to ALL traits" on the cone's Stamina roll (it counts allies who hear
    too); a Hero's roll is a task with the Hero die (R-TASK-5), Fatigued confirms a success.
    """
    s = armed()
    play(s, AddCombatants("hero", "kestrel-vance", "heroes", "ridge"), 1)
    edit(s, K, wounds=1)
    stamina = s.encounter.get(K).traits[Derived.STAMINA]
    plan = plan_sonic(s.encounter, SonicBlast(W, RELIK, 1, 0, (K,)), s.catalog)
    assert plan.cone[0].fails == 1 - task_odds(stamina - 1, Rank.HERO).success
    s.apply(SetCondition(K, "fatigued"))
    plan = plan_sonic(s.encounter, SonicBlast(W, RELIK, 1, 0, (K,)), s.catalog)
    assert plan.cone[0].fails == 1 - task_odds(stamina - 1, Rank.HERO).success ** 2
    play(s, SonicBlast(W, RELIK, 1, 0, (K,)), 1, 3, 1, 3)  # passes, confirmed
    _, lines = last(s)
    assert lines[1].startswith("Kestrel Vance: Stamina roll: d10 1") and "Hero die 3" in lines[1]
    assert "Fatigued, confirm" in lines[1] and lines[1].endswith("holds")


def test_sonic_relik_the_player_of_its_hero_fires_it_and_no_other_player() -> None:
    """ "The GM (or the player whose hero holds it)": the seat that plays the wielder."""
    s = armed()
    ansel = Seat(Role.PLAYER, "ana", hero="cult-defector")
    other = Seat(Role.PLAYER, "otto", hero="roan-maddox")
    with pytest.raises(NotPermitted, match="otto plays roan-maddox"):
        SeatedSession(s, other).apply(SonicBlast(W, RELIK, 1, 0, (R1,)))
    s.rng = Scripted(1)  # type: ignore[assignment]
    SeatedSession(s, ansel).apply(SonicBlast(W, RELIK, 1, 0, (R1,)))
    assert s.history[-1].issuer == "player:ana" and charges(s, W, RELIK) == 9


def test_s8_a_pinned_heros_morale_question_holds_the_blast_through_a_file(
    tmp_path: Path,
) -> None:
    """§8 Pinned with R-TASK-6: a Hero with Luck is asked about its Morale roll before the
    blast; the question (holding the SonicBlast) saves, loads and answers alike.
    """
    s = armed(seed=5)
    s.apply(SetPools(W, luck=1))
    s.apply(SetCondition(W, "pinned"))
    s.apply(SonicBlast(W, RELIK, 2, 1, (R1,)))
    assert isinstance(s.pending, PendingCombatRerolls)
    assert s.pending.then == SonicBlast(W, RELIK, 2, 1, (R1,))
    loaded = Session(content=pack())
    store.load(loaded, store.save(s, tmp_path / "pinned.toml"))
    assert loaded.pending == s.pending
    for session in (s, loaded):
        session.apply(SpendCombatRerolls(0, 1))
    assert loaded.encounter == s.encounter and loaded.log == s.log


def test_sonic_relik_a_hero_may_spend_luck_on_its_stamina_roll_and_the_cone_goes_on() -> None:
    """R-TASK-6 "re-roll any roll" on the card's "must roll Stamina or take the die type of
    damage": a Hero in the cone who fails is asked; the targets after it roll once it
    answers, then the failures take the damage. (issue 18 #14)
    """
    s = armed()
    play(s, AddCombatants("hero", "kestrel-vance", "heroes", "ridge"), 1)
    edit(s, K, luck=1)
    play(s, SonicBlast(W, RELIK, 1, 0, (K, R1)), 9, 2)  # Kestrel: d10 9 fails
    assert isinstance(s.pending, PendingCombatRerolls)
    assert s.pending.question.startswith("Kestrel Vance's Sonic Relik Stamina roll: d10 9")
    assert charges(s, W, RELIK) == 9 and left(s, W) == 1  # fired: charge and action spent
    play(s, SpendCombatRerolls(1, 0), 1, 9, 1)  # the d10 again: 1; R1: 9 fails; 1d4 1
    title, lines = last(s, 2)
    assert title.endswith("(Stamina or damage): re-rolls")
    assert lines[0].startswith("re-rolls (1 Luck): d10 1")
    assert lines[1].startswith("Kestrel Vance: Stamina roll: d10 1") and lines[1].endswith("holds")
    assert lines[2].startswith("Pirate raider 1: Stamina roll: d10 9") and "fails" in lines[2]
    _, hit = last(s)
    assert hit[0].startswith("hit 1: damage 1d4! [1] = 1")
    kestrel = s.encounter.get(K)
    assert (kestrel.luck, kestrel.wounds, kestrel.fear) == (0, 0, 0)
    assert s.encounter.get(R1).fear == 1 and s.pending is None
