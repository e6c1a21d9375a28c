"""The combat engine through the Session, with the shipped Relic Worlds pack (§3–§8).

Every die is scripted (``play(session, command, *dice)`` rolls exactly those dice, in the
order the engine asks for them), so each test states the rolls and checks what the rules
make of them.

Reference values from the pack:
  Kestrel Vance (Hero): Agility 3, Health 6, Morale 4, Dodge 6, Initiative 8;
    Pistols 7, Rifles 8, Agile 6; Assault Laser (5 shots, 1d6, long, 20 charges),
    Laser Pistol (1+Agility = 4 shots, 2d6, medium, 10), Dagger.
  Pirate raider (Minion): Strength 2, Agility 3, Health 4, Morale 4, Dodge 5,
    Initiative 7; Pistols 6, Power 4, Agile 6; Laser Pistol, Boarding Cutlass (1d8, power).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import replace

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    AnswerDive,
    Attack,
    AttackState,
    ChooseChartRow,
    DecideSidekick,
    DeclareActions,
    EndCombat,
    EndTurn,
    Move,
    PendingChartChoice,
    PendingDive,
    PendingSidekick,
    SetBand,
    SetCondition,
    SetCover,
    SetPools,
    StartCombat,
    plan_attack,
)
from hsm_tui.campaign.encounter import WeaponState
from hsm_tui.rules import Cover, RangeBand, Rank, task_tn
from hsm_tui.table.session import RollTask, Session
from tests.campaign import (
    Scripted,
    charges,
    edit,
    new_session,
    play,
    refused,
    set_charges,
    state,
)

K, R1, R2, R3 = "kestrel-vance-1", "pirate-raider-1", "pirate-raider-2", "pirate-raider-3"
HERO_FIRST, RAIDERS_FIRST = (5, 1), (1, 9)  # Kestrel 8+5=13 / raiders 7+1=8, or 9 / 16


def duel(first: tuple[int, int] = HERO_FIRST, raiders_in: str = "dig", raiders: int = 2) -> Session:
    """Kestrel on the ridge against pirate raiders; ridge–dig Medium, trench Melee, camp Short."""
    session = new_session(
        AddZone("ridge"),
        AddZone("dig"),
        AddZone("trench"),
        AddZone("camp"),
        SetBand("ridge", "dig", "medium"),
        SetBand("ridge", "trench", "melee"),
        SetBand("ridge", "camp", "short"),
        SetBand("dig", "camp", "short"),
        SetBand("dig", "trench", "medium"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", raiders_in, count=raiders),
        SetPools(K, luck=0),  # spent earlier: no re-roll questions (tests/campaign/test_rerolls.py)
    )
    return play(session, StartCombat(), *first)


def last(session: Session, n: int = 1) -> tuple[str, tuple[str, ...]]:
    entry = session.log[-n]
    return entry.title, entry.gm_lines


def left(session: Session, cid: str) -> int:
    turn = session.encounter.turn
    assert turn is not None
    return turn.left(cid)


def to_raiders(session: Session) -> None:
    """Kestrel ends her turn; the raiders' turn starts (no dice for Minions at Fear 0)."""
    play(session, EndTurn())
    assert session.encounter.turn is not None
    assert session.encounter.turn.actor == "pirate-raider@pirates"


# -- adding combatants ----------------------------------------------------------------
def test_add_combatants_ids_names_groups_weapons_and_luck() -> None:
    s = new_session(
        AddZone("dig"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=3),
        AddCombatants("minion", "pirate-raider", "mutineers", "dig", count=2),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("sidekick", "cult-defector", "heroes", "dig"),
    )
    enc = s.encounter
    raiders = [c for c in enc.combatants if c.rank is Rank.MINION]
    assert [c.id for c in raiders] == [f"pirate-raider-{n}" for n in range(1, 7)]
    assert [c.name for c in raiders[:3]] == [
        "Pirate raider 1",
        "Pirate raider 2",
        "Pirate raider 3",
    ]
    # R-INIT-1: same-type Minions on one side share a group; another side is another group
    assert {c.group for c in raiders[:3]} == {"pirate-raider@pirates"}
    assert {c.group for c in raiders[3:5]} == {"pirate-raider@mutineers"}
    assert raiders[5].group == "pirate-raider@pirates"
    assert [c.id for c in enc.members("pirate-raider@pirates")] == [
        "pirate-raider-1",
        "pirate-raider-2",
        "pirate-raider-3",
        "pirate-raider-6",
    ]
    kestrel = enc.get(K)
    assert kestrel.group == K and kestrel.player and kestrel.luck == 2  # R-CHAR-9
    assert kestrel.weapons == (
        WeaponState("assault-laser", 20, 20, True),
        WeaponState("laser-pistol", 10, 10, True),
        WeaponState("dagger", None, None, True),
    )
    relik = enc.get("cult-defector-1").weapon("sonic-relik")
    assert (relik.charges, relik.power, relik.recharge) == (10, 10, False)
    assert raiders[0].luck == 0 and raiders[0].zone == "dig" and raiders[0].side == "pirates"
    assert s.log[1].title == "3 × Pirate raider join pirates in dig"


