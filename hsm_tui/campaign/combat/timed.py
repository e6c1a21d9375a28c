"""The GM's note on a combatant, and effects that last some of its turns
(:mod:`..countdowns` says which turns count and what Stunned holds back).
"""

from __future__ import annotations

import random

from ...packs import Catalog
from ...rules import RulesError
from ..countdowns import effect_name, note_text, timed, with_countdown
from ..encounter import Combatant, Encounter, evolve
from .commands import SetCountdown, SetNote
from .outcome import LogLines, Outcome


def set_note(enc: Encounter, cmd: SetNote, _rng: random.Random, _cat: Catalog) -> Outcome:
    """The GM's note on a combatant ("" clears it); the log entry is the GM's alone."""
    c, note = _noted(enc, cmd)
    said = f"{c.name}: note “{note}”" if note else f"{c.name}: note cleared"
    return Outcome(enc.with_combatant(evolve(c, note=note)), (LogLines(said, ()),))


def _noted(enc: Encounter, cmd: SetNote) -> tuple[Combatant, str]:
    c = enc.get(cmd.combatant)
    note = note_text(cmd.text)
    if note == c.note:
        raise RulesError(f"{c.name}'s note is that already" if note else f"{c.name} has no note")
    return c, note


def set_countdown(enc: Encounter, cmd: SetCountdown, _rng: random.Random, _cat: Catalog) -> Outcome:
    """An effect for the combatant's next ``turns`` turns, or (0) ended by the GM."""
    c, changed, effect = _timed(enc, cmd)
    if cmd.turns:
        plural = "s" if cmd.turns != 1 else ""
        said = f"{c.name}: {effect} for its next {cmd.turns} turn{plural}"
    else:
        said = f"{c.name}: {effect} ended by the GM"
    return Outcome(enc.with_combatant(changed), (LogLines(said, ()),))


def _timed(enc: Encounter, cmd: SetCountdown) -> tuple[Combatant, Combatant, str]:
    """The combatant, as the countdown leaves it, and the effect as kept."""
    c = enc.get(cmd.combatant)
    effect = effect_name(cmd.effect)
    if not cmd.turns and timed(c, effect) is None:
        raise RulesError(f"{c.name} has no countdown of {effect}")
    return c, with_countdown(c, effect, cmd.turns), effect


def timed_refusal(enc: Encounter, cmd: SetNote | SetCountdown) -> str:
    """Why the engine refuses ``cmd`` now, "" if it takes it: what its dialog shows as
    the GM types."""
    try:
        _noted(enc, cmd) if isinstance(cmd, SetNote) else _timed(enc, cmd)
    except RulesError as refused:
        return str(refused)
    return ""
