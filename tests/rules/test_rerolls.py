"""R-TASK-6 / R-CHAR-9: the one re-roll pipeline every roll uses (hsm_tui/rules/rerolls.py)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from hsm_tui.rules import PoolRoll, Rank, RulesError, roll_task
from hsm_tui.rules.odds import reroll_odds, suggest_split
from hsm_tui.rules.rerolls import first_offer, spend_free, spend_rerolls
from hsm_tui.rules.tasks import roll_defense
from tests.scripted import ScriptedRNG


@dataclass(frozen=True)
class Ask:
    d10: int
    hero: int
    clues: int = 0


def missed() -> PoolRoll:
    return roll_task(ScriptedRNG(9, 2), 5, Rank.HERO)  # d10 9 > TN 5, a blank Hero die


def test_r_task_6_free_rerolls_go_first_then_clues_as_asked_then_luck() -> None:
    spent = spend_rerolls(missed(), ScriptedRNG(1, 3, 4, 5), Ask(3, 1, clues=1), 1, 2, 2)
    assert (spent.free, spent.luck, spent.clues) == (1, 2, 1)
    assert spent.cost == "1 free, 2 Luck, 1 Clue(s)"
    assert spent.roll.success  # the re-rolled 1 is kept: the best dice stay


def test_r_task_6_keeping_the_roll_spends_and_rolls_nothing() -> None:
    rng = ScriptedRNG()
    spent = spend_rerolls(missed(), rng, Ask(0, 0), 1, 2, 2)
    assert (spent.total, spent.cost, spent.roll) == (0, "", missed())


@pytest.mark.parametrize(
    ("ask", "match"),
    [
        (Ask(-1, 0), "cannot be negative"),
        (Ask(4, 1), r"only 4 re-roll\(s\) available, asked for 5: 1 free, .*Luck 2 and Clues 1"),
        (Ask(2, 0, clues=2), r"2 Clue\(s\) cannot pay for 1"),
    ],
)
def test_r_char_9_a_spend_the_pools_cannot_pay_is_refused_before_any_die(
    ask: Ask, match: str
) -> None:
    rng = ScriptedRNG()
    with pytest.raises(RulesError, match=match):
        spend_rerolls(missed(), rng, ask, 1, 2, 1)
    assert rng.done()


def test_r_task_6_the_first_offer_is_the_free_ones_and_one_paid_after_a_failure() -> None:
    assert sum(first_offer(missed(), 2, 3, failed=True)) == 3
    assert sum(first_offer(missed(), 2, 3, failed=False)) == 2
    assert first_offer(missed(), 0, 0, failed=True) == (0, 0)


def test_r_act_2_free_rerolls_with_nobody_to_ask_are_placed_and_rolled() -> None:
    spent = spend_free(missed(), ScriptedRNG(1), 1)
    assert (spent.d10, spent.hero, spent.free, spent.luck) == (1, 0, 1, 0)
    assert spent.roll.success


def test_r_atk_6_a_defender_is_offered_the_split_that_lets_fewest_hits_through() -> None:
    """Kestrel defending at 7 (Dodge 6, light cover): 2 of 3 hits through, 3 re-rolls
    (Luck). One d10 re-rolled leaves 1.30 hits through expected, two leave 0.60: a
    defender's best split lets the fewest hits through, and each hit through is offered
    its re-roll (R-CHAR-9 Interpretation), so the dialog opens on 2 d10, not 1.
    """
    through = roll_defense(ScriptedRNG(3, 9, 8, 2), 3, 7, Rank.HERO)
    assert through.successes == 2
    assert reroll_odds(through, 1, 0)[1] == Fraction(13, 10)
    assert reroll_odds(through, 2, 0)[1] == Fraction(6, 10)
    assert first_offer(through, 0, 3, failed=True) == (2, 0)
    assert first_offer(through, 0, 1, failed=True) == (1, 0)  # as far as the Luck goes
    assert first_offer(through, 1, 3, failed=True) == (2, 0)  # the free one first
    nothing = roll_defense(ScriptedRNG(9, 2), 1, 0, Rank.HERO)  # Defense 0 stops nothing
    assert first_offer(nothing, 0, 3, failed=True) == suggest_split(nothing, 1)
