"""A session's undo history in memory that grows with the history, not with its square.

Each step keeps the state before it and its command. The state's log is not kept whole:
a step only appends entries to the log (and may change a few earlier ones: an entry
opened to the players, a re-roll's note), so a step keeps how long the log was and the
entries it changed, as they were. A snapshot holding its own copy of the log made 20,000
steps of a long campaign cost 2.4 GB; this costs a few words a step.

Undo rebuilds the log before a step from the log after it, which is the session's log
at that moment, or, for the last step of a history replayed from a file, the log the
replay ended with (``after``): who may see each entry is then as the replay derived it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from .state import Command, LogEntry, Snapshot

Log = tuple[LogEntry, ...]


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
    after: Log | None = None
    """The log after it when that is not the session's (the last step of a replay)."""


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
        self.steps.append(Step(replace(before, log=()), kept, changed, command))

    def pop(self, log: Log) -> tuple[Snapshot, Command]:
        """Take the last step back: the state before it (its log rebuilt from ``log``, the
        log after it) and its command."""
        step = self.steps.pop()
        return replace(step.before, log=_before(step, log)), step.command

    def first(self, log: Log) -> Snapshot:
        """The state before the first step (``log``: the log after the last one)."""
        length, patches = len(log), {}
        for step in reversed(self.steps):
            if step.after is not None:
                log, length, patches = step.after, len(step.after), {}
            length = min(length, step.kept)
            patches.update(step.changed)  # an earlier step's entry as it was wins
        entries = list(log[:length])
        for i, entry in patches.items():
            if i < length:
                entries[i] = entry
        return replace(self.steps[0].before, log=tuple(entries))

    def commands(self) -> list[Command]:
        """The commands, oldest first."""
        return [step.command for step in self.steps]

    def states(self) -> Iterator[Snapshot]:
        """The state before each step, oldest first, without its log."""
        return (step.before for step in self.steps)

    def renamed(self, rename: Callable[[Snapshot], Snapshot]) -> History:
        """The same steps, each state before them renamed."""
        return History([replace(s, before=rename(s.before)) for s in self.steps])

    def replayed(self, log: Log) -> History:
        """These steps as a replay left them, ending at ``log`` rather than at whatever
        log the session will hold when they are undone."""
        if not self.steps:
            return self
        return History([*self.steps[:-1], replace(self.steps[-1], after=log)])


def _before(step: Step, log: Log) -> Log:
    """The log before ``step`` from the log after it."""
    after = step.after if step.after is not None else log
    if not step.changed:
        return after[: step.kept]
    entries = list(after[: step.kept])
    for i, entry in step.changed:
        entries[i] = entry
    return tuple(entries)