@pytest.mark.parametrize(
    ("command", "match"),
    [
        (AddCombatants("minion", "pirate-raider", "pirates", "moon"), "no zone 'moon'"),
        (AddCombatants("dragon", "pirate-raider", "pirates", "dig"), "unknown kind 'dragon'"),
        (AddCombatants("minion", "space-kraken", "pirates", "dig"), "no minion 'space-kraken'"),
        (AddCombatants("minion", "pirate-raider", "pirates", "dig", count=0), "1 to 40"),
        (AddCombatants("minion", "pirate-raider", "pirates", "dig", count=41), "1 to 40"),
        (AddZone("dig"), "already exists"),
        (AddZone(" Dig "), "zone 'dig' already exists"),  # one zone whatever the case
        (AddZone("  "), "needs a name"),
        (SetBand("dig", "moon", "short"), "no zone 'moon'"),
        (SetBand("dig", "dig", "short"), "from itself"),
        (SetBand("DIG", "dig", "short"), "from itself"),
        (SetBand("dig", "ridge", "very far"), "unknown range band"),
        (SetCover("nobody", "light"), "no combatant 'nobody'"),
        (StartCombat(), "at least two sides"),
        (EndTurn(), "start combat first"),
        (EndCombat(), "no combat to end"),
        (AddZone("x", issuer="player:ana"), "only the GM"),
    ],
)
def test_set_up_refusals_change_nothing(command: object, match: str) -> None:
    s = new_session(
        AddZone("dig"),
        AddZone("ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
    )
    refused(s, command, match)  # type: ignore[arg-type]


def test_r_combat_2_zone_names_match_whatever_their_case() -> None:
    """A zone typed "Ridge" once and "ridge " later is one zone, spelt as first added:
    bands, new combatants and moves all land on it (R-COMBAT-2).
    """
    s = new_session(
        AddZone("Ridge"),
        AddZone("dig"),
        SetBand("ridge ", "DIG", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "RIDGE", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "Dig"),
    )
    enc = s.encounter
    assert enc.zones == ("Ridge", "dig")
    assert enc.bands == (("Ridge", "dig", RangeBand.SHORT),)
    assert [c.zone for c in enc.combatants] == ["Ridge", "dig"]
    assert s.log[2].title == "Ridge ↔ dig: short"
    s.apply(StartCombat())
    while s.encounter.turn.actor != K:
        s.apply(EndTurn())
    s.apply(Move(K, "DIG", run=True))
    assert s.encounter.get(K).zone == "dig"
    assert s.log[-1].title == "Kestrel Vance moves and runs to dig (out of cover)"
    refused(s, Move(K, "moon"), r"no zone 'moon' \(zones: Ridge, dig\)")


def test_set_band_and_cover_are_logged() -> None:
    s = new_session(
        AddZone("dig"),
        AddZone("ridge"),
        SetBand("dig", "ridge", "extra-long"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig"),
        SetCover("pirate-raider-1", "heavy"),
    )
    assert s.encounter.zone_band("ridge", "dig") is RangeBand.EXTRA_LONG
    assert s.encounter.get("pirate-raider-1").cover is Cover.HEAVY
    assert [e.title for e in s.log] == [
        "Zone dig",
        "Zone ridge",
        "dig ↔ ridge: extra-long",
        "1 × Pirate raider join pirates in dig",
        "Pirate raider: heavy cover",
    ]
    refused(s, SetCover("pirate-raider-1", "bunker"), "unknown cover 'bunker'")


# -- R-CHAR-8 Sidekicks ----------------------------------------------------------------
def _with_sidekick() -> Session:
    return new_session(
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "medium"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
    )


def test_r_char_8_start_combat_first_asks_how_the_sidekick_plays() -> None:
    s = _with_sidekick()
    rng_before, log_before = s.rng.getstate(), s.log
    s.apply(StartCombat())
    assert s.pending == PendingSidekick(
        "veteran-guide-1", "Does Tamsin Reyes, veteran guide play as a Hero or a Minion?"
    )
    assert not s.encounter.active and s.rng.getstate() == rng_before and s.log == log_before
    # nothing else is taken until the GM answers
    refused(s, EndTurn(), "answer the pending question first: Does Tamsin Reyes")
    refused(s, SetCover(K, "light"), "answer the pending question first")
    refused(s, DecideSidekick("veteran-guide-1", "villain"), "plays as a hero or a minion")
    logged = len(s.log)
    play(s, DecideSidekick("veteran-guide-1", "hero"), 5, 1, 1)  # then combat starts
    assert s.pending is None and s.queue == ()
    guide = s.encounter.get("veteran-guide-1")
    assert guide.plays_as is Rank.HERO and guide.rules_rank is Rank.HERO and guide.luck == 2
    titles = [e.title for e in s.log[logged:]]
    assert titles[:2] == [
        "Tamsin Reyes, veteran guide plays as a hero this encounter (R-CHAR-8)",
        "Initiative (R-INIT-1/2)",
    ]
    assert s.encounter.active


def test_r_char_8_an_undecided_sidekick_added_mid_fight_stops_its_turn_from_starting() -> None:
    """R-CHAR-8: a Sidekick joining a fight under way must be decided before its turn
    starts: ending the turn before it is refused, and nothing changes, Fear or not (the
    turn start reads its rules before the Morale check it would make)."""
    s = duel()
    play(s, AddCombatants("sidekick", "pirate-first-mate", "pirates", "dig"), 1)
    refused(s, EndTurn(), "decide first whether this Sidekick plays as a Hero or a Minion")
    edit(s, "pirate-first-mate-1", fear=9)
    refused(s, EndTurn(), "decide first whether this Sidekick plays as a Hero or a Minion")


def test_r_char_8_sidekick_choice_is_locked_until_the_encounter_is_finished() -> None:
    """R-CHAR-8: "Once that decision is made, the Sidekick will have to remain that way
    until the encounter is finished" — ending a fight does not finish the encounter; the
    next fight in it starts without asking again. (issue 18, readings)
    """
    s = _with_sidekick()
    s.apply(DecideSidekick("veteran-guide-1", "minion"))
    assert s.encounter.get("veteran-guide-1").luck == 0
    play(s, StartCombat(), 5, 1, 1)
    refused(
        s,
        DecideSidekick("veteran-guide-1", "hero"),
        "already plays as a minion until the encounter ends",
    )
    refused(s, DecideSidekick(K, "hero"), "Kestrel Vance is not a Sidekick")
    s.apply(EndCombat())
    enc = s.encounter
    assert not enc.active and enc.turn is None and enc.order == () and enc.turn_index == -1
    assert enc.get("veteran-guide-1").plays_as is Rank.MINION
    assert s.log[-1].title == "Combat ends after 1 round(s)"
    refused(s, DecideSidekick("veteran-guide-1", "hero"), "until the encounter ends")
    play(s, StartCombat(), 5, 1, 1)  # no question: it still plays as a Minion
    assert s.pending is None and s.encounter.active


def test_r_combat_1_fear_and_its_conditions_end_with_the_fight_wounds_stay() -> None:
    """Interpretation (end_combat): Fear, Shaken, Panicked, Pinned and the actions' marks
    end with the fight; wounds, Prone and the other conditions stay.
    """
    s = duel()
    edit(
        s,
        K,
        fear=5,
        wounds=1,
        prone=True,
        conditions=("bleeding", "dodging", "pinned", "shaken"),
    )
    edit(s, R1, fear=9, conditions=("full-defense", "panicked"))
    s.apply(EndCombat())
    kestrel, raider = s.encounter.get(K), s.encounter.get(R1)
    assert (kestrel.fear, kestrel.wounds, kestrel.prone, kestrel.conditions) == (
        0,
        1,
        True,
        ("bleeding",),
    )
    assert (raider.fear, raider.conditions) == (0, ())
    assert s.log[-1].gm_lines == (
        "Fear, Shaken, Panicked, Pinned, Dodge, Full defense and Standby end with it",
    )


def test_r_char_8_sidekick_as_minion_takes_exactly_two_actions() -> None:
    s = _with_sidekick()
    s.apply(DecideSidekick("veteran-guide-1", "minion"))
    play(s, StartCombat(), 1, 9, 1)  # guide 8+9 = 17 goes first
    assert s.encounter.turn is not None and s.encounter.turn.actor == "veteran-guide-1"
    refused(s, DeclareActions(3), "takes exactly 2 actions")


def test_r_char_8_sidekick_added_mid_combat_must_be_decided_before_it_is_attacked() -> None:
    s = duel()
    play(s, AddCombatants("sidekick", "pirate-first-mate", "pirates", "dig"), 1)  # initiative
    refused(
        s,
        Attack(K, "pirate-first-mate-1", "assault-laser"),
        "decide first whether this Sidekick plays as a Hero or a Minion",
    )
    s.apply(DecideSidekick("pirate-first-mate-1", "minion"))
    play(s, Attack(K, "pirate-first-mate-1", "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert last(s)[1][-1] == "no hit"


# -- R-INIT-1/2 initiative -------------------------------------------------------------
def test_r_init_1_every_hero_alone_each_minion_group_once_logged_in_order() -> None:
    s = new_session(
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "medium"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("hero", "mireille-ashdown", "heroes", "ridge", player=True),
        AddCombatants("sidekick", "veteran-guide", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=3),
        DecideSidekick("veteran-guide-1", "minion"),
    )
    play(s, StartCombat(), 3, 3, 2, 4)  # one d10 per turn-taker: 4 rolls for 6 combatants
    title, lines = last(s, 2)
    assert title == "Initiative (R-INIT-1/2)"
    assert lines == (
        "1. Kestrel Vance: d10 3 + Initiative 8 = 11",
        "2. Mireille Ashdown: d10 3 + Initiative 8 = 11",
        "3. Pirate raider ×3: d10 4 + Initiative 7 = 11",
        "4. Tamsin Reyes, veteran guide: d10 2 + Initiative 8 = 10",
    )
    enc = s.encounter
    assert [r.actor for r in enc.order] == [
        "kestrel-vance-1",
        "mireille-ashdown-1",
        "pirate-raider@pirates",
        "veteran-guide-1",
    ]
    assert (enc.round, enc.turn_index, enc.active) == (1, 0, True)
    assert last(s) == ("Round 1: Kestrel Vance's turn", ())
    refused(s, StartCombat(), "already under way")


def test_r_init_2_cross_side_tie_of_non_players_rerolls_and_logs_it() -> None:
    s = new_session(
        AddZone("ridge"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge"),
        AddCombatants("hero", "roan-maddox", "rivals", "ridge"),
    )
    play(s, StartCombat(), 4, 5, 6, 6, 3, 7)  # 12 = 12; tie re-roll 6 = 6, again 3 < 7
    assert last(s, 2)[1] == (
        "1. Captain Roan Maddox: d10 5 + Initiative 7 = 12 (tie re-roll 7)",
        "2. Kestrel Vance: d10 4 + Initiative 8 = 12 (tie re-roll 3)",
    )


def test_r_init_1_a_group_added_one_by_one_is_named_once() -> None:
    s = new_session(
        AddZone("ridge"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge"),
        AddCombatants("minion", "cultist-zealot", "cult", "ridge"),
        AddCombatants("minion", "cultist-zealot", "cult", "ridge"),
    )
    play(s, StartCombat(), 1, 9)
    assert last(s) == ("Round 1: Cultist zealot ×2's turn", ())


def test_r_init_taken_out_groups_are_skipped_and_rounds_advance() -> None:
    s = duel()
    edit(s, R1, out=True)
    edit(s, R2, out=True)
    play(s, EndTurn())
    assert s.encounter.round == 2
    assert last(s) == ("Round 2: Kestrel Vance's turn", ())


# -- R-ACT-1/2/3 actions and movement ----------------------------------------------------
def test_r_act_1_no_action_twice_in_a_turn() -> None:
    s = duel()
    play(s, Move(K, "trench"))
    assert left(s, K) == 1
    refused(s, Move(K, "ridge"), "already took move this turn: no action twice")
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert left(s, K) == 0
    refused(s, Attack(K, R2, "laser-pistol"), "already took attack")


def test_r_act_1_minions_have_exactly_two_actions_each() -> None:
    s = duel(RAIDERS_FIRST)
    assert (left(s, R1), left(s, R2)) == (2, 2)
    refused(s, DeclareActions(3), "takes exactly 2 actions")
    play(s, Move(R1, "camp", run=True))
    assert (left(s, R1), left(s, R2)) == (0, 2)  # each Minion of the group its own two
    refused(s, Attack(R1, K, "laser-pistol"), "Pirate raider 1 has no actions left")
    play(s, Attack(R2, K, "laser-pistol"), 9, 9, 9, 9)
    assert left(s, R2) == 1


def test_r_act_3_extra_actions_declared_before_acting_penalise_every_attack() -> None:
    s = duel()
    refused(s, DeclareActions(1), "declare 2 or more")
    play(s, DeclareActions(3))
    assert s.encounter.turn is not None and s.encounter.turn.declared == 3
    assert last(s)[0] == "Kestrel Vance declares 3 actions: each at −1 (R-ACT-3)"
    assert left(s, K) == 3
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert last(s)[1][1] == "TN Rifles 8 − 3 actions 1 = 7"
    refused(s, DeclareActions(4), "at the start of the turn, before acting")


def test_r_act_2_move_reaches_a_zone_at_melee_band_and_leaves_cover() -> None:
    s = duel()
    s.apply(SetCover(K, "medium"))
    play(s, Move(K, "trench"))
    kestrel = s.encounter.get(K)
    assert (kestrel.zone, kestrel.cover) == ("trench", Cover.NONE)
    assert last(s)[0] == "Kestrel Vance moves to trench (out of cover)"
    assert s.encounter.turn is not None and s.encounter.turn.used == ((K, "move"),)


def test_r_act_2_move_and_run_reach_a_zone_at_short_but_no_farther() -> None:
    s = duel()
    refused(s, Move(K, "dig", run=True), "dig is medium from ridge: Move\\+Run covers one band")
    refused(s, Move(K, "ridge"), "already in ridge")
    refused(s, Move(K, "moon"), "no zone 'moon'")  # a name the GM never added
    refused(s, Move(R1, "camp", run=True), "it is not Pirate raider 1's turn")
    play(s, Move(K, "camp", run=True))
    assert s.encounter.get(K).zone == "camp"
    assert last(s)[0] == "Kestrel Vance moves and runs to camp (out of cover)"
    assert s.encounter.turn is not None and s.encounter.turn.used == ((K, "move"), (K, "run"))


def test_r_act_2_run_needs_two_actions_left() -> None:
    """R-ACT-2: Move + Run is two actions; with one left the refusal says so (not "no
    actions left", which was untrue), and nothing is spent.
    """
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    refused(
        s,
        Move(K, "camp", run=True),
        r"^Move \+ Run \(R-ACT-2\) takes 2 actions, but Kestrel Vance has only 1 left"
        r" this turn: used 1 \(attack\)$",
    )
    play(s, Move(K, "trench"))  # the one action left still buys a Move


def test_r_other_5_moving_away_ends_melee_both_ways() -> None:
    s = duel(RAIDERS_FIRST, raiders_in="ridge")
    play(s, Attack(R1, K, "cutlass", style="agile"), 9, 9, 9)
    assert s.encounter.get(K).engaged == (R1,) and s.encounter.get(R1).engaged == (K,)
    assert s.encounter.band(s.encounter.get(K), s.encounter.get(R1)) is RangeBand.MELEE
    play(s, Move(R1, "trench"))
    assert s.encounter.get(K).engaged == () and s.encounter.get(R1).engaged == ()


# -- R-ATK-1/2 the attack and its TN -----------------------------------------------------
def test_r_atk_2_attack_logs_weapon_tn_breakdown_odds_and_roll() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 9, 10, 3, 2)
    title, lines = last(s)
    assert title == "Kestrel Vance attacks Pirate raider 1"
    assert lines[0] == "Assault Laser (rifles, 5 d10) at Pirate raider 1, medium range"
    assert lines[1] == "TN Rifles 8 = 8"
    assert lines[2].startswith("odds: ≥1 hit ")
    assert lines[3] == "roll d10 1, 2, 3, 9, 10 vs TN 8 → 3 hits · Hero die 2 · blank"
    assert (
        lines[4] == "Pirate raider 1 and the rest of its unit (2 in all) gain 3 Fear each (R-ATK-4)"
    )
    assert charges(s, K, "assault-laser") == 15  # R-ATK-3: one charge per shot


def test_r_combat_3_range_penalty_in_the_attack_tn() -> None:
    s = duel()
    s.apply(SetBand("ridge", "dig", "extra-long"))
    play(s, Attack(K, R1, "laser-pistol"), 9, 9, 9, 9, 2)
    assert last(s)[1][1] == "TN Pistols 7 − range extra-long 2 = 5"


def test_r_atk_10_called_shot_and_situational_modifier_in_the_tn() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser", called_shot=True, modifier=1), 9, 9, 9, 9, 9, 2)
    assert last(s)[1][1] == "TN Rifles 8 − called shot 3 + situation 1 = 6"


def test_r_atk_10_called_shots_are_for_heroes_a_minion_is_refused() -> None:
    s = duel(RAIDERS_FIRST, raiders_in="ridge")  # ranged and melee alike
    refused(
        s,
        Attack(R1, K, "laser-pistol", called_shot=True),
        "Pirate raider 1: called shots are for Heroes \\(R-ATK-10\\)",
    )
    refused(s, Attack(R1, K, "cutlass", called_shot=True), "called shots are for Heroes")


@pytest.mark.parametrize("rank", ["minion", "hero"])
def test_r_atk_10_a_sidekick_calls_a_shot_only_when_it_plays_as_a_hero(rank: str) -> None:
    s = _with_sidekick()
    s.apply(DecideSidekick("veteran-guide-1", rank))
    play(s, StartCombat(), 1, 9, 1)  # the guide 8 + 9 = 17 goes first
    shot = Attack("veteran-guide-1", R1, "bow", called_shot=True)
    if rank == "minion":
        refused(s, shot, "Tamsin Reyes, veteran guide: called shots are for Heroes")
        return
    play(s, shot, 9, 9, 2)  # Agility 2 arrows and the Hero die: two misses
    assert last(s)[1][1] == "TN Rifles 7 − called shot 3 = 4"


def test_r_atk_15_size_of_target_against_attacker_in_the_tn() -> None:
    s = duel()
    play(s, AddCombatants("minion", "xeno-hound", "beasts", "dig"), 1)  # initiative d10
    play(s, AddCombatants("minion", "relic-guardian", "ruin", "dig"), 1)
    play(s, Attack(K, "xeno-hound-1", "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert last(s)[1][1] == "TN Rifles 8 − size 1 = 7"  # the hound is one size smaller
    s.undo()
    play(s, Attack(K, "relic-guardian-1", "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert last(s)[1][1] == "TN Rifles 8 + size 1 = 9"  # the construct one size larger


def test_r_atk_1_melee_in_the_same_zone_is_at_melee_range_and_engages() -> None:
    s = duel(raiders_in="ridge")
    play(s, Attack(K, R1, "dagger"), 9, 9, 9, 2)
    lines = last(s)[1]
    assert lines[0] == "Dagger (agile, 3 d10) at Pirate raider 1, melee range"
    assert lines[1] == "TN Agile 6 = 6"  # no range penalty for closing in within the zone
    assert s.encounter.get(K).engaged == (R1,) and s.encounter.get(R1).engaged == (K,)


def test_r_atk_1_wild_style_attacks_agility_plus_one() -> None:
    s = duel(raiders_in="ridge")
    play(s, Attack(K, R1, "dagger", style="wild"), 9, 9, 9, 9, 2)
    assert last(s)[1][:2] == (
        "Dagger (wild, 4 d10) at Pirate raider 1, melee range",
        "TN Wild 6 = 6",
    )
    assert s.encounter.turn is not None and s.encounter.turn.wild == (K,)


def test_r_atk_1_melee_needs_the_same_zone() -> None:
    s = duel()
    refused(s, Attack(K, R1, "dagger"), "Pirate raider 1 is medium away: melee needs the same zone")


def test_r_atk_1_style_must_fit_the_weapon() -> None:
    s = duel(raiders_in="ridge")
    refused(s, Attack(K, R1, "assault-laser", style="wild"), "ranged weapon: it uses rifles")
    refused(s, Attack(K, R1, "dagger", style="kungfu"), "unknown fighting style 'kungfu'")
    refused(s, Attack(K, R1, "dagger", style="rifles"), "melee uses a fighting style")


def test_r_atk_1_thrown_weapon_reaches_another_zone_and_is_not_melee() -> None:
    s = new_session(
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "cultist-zealot", "cult", "dig"),
    )
    play(s, StartCombat(), 1, 9)
    edit(s, K, luck=0)  # no re-roll question on her Defense
    zealot = "cultist-zealot-1"
    play(s, Attack(zealot, K, "breaching-charge"), 2)
    lines = last(s)[1]
    assert lines[:2] == (
        "Breaching Charge (agile, 1 d10) at Kestrel Vance, short range",
        "TN Agile 4 = 4",
    )
    assert isinstance(s.pending, PendingDive)  # a thrown attack is ranged: the target may dive
    assert s.encounter.get(K).engaged == () and s.encounter.get(zealot).engaged == ()
    assert charges(s, zealot, "breaching-charge") == 0
    play(s, AnswerDive("none"), 9, 2, 1, 2)  # through; 2d6 [1, 2] = 3 against Health 6
    assert s.encounter.get(K).fear == 2 and s.encounter.get(K).wounds == 0


def test_r_atk_2_shots_may_be_fewer_than_the_rate_of_fire() -> None:
    s = duel()
    refused(s, Attack(K, R1, "assault-laser", shots=0), "fires 1 to 5 shot\\(s\\) here, not 0")
    refused(s, Attack(K, R1, "assault-laser", shots=6), "fires 1 to 5 shot")
    play(s, Attack(K, R1, "assault-laser", shots=2), 9, 9, 2)
    assert charges(s, K, "assault-laser") == 18


# -- R-ATK-3 charges -------------------------------------------------------------------
def test_r_atk_3_weapon_without_enough_charge_cannot_fire() -> None:
    s = duel()
    set_charges(s, K, "laser-pistol", 3)
    refused(
        s,
        Attack(K, R1, "laser-pistol"),
        "has 3 charge\\(s\\), needs 4 for 4 shot\\(s\\) \\(R-ATK-3\\)",
    )
    play(s, Attack(K, R1, "laser-pistol", shots=3), 9, 9, 9, 2)
    assert charges(s, K, "laser-pistol") == 0


def test_r_atk_3_recharge_one_at_the_end_of_a_turn_without_firing() -> None:
    s = duel()
    play(s, Attack(K, R1, "laser-pistol"), 9, 9, 9, 9, 2)
    assert charges(s, K, "laser-pistol") == 6
    assert s.encounter.get(K).weapon("laser-pistol").fired
    to_raiders(s)
    pistol = s.encounter.get(K).weapon("laser-pistol")
    assert (pistol.charges, pistol.fired) == (6, False)  # fired this turn: no recharge
    assert charges(s, K, "assault-laser") == 20  # full: stays at its power
    play(s, EndTurn())
    play(s, EndTurn())  # Kestrel's second turn, no shot fired
    assert charges(s, K, "laser-pistol") == 7
    assert charges(s, K, "dagger") is None


def test_r_atk_3_no_recharge_weapon_stays_spent() -> None:
    s = new_session(
        AddZone("ridge"),
        AddCombatants("sidekick", "cult-defector", "heroes", "ridge"),
        AddCombatants("minion", "pirate-raider", "pirates", "ridge"),
        DecideSidekick("cult-defector-1", "minion"),
    )
    play(s, StartCombat(), 9, 1)
    set_charges(s, "cult-defector-1", "sonic-relik", 5)
    play(s, EndTurn())
    assert charges(s, "cult-defector-1", "sonic-relik") == 5


# -- R-ATK-4/5/6/7/8 Fear, diving, Defense, Pinned ---------------------------------------
def test_r_atk_4_fear_per_hit_before_defense_and_dive_offered_for_a_ranged_hit() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 9, 10, 3, 2)
    assert s.encounter.get(R1).fear == 3
    assert isinstance(s.pending, PendingDive)
    assert s.pending.attack.hits == 3 and s.pending.attack.target == R1
    assert s.pending.question == (
        "Pirate raider 1 is hit 3× in the open: dive for cover within Short range?"
        " (it goes Prone and loses 1 action next turn)"
    )


def test_r_wound_2_minion_taken_out_and_no_more_fear_once_down() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 9, 10, 3, 2)
    play(s, AnswerDive("none"), 6, 5, 2, 5)  # 6 > Defense 5 through; 1d6 5 > Health 4
    raider = s.encounter.get(R1)
    assert raider.out and not raider.standing
    assert raider.fear == 3  # R-ATK-7 adds Fear only while standing
    assert s.pending is None
    title, lines = last(s)
    assert title == "Pirate raider 1 defends"
    assert lines == (
        "Dodge 5 → Defense 5: d10 2, 5, 6 → 1 of 3 through, 2 avoided",
        "hit 1: damage 1d6! [5] = 5 vs Health 4 → 1 wound step → Pirate raider 1 is taken out"
        " (R-WOUND-2)",
    )
    assert [c.id for c in s.encounter.members("pirate-raider@pirates")] == [R2]


def test_r_wound_2_later_hits_on_a_taken_out_minion_roll_no_damage() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 9, 9, 9, 2)
    play(s, AnswerDive("none"), 6, 7, 5)  # two through: the first takes it out, no 2nd die
    assert s.encounter.get(R1).out
    assert len(last(s)[1]) == 2


def test_r_atk_5_dive_for_cover_goes_prone_and_loses_an_action() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)
    play(s, AnswerDive("light"), 3)  # Defense 5 + light 1 = 6: 3 avoided
    raider = s.encounter.get(R1)
    assert (raider.cover, raider.prone, raider.lose_actions) == (Cover.LIGHT, True, 1)
    assert [e.title for e in s.log[-2:]] == ["Dive for cover", "Pirate raider 1 defends"]
    assert s.log[-2].gm_lines == (
        "Pirate raider 1 dives into light cover: Prone, loses 1 action next turn (R-ATK-5)",
    )
    assert s.log[-1].gm_lines[0].startswith("Dodge 5 + light cover 1 → ")
    to_raiders(s)
    assert s.encounter.turn is not None and s.encounter.turn.lost == ((R1, 1),)
    assert (left(s, R1), left(s, R2)) == (1, 2)
    assert s.encounter.get(R1).lose_actions == 0 and s.encounter.get(R1).lose_why == ()
    assert "Pirate raider 1 loses 1 action — dived for cover: −1 action (R-ATK-5)" in last(s)[1]


def test_r_atk_5_dive_only_to_better_cover() -> None:
    s = duel()
    s.apply(SetCover(R1, "medium"))
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)
    assert isinstance(s.pending, PendingDive)
    assert s.pending.question.startswith("Pirate raider 1 is hit 1×: dive")  # not "in the open"
    refused(s, AnswerDive("light"), "already in medium cover: dive only to better cover")
    refused(s, AnswerDive("medium"), "dive only to better cover \\(R-ATK-5\\)")
    refused(s, AnswerDive("bunker"), "unknown cover")
    play(s, AnswerDive("heavy"), 3)
    assert s.encounter.get(R1).cover is Cover.HEAVY and s.encounter.get(R1).prone


def test_r_atk_5_no_dive_from_heavy_cover_or_in_melee() -> None:
    s = duel()
    s.apply(SetCover(R1, "heavy"))
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2, 9, 1)  # then Defense 9 > 8
    assert s.pending is None
    assert last(s)[1][0].startswith("Dodge 5 + heavy cover 3 → ")
    m = duel(raiders_in="ridge")
    play(m, Attack(K, R1, "dagger"), 1, 9, 9, 2, 3)  # melee hit: straight to Defense
    assert m.pending is None and last(m)[0] == "Pirate raider 1 defends"


def test_r_atk_6_defense_is_dodge_plus_cover_and_a_die_must_beat_it() -> None:
    s = duel()
    s.apply(SetCover(R1, "medium"))
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 9, 9, 9, 2)
    play(s, AnswerDive("none"), 8, 7, 1)  # 8 > 7 through; 7 is not more than 7
    assert last(s)[1][:2] == (
        "Dodge 5 + medium cover 2 → Defense 7: d10 7, 8 → 1 of 2 through, 1 avoided",
        "hit 1: damage 1d6! [1] = 1 vs Health 4 → 0 wound steps → no wound",
    )


def test_r_atk_6_cover_counts_against_a_melee_blow_as_the_book_reads() -> None:
    """§5 Making an Attack: Defense "is equal to the character's Dodge rating, plus any
    cover", for melee as for shooting (only the dive is for ranged attacks): a raider in
    heavy cover defends a dagger at Dodge 5 + 3 = 8, and F1 says so.
    """
    from hsm_tui.ui.screens.help import QUICK_REFERENCE

    m = duel(raiders_in="ridge")
    m.apply(SetCover(R1, "heavy"))
    stab = Attack(K, R1, "dagger")
    assert plan_attack(m.encounter, stab, m.catalog).defense(m.encounter) == 8
    play(m, stab, 1, 9, 9, 2, 9, 1, 1)  # one hit; Defense 9 > 8: through, damage 1s
    assert last(m)[1][0].startswith("Dodge 5 + heavy cover 3 → Defense 8: d10 9")
    assert "against melee blows too" in QUICK_REFERENCE


def test_r_atk_7_each_hit_through_adds_fear_while_standing() -> None:
    s = duel(RAIDERS_FIRST)
    play(s, Attack(R1, K, "laser-pistol"), 1, 2, 9, 9)
    assert s.encounter.get(K).fear == 2
    play(s, AnswerDive("none"), 9, 8, 3, 1, 1, 1, 1)  # Hero: 2 d10 + Hero die; two hits 2d6
    kestrel = s.encounter.get(K)
    assert (kestrel.fear, kestrel.wounds) == (4, 0)


def test_r_atk_8_in_cover_with_fear_above_morale_is_pinned() -> None:
    s = duel()
    s.apply(SetCover(R1, "light"))
    edit(s, R1, fear=2)
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 9, 9, 9, 2)  # 2 hits: Fear 4
    play(s, AnswerDive("none"), 7, 3, 3)  # one through, no wound: Fear 5 > Morale 4
    assert "pinned" in s.encounter.get(R1).conditions
    assert last(s)[1][-1] == "Pirate raider 1 is Pinned: Fear 5 > Morale 4 (R-ATK-8)"


