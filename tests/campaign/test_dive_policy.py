"""A side's standing answer to its Minions' dive questions (R-ATK-5): set once on F4 or
F7, applied by the engine at each hit and said in the log; a Hero's player is still asked.
"""

from __future__ import annotations

import random

import pytest

from hsm_tui.campaign.combat import Attack, EndTurn, PendingDive, SetCover, SetDivePolicy
from hsm_tui.rules import RulesError
from hsm_tui.table.session import Session
from hsm_tui.table.visibility import GM_ONLY
from tests.campaign.test_combat_engine import R1, K, duel


def hit(s: Session, attacker: str, target: str, weapon: str) -> Session:
    """``attacker`` hits ``target`` (the first seed whose dice give a hit)."""
    for seed in range(100):
        s.rng = random.Random(seed)  # type: ignore[assignment]
        before = len(s.log)
        s.apply(Attack(attacker, target, weapon))
        if s.pending is not None or any(e.title == "Dive for cover" for e in s.log[before:]):
            return s
        s.undo()
    raise AssertionError("no seed hits")


@pytest.mark.parametrize(
    ("policy", "cover", "said"),
    [
        ("stay", "none", "Pirate raider 1 stays put and defends (R-ATK-5: no dive)"),
        ("light", "none", "Pirate raider 1's unit (2) dives into light cover"),
        ("light", "medium", "Pirate raider 1 stays put and defends (R-ATK-5: no dive)"),
    ],
)
def test_r_atk_5_a_sides_policy_answers_its_minions_dives(policy, cover, said) -> None:
    s = duel()
    s.apply(SetDivePolicy("pirates", policy))
    assert s.log[-1].visibility == GM_ONLY  # the GM's table management, not news
    if cover != "none":
        s.apply(SetCover(R1, cover))
    hit(s, K, R1, "assault-laser")
    assert not isinstance(s.pending, PendingDive)  # nobody was asked
    dive = next(e for e in s.log if e.title == "Dive for cover")
    assert dive.gm_lines[0].startswith(said)


def test_r_atk_5_a_heros_player_is_still_asked() -> None:
    s = duel()
    s.apply(SetDivePolicy("heroes", "stay"))
    s.apply(EndTurn())  # the raiders' turn
    hit(s, R1, K, "laser-pistol")
    assert isinstance(s.pending, PendingDive)


def test_a_dive_policy_is_one_of_the_engines_and_for_a_side_in_the_fight() -> None:
    s = duel()
    with pytest.raises(RulesError, match="a dive policy is one of ask, stay, light"):
        s.apply(SetDivePolicy("pirates", "sometimes"))
    with pytest.raises(RulesError, match="no side 'ninjas'"):
        s.apply(SetDivePolicy("ninjas", "stay"))
    s.apply(SetDivePolicy("pirates", "stay"))
    s.apply(SetDivePolicy("pirates", "ask"))
    assert s.encounter.dive_policy == ()
