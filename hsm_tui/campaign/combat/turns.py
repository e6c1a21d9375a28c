"""Whose turn it is and what it spends (R-ACT-1): every action goes through
:func:`spend_action`, so "no action twice", a Panicked or Confused combatant's limits and
actions lost to wounds or a dive are checked in one place.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...rules import Derived, Rank, RulesError
from ..conditions import level, trait_roll
from ..countdowns import stunned_refusal
from ..encounter import Combatant, Encounter, Turn, evolve
from .commands import Attack, CloseIn, Move, SonicBlast, Suppress
from .outcome import LogLines, Outcome, PendingCombatRerolls, RollStage, ask_rerolls

NOT_WITH_WILD = ("dodge", "aim", "standby", "interact")
"""R-ATK-1 Wild: "a character cannot dodge, aim, standby, or interact during the same turn"."""


def actor_name(enc: Encounter, actor: str, *, tally: bool = False) -> str:
    """A turn-taker's name: the combatant, or a group as ``Pirate raider ×3`` (its standing
    members; all of them once none stands). With ``tally`` a group counts every member
    and shows how many stand when some are down: ``Pirate raider ×2/3`` (initiative list).
    """
    everyone = enc.whole_group(actor)
    if len(everyone) == 1:  # a lone combatant, standing or not: each turn's title asks
        return everyone[0].name
    standing = [c for c in everyone if not (c.out or c.unconscious)]  # as Encounter.members
    members = everyone if tally else (standing or everyone)
    if len(members) > 1:
        head, _, tail = members[0].name.rpartition(" ")
        down = tally and len(standing) < len(members)
        count = f"{len(standing)}/{len(members)}" if down else str(len(members))
        return f"{head if tail.isdigit() else members[0].name} ×{count}"
    return members[0].name if members else actor


def actions_text(n: int) -> str:
    return f"{n} action{'s' if n != 1 else ''}"


def minus_actions(n: int) -> str:
    return f"−{actions_text(n)}"


def lose_next_turn(c: Combatant, n: int, cause: str) -> Combatant:
    """``c`` losing ``n`` actions on its next turn, and why: ``"wound"`` (R-WOUND-4) or
    ``"dive"`` (R-ATK-5), so that turn can say what took them.
    """
    if n <= 0:
        return c
    return evolve(c, lose_actions=c.lose_actions + n, lose_why=(*c.lose_why, *[cause] * n))


def carried_losses(c: Combatant) -> tuple[str, ...]:
    """What ``c`` will lose at the start of its next turn from wounds and dives, one phrase
    per cause in the rules' words (Shaken and Dazed are settled at that turn's start).
    """
    causes = c.lose_why[: c.lose_actions]
    items = []
    wounds = causes.count("wound")
    if wounds:
        items.append(
            f"{wounds} wound{'s' if wounds != 1 else ''}: {minus_actions(wounds)} (R-WOUND-4)"
        )
    dives = causes.count("dive")
    if dives:
        items.append(f"dived for cover: {minus_actions(dives)} (R-ATK-5)")
    rest = c.lose_actions - len(causes)  # counted without a cause (an edited combatant)
    if rest > 0:
        items.append(f"wounds or a dive: {minus_actions(rest)} (R-WOUND-4, R-ATK-5)")
    return tuple(items)


def _account(turn: Turn, cid: str) -> str:
    """Where a combatant's actions went this turn: ``used 1 (attack); lost 1 — Shaken: −1
    action (§8)``, so a refusal names the cause rather than only the count.
    """
    used = turn.used_by(cid)
    lost = dict(turn.lost).get(cid, 0)
    parts = [f"used {len(used)} ({', '.join(used)})"] if used else []
    if lost:
        why = dict(turn.lost_why).get(cid, "")
        parts.append(f"lost {lost}" + (f" — {why}" if why else ""))
    return "; ".join(parts)


def current_turn(enc: Encounter) -> Turn:
    if not enc.active or enc.turn is None:
        raise RulesError("no turn is under way: start combat first")
    return enc.turn


def spend_action(
    enc: Encounter, actor: Combatant, action: str, *, cost: int = 1, what: str = ""
) -> Encounter:
    """R-ACT-1: spend one action of the current turn; no action twice. ``cost`` checks,
    before the first of them is spent, that an action taking ``cost`` actions (``what``)
    fits in what is left; the caller spends the others.
    """
    turn = current_turn(enc)
    if actor.group != turn.actor:
        raise RulesError(f"it is not {actor.name}'s turn")
    if actor.out or actor.unconscious:  # ``standing`` inlined: every action asks
        raise RulesError(f"{actor.name} cannot act (taken out or unconscious)")
    refused = condition_refusal(turn, actor, action)
    if refused:
        raise RulesError(refused)
    if (actor.id, action) in turn.used:
        raise RulesError(f"{actor.name} already took {action} this turn: no action twice (R-ACT-1)")
    left = turn.left(actor.id)
    if left <= 0:
        lost = dict(turn.lost).get(actor.id, 0)
        because = f": {_account(turn, actor.id)}" if lost else ""
        if lost and not turn.used and actor.rules_rank is Rank.HERO:  # R-WOUND-4: "but it
            # may take more actions through the normal method of taking extra actions"
            because += "; a Hero may still declare extra actions (x, R-ACT-3)"
        raise RulesError(f"{actor.name} has no actions left this turn{because}")
    if left < cost:
        account = _account(turn, actor.id)
        raise RulesError(
            f"{what or action} takes {cost} actions, but {actor.name} has only {left} left"
            f" this turn" + (f": {account}" if account else "")
        )
    if actor.id in turn.wild and action in NOT_WITH_WILD:
        raise RulesError(f"after a Wild attack {actor.name} cannot {action} this turn (R-ATK-1)")
    return enc.with_turn(turn.spent(actor.id, action))


def condition_refusal(turn: Turn, actor: Combatant, action: str) -> str:
    """Why a §8 condition leaves ``actor`` no ``action`` this turn ("" if none does):
    Panicked, or Confused with its roll failed, allows only Move, Run or Hide; Stunned
    holds back a Run, and on its first turn a Move or a Hide (§7 row 11). A forecast
    asks it before an attack is planned: a Panicked figure's attack is refused some 17
    times a fight, and planning it first cost 3% of the forecast.
    """
    if not (actor.conditions or turn.restricted):
        return ""  # most figures acting hold no markers and failed no roll
    if action in ("move", "run", "hide"):
        return stunned_refusal(actor, action)
    if "panicked" in actor.conditions:
        return f"{actor.name} is Panicked: only Move, Run or Hide (§8)"
    if actor.id in turn.restricted:
        return f"{actor.name} is Confused and failed its roll: only Run or Hide (§8)"
    return ""


@dataclass(frozen=True)
class Held:
    """§8 Pinned's Morale roll before an action: whether it goes ahead, the log, and the
    question when a Hero may spend Luck or Clues on a failure (R-TASK-6).
    """

    ok: bool
    log: LogLines
    ask: PendingCombatRerolls | None = None


def pinned_stop(before: Encounter, spent: Encounter, held: Held | None) -> Outcome | None:
    """Where §8 Pinned stops an action: a re-roll question waits with nothing spent
    (``before``), or the roll failed and the action is lost (``spent``); None: go on.
    """
    if held is None:
        return None
    if held.ask is not None:
        return Outcome(before, (held.log,), held.ask)
    return None if held.ok else Outcome(spent, (held.log,))


PINNED_ACTS = {
    Attack: "attack",
    Suppress: "suppressive fire",
    SonicBlast: "sonic blast",
    Move: "move",
    CloseIn: "move",
}
"""The actions a Pinned combatant's Morale roll holds up (§8), as its log names them."""


def pinned_verdict(ok: bool, then: Attack | Suppress | SonicBlast | Move | CloseIn) -> str:
    """What the Pinned Morale roll did to the action ``then``."""
    return "it goes ahead" if ok else f"fails: the {PINNED_ACTS[type(then)]} is lost (§8)"


def pinned_check(
    c: Combatant, rng: random.Random, then: Attack | Suppress | SonicBlast | Move | CloseIn
) -> Held | None:
    """§8 Pinned: a Morale roll before acting in the open; failure loses the action,
    unless the Hero re-rolls it (asked with ``then``, the action it holds up).
    """
    if not (c.conditions and level(c, "pinned")):  # most figures acting hold no markers
        return None
    roll, ok, line = trait_roll(c, c.traits[Derived.MORALE], "Pinned: Morale", rng)
    title = f"{c.name} is Pinned"
    ask = ask_rerolls(c, roll, 0, RollStage.PINNED, None, roll.target, title)
    if ask is not None:
        return Held(False, LogLines(title, (line,)), evolve(ask, then=then))
    return Held(ok, LogLines(title, (f"{line}: {pinned_verdict(ok, then)}",)))