def test_r_atk_8_not_pinned_at_fear_equal_to_morale_or_in_the_open() -> None:
    s = duel()
    s.apply(SetCover(R1, "light"))
    edit(s, R1, fear=1)
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 9, 9, 9, 2)
    play(s, AnswerDive("none"), 7, 3, 3)  # Fear 4 = Morale 4
    assert "pinned" not in s.encounter.get(R1).conditions
    o = duel()
    edit(o, R1, fear=2)
    play(o, Attack(K, R1, "assault-laser"), 1, 2, 9, 9, 9, 2)
    play(o, AnswerDive("none"), 7, 3, 3)  # Fear 5, but in the open
    assert o.encounter.get(R1).fear == 5 and "pinned" not in o.encounter.get(R1).conditions


def test_r_atk_8_a_melee_blow_pins_nobody_even_with_card_fear() -> None:
    """Issue 18 #10, R-ATK-8: "After shooting is complete, if the target is behind cover
    and its Fear is higher than its Morale, it is Pinned" — a cutlass is not shooting.
    (Card Fear on a miss still pins after shooting: the scripted fight's assault lasers.)
    """
    s = new_session(
        AddZone("deck"),
        AddCombatants("hero", "roan-maddox", "heroes", "deck", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "deck"),
        SetCover(R1, "light"),
    )
    play(s, StartCombat(), 5, 1)
    edit(s, R1, fear=4)
    edit(s, "roan-maddox-1", luck=0)
    play(s, Attack("roan-maddox-1", R1, "cutlass"), 9, 5)  # a miss; Special 5: 1 Fear
    raider = s.encounter.get(R1)
    assert raider.fear == 5  # > Morale 4, in light cover
    assert "pinned" not in raider.conditions


