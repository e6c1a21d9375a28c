"""Engine helpers the combat screen aims with: the shots a weapon's charges pay for
(R-ATK-2/3), a group attack that fires what each member can, whether the attack's action
can be taken (R-ACT-1), the zones a Move or Move+Run reaches (R-ACT-2) and the re-rolls a
Hero may split between d10s and the Hero die (R-TASK-6).
"""

from __future__ import annotations

from hsm_tui.campaign.combat import (
    NO_BAND,
    TOO_FAR,
    AddZone,
    Attack,
    Move,
    PendingCombatRerolls,
    SetPools,
    SpendCombatRerolls,
    TakeAction,
    action_refusal,
    firepower,
    group_attack,
    routes,
    within_charges,
)
from hsm_tui.campaign.encounter import WeaponState
from hsm_tui.rules import RangeBand
from hsm_tui.table.session import Batch
from tests.campaign import charges, edit, play, refused, set_charges
from tests.campaign.test_combat_engine import R1, R2, RAIDERS_FIRST, K, duel


def test_r_atk_3_an_attack_starts_at_the_shots_its_charges_pay_for() -> None:
    """R-ATK-2/3: the Laser Pistol fires 1+Agility = 4; with 2 charges it fires 2, and
    only an empty weapon cannot fire (the refusal says how it gets charges back).
    """
    s = duel()
    pistol = Attack(K, R1, "laser-pistol")
    assert within_charges(s.encounter, pistol, s.catalog) == pistol  # full: the whole rate
    set_charges(s, K, "laser-pistol", 2)
    fire = firepower(s.encounter, pistol, s.catalog)
    assert (fire.rate, fire.paid, fire.shots) == (4, 2, 2)
    refused(s, pistol, r"has 2 charge\(s\), needs 4 for 4 shot\(s\) \(R-ATK-3\): it can fire 2")
    play(s, within_charges(s.encounter, pistol, s.catalog), 9, 9, 2)
    assert charges(s, K, "laser-pistol") == 0
    assert within_charges(s.encounter, pistol, s.catalog) == pistol  # empty: cannot fire
    refused(
        s,
        pistol,
        r"has 0 charge\(s\), not enough for one shot \(R-ATK-3\): it regains 1 charge at the"
        " end of each turn it does not fire; no action recharges it sooner",
    )


def test_r_act_5_an_empty_weapon_names_its_way_back() -> None:
    """R-ACT-5: a reloading weapon is refilled by Reload; a no-recharge one stays empty."""
    s = duel()
    empty = (WeaponState(w, 0, 10, recharge=False) for w in ("slug-rifle", "sonic-relik"))
    edit(s, K, weapons=(*s.encounter.get(K).weapons, *empty))
    for weapon, words in (
        ("slug-rifle", "reloading refills it (2 actions, R-ACT-5)"),
        ("sonic-relik", "it does not recharge, so it stays empty for this fight"),
    ):
        assert firepower(s.encounter, Attack(K, R1, weapon), s.catalog).refill == words
        refused(s, Attack(K, R1, weapon), words.replace("(", r"\(").replace(")", r"\)"))


def test_r_atk_3_a_group_fires_what_each_member_can_and_skips_the_empty() -> None:
    """R-ATK-2/3: raider 1 (empty) goes last so the Batch fires raider 2's two shots
    first and logs why raider 1 is skipped.
    """
    s = duel(RAIDERS_FIRST)
    set_charges(s, R1, "laser-pistol", 0)
    set_charges(s, R2, "laser-pistol", 2)
    attacks = group_attack(s.encounter, K, s.catalog)
    assert attacks == (
        Attack(R2, K, "laser-pistol", shots=2, or_nearest=True),
        Attack(R1, K, "laser-pistol", or_nearest=True),
    )
    play(s, Batch(attacks), 9, 9)  # two misses
    assert charges(s, R2, "laser-pistol") == 0
    skipped = s.log[-1]
    assert skipped.title == "Skipped: Pirate raider 1"
    assert skipped.lines[0].startswith("Laser Pistol has 0 charge(s), not enough for one shot")
    assert s.encounter.turn.used_by(R1) == ()


