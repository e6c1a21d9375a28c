"""A side's standing answer to its Minions' dive questions (R-ATK-5): with three or four
hits a group attack, a question at every hit holds up the table; the GM answers once for a
side instead (F7 or F4 ``D``), and a Hero's player is still asked.
"""

from __future__ import annotations

import random

from ...packs import Catalog
from ...rules import Cover, Rank, RulesError
from ..encounter import DIVE_POLICIES, Combatant, Encounter, evolve
from .commands import AnswerDive, SetDivePolicy
from .outcome import LogLines, Outcome

ASK = DIVE_POLICIES[0]


def set_dive_policy(
    enc: Encounter, cmd: SetDivePolicy, _rng: random.Random, _cat: Catalog
) -> Outcome:
    if cmd.policy not in DIVE_POLICIES:
        raise RulesError(f"a dive policy is one of {', '.join(DIVE_POLICIES)}, not {cmd.policy!r}")
    if cmd.side not in {c.side for c in enc.combatants}:
        raise RulesError(f"no side {cmd.side!r} in this encounter")
    kept = tuple((s, p) for s, p in enc.dive_policy if s != cmd.side)
    policy = kept if cmd.policy == ASK else (*kept, (cmd.side, cmd.policy))
    title = f"{cmd.side}: Minions {said(cmd.policy)} when hit (R-ATK-5)"
    return Outcome(evolve(enc, dive_policy=policy), (LogLines(title, ()),))


def said(policy: str) -> str:
    """A policy in words, for the log and the menus."""
    if policy == ASK:
        return "are asked whether to dive"
    if policy == "stay":
        return "stay put"
    return f"dive into {policy} cover (when theirs is worse)"


def policy_answer(enc: Encounter, target: Combatant) -> AnswerDive | None:
    """The answer ``target``'s side gave once for its Minions, or None: ask (a Hero, a
    Sidekick playing as one, or a side without a policy)."""
    if target.rules_rank is not Rank.MINION:
        return None
    policy = dict(enc.dive_policy).get(target.side, ASK)
    if policy == ASK:
        return None
    cover = Cover[policy.upper()] if policy != "stay" else Cover.NONE
    return AnswerDive(cover.label if cover > target.cover else "none", unit=True)