def test_r_atk_14_flanked_defender_loses_one_per_extra_attacker() -> None:
    s = duel(RAIDERS_FIRST, raiders_in="ridge")
    play(s, Attack(R1, K, "cutlass", style="agile"), 9, 9, 9)  # a miss still engages
    play(s, Attack(R2, K, "cutlass", style="agile"), 1, 9, 9, 6, 2, 2)
    assert last(s)[1][0] == (
        "Dodge 6 − flanked 1 → Defense 5: d10 6 → 1 of 1 through, 0 avoided · Hero die 2 · blank"
    )


def test_r_atk_14_a_taken_out_attacker_no_longer_flanks() -> None:
    s = duel(RAIDERS_FIRST, raiders_in="ridge")
    play(s, Attack(R1, K, "cutlass", style="agile"), 9, 9, 9)
    play(s, Attack(R2, K, "cutlass", style="agile"), 9, 9, 9)
    play(s, EndTurn())
    edit(s, R1, out=True)
    play(s, EndTurn())  # round 2: the raiders again (R2 only)
    play(s, Attack(R2, K, "cutlass", style="agile"), 1, 9, 9, 6, 2)
    assert last(s)[1][0].startswith("Dodge 6 → ")


def _flanked_kestrel() -> Session:
    """Raiders 1 and 2 engage Kestrel in melee (both miss); raider 3 has yet to act."""
    s = duel(RAIDERS_FIRST, raiders_in="ridge", raiders=3)
    play(s, Attack(R1, K, "cutlass", style="agile"), 9, 9, 9)
    play(s, Attack(R2, K, "cutlass", style="agile"), 9, 9, 9)
    assert s.encounter.get(K).engaged == (R1, R2)
    return s


