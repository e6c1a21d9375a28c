"""R-INIT-3 surprise and initiative bonuses; R-ATK-16 suppressive fire and its plan."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from hsm_tui.campaign.combat import (
    AddCombatants,
    AddZone,
    Attack,
    EndTurn,
    SetBand,
    SetCondition,
    SetPools,
    StartCombat,
    Suppress,
    plan_suppress,
    suppress,
)
from hsm_tui.rules import Cover, RangeBand, RulesError
from hsm_tui.rules.secret import plain
from tests.campaign import edit, new_session, play, refused, set_charges, state
from tests.campaign.test_combat_engine import R1, R2, K, duel, left

RAIDERS = "pirate-raider@pirates"


def _unstarted():
    return new_session(
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "medium"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        SetPools(K, luck=0),
    )


def test_r_init_3_a_waiting_character_gets_a_free_surprise_round_first() -> None:
    s = _unstarted()
    play(s, StartCombat(surprise=(K,)), 1, 9)  # raiders win initiative 16 to 9
    assert s.encounter.round == 0
    assert s.log[-1].title == "Surprise round (R-INIT-3): Kestrel Vance's turn"
    play(s, EndTurn())
    assert s.log[-1].title == "Round 1: Pirate raider ×2's turn"
    play(s, EndTurn())
    assert s.log[-1].title == "Round 1: Kestrel Vance's turn"


def test_r_init_3_knowing_where_they_wait_adds_senses_to_initiative() -> None:
    s = _unstarted()
    play(s, StartCombat(bonus=((R1, 3),)), 5, 1)  # raiders d10 1 + 7 + 3 = 11 vs 13
    lines = s.log[-2].gm_lines
    assert lines[1] == "2. Pirate raider ×2: d10 1 + Initiative 7 (+3 R-INIT-3) = 11"


def test_r_atk_16_suppressive_fire_defense_plus_two_fear_die_by_band_and_divers() -> None:
    s = duel()
    play(s, Suppress(K, "assault-laser", (R1, R2), dive=(R2,)), 9, 5, 3)
    r1, r2 = s.encounter.get(R1), s.encounter.get(R2)
    # R1: Dodge 5 + 2 = 7, the 9 is a hit: 1d4 3 (no wound) and 1 Fear; Fear die 5 − 1
    assert (r1.fear, r1.wounds, r1.out) == (4 + 1, 0, False)
    # "The Fear on a target is given to an individual, or a unit": the unit gains the
    # Fear die once, and R1's hit through gives the unit its 1 more Fear
    assert (r2.fear, r2.prone, r2.cover, r2.lose_actions) == (4 + 1, True, Cover.LIGHT, 1)
    lines = s.log[-2].gm_lines
    assert "Fear die d8: 5" in lines
    assert "Pirate raider 1 (medium) and the rest of its unit (2 in all) gain 4 Fear each" in lines
    assert s.log[-1].gm_lines[0].startswith("hit 1: damage 1d4! [3] = 3 vs Health 4")
    assert s.encounter.get(K).weapon("assault-laser").charges == 20 - 10
    assert left(s, K) == 1
    refused(s, Attack(K, R1, "assault-laser"), "laid down suppressive fire this turn")
    refused(s, Suppress(K, "laser-pistol", (R1,)), "suppressive fire once per turn")


def test_r_atk_16_refusals() -> None:
    s = duel()
    refused(s, Suppress(K, "dagger", (R1,)), "no Suppression rating")
    refused(s, Suppress(K, "assault-laser", ()), "1 to 10 targets")
    refused(s, Suppress(K, "assault-laser", (R1,), dive=(R2,)), "only targets in the cone")
    refused(s, Suppress(K, "assault-laser", (K,)), "not a standing enemy")


def test_r_wound_5_a_dropped_weapon_lays_down_no_suppressive_fire() -> None:
    """R-WOUND-5: a dropped weapon is out of hand until picked up; the plan says so first
    (before the cone's own refusals) and the handler refuses with it."""
    s = duel()
    edit(
        s,
        K,
        weapons=tuple(
            replace(w, dropped=w.id == "assault-laser") for w in s.encounter.get(K).weapons
        ),
    )
    plan = _plan(s)
    assert plan.refusal == plan.fire_refusal
    assert plan.preview()[1] == f"cannot fire: {plan.refusal}"
    refused(
        s,
        Suppress(K, "assault-laser", (R1,)),
        "no longer holds Assault Laser: Interact to pick it up",
    )


# -- the plan (preview) of suppressive fire ---------------------------------------------
def _plan(s, *targets: str, dive: tuple[str, ...] = ()):
    return plan_suppress(s.encounter, Suppress(K, "assault-laser", targets, dive), s.catalog)


def test_r_atk_16_plan_preview_is_what_the_handler_then_rolls() -> None:
    """R-ATK-16 / R-ATK-5 / R-ATK-6: the preview's Defense, dive and Fear-by-band lines
    are the handler's: same Defense text, dive line, and Fear die less one at Medium."""
    s = duel()
    plan = _plan(s, R1, R2, dive=(R2,))
    assert plan.refusal == ""
    r1, r2 = plan.cone
    assert (r1.band, r1.defense, r1.dives, r2.dives) == (RangeBand.MEDIUM, 5 + 0 + 2, False, True)
    assert plan.preview() == (
        "Assault Laser: suppressive fire 10/d8 at 2 target(s)",
        "Pirate raider 1: Dodge 5 + suppressive fire 2 = 7: hit 30.0% (1d4 damage, 1 more Fear)",
        "Pirate raider 2 dives for cover: safe, Prone, loses 1 action (R-ATK-5)",
        "Pirate raider 1 (medium) gains d8 − 1 Fear: 0–7, expected 3.50",
        "Pirate raider 2 (medium) gains d8 − 1 Fear: 0–7, expected 3.50",
        "≥1 target hit 30.0% · expected 0.30",
    )
    before = {c.id: c.fear for c in s.encounter.combatants}
    play(s, Suppress(K, "assault-laser", (R1, R2), dive=(R2,)), 9, 5, 3)
    lines = s.log[-2].gm_lines
    assert lines[0] == plan.headline
    assert lines[1] == f"{r1.defense_text} → Defense 7: d10 9 → 1 of 1 through, 0 avoided"
    assert lines[2] == r2.dive_text
    assert lines[3:5] == (
        "Fear die d8: 5",
        "Pirate raider 1 (medium) and the rest of its unit (2 in all) gain 4 Fear each",
    )
    assert r1.fear(5) == r2.fear(5) == 4
    after = s.encounter
    assert after.get(R2).fear == before[R2] + r2.fear(5) + 1  # the unit's: R1's hit too
    assert after.get(R1).fear == before[R1] + r1.fear(5) + 1  # the hit: 1 more Fear


def test_r_atk_16_a_shaken_target_defends_lower_against_suppression_too() -> None:
    """§8 / R-TASK-1: Shaken is on every roll, the suppression Defense roll included."""
    s = duel()
    s.apply(SetCondition(R1, "shaken", 1))
    (r1,) = _plan(s, R1).cone
    assert r1.defense == 5 - 1 + 2
    assert r1.defense_text == "Pirate raider 1: Dodge 5 − conditions 1 + suppressive fire 2"


def test_r_atk_16_plan_odds_are_exact_and_agree_with_seeded_sampling() -> None:
    """R-ATK-16 / R-ATK-6: a hit is one Defense die above Dodge + cover + 2 (exact
    Fractions); the Fear die less the band; 4,000 seeded suppressions land on them."""
    s = duel()
    edit(s, R2, cover=Cover.LIGHT)
    cmd = Suppress(K, "assault-laser", (R1, R2))
    plan = plan_suppress(s.encounter, cmd, s.catalog)
    r1, r2 = plan.cone
    assert (r1.hit, r2.hit) == (Fraction(3, 10), Fraction(2, 10))  # d10 > 7, d10 > 8
    assert plan.any_hit == 1 - Fraction(7, 10) * Fraction(8, 10)
    fear = plan.fear_odds(r1)
    assert all(isinstance(p, Fraction) for p in (r1.hit, plan.any_hit, *fear))
    assert fear == (*[Fraction(1, 8)] * 8, Fraction(0))  # d8 − 1 at Medium: 0 to 7
    assert sum(fear) == 1
    rng, runs, name1 = random.Random(16), 4000, r1.combatant.name
    hits = {R1: 0, R2: 0}
    gained = [0] * 9
    for _ in range(runs):
        out = suppress(s.encounter, cmd, rng, s.catalog)
        for target in hits:
            name = s.encounter.get(target).name
            hits[target] += any(e.title == f"{name} defends" for e in out.log[1:])
        line = next(x for x in map(plain, out.log[0].lines) if x.startswith(f"{name1} (medium)"))
        gained[int(line.split()[-3])] += 1  # "… gain 4 Fear each": the unit's
    for target, p in ((R1, r1.hit), (R2, r2.hit)):
        assert abs(hits[target] / runs - p) < 4 * (p * (1 - p) / runs) ** 0.5
    for k, p in enumerate(fear):
        assert abs(gained[k] / runs - p) <= 4 * (p * (1 - p) / runs) ** 0.5


def test_r_atk_16_plan_names_each_ineligible_target_and_the_handler_refuses_with_it() -> None:
    """R-ATK-16 (range), R-COMBAT-2 (no band set): the candidates list every standing
    enemy nearest first with why the cone cannot hold it; the handler's refusal is it."""
    s = duel(raiders=3)
    r3 = "pirate-raider-3"
    s.apply(AddZone("far"))
    s.apply(AddZone("moon"))
    s.apply(SetBand("ridge", "far", "extra-long"))
    edit(s, R2, zone="moon")
    edit(s, r3, zone="far")
    before = state(s)
    plan = _plan(s)
    assert state(s) == before  # planning changes nothing
    rows = [(t.combatant.id, t.band_label, t.eligible, t.reason) for t in plan.candidates]
    assert rows == [
        (R1, "medium", True, ""),
        (r3, "extra-long", False, "Pirate raider 3 is beyond Assault Laser's long range"),
        (R2, "no band", False, "no range band set between 'ridge' and 'moon'"),
    ]
    assert plan.refusal == "suppressive fire covers 1 to 10 targets, not 0"
    assert plan.forecast(plan.candidates[0]) == "hit 30.0% · Fear 0–7"
    for target, reason in (
        (r3, rows[1][3]),
        (R2, rows[2][3]),
        (K, "Kestrel Vance is not a standing enemy"),
    ):
        assert _plan(s, R1, target).refusal == reason
        refused(s, Suppress(K, "assault-laser", (R1, target)), re.escape(reason))
    cone = _plan(s, R1, r3)
    assert [t.reason for t in cone.cone] == ["", rows[1][3]]
    assert cone.preview() == (cone.headline, f"cannot fire: {rows[1][3]}")


def test_r_atk_16_plan_refuses_only_a_weapon_without_suppression() -> None:
    """R-ATK-16: no Suppression rating, no plan; the rest are the plan's refusal."""
    s = duel()
    with pytest.raises(RulesError, match="no Suppression rating"):
        plan_suppress(s.encounter, Suppress(K, "dagger", (R1,)), s.catalog)
    set_charges(s, K, "assault-laser", 4)
    assert _plan(s, R1).refusal == "Assault Laser needs 10 charges for suppressive fire, has 4"


def test_r_char_8_an_undecided_sidekick_has_no_odds_until_the_gm_decides() -> None:
    """R-CHAR-8: a late Sidekick not yet given Hero or Minion rules has no Defense odds
    (the row says ``hit ?``) and cannot roll Defense, but may dive (R-ATK-5)."""
    s = duel()
    play(s, AddCombatants("sidekick", "cult-defector", "pirates", "dig"), 1)
    side = next(c.id for c in s.encounter.combatants if c.entry == "cult-defector")
    plan = _plan(s, side)  # refused before any odds are asked, so previews never raise
    assert "decide first whether this Sidekick" in plan.refusal
    assert plan.preview()[1] == f"cannot fire: {plan.refusal}"
    assert plan.forecast(plan.cone[0]).startswith("hit ? · Fear 0–")
    refused(s, Suppress(K, "assault-laser", (side,)), "decide first whether this Sidekick")
    assert _plan(s, side, dive=(side,)).cone[0].hit == 0
    play(s, Suppress(K, "assault-laser", (side,), dive=(side,)), 4)
    assert s.encounter.get(side).prone
