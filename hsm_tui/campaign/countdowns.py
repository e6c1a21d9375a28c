"""Effects that last some of a combatant's turns, and the GM's note on a combatant.

A countdown is kept on its bearer (``Combatant.countdowns``) and counts the bearer's own
turns, as the rulebook counts Stunned ("for 1d6 turns", §7 row 11) and a GM counts
"stunned 2 more rounds".

**Interpretation** (which turns count): a countdown of N covers the bearer's next N
turns. Each of them starts under it (the start's log says how many more follow) and it
ends at the end of the Nth, with a line in the log; a turn under way when it is set is
not one of them. A turn that passes unplayed (nobody in it standing) counts too: time
passes for the unconscious. Ending the fight ends every countdown (its turns are over).

An effect that names a §8 condition (``stunned``) also marks it, and the mark goes when
the countdown ends (or the GM clears it: the countdown goes with it). Conditions the
engine ends by itself (Fear's, a grapple, bleeding) and those counted in actions (Dazed)
cannot be timed; any other words are the GM's own effect, which only counts down.

**Interpretation** (§7 row 11, Stunned, imagination mode: "remains out of cover for 1
turn, then is in cover in 2 turns, and, if it does not take cover, can be at medium
range from a non-moving target in 3 turns"): a Stunned combatant never Runs (it "can
only move 1d4 spaces", less than a Move's 6); on the first turn of a Stunned countdown
it does not Move or Hide either: it stays where it is, in the open. From its second turn
a Move (half a band) or a Hide into cover; so it is in cover on its 2nd turn, or a band
farther off (Short → Medium) after its 3rd. Every other action stays open to it.
"""

from __future__ import annotations

from ..rules import RulesError
from .conditions import CONDITIONS, with_condition
from .encounter import Combatant, Countdown, evolve

MAX_TURNS = 20
"""The longest countdown, in its bearer's turns (a chart row's 1d6 is at most 6)."""
MAX_EFFECT = 40
"""The most characters an effect's words hold (it shows in the panel and the log)."""
MAX_NOTE = 200
"""The most characters a combatant's note holds (one line under the table)."""

ENDED_BY_ENGINE = {
    "shaken": "Fear",
    "panicked": "Fear",
    "pinned": "Fear",
    "slowed": "the turn's end",
    "grappled": "breaking free",
    "bleeding": "its Stamina roll",
    "dying": "its Health markers",
    "prone": "standing up",
    "unconscious": "the GM",
}
"""Marks the engine (or the GM's own key) ends, by what ends them: none is timed."""


def note_text(text: str) -> str:
    """The note as kept: one line, its spaces tidied; RulesError when too long."""
    note = " ".join(text.split())
    if len(note) > MAX_NOTE:
        raise RulesError(f"a note holds at most {MAX_NOTE} characters, not {len(note)}")
    return note


def effect_name(text: str) -> str:
    """The effect as kept: a §8 condition by its name, else the GM's words tidied;
    RulesError for one that cannot be timed, with the reason."""
    effect = " ".join(text.split())
    name = effect.lower()
    if not effect:
        raise RulesError("name the effect (stunned, or your own words)")
    if len(effect) > MAX_EFFECT:
        raise RulesError(f"an effect is at most {MAX_EFFECT} characters, not {len(effect)}")
    if name in ENDED_BY_ENGINE:
        raise RulesError(f"{name} is not timed: {ENDED_BY_ENGINE[name]} ends it")
    info = CONDITIONS.get(name)
    if info is not None and info.leveled:
        raise RulesError(f"{name} counts in numbers, not turns: C sets it")
    return name if info is not None else effect


def timed(c: Combatant, effect: str) -> Countdown | None:
    """``c``'s countdown of ``effect`` (whatever its case: "On fire" is "on fire"), if
    it has one."""
    wanted = effect.casefold()
    return next((cd for cd in c.countdowns if cd.effect.casefold() == wanted), None)


def _others(c: Combatant, effect: str) -> tuple[Countdown, ...]:
    """``c``'s countdowns but that of ``effect``."""
    return tuple(cd for cd in c.countdowns if cd.effect.casefold() != effect.casefold())