def test_r_atk_14_each_melee_attacker_beyond_the_first_costs_one_defense() -> None:
    s = _flanked_kestrel()
    play(s, Attack(R3, K, "cutlass", style="agile"), 1, 9, 9, 5, 2, 1)  # the third: −2
    assert last(s)[1] == (
        "Dodge 6 − flanked 2 → Defense 4: d10 5 → 1 of 1 through, 0 avoided · Hero die 2 · blank",
        "hit 1: damage 1d8! [1] = 1 vs Health 6 → 0 wound steps → no wound",
    )


def test_r_atk_14_a_ranged_attack_ignores_flanking() -> None:
    s = _flanked_kestrel()
    play(s, Attack(R3, K, "laser-pistol"), 1, 9, 9, 9)  # from the same zone: one hit
    assert s.log[-1].gm_lines[1] == "TN Pistols 6 = 6"
    assert isinstance(s.pending, PendingDive)
    play(s, AnswerDive("none"), 6, 2)  # 6 is not more than Defense 6 (it would beat 5)
    assert last(s)[1] == (
        "Dodge 6 → Defense 6: d10 6 → 0 of 1 through, 1 avoided · Hero die 2 · blank",
    )


def test_r_atk_14_a_thrown_attack_ignores_flanking() -> None:
    s = new_session(
        AddZone("ridge"),
        AddZone("camp"),
        SetBand("ridge", "camp", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "ridge", count=2),
        AddCombatants("minion", "cultist-zealot", "pirates", "camp"),
    )
    play(s, StartCombat(), 1, 9, 9)  # raiders 16, the zealot 14, Kestrel 9
    play(s, Attack(R1, K, "cutlass", style="agile"), 9, 9, 9)
    play(s, Attack(R2, K, "cutlass", style="agile"), 9, 9, 9)
    play(s, EndTurn())
    play(s, Attack("cultist-zealot-1", K, "breaching-charge"), 2)  # Agile 4: one hit
    assert isinstance(s.pending, PendingDive)  # thrown is ranged: Kestrel may dive
    s.rng = Scripted(6, 3, 1, 1)  # type: ignore[assignment]  # (2d6 if the 6 got through)
    s.apply(AnswerDive("none"))
    assert last(s)[1][0] == (
        "Dodge 6 → Defense 6: d10 6 → 0 of 1 through, 1 avoided · Hero die 3 · blank"
    )


def test_r_atk_12_shooting_while_in_melee_pistol_and_rifle() -> None:
    s = duel(RAIDERS_FIRST, raiders_in="ridge")
    play(s, Attack(R1, K, "cutlass", style="agile"), 9, 9, 9)
    play(s, EndTurn())
    play(s, Attack(K, R2, "laser-pistol"), 9, 9, 9, 9, 2)
    assert last(s)[1][1] == "TN Pistols 7 − shooting in melee 1 = 6"
    s.undo()
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert last(s)[1][0] == "Assault Laser (rifles, 5 d10) at Pirate raider 1, melee range"
    assert last(s)[1][1] == "TN Rifles 8 − shooting in melee 2 = 6"


# -- R-ATK-1 Power, weapon cards -----------------------------------------------------------
def test_r_atk_1_power_style_hit_adds_the_strength_die() -> None:
    s = duel(RAIDERS_FIRST, raiders_in="ridge")
    play(s, Attack(R1, K, "cutlass"), 2, 8, 2, 3, 4)  # hit; 8 > 6 through; 1d8 3 + d6 4
    lines = last(s)[1]
    assert lines[0] == (
        "Dodge 6 → Defense 6: d10 8 → 1 of 1 through, 0 avoided · Hero die 2 · blank"
    )
    assert lines[1] == (
        "hit 1: damage 1d8! [3] + 1d6! [4] = 7 vs Health 6 → 1 wound step"
        " → 1 wound step(s): now at −1"
    )
    assert s.log[-2].gm_lines[:2] == (
        "Boarding Cutlass (power, 1 d10) at Kestrel Vance, melee range",
        "TN Power 4 = 4",
    )


def test_r_atk_1_agile_style_with_the_same_blade_has_no_strength_die() -> None:
    s = duel(RAIDERS_FIRST, raiders_in="ridge")
    play(s, Attack(R1, K, "cutlass", style="agile"), 2, 9, 9, 8, 2, 7)
    assert last(s)[1][1].startswith("hit 1: damage 1d8! [7] = 7 vs Health 6")


def test_weapon_card_assault_laser_misfortune_only_one_hit_counts() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 3, 4, 5, 1)
    lines = last(s)[1]
    assert "misfortune: only one hit counts" in lines
    assert (
        lines[-1]
        == "Pirate raider 1 and the rest of its unit (2 in all) gain 1 Fear each (R-ATK-4)"
    )
    assert isinstance(s.pending, PendingDive) and s.pending.attack.hits == 1


def test_weapon_card_assault_laser_special_4_lowers_target_defense() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 4)
    assert "special4: target Defense -1" in last(s)[1]
    play(s, AnswerDive("none"), 5, 2)  # 5 > Defense 4
    assert last(s)[1][0] == "Dodge 5 − card 1 → Defense 4: d10 5 → 1 of 1 through, 0 avoided"


def test_weapon_card_assault_laser_fortune_rolls_extra_shots() -> None:
    """Extra shots are more d10s of the same roll, judged with its one Hero die: no second
    Hero die is rolled (issue 18 #12; R-TASK-2 "a Hero rolls the Hero die" once a roll).
    """
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 6, 2, 1, 1)  # d4 2: two more
    lines = last(s)[1]
    assert (
        "fortune: 1d4 extra shot(s) (rolled 2): d10 1, 1 → 2 hit(s), with the roll's own"
        " Hero die" in lines
    )
    assert s.encounter.get(R1).fear == 2


@pytest.mark.parametrize(
    ("again", "kept", "hits"),
    [(4, "1, 2, 3, 4, 9", 4), (9, "1, 2, 3, 9, 9", 3), (10, "1, 2, 3, 9, 10", 3)],
    ids=["adds-a-hit", "no-better", "worse-is-dropped"],
)
def test_weapon_card_assault_laser_special_5_rerolls_exactly_one_die_keeping_the_best(
    again: int, kept: str, hits: int
) -> None:
    s = duel()
    rng = Scripted(1, 2, 3, 9, 10, 5, again)  # five d10, Hero die 5, then the re-roll
    s.rng = rng  # type: ignore[assignment]
    s.apply(Attack(K, R1, "assault-laser"))
    assert rng.done() and rng.calls == [(1, 10)] * 5 + [(1, 6), (1, 10)]
    lines = last(s)[1]
    assert lines[3] == "roll d10 1, 2, 3, 9, 10 vs TN 8 → 3 hits · Hero die 5 ◆ Special 5"
    assert lines[4] == (
        f"special5: re-roll the worst attack die: d10 {kept} (re-rolled {again}) vs TN 8"
        f" → {hits} hits · Hero die 5 ◆ Special 5"
    )
    assert (
        lines[5]
        == f"Pirate raider 1 and the rest of its unit (2 in all) gain {hits} Fear each (R-ATK-4)"
    )
    assert isinstance(s.pending, PendingDive) and s.pending.attack.hits == hits


def test_weapon_card_special_5_reroll_at_tn_0_still_counts_the_hero_die() -> None:
    s = duel()
    # TN 8 − 8 = 0: a hit needs d10 1 and Hero die 2+; the Hero die shows 5, the re-roll 1
    play(s, Attack(K, R1, "assault-laser", modifier=-8), 5, 5, 5, 5, 5, 5, 1)
    assert s.encounter.get(R1).fear == 1
    assert isinstance(s.pending, PendingDive) and s.pending.attack.hits == 1


def test_weapon_card_laser_pistol_fortune_recharges_and_misfortune_spends_more() -> None:
    s = duel()
    play(s, Attack(K, R1, "laser-pistol"), 9, 9, 9, 9, 6)
    assert "fortune: recharge 1 power" in last(s)[1]
    assert charges(s, K, "laser-pistol") == 7  # 10 − 4 shots + 1
    s.undo()
    play(s, Attack(K, R1, "laser-pistol"), 9, 9, 9, 9, 1)
    assert "misfortune: use 1 extra charge(s)" in last(s)[1]
    assert charges(s, K, "laser-pistol") == 5  # 10 − 4 shots − 1


def test_weapon_card_cutlass_fortune_damage_bonus_counts_toward_wound_steps() -> None:
    s = new_session(
        AddZone("deck"),
        AddCombatants("hero", "roan-maddox", "heroes", "deck", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "deck"),
    )
    play(s, StartCombat(), 5, 1)
    # Power 1 d10 + Hero die 6 Fortune (+2 damage); Defense 9 > 5; 1d8 + Strength die d8
    play(s, Attack("roan-maddox-1", R1, "cutlass"), 2, 6, 9, 2, 1)
    assert "fortune: +2 damage" in s.log[-2].gm_lines
    assert last(s)[1][1] == (
        "hit 1: damage 1d8! [2] + 1d8! [1] = 3, +2 = 5 vs Health 4 → 1 wound step"
        " → Pirate raider is taken out (R-WOUND-2)"
    )
    assert s.encounter.get(R1).out


def test_weapon_card_effects_need_the_hero_die_minions_roll_none() -> None:
    s = duel(RAIDERS_FIRST)
    play(s, Attack(R1, K, "laser-pistol"), 9, 9, 9, 9)  # four d10, no Hero die, no card text
    assert last(s)[1][-2:] == ("roll d10 9, 9, 9, 9 vs TN 6 → 0 hits", "no hit")


