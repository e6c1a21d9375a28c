"""Combat engine tests (RULES.md §3–§8) and the helpers they share.

Every roll is deterministic: either a seeded ``random.Random`` (the Session's own) or a
:class:`Scripted` RNG whose ``randint`` (and ``choice``) take the dice a test lists, in
order. The
Session snapshots its RNG for undo, so the scripted stand-in also keeps a state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from hsm_tui import packs
from hsm_tui.campaign.encounter import Combatant
from hsm_tui.rules import RulesError
from hsm_tui.table.session import Command, Session
from tests.scripted import ScriptedRNG

PACK_DIR = Path(__file__).resolve().parents[2] / "content" / "relic-worlds"


@lru_cache(maxsize=1)
def pack() -> packs.LoadResult:
    """The shipped Relic Worlds pack, loaded once for the whole folder."""
    result = packs.load([PACK_DIR])
    assert not result.errors, result.errors
    return result


class Scripted(ScriptedRNG):
    """ScriptedRNG with ``getstate``/``setstate`` so Session undo and refusals work."""

    def getstate(self) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
        return tuple(self.values), tuple(self.calls)

    def setstate(self, state: tuple[tuple[int, ...], tuple[tuple[int, int], ...]]) -> None:
        self.values, self.calls = list(state[0]), list(state[1])


def new_session(*commands: Command, seed: int = 0) -> Session:
    """A Session with the shipped pack; ``commands`` must not roll (set-up only)."""
    session = Session(seed=seed, content=pack())
    for command in commands:
        session.apply(command)
    return session


def play(session: Session, command: Command, *dice: int) -> Session:
    """Apply ``command`` rolling exactly ``dice`` (each die in the order the engine asks)."""
    rng = Scripted(*dice)
    session.rng = rng  # type: ignore[assignment]
    session.apply(command)
    assert rng.done(), f"{len(rng.values)} scripted dice left unrolled: {rng.values}"
    return session


@dataclass(frozen=True)
class State:
    """Everything a refused command must leave alone."""

    encounter: Any
    log: Any
    pending: Any
    rng: Any
    history: tuple[Any, ...]
    can_undo: bool


def state(session: Session) -> State:
    return State(
        session.encounter,
        session.log,
        session.pending,
        session.rng.getstate(),
        tuple(session.history),
        session.can_undo,
    )


def refused(session: Session, command: Command, match: str) -> None:
    """The command raises RulesError matching ``match`` and changes nothing at all."""
    before = state(session)
    with pytest.raises(RulesError, match=match):
        session.apply(command)
    assert state(session) == before


def edit(session: Session, cid: str, **changes: Any) -> Combatant:
    """Put a combatant into a state a test needs (fear, wounds, charges …) directly."""
    combatant = replace(session.encounter.get(cid), **changes)
    session.encounter = session.encounter.with_combatant(combatant)
    return combatant


def charges(session: Session, cid: str, weapon: str) -> int | None:
    return session.encounter.get(cid).weapon(weapon).charges


def set_charges(session: Session, cid: str, weapon: str, value: int) -> None:
    c = session.encounter.get(cid)
    weapons = tuple(replace(w, charges=value) if w.id == weapon else w for w in c.weapons)
    edit(session, cid, weapons=weapons)
