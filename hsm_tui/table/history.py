"""A session's undo history in memory that grows with the history, not with its square.

Each step keeps the state before it and its command. The state's log is not kept whole:
a step only appends entries to the log (and may change a few earlier ones: an entry
opened to the players, a re-roll's note), so a step keeps how long the log was and the
entries it changed, as they were. A snapshot holding its own copy of the log made 20,000
steps of a long campaign cost 2.4 GB; this costs a few words a step.

The dice state (``random.Random.getstate()``: 625 Python ints, 24 KB) is kept packed as
bytes (2.5 KB): it was most of what a step cost.

Undo rebuilds the log before a step from the log after it: the session's log then.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from .state import Command, LogEntry, Snapshot

Log = tuple[LogEntry, ...]
Checkpoint = tuple[int, Snapshot, int, tuple[tuple[int, LogEntry], ...]]


@dataclass(frozen=True)
class Step:
    """One undoable command and what undoing it brings back."""

    before: Snapshot
    """The state before it, its log left out (``kept`` and ``changed`` say what it was)."""
    kept: int
    """How many entries the log held before it."""
    changed: tuple[tuple[int, LogEntry], ...]
    """The earlier entries it changed, by place, as they were before it."""
    command: Command


class History:
    """The undo steps of a session, oldest first."""

    def __init__(self, steps: list[Step] | None = None) -> None:
        self.steps: list[Step] = steps or []

    def __bool__(self) -> bool:
        return bool(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def push(self, before: Snapshot, command: Command, after: Log) -> None:
        """Keep ``command`` and the state ``before`` it; ``after`` is the log it left."""
        old = before.log
        kept = len(old)
        changed: tuple[tuple[int, LogEntry], ...] = ()
        if after[:kept] != old:  # compared in C, most entries by identity
            changed = tuple((i, e) for i, e in enumerate(old) if e is not after[i])
        thin = replace(before, log=(), rng_state=_packed(before.rng_state))
        self.steps.append(Step(thin, kept, changed, command))

    def pop(self, log: Log) -> tuple[Snapshot, Command]:
        """Take the last step back: the state before it (its log rebuilt from ``log``, the
        log after it) and its command."""
        step = self.steps.pop()
        return _whole(step.before, _before(step, log)), step.command

    def first(self, log: Log) -> Snapshot:
        """The state before the first step (``log``: the log after the last one)."""
        length, patches = len(log), {}
        for step in reversed(self.steps):
            length = min(length, step.kept)
            patches.update(step.changed)  # an earlier step's entry as it was wins
        entries = list(log[:length])
        for i, entry in patches.items():
            if i < length:
                entries[i] = entry
        return _whole(self.steps[0].before, tuple(entries))

    def commands(self) -> list[Command]:
        """The commands, oldest first."""
        return [step.command for step in self.steps]

    def states(self) -> Iterator[Snapshot]:
        """The state before each step, oldest first, without its log and dice state."""
        return (step.before for step in self.steps)

    def renamed(self, rename: Callable[[Snapshot], Snapshot]) -> History:
        """The same steps, each state before them renamed."""
        return History([replace(s, before=rename(s.before)) for s in self.steps])

    def marks(self, log: Log, first: int, every: int) -> Iterator[Checkpoint]:
        """The state before every ``every``-th step (counted from ``first``, the place of
        this history's first step in the file's), oldest first, each as (place, state
        without its log, entries it kept of ``log``, those it held otherwise)."""
        length, patches = len(log), {}
        found = []
        for j in range(len(self.steps) - 1, -1, -1):
            step = self.steps[j]
            length = min(length, step.kept)
            patches.update(step.changed)
            if (first + j) % every == 0 and first + j > 0:  # the one at 0 is the start
                changed = tuple((i, e) for i, e in sorted(patches.items()) if i < length)
                found.append((first + j, _whole(step.before, ()), length, changed))
        return reversed(found)


def _before(step: Step, after: Log) -> Log:
    """The log before ``step`` from the log after it."""
    if not step.changed:
        return after[: step.kept]
    entries = list(after[: step.kept])
    for i, entry in step.changed:
        entries[i] = entry
    return tuple(entries)


def _packed(state: Any) -> Any:
    """A ``random.Random`` state with its words as bytes (anything else as it is)."""
    if isinstance(state, tuple) and len(state) == 3 and isinstance(state[1], tuple):
        try:
            return (state[0], array("I", state[1]).tobytes(), state[2])
        except (OverflowError, TypeError):
            return state
    return state


def _unpacked(state: Any) -> Any:
    if isinstance(state, tuple) and len(state) == 3 and isinstance(state[1], bytes):
        words = array("I")
        words.frombytes(state[1])
        return (state[0], tuple(words), state[2])
    return state


def _whole(thin: Snapshot, log: Log) -> Snapshot:
    """A kept state with its log and its dice state as the session holds them."""
    return replace(thin, log=log, rng_state=_unpacked(thin.rng_state))