# -- R-WOUND-1/3/4/5 and §7 ----------------------------------------------------------------
def test_r_wound_4_hero_wound_costs_an_action_next_turn_and_r_wound_3_penalty() -> None:
    s = duel(RAIDERS_FIRST)
    play(s, Attack(R2, K, "laser-pistol"), 1, 7, 8, 9)
    play(s, AnswerDive("none"), 9, 3, 5, 4)  # through; 2d6 [5, 4] = 9 > Health 6: one step
    kestrel = s.encounter.get(K)
    assert (kestrel.wounds, kestrel.lose_actions, kestrel.fear) == (1, 1, 2)
    assert last(s)[1][1] == (
        "hit 1: damage 2d6! [5, 4] = 9 vs Health 6 → 1 wound step → 1 wound step(s): now at −1"
    )
    play(s, EndTurn())
    assert last(s) == (
        "Round 1: Kestrel Vance's turn",
        ("Kestrel Vance loses 1 action — 1 wound: −1 action (R-WOUND-4)",),
    )
    assert left(s, K) == 1 and s.encounter.get(K).fear == 1
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert last(s)[1][1] == "TN Rifles 8 − wound 1 = 7"


def test_r_wound_4_two_wounds_lose_both_actions_but_extra_actions_may_be_bought() -> None:
    s = duel(RAIDERS_FIRST)
    play(s, Attack(R2, K, "laser-pistol"), 1, 7, 8, 9)
    play(s, AnswerDive("none"), 9, 3, 6, 6, 2, 1)  # 2d6 [6→6→2, 1] = 15: two steps
    assert s.encounter.get(K).wounds == 2
    play(s, EndTurn())
    assert left(s, K) == 0
    play(s, DeclareActions(4))
    assert left(s, K) == 2
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 2)
    assert last(s)[1][1] == "TN Rifles 8 − wound 2 − 4 actions 2 = 4"


def _severe_setup(wounds: int = 2, severe: int = 0) -> Session:
    s = duel(RAIDERS_FIRST)
    edit(s, K, wounds=wounds, severe=severe)
    play(s, Attack(R2, K, "laser-pistol"), 1, 7, 8, 9)
    return s


def test_s7_severe_wound_on_13_asks_the_gm_which_row() -> None:
    s = _severe_setup()
    # 2d6 [6→3, 5] = 14; Stamina 1 (keeps hold of the rifle, R-WOUND-5); chart d10 5
    play(s, AnswerDive("none"), 9, 3, 6, 3, 5, 1, 2, 5)
    kestrel = s.encounter.get(K)
    assert (kestrel.wounds, kestrel.severe, kestrel.prone, kestrel.standing) == (3, 1, True, True)
    assert kestrel.lose_actions == 1  # R-WOUND-4: the severe step is a wound too
    lines = last(s)[1]
    assert lines[1].endswith("→ severely wounded (R-WOUND-1)")
    # §7: d10 + (D − k×H for the final step: 14 − 1×6 = 8) + 2 × earlier severe wounds
    assert lines[2].startswith("Stamina roll: d10 1 ≤ TN 4 ✓")  # −2 for the wounds
    assert lines[2].endswith(": keeps hold of Assault Laser (R-WOUND-5)")
    assert lines[3] == "Severe Wound chart: d10 5 + 8 past Health + 2×0 earlier = 13"
    # the attack pauses with what is left of it: no hit after the first (R-ATK-7)
    assert s.pending == PendingChartChoice(
        K,
        13,
        ("painful-wound", "limb-injury"),
        "Kestrel Vance rolled 13 on the Severe Wound chart: which result?",
        resume=AttackState(R2, K, "laser-pistol", 0, style="pistols", fear_before=0),
        next_hit=2,
        names=(  # each with its effect, so the GM chooses without looking it up
            "Painful wound: −1 to every TN for the rest of this encounter; after it, −1 on any"
            " turn the Hero also moved.",
            "Limb injury: Roll 1d4 for the limb (the GM fixes which number is which). −1 on"
            " anything done with that limb from now on. A second Limb injury, or 5+ damage"
            " past 0, costs the use of the limb.",
        ),
    )
    refused(s, EndTurn(), "answer the pending question first: Kestrel Vance rolled 13")
    refused(s, AnswerDive("none"), "answer the pending question first: Kestrel Vance rolled 13")
    refused(s, ChooseChartRow("dead"), "pick one of painful-wound, limb-injury, or random")
    logged = len(s.log)
    play(s, ChooseChartRow("limb-injury"))
    assert s.pending is None
    chart = s.log[logged]
    assert chart.title == "Kestrel Vance: Severe Wound chart"
    assert chart.lines[0] == "GM picks on 13"
    assert chart.lines[1].startswith("→ Limb injury: Roll 1d4 for the limb")
    assert [line for entry in s.log[logged + 1 :] for line in entry.gm_lines] == []  # no more hits
    assert s.encounter.get(K).standing


def test_r_wound_1_hits_after_a_chart_choice_still_deal_damage() -> None:
    s = _severe_setup()
    s.undo()  # the raider fires again, scoring two hits
    play(s, Attack(R2, K, "laser-pistol"), 1, 2, 9, 9)
    play(s, AnswerDive("none"), 9, 9, 3, 6, 3, 5, 1, 2, 5)  # both through; hit 1: 14, chart 13
    assert isinstance(s.pending, PendingChartChoice)
    assert s.pending.resume is not None
    assert (s.pending.resume.hits, s.pending.next_hit) == (1, 2)
    assert last(s)[1][-1] == "Severe Wound chart: d10 5 + 8 past Health + 2×0 earlier = 13"
    assert s.encounter.get(K).fear == 3  # 2 hits + hit 1 through; hit 2 not rolled yet
    logged = len(s.log)
    # the second hit through is another wound, so another severe wound (2d6 8, chart d10 1)
    play(s, ChooseChartRow("painful-wound"), 4, 4, 9, 2, 1)  # Stamina 9: the rifle drops
    assert s.pending is None
    lines = [line for entry in s.log[logged:] for line in entry.gm_lines]
    assert lines[0] == "GM picks on 13"
    assert lines[1].startswith("→ Painful wound: ")
    # §7: −1 on all its rolls for the rest of the encounter, the next Stamina roll too
    assert lines[2] == "Kestrel Vance marked painful: −1 on all rolls this encounter (chart 13, §7)"
    assert lines[3] == (
        "hit 2: damage 2d6! [4, 4] = 8 vs Health 6 → 1 wound step → severely wounded (R-WOUND-1)"
    )
    assert lines[4].endswith(": drops Assault Laser (R-WOUND-5)")
    # 8 − 1×6 = 2 past Health, + 2 × 1 earlier severe wound (the one just taken)
    assert lines[5] == "Severe Wound chart: d10 1 + 2 past Health + 2×1 earlier = 5"
    assert lines[6].startswith("→ Scarred: ") and len(lines) == 7
    rifle = s.encounter.get(K).weapon("assault-laser")
    assert rifle.dropped  # R-WOUND-5: Interact picks it up
    kestrel = s.encounter.get(K)
    # R-ATK-7: Fear 2 for the hits + 1 per hit through; R-WOUND-4: two wounds, two actions
    assert (kestrel.wounds, kestrel.severe, kestrel.fear, kestrel.lose_actions) == (3, 2, 4, 2)


def test_s7_a_second_13_in_the_resumed_hits_pauses_the_attack_again() -> None:
    s = duel(RAIDERS_FIRST)
    edit(s, K, wounds=2)
    play(s, Attack(R2, K, "laser-pistol"), 1, 2, 3, 9)  # three hits
    play(s, AnswerDive("none"), 9, 9, 9, 3, 6, 3, 5, 1, 2, 5)  # all through; hit 1: chart 13
    assert isinstance(s.pending, PendingChartChoice) and s.pending.next_hit == 2
    # hit 2: 2d6 8 is another severe wound; d10 9 + (8 − 6) + 2 × 1 earlier = 13 again
    play(s, ChooseChartRow("painful-wound"), 4, 4, 1, 2, 9)
    assert isinstance(s.pending, PendingChartChoice) and s.pending.resume is not None
    assert (s.pending.resume.hits, s.pending.next_hit) == (1, 3)
    hit2, grip, chart = last(s)[1]
    assert hit2 == (
        "hit 2: damage 2d6! [4, 4] = 8 vs Health 6 → 1 wound step → severely wounded (R-WOUND-1)"
    )
    assert grip.endswith("keeps hold of Assault Laser (R-WOUND-5)")
    assert chart == "Severe Wound chart: d10 9 + 2 past Health + 2×1 earlier = 13"
    play(s, ChooseChartRow("limb-injury"), 1, 1)  # hit 3: 2, no wound
    assert s.pending is None
    assert last(s)[1] == ("hit 3: damage 2d6! [1, 1] = 2 vs Health 6 → 0 wound steps → no wound",)
    kestrel = s.encounter.get(K)
    # Fear: 3 hits + 3 hits through while standing; two wounds cost two actions
    assert (kestrel.severe, kestrel.fear, kestrel.lose_actions) == (2, 6, 2)


def test_r_atk_8_pinned_is_checked_once_after_the_hits_resumed_by_the_chart_pick() -> None:
    s = duel(RAIDERS_FIRST)
    s.apply(SetCover(K, "light"))
    edit(s, K, wounds=2, fear=2)
    play(s, Attack(R2, K, "laser-pistol"), 1, 2, 9, 9)  # two hits: Fear 4
    play(s, AnswerDive("none"), 9, 9, 3, 6, 3, 5, 1, 2, 5)  # both beat Defense 7; hit 1: 13
    kestrel = s.encounter.get(K)
    assert isinstance(s.pending, PendingChartChoice)
    assert kestrel.fear == 5 and kestrel.conditions == ()  # the attack is not over yet
    play(s, ChooseChartRow("painful-wound"), 1, 1)  # hit 2: 2d6 2, no wound; Fear 6
    assert last(s)[1] == (
        "hit 2: damage 2d6! [1, 1] = 2 vs Health 6 → 0 wound steps → no wound",
        "Kestrel Vance is Pinned: Fear 6 > Morale 4 (R-ATK-8)",
    )
    assert s.encounter.get(K).conditions == ("painful", "pinned")
    # §7 Painful wound: −1 on every roll for the rest of the encounter, Defense included
    plan = plan_attack(s.encounter, Attack(R1, K, "laser-pistol"), s.catalog)
    assert plan.defense(s.encounter) == 6 + 1 - 2 - 1  # Dodge + light cover − wound − painful