def test_r_act_1_the_action_refusal_is_known_before_the_roll() -> None:
    """R-ACT-1: two actions a turn; only the acting group attacks on its turn."""
    s = duel()
    laser = Attack(K, R1, "assault-laser")
    assert action_refusal(s.encounter, laser) == ""
    assert "not Pirate raider 1's turn" in action_refusal(s.encounter, Attack(R1, K, "cutlass"))
    s.apply(TakeAction(K, "dodge"))
    s.apply(TakeAction(K, "aim"))
    assert action_refusal(s.encounter, laser) == "Kestrel Vance has no actions left this turn"


def test_r_act_2_routes_say_what_reaches_each_zone_and_issue_that_move() -> None:
    """R-ACT-2: from the ridge a Move reaches the trench (Melee band), Move+Run the camp
    (Short); the dig (Medium) and a zone without a band are out of reach this turn.
    """
    s = duel()
    s.apply(AddZone("far"))
    found = {r.move.zone: r for r in routes(s.encounter, K)}
    assert [(z, r.band, r.cost) for z, r in found.items()] == [
        ("dig", RangeBand.MEDIUM, TOO_FAR),
        ("trench", RangeBand.MELEE, "Move, 1 action"),
        ("camp", RangeBand.SHORT, "Move + Run, 2 actions"),
        ("far", None, NO_BAND),
    ]
    assert found["trench"].move == Move(K, "trench")
    assert found["camp"].move == Move(K, "camp", run=True)
    refused(s, found["dig"].move, "Move\\+Run covers one band per turn")
    refused(s, found["far"].move, "no range band set")
    s.apply(found["camp"].move)
    assert s.encounter.get(K).zone == "camp"


def test_r_other_4_a_slowed_mover_cannot_run_so_short_is_out_of_reach() -> None:
    s = duel()
    edit(s, K, conditions=("slowed",))
    camp = next(r for r in routes(s.encounter, K) if r.move.zone == "camp")
    assert not camp.reachable and camp.cost == TOO_FAR
    refused(s, camp.move, "only a Move this turn")


def test_r_task_6_combat_rerolls_count_every_source_and_suggest_the_best_split() -> None:
    """R-TASK-6: free + Luck + Clues are available; the dialog opens on the free ones plus
    one paid after a miss (R-CHAR-9 Interpretation: Luck lasts the campaign), placed on a
    d10 even over a ✗ Misfortune: the GM may still pick the Hero die, and the engine takes
    any split the pools pay for.
    """
    s = duel()
    s.apply(SetPools(K, luck=2, clues=1))
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 1)  # no hit, ✗ Misfortune
    pending = s.pending
    assert isinstance(pending, PendingCombatRerolls)
    assert (pending.available, pending.suggested) == (3, (1, 0))
    play(s, SpendCombatRerolls(2, 1), 9, 9, 3)  # the Hero die 3: no ✗ Misfortune now
    assert s.encounter.get(K).luck == 0 and s.encounter.get(K).clues == 0
    assert "Hero die 3 (of 1, 3)" in s.log[-1].lines[0]


def test_r_task_6_a_defense_that_let_every_hit_through_suggests_a_paid_reroll() -> None:
    """On a Defense roll the pool's "successes" are the hits through: a Hero whose every
    die let a hit through (the defender's miss) is offered one paid re-roll, not 0.
    """
    from dataclasses import replace

    from hsm_tui.rules import Rank
    from hsm_tui.rules.tasks import roll_defense
    from tests.campaign import Scripted

    through = roll_defense(Scripted(9, 2), 1, 4, Rank.HERO)  # d10 9 > Defense 4
    assert through.successes == 1
    s = duel()
    s.apply(SetPools(K, luck=1))
    play(s, Attack(K, R1, "assault-laser"), 9, 9, 9, 9, 9, 1)
    pending = replace(s.pending, roll=through, stage="defense", free=0, luck=1, clues=0)
    assert pending.suggested == (1, 0)
    blocked = roll_defense(Scripted(3, 2), 1, 4, Rank.HERO)  # d10 3: the hit is stopped
    assert replace(pending, roll=blocked).suggested == (0, 0)
