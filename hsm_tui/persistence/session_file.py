"""A session as a campaign file holds it: the seed, the state now, and the undo history
(the state it starts from, the steps as lines of JSON, their checkpoints), read and
checked before anything changes; the steps themselves are read and replayed only when the
first undo needs them (:class:`Unread`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import compress
from operator import is_not
from typing import Any

from ..rules.errors import RulesError
from ..table.state import Command, LogEntry, Snapshot
from . import checkpoints, codec, lines
from .references import check_log
from .snapshot import (
    NOW_LOG,
    START_LOG,
    STEP_LINES,
    check_bounds,
    known,
    snapshot_data,
    snapshot_from,
    start_data,
)


@dataclass(frozen=True)
class SessionData:
    """A session as a campaign file holds it: the seed, the state now, and the history
    (the state before the first undoable command, the commands since, the redo list).
    ``unread``: the first undo steps as the file held them, not read yet (:class:`Unread`).
    """

    seed: int
    now: Snapshot
    start: Snapshot
    commands: list[Command]
    redo: list[Command]
    unread: lines.Lines = field(default_factory=lines.Lines)
    checkpoints: lines.Lines = field(default_factory=lines.Lines)
    """The checkpoint lines of the unread steps, as the file held them (against ``base``)."""
    base: tuple[LogEntry, ...] = ()
    """The log of the file the unread steps came from."""
    marks: tuple[checkpoints.Mark, ...] = ()
    """Checkpoints of the steps since, to write (their logs against ``now``'s)."""

    def history(self) -> Unread | None:
        """The undo steps read from a file, left unread (None: there are none)."""
        if not self.unread:
            return None
        return Unread(self.start, self.unread, self.now, self.checkpoints, self.base)


@dataclass(frozen=True)
class Unread:
    """Undo steps as a campaign file holds them, read and replayed only when the GM first
    undoes that far (``Session.undo``): a campaign of 10,000 steps took 3 s to open when
    they were replayed then. ``start`` is the state before the first step, ``now`` the
    state the steps must lead to.
    """

    start: Snapshot
    steps: lines.Lines
    now: Snapshot
    checkpoints: lines.Lines = field(default_factory=lines.Lines)
    """States before some of the steps (:mod:`.checkpoints`), oldest first."""
    base: tuple[LogEntry, ...] = ()
    """The log the checkpoints were written against (the file's ``[state]`` log)."""
    read: tuple[Command, ...] | None = None
    """The steps read already (a check reads them all once, then replays them in stretches)."""

    @functools.cached_property
    def commands(self) -> list[Command]:
        """The steps read (:class:`~hsm_tui.persistence.codec.DataError` names a bad one)."""
        return read_steps(self.steps) if self.read is None else list(self.read)

    def reaches(self, end: Snapshot) -> bool:
        """Whether the steps replayed ended at the state the file saved. Who may see each
        log entry, and which numbers in it are the GM's, aside: both are derived from the
        commands by the seat rules of the day, so a file written under older rules keeps
        its history (its entries re-marked).
        """
        a, b = end.log, self.now.log
        if replace(end, log=()) != replace(self.now, log=()) or len(a) != len(b):
            return False
        if a == b:  # compared in C, most entries by identity
            return True
        return all(x is y or _unseen(x) == _unseen(y) for x, y in zip(a, b, strict=True))

    def named(self, rename: Callable[[Snapshot], Snapshot]) -> Unread:
        """The same steps from and to renamed states (the name holds through undo)."""
        return replace(self, start=rename(self.start), now=rename(self.now))

    def data(
        self,
        seed: int,
        now: Snapshot,
        commands: list[Command],
        redo: list[Command],
        marks: tuple[checkpoints.Mark, ...],
    ) -> SessionData:
        """A session as a file holds it: these steps, then ``commands`` (``marks``: their
        checkpoints)."""
        return SessionData(
            seed, now, self.start, commands, redo, self.steps, self.checkpoints, self.base, marks
        )

    def split(self) -> tuple[Unread | None, Unread]:
        """The steps up to the last checkpoint (None: none before it) and those after it,
        from the checkpoint: the first undo replays only these. HistoryMisfit if the
        checkpoint cannot be read.
        """
        if not self.checkpoints:
            return None, self
        where = f"undo.checkpoints[{len(self.checkpoints) - 1}]"
        try:
            step, at = checkpoints.decode(self.checkpoints[-1], self.base, known(), where)
            if not 0 <= step < len(self.steps):
                raise codec.DataError(
                    f"{where}.step", f"{step} is outside 0 to {len(self.steps) - 1}"
                )
            at = replace(at, campaign=replace(at.campaign, name=self.now.campaign.name))
            check_bounds(replace(at, log=()), where)  # its log: the file's, checked on open
            fresh = list(compress(at.log, map(is_not, at.log, self.base)))
            check_log(tuple(fresh), f"{where}.changed")
        except codec.DataError as err:
            raise HistoryMisfit(len(self.steps), str(err)) from None
        read = self.read
        newer = Unread(at, self.steps[step:], self.now, read=None if read is None else read[step:])
        if step == 0:
            return None, newer
        earlier = None if read is None else read[:step]
        return Unread(
            self.start, self.steps[:step], at, self.checkpoints[:-1], self.base, earlier
        ), newer

    def check(self, replayed: Callable[[Unread], object]) -> None:
        """Read every step (DataError names a bad one), then replay (``replayed``) every
        stretch between checkpoints: HistoryMisfit names the first step, counted from the
        start, that no longer fits."""
        whole = replace(self, read=tuple(self.commands))
        for first, piece in whole.pieces():
            try:
                replayed(piece)
            except HistoryMisfit as misfit:
                raise HistoryMisfit(first + misfit.step, misfit.reason) from None

    def pieces(self) -> list[tuple[int, Unread]]:
        """Every stretch between two checkpoints, oldest first, with its first step's place."""
        out: list[tuple[int, Unread]] = []
        rest: Unread | None = self
        while rest is not None:
            rest, piece = rest.split()
            out.append((len(rest.steps) if rest is not None else 0, piece))
        return out[::-1]

    def replay(
        self,
        apply: Callable[[Command], None],
        log: Callable[[], tuple[LogEntry, ...]],
        state: Callable[[], Snapshot],
    ) -> None:
        """Apply each step (``apply``, on a session at :attr:`start`) and check it leads
        where the file went: its log entries (``log``) as saved, and the last one to the
        state saved (``state``). :class:`HistoryMisfit` names the first step that does not.
        """
        step = 0
        try:
            for step, command in enumerate(self.commands):
                since = len(log())
                apply(command)
                if not self.on_the_way(log(), since):
                    raise HistoryMisfit(step, "its log entries are not the file's")
        except HistoryMisfit:
            raise
        except Exception as err:  # a file's steps may fail any way: then they are dropped
            raise HistoryMisfit(step, str(err)) from None
        if not self.reaches(state()):
            raise HistoryMisfit(len(self.steps))

    def on_the_way(self, log: tuple[LogEntry, ...], since: int) -> bool:
        """Whether the entries a replayed step added to ``log`` (from ``since`` on) are the
        ones the saved log holds there, by number, issuer and title (a later step may add
        a line to an entry, and who sees it is derived): where a history stops fitting.
        """
        saved = self.now.log
        if len(log) > len(saved):
            return False
        return all(
            (e.seq, e.issuer, e.title) == (s.seq, s.issuer, s.title)
            for e, s in zip(log[since:], saved[since : len(log)], strict=True)
        )


class HistoryMisfit(RulesError):
    """Undo steps a file brought that no longer lead to the state it saved: ``step`` (from
    0) is the first that does not fit (as many as there are steps: the last one ends
    elsewhere), ``reason`` what went wrong there."""

    def __init__(self, step: int, reason: str = "") -> None:
        super().__init__(f"{DROPPED} ({reason})" if reason else DROPPED)
        self.step = step
        self.reason = reason


def _unseen(entry: LogEntry) -> LogEntry:
    """An entry as it reads whoever sees it (an entry the replay shares with the file is
    the same object, and is not compared: a long log took a second)."""
    return replace(entry, visibility="", lines=entry.gm_lines)


DROPPED = (
    "the undo history the campaign file brought no longer leads to the state it saved (the"
    " packs or the file changed since): it is dropped"
)


def read_steps(steps: Sequence[str]) -> list[Command]:
    """The commands of undo steps as a file holds them; DataError names a bad one."""
    where = "undo.commands"
    types = known()
    found = lines.values(steps, where)
    return [codec.from_data(v, Command, types, f"{where}[{i}]") for i, v in enumerate(found)]


def session_data(saved: SessionData) -> dict[str, Any]:
    """``saved`` as TOML-ready data (the undo table only when there is history)."""
    data: dict[str, Any] = {"seed": saved.seed, "state": snapshot_data(saved.now)}
    if saved.unread or saved.commands:
        marks = [
            *checkpoints.rebased(saved.checkpoints, saved.base, saved.now.log),
            *map(checkpoints.line, saved.marks),
        ]
        data["undo"] = {
            "start": start_data(saved.start, saved.now),
            "commands": lines.Block(saved.unread.data + STEP_LINES.block(saved.commands).data),
            "checkpoints": lines.block(marks),
        }
    data["redo"] = [codec.to_data(c, Command) for c in saved.redo]
    return data


def session_from(data: dict[str, Any], *, every_entry: bool = False) -> SessionData:
    """Read and check everything a campaign file's session holds before anything changes
    but the undo steps, left unread (``unread``; :func:`read_steps` reads them), and the
    log entries but their numbers, read when first asked for unless ``every_entry`` (``hsm
    campaign check``): bad data raises :class:`~hsm_tui.persistence.codec.DataError`.
    """
    types = known()
    seed = codec.from_data(data.get("seed"), int, types, "seed")
    later = not every_entry
    now = snapshot_from(data.get("state"), types, "state", memo=NOW_LOG, later=later)
    undo = data.get("undo", {})
    if not isinstance(undo, dict):
        raise codec.DataError("undo", "expected a table")
    check_bounds(now, "state")
    start = now
    if "start" in undo:
        start = snapshot_from(undo["start"], types, "undo.start", now.log, START_LOG, later)
        check_bounds(start, "undo.start")
    steps = lines.lines_of(undo.get("commands", ""), "undo.commands")
    marks = lines.lines_of(undo.get("checkpoints", ""), "undo.checkpoints")
    redo = codec.from_data(data.get("redo", []), list[Command], types, "redo")
    return SessionData(seed, now, start, [], redo, steps, marks, now.log)