@pytest.mark.parametrize(("die", "name"), [(1, "Painful wound"), (2, "Limb injury")])
def test_s7_random_pick_on_13_is_one_roll_between_the_two_rows(die: int, name: str) -> None:
    s = _severe_setup()
    play(s, AnswerDive("none"), 9, 3, 6, 3, 5, 1, 2, 5)  # chart 13, no hit left
    logged = len(s.log)
    rng = Scripted(die)
    s.rng = rng  # type: ignore[assignment]
    s.apply(ChooseChartRow("random"))
    assert rng.done() and rng.calls == [(1, 2)]  # one pick from the two rows: 50/50
    assert s.pending is None
    chart = s.log[logged]
    assert chart.title == "Kestrel Vance: Severe Wound chart"
    assert chart.lines[0] == "random pick on 13"
    assert chart.lines[1].startswith(f"→ {name}: ")


def test_s7_random_pick_comes_from_the_session_rng_and_undo_redo_repeat_it() -> None:
    picked = set()
    for seed in range(8):
        s = _severe_setup()
        play(s, AnswerDive("none"), 9, 3, 6, 3, 5, 1, 2, 5)
        s.rng = random.Random(seed)
        before = s.rng.getstate()
        s.apply(ChooseChartRow("random"))
        assert s.rng.getstate() != before  # the pick is rolled, not fixed
        after = state(s)
        chart = next(e for e in s.log if e.title == "Kestrel Vance: Severe Wound chart")
        picked.add(chart.lines[1].removeprefix("→ ").split(":")[0])
        s.undo()
        s.redo()
        assert state(s) == after
    assert picked == {"Painful wound", "Limb injury"}


def test_s7_earlier_severe_wounds_add_two_each_and_another_wound_is_another_severe() -> None:
    s = _severe_setup(wounds=3, severe=1)
    play(s, AnswerDive("none"), 9, 3, 4, 4, 1, 2, 1)  # 2d6 8: already severe; chart d10 1
    kestrel = s.encounter.get(K)
    assert (kestrel.wounds, kestrel.severe) == (3, 2)
    lines = last(s)[1]
    assert lines[3] == "Severe Wound chart: d10 1 + 2 past Health + 2×1 earlier = 5"
    assert lines[4].startswith("→ Scarred: ")
    assert s.pending is None


def test_r_wound_5_unconscious_chart_result_takes_the_hero_out_of_the_fight() -> None:
    s = _severe_setup()
    play(s, AnswerDive("none"), 9, 3, 6, 3, 5, 1, 2, 7)  # 7 + 8 = 15: Bleeding out
    kestrel = s.encounter.get(K)
    assert kestrel.unconscious and not kestrel.standing
    assert last(s)[1][4].startswith("→ Bleeding out (unconscious): ")
    play(s, Move(R1, "camp", run=True))
    refused(s, Attack(R2, K, "laser-pistol"), "already out of the fight")
    play(s, EndTurn())  # Kestrel's turn passes unplayed: the raiders again, round 2
    assert last(s) == (
        "Round 2: Pirate raider ×2's turn",
        # §7 row 15: the turn she cannot play still ends, with a marker on Health
        ("Kestrel Vance is bleeding out: Health marker 1 of 6 (a Medical roll stops it)",),
    )
    assert s.encounter.get(K).conditions == ("dying", "health-markers:1")


def test_s7_bleeding_out_dies_at_health_markers_unless_stopped() -> None:
    s = _severe_setup()
    play(s, AnswerDive("none"), 9, 3, 6, 3, 5, 1, 2, 7)  # chart 15: Bleeding out
    for _ in range(5):  # Health 6: five of her turns pass, five markers
        play(s, EndTurn())
    assert s.encounter.get(K).standing is False and not s.encounter.get(K).out
    stopped = state(s)
    play(s, EndTurn())
    assert last(s)[1] == ("Kestrel Vance bleeds out: 6 Health markers = Health: dead (§7)",)
    assert s.encounter.get(K).out
    # a Medical roll in time: the GM clears the condition, and no marker comes
    s.undo()
    assert state(s) == stopped
    s.apply(SetCondition(K, "dying", 0))
    play(s, EndTurn())
    assert not s.encounter.get(K).out and last(s)[1] == ()


def test_s7_dead_on_22_or_more() -> None:
    s = _severe_setup()
    edit(s, K, severe=4)  # + 8 from earlier severe wounds
    play(s, AnswerDive("none"), 9, 3, 6, 3, 5, 1, 2, 6)  # 6 + 8 + 8 = 22
    assert s.encounter.get(K).out
    assert last(s)[1][4].startswith("→ Dead: ")


def _gunner_duel() -> Session:
    s = new_session(
        AddZone("ridge"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge"),
        AddCombatants("minion", "corporate-heavy-gunner", "corp", "ridge"),
        SetPools(K, luck=0),
    )
    return play(s, StartCombat(), 1, 9)


def test_r_wound_6_non_lethal_continues_from_the_lethal_marker_against_stamina() -> None:
    s = _gunner_duel()
    edit(s, K, wounds=1)
    # Fists: Agile 4, Agility 2 attacks; the Strength die (Strength 3: d8) non-lethal
    play(s, Attack("corporate-heavy-gunner-1", K, "fists"), 1, 9, 9, 2, 7)
    assert s.log[-2].gm_lines[:2] == (
        "Fists (agile, 2 d10) at Kestrel Vance, melee range",
        "TN Agile 4 = 4",
    )
    kestrel = s.encounter.get(K)
    assert (kestrel.wounds, kestrel.nonlethal, kestrel.lose_actions) == (1, 2, 1)
    assert (
        last(s)[1][1]
        == "hit 1: damage 1d8! [7] = 7 vs Stamina 6 → 1 wound step → 1 wound step(s): now at −2"
    )


def test_r_wound_6_non_lethal_past_minus_two_is_unconscious_without_a_chart() -> None:
    s = _gunner_duel()
    edit(s, K, nonlethal=2)
    play(s, Attack("corporate-heavy-gunner-1", K, "fists"), 1, 9, 9, 2, 7)  # no chart d10
    kestrel = s.encounter.get(K)
    assert (kestrel.nonlethal, kestrel.unconscious, kestrel.severe) == (3, True, 0)
    assert last(s)[1][1].endswith("→ knocked unconscious (non-lethal past −2)")
    assert s.pending is None


# -- §8 Fear at the start of a turn ---------------------------------------------------------
def test_r_fear_1_minion_at_fear_equal_to_morale_is_shaken_and_loses_an_action() -> None:
    s = duel()
    edit(s, R1, fear=4)
    to_raiders(s)
    raider = s.encounter.get(R1)
    assert (raider.fear, raider.conditions) == (3, ("shaken",))
    assert last(s)[1] == (
        "Pirate raider 1: Fear 4 ≥ Morale 4: Shaken",
        "Pirate raider 1 loses 1 action — Shaken: −1 action (§8)",
    )
    assert (left(s, R1), left(s, R2)) == (1, 2)
    # Shaken: −1 on all tasks
    play(s, Attack(R1, K, "laser-pistol"), 9, 9, 9, 9)
    assert last(s)[1][1] == "TN Pistols 6 − conditions 1 = 5"
    refused(
        s,
        Move(R1, "camp", run=True),
        r"^Pirate raider 1 has no actions left this turn: used 1 \(attack\);"
        r" lost 1 — Shaken: −1 action \(§8\)$",
    )
    # Shaken sheds 1 Fear at the end of its turn
    play(s, EndTurn())
    assert s.encounter.get(R1).fear == 2


def test_r_fear_1_below_morale_only_one_token_is_removed() -> None:
    s = duel()
    edit(s, R1, fear=3)
    to_raiders(s)
    assert s.encounter.get(R1).fear == 2 and s.encounter.get(R1).conditions == ()
    assert last(s)[1] == ()


def test_r_fear_3_shaken_ends_when_fear_is_below_morale_at_turn_start() -> None:
    s = duel()
    edit(s, R1, fear=3, conditions=("shaken",))
    to_raiders(s)
    raider = s.encounter.get(R1)
    assert (raider.fear, raider.conditions) == (2, ())
    assert last(s)[1] == ("Pirate raider 1: no longer Shaken",)
    assert left(s, R1) == 2


def test_r_fear_2_shaken_again_while_shaken_is_panicked() -> None:
    s = duel()
    edit(s, R1, fear=5, conditions=("shaken",))
    to_raiders(s)
    raider = s.encounter.get(R1)
    assert raider.conditions == ("panicked",)  # in Shaken's place (§8, issue 18)
    assert raider.fear == 4
    assert last(s)[1][0] == "Pirate raider 1: Fear 5 ≥ Morale 4: Panicked"


def test_r_fear_2_hero_failing_morale_while_shaken_is_panicked() -> None:
    s = duel(RAIDERS_FIRST)
    edit(s, K, fear=5, conditions=("shaken",))
    play(s, EndTurn(), 4, 3)  # Morale 4 − 1 for Shaken (§8): the 4 fails
    assert s.encounter.get(K).conditions == ("panicked",)  # in Shaken's place (issue 18)
    assert last(s)[1][0] == (
        "Kestrel Vance: Morale roll: d10 4 > TN 3 ✗ · Hero die 3 · blank;"
        " Shaken again: Panicked (R-FEAR-2)"
    )


def test_r_fear_1_hero_rolls_morale_and_is_shaken_on_a_failure() -> None:
    s = duel(RAIDERS_FIRST)
    edit(s, K, fear=5)
    play(s, EndTurn(), 7, 3)  # Morale 4: d10 7 fails
    kestrel = s.encounter.get(K)
    assert (kestrel.fear, kestrel.conditions) == (4, ("shaken",))
    assert last(s)[1] == (
        "Kestrel Vance: Morale roll: d10 7 > TN 4 ✗ · Hero die 3 · blank",
        "Kestrel Vance loses 1 action — Shaken: −1 action (§8)",
    )
    assert left(s, K) == 1


@pytest.mark.parametrize("who", ["pirate-raider-1", "pirate-first-mate-1"])
def test_r_fear_2_minion_reaching_twice_morale_in_one_attack_panics_at_once(who: str) -> None:
    s = duel()
    play(s, AddCombatants("sidekick", "pirate-first-mate", "pirates", "dig"), 1)  # initiative
    s.apply(DecideSidekick("pirate-first-mate-1", "minion"))  # Morale 4, Dodge 5 as a raider
    edit(s, who, fear=3)
    play(s, Attack(K, who, "assault-laser"), 1, 2, 3, 9, 9, 2)  # 3 hits: Fear 6
    play(s, AnswerDive("none"), 6, 7, 2, 1, 2)  # 2 through Defense 5, no wound: Fear 8
    target = s.encounter.get(who)
    assert (target.fear, target.conditions, target.standing) == (8, ("panicked",), True)
    assert last(s)[1][-1] == f"{target.name} panics: Fear 8 ≥ 2 × Morale in one action (R-FEAR-2)"


def test_r_fear_2_fear_from_hits_that_are_all_avoided_counts_too() -> None:
    s = duel()
    edit(s, R1, fear=4)
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 3, 4, 5, 2)  # 5 hits: Fear 9
    play(s, AnswerDive("none"), 1, 1, 1, 1, 1)  # none through
    assert s.encounter.get(R1).conditions == ("panicked",)
    assert last(s)[1][-1] == "Pirate raider 1 panics: Fear 9 ≥ 2 × Morale in one action (R-FEAR-2)"