def with_countdown(c: Combatant, effect: str, turns: int) -> Combatant:
    """``c`` with ``effect`` (as :func:`effect_name` keeps it) for its next ``turns``
    turns, in place of any countdown of it; 0 ends it. A condition is marked with it.
    """
    if not 0 <= turns <= MAX_TURNS:
        raise RulesError(f"a countdown is 0 (end it) to {MAX_TURNS} turns, not {turns}")
    kept = _others(c, effect)
    if turns:
        kept = (*kept, Countdown(effect, turns, turns))
    c = evolve(c, countdowns=kept)
    if effect in CONDITIONS:
        c = with_condition(c, effect, 1 if turns else 0)
    return c


def without_countdown(c: Combatant, effect: str) -> Combatant:
    """``c`` without a countdown of ``effect`` (its mark cleared by the GM)."""
    return c if timed(c, effect) is None else evolve(c, countdowns=_others(c, effect))


def turns_text(cd: Countdown, acting: bool) -> str:
    """How long ``cd`` lasts, said on the screens: ``3 more turns``; during one of its
    turns (``acting``: its bearer's turn, begun under it) ``this turn and 2 more`` or
    ``ends with this turn``."""
    if acting and cd.left < cd.of:
        return f"this turn and {cd.left} more" if cd.left > 0 else "ends with this turn"
    left = max(cd.left, 0)
    return f"{left} more turn{'s' if left != 1 else ''}"


def countdowns_start(c: Combatant) -> tuple[Combatant, list[str]]:
    """The start of ``c``'s turn: each countdown's turn begins (one fewer to come)."""
    if not c.countdowns:
        return c, []
    started = tuple(evolve(cd, left=cd.left - 1) for cd in c.countdowns)
    lines = [f"{c.name}: {cd.effect}, {_this_turn(cd)}" for cd in started]
    return evolve(c, countdowns=started), lines


def _this_turn(cd: Countdown) -> str:
    first = " (its first: no Move, Run or Hide, §7 row 11)" if stunned_first(cd) else ""
    if cd.left == 0:
        return f"its last turn of {cd.of}{first}"
    return f"turn {cd.of - cd.left} of {cd.of}{first}"


def countdowns_end(c: Combatant) -> tuple[Combatant, list[str]]:
    """The end of ``c``'s turn: a countdown whose last turn it was ends, with its mark."""
    if not c.countdowns:
        return c, []
    over = [cd for cd in c.countdowns if cd.left <= 0]
    if not over:
        return c, []
    c = evolve(c, countdowns=tuple(cd for cd in c.countdowns if cd.left > 0))
    lines = []
    for cd in over:
        if cd.effect in CONDITIONS:
            c = with_condition(c, cd.effect, 0)
        turns = f"{cd.of} turn{'s' if cd.of != 1 else ''}"
        lines.append(f"{c.name}: {cd.effect} ends after {turns}")
    return c, lines


def countdowns_over(c: Combatant) -> Combatant:
    """``c`` as the fight ends: every countdown over, with the marks they set."""
    for cd in c.countdowns:
        if cd.effect in CONDITIONS:
            c = with_condition(c, cd.effect, 0)
    return evolve(c, countdowns=()) if c.countdowns else c


def stunned_first(cd: Countdown) -> bool:
    """A Stunned countdown in its first turn (§7 row 11: it stays where it is)."""
    return cd.effect == "stunned" and cd.left == cd.of - 1


def stunned_refusal(c: Combatant, action: str) -> str:
    """Why Stunned leaves ``c`` no ``action`` (a move, a run or a hide) on its turn, ""
    if it does not (the module's interpretation of §7 row 11)."""
    if "stunned" not in c.conditions:
        return ""
    if action == "run":
        return f"{c.name} is Stunned: it moves only a little, no Run (§7 row 11)"
    cd = timed(c, "stunned")
    if action in ("move", "hide") and cd is not None and stunned_first(cd):
        return (
            f"{c.name} is Stunned, its first turn of it: it stays where it is, in the open;"
            " a Move or a Hide from its next turn (§7 row 11)"
        )
    return ""