@pytest.mark.parametrize(
    ("fear", "defense_and_damage", "after", "out"),
    [
        (2, (6, 7, 2, 1, 2), 7, False),  # 2 → 7: short of 2 × Morale 4
        (8, (6, 7, 2, 1, 2), 13, False),  # already at 2 × Morale before this attack
        (5, (6, 7, 2, 5), 8, True),  # 5 → 8, but the first hit through takes it out
    ],
    ids=["below-twice-morale", "already-there", "taken-out"],
)
def test_r_fear_2_no_panic_below_twice_morale_already_there_or_taken_out(
    fear: int, defense_and_damage: tuple[int, ...], after: int, out: bool
) -> None:
    s = duel()
    edit(s, R1, fear=fear)
    play(s, Attack(K, R1, "assault-laser"), 1, 2, 3, 9, 9, 2)  # 3 hits
    play(s, AnswerDive("none"), *defense_and_damage)  # 2 through Defense 5
    raider = s.encounter.get(R1)
    assert (raider.fear, raider.out, raider.conditions) == (after, out, ())
    assert not any("panics" in line for line in last(s)[1])


def test_r_fear_2_a_hero_at_twice_morale_does_not_panic() -> None:
    s = duel(RAIDERS_FIRST)
    edit(s, K, fear=4)
    play(s, Attack(R1, K, "laser-pistol"), 1, 1, 1, 1)  # 4 hits: Fear 8 = 2 × Morale 4
    play(s, AnswerDive("none"), 1, 1, 1, 1, 3)  # all avoided
    kestrel = s.encounter.get(K)
    assert (kestrel.fear, kestrel.conditions) == (8, ())
    assert last(s)[1] == (
        "Dodge 6 → Defense 6: d10 1, 1, 1, 1 → 0 of 4 through, 4 avoided · Hero die 3 · blank",
    )


@pytest.mark.parametrize(
    ("wounds", "nonlethal", "conditions", "tn"),
    [
        (0, 0, (), 4),
        (1, 0, (), 3),
        (2, 0, (), 2),
        (3, 0, (), 2),  # severely wounded: the marker's penalty stays −2
        (0, 2, (), 2),  # the non-lethal marker counts when it is the furthest (R-WOUND-6)
        (1, 2, (), 2),
        (0, 0, ("shaken",), 3),  # §8 Shaken: −1 on all tasks
        (2, 0, ("shaken",), 1),
    ],
)
def test_r_fear_1_hero_morale_roll_tn_has_the_wound_penalty_and_shaken(
    wounds: int, nonlethal: int, conditions: tuple[str, ...], tn: int
) -> None:
    for d10, shown in ((tn, f"d10 {tn} ≤ TN {tn} ✓"), (tn + 1, f"d10 {tn + 1} > TN {tn} ✗")):
        s = duel(RAIDERS_FIRST)
        edit(s, K, fear=5, wounds=wounds, nonlethal=nonlethal, conditions=conditions)
        play(s, EndTurn(), d10, 3)  # Fear 5 ≥ Morale 4: the Hero rolls
        assert last(s)[1][0].startswith(f"Kestrel Vance: Morale roll: {shown} · Hero die 3 · blank")
        marks = s.encounter.get(K).conditions  # Shaken again: Panicked in its place
        assert bool({"shaken", "panicked"} & set(marks)) == (d10 > tn or "shaken" in conditions)


@pytest.mark.parametrize(
    ("dice", "fear"),
    [((2, 6), 3), ((2, 1), 5), ((2, 4), 4)],
    ids=["fortune-removes-one-more", "misfortune-adds-one", "special-nothing"],
)
def test_r_fear_1_hero_morale_fortune_and_misfortune_move_fear(
    dice: tuple[int, int], fear: int
) -> None:
    s = duel(RAIDERS_FIRST)
    edit(s, K, fear=5)
    play(s, EndTurn(), *dice)  # d10 2 ≤ 4: not Shaken either way
    kestrel = s.encounter.get(K)
    assert (kestrel.fear, kestrel.conditions) == (fear, ())
    assert left(s, K) == 2


# -- refusals change nothing ------------------------------------------------------------
def test_refusals_during_combat_leave_state_log_and_rng_untouched() -> None:
    s = duel()
    refused(s, Attack(R1, K, "laser-pistol"), "it is not Pirate raider 1's turn")
    refused(s, Attack("ghost", R1, "laser-pistol"), "no combatant 'ghost'")
    refused(s, Attack(K, "ghost", "laser-pistol"), "no combatant 'ghost'")
    refused(s, Attack(K, R1, "bow"), "Kestrel Vance does not carry 'bow'")
    refused(s, Attack(K, K, "laser-pistol"), "cannot attack itself")
    refused(s, Move("ghost", "camp"), "no combatant 'ghost'")
    refused(s, AnswerDive("light"), "nothing is waiting for that answer")
    refused(s, ChooseChartRow("scarred"), "nothing is waiting for that answer")
    refused(s, Attack(K, R1, "laser-pistol", issuer="player:ana"), "only the GM")
    set_charges(s, K, "laser-pistol", 0)
    refused(s, Attack(K, R1, "laser-pistol"), "has 0 charge")
    edit(s, R2, out=True)
    refused(s, Attack(K, R2, "assault-laser"), "already out of the fight")


def test_refusals_while_a_dive_is_pending_leave_everything_untouched() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)
    pending = s.pending
    for command in (EndTurn(), Move(K, "trench"), Attack(K, R2, "laser-pistol"), EndCombat()):
        refused(s, command, "answer the pending question first: Pirate raider 1 is hit")
    refused(
        s, ChooseChartRow("scarred"), "answer the pending question first: Pirate raider 1 is hit"
    )
    assert s.pending is pending


def test_undo_restores_the_dice_a_refusal_keeps_redo_and_redo_rolls_the_same() -> None:
    s = duel()
    s.rng = random.Random(7)  # a real RNG again: the attack rolls whatever it rolls
    before = state(s)
    s.apply(Attack(K, R1, "assault-laser"))
    after = state(s)
    s.undo()
    assert state(s) == before
    refused(s, Attack(R1, K, "laser-pistol"), "not Pirate raider 1's turn")
    assert s.can_redo
    s.redo()
    assert state(s) == after


def test_free_task_roll_is_refused_while_a_combat_decision_is_pending() -> None:
    s = duel()
    play(s, Attack(K, R1, "assault-laser"), 1, 9, 9, 9, 9, 2)
    refused(s, RollTask(task_tn([("Agility", 3)]), Rank.HERO), "answer the pending question first")


def test_a_log_line_that_fails_to_write_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """An attack's lines are written when read (a forecast reads none), and the session
    reads them before it takes the outcome: a writer's bug leaves the fight as it was."""
    attack_module = importlib.import_module("hsm_tui.campaign.combat.attack")
    s = duel()
    before = (s.encounter, tuple(s.log), s.pending, tuple(s.history))

    def broken(*_: object) -> str:
        raise ZeroDivisionError("a writer's bug")

    monkeypatch.setattr(attack_module, "_roll_line", broken)
    s.rng = random.Random(3)  # type: ignore[assignment]
    with pytest.raises(ZeroDivisionError):
        s.apply(Attack(K, R1, "assault-laser"))
    assert (s.encounter, tuple(s.log), s.pending, tuple(s.history)) == before


def test_r_init_1_a_combatant_put_in_another_group_is_among_its_members() -> None:
    """The group index is kept through a copy only while nobody changes group."""
    s = duel()
    r1 = s.encounter.get(R1)
    moved = s.encounter.with_combatants(replace(r1, group="pirate-raider@mutineers"))
    assert [c.id for c in moved.members("pirate-raider@mutineers")] == [R1]
    assert R1 not in [c.id for c in moved.members(r1.group)]
