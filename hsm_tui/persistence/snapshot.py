"""A session's snapshot as campaign-file data and back (hsm_tui/state.py): the codec for
the state, the log and the undo steps as lines of JSON (``lines.py``), the dice state
written apart, and counters checked at the door.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from ..campaign.encounter import MAX_DECLARED, MAX_POOL
from ..rules.errors import RulesError
from ..table.state import Command, LogEntry, Snapshot
from . import checkpoints, codec, lines
from .references import check_log, check_references


@functools.cache
def known() -> dict[str, type]:
    """The classes a campaign file may name (built on first save or load)."""
    return codec.registry(Snapshot, Command)


BOUNDS = {
    "luck": (0, MAX_POOL),
    "clues": (0, MAX_POOL),
    "wounds": (0, 3),
    "nonlethal": (0, 3),
    "severe": (0, 99),
    "fear": (0, 999),
    "lose_actions": (0, 9),
}
"""What the engine's commands keep a Hero's or combatant's counters within; a file is
checked against them so a hand edit (Luck −5) is refused at the door, not mid-roll."""


def check_bounds(snap: Snapshot, where: str) -> None:
    """Counters within :data:`BOUNDS`, names and ids unique (:func:`check_unique`), every
    reference and bound play needs (:func:`.references.check_references`), a turn's
    declared actions within R-ACT-3's reach: what would otherwise load and then break a
    view.
    """
    check_unique(snap, where)
    check_references(snap, where)
    turn = snap.encounter.turn
    if turn is not None and not 0 <= turn.declared <= MAX_DECLARED:
        problem = f"{turn.declared} is outside 0 to {MAX_DECLARED}"
        raise codec.DataError(f"{where}.encounter.turn.declared", problem)
    people = [
        *((f"{where}.campaign.party[{i}]", m) for i, m in enumerate(snap.campaign.party)),
        *(
            (f"{where}.encounter.combatants[{i}]", c)
            for i, c in enumerate(snap.encounter.combatants)
        ),
    ]
    for at, person in people:
        for name, (low, high) in BOUNDS.items():
            value = getattr(person, name, None)
            if value is not None and not low <= value <= high:
                raise codec.DataError(f"{at}.{name}", f"{value} is outside {low} to {high}")
        for j, w in enumerate(getattr(person, "weapons", ())):
            if w.charges is not None and not 0 <= w.charges <= (w.power or 0):
                problem = f"{w.charges} charges is outside 0 to its power {w.power}"
                raise codec.DataError(f"{at}.weapons[{j}].charges", problem)


NOW_LOG = lines.Memo(lines.entry_line)
START_LOG = lines.Memo(lines.entry_line)
STEP_LINES = lines.Memo(lines.step_line)
"""The lines last written of the state's log, the undo start's log and the undo steps."""


def check_unique(snap: Snapshot, where: str) -> None:
    """What views and commands find by name or id, once each: zones, the band between two
    zones, combatant ids, a combatant's weapons, initiative actors, a group id that is no
    other combatant's id, party Heroes, roster entries, and log entries numbered in order.
    A twin would crash a list (Textual's DuplicateID) or act on the wrong one.
    """
    enc, camp = snap.encounter, snap.campaign
    at = f"{where}.encounter"
    zones = enumerate(enc.zones)
    _once((f"{at}.zones[{i}]", z, f"{z!r} is already the name of a zone") for i, z in zones)
    bands = enumerate(enc.bands)
    _once((f"{at}.bands[{i}]", {a, b}, f"{a} ↔ {b} already has a band") for i, (a, b, _) in bands)
    people = enc.combatants
    _once(
        (f"{at}.combatants[{i}].id", c.id, f"{c.id!r} is already the id of another combatant")
        for i, c in enumerate(people)
    )
    ids = {c.id for c in people}
    for i, c in enumerate(people):
        if c.group != c.id and c.group in ids:
            problem = f"{c.group!r} is the id of another combatant, not a group"
            raise codec.DataError(f"{at}.combatants[{i}].group", problem)
        weapons = enumerate(c.weapons)
        _once(
            (
                f"{at}.combatants[{i}].weapons[{j}].id",
                w.id,
                f"{w.id!r} is already one of its weapons",
            )
            for j, w in weapons
        )
    order = enumerate(enc.order)
    _once(
        (f"{at}.order[{i}].actor", r.actor, f"{r.actor!r} already has its initiative")
        for i, r in order
    )
    at = f"{where}.campaign"
    party = enumerate(camp.party)
    _once(
        (f"{at}.party[{i}].entry", m.entry, f"{m.entry!r} is already in the party")
        for i, m in party
    )
    roster = enumerate(camp.roster)
    _once((f"{at}.roster[{i}]", r, f"{r[0]} {r[1]!r} is already on the roster") for i, r in roster)
    for i, entry in enumerate(snap.log):
        if entry.seq != i + 1:
            problem = (
                f"{entry.seq} is out of order: entries are numbered 1, 2, 3 …; expected {i + 1}"
            )
            raise codec.DataError(f"{where}.log[{i}].seq", problem)


def _once(items: Iterable[tuple[str, Any, str]]) -> None:
    """Each key once (``(key path, key, problem)``): the second is refused at its path."""
    seen: list[Any] = []
    for at, key, problem in items:
        if key in seen:
            raise codec.DataError(at, problem)
        seen.append(key)


def snapshot_data(snap: Snapshot, log: lines.Memo = NOW_LOG) -> dict[str, Any]:
    """``snap`` as file data: its log a block of lines (``log`` keeps the lines last
    written of this snapshot's log), the dice state apart."""
    version, internal, gauss = snap.rng_state
    data = codec.to_data(replace(snap, rng_state=None, log=()), Snapshot)
    data["log"] = lines.block(log.lines(snap.log))
    data["rng_state"] = {"version": version, "internal": list(internal)}
    if gauss is not None:
        data["rng_state"]["gauss"] = gauss
    return data


SHARED = "log_from_state"
"""The key of ``[undo.start]`` that counts the first entries of ``[state]``'s log its own
log begins with: they are written once, in ``[state]`` (``format_version`` 4)."""


def start_data(start: Snapshot, now: Snapshot) -> dict[str, Any]:
    """The state before the undo history as file data: its log's entries that begin the
    log of ``now`` are counted, not written again (a long campaign's log was written twice,
    and a file of 225 MB became one of 450 MB that open refused)."""
    shared = 0
    for mine, theirs in zip(start.log, now.log, strict=False):
        if mine is not theirs and (mine != theirs or mine.step != theirs.step):
            break
        shared += 1
    data = snapshot_data(replace(start, log=start.log[shared:]), START_LOG)
    data[SHARED] = shared
    return data


def snapshot_from(
    data: Any, known: dict[str, type], where: str, before: tuple[LogEntry, ...] = ()
) -> Snapshot:
    """The snapshot file ``data`` holds at ``where`` (``state``, ``undo.start``); ``before``
    is the log whose first entries :data:`SHARED` counts (``state``'s, for the start).
    """
    if not isinstance(data, dict):
        raise codec.DataError(where, "missing, or not a table")
    if "log" not in data:
        raise codec.DataError(f"{where}.log", "missing")
    shared = codec.from_data(data.get(SHARED, 0), int, known, f"{where}.{SHARED}")
    if not 0 <= shared <= len(before):
        problem = f"{shared} is outside 0 to {len(before)} (the entries of the state's log)"
        raise codec.DataError(f"{where}.{SHARED}", problem)
    log = before[:shared] + lines.log_from(data["log"], f"{where}.log")
    rng = data.get("rng_state")
    if not isinstance(rng, dict):
        raise codec.DataError(f"{where}.rng_state", "missing, or not a table")
    gauss = rng.get("gauss")
    if gauss is not None:
        gauss = codec.from_data(gauss, float, known, f"{where}.rng_state.gauss")
    state = (
        codec.from_data(rng.get("version"), int, known, f"{where}.rng_state.version"),
        codec.from_data(rng.get("internal"), tuple[int, ...], known, f"{where}.rng_state.internal"),
        gauss,
    )
    dice = random.Random()
    try:
        dice.setstate(state)
    except (TypeError, ValueError, OverflowError):
        usable = False
    else:
        usable = dice.getstate() == state  # setstate takes words past 32 bits, cut short
    if not usable:
        problem = "not a dice state this Python can use"
        raise codec.DataError(f"{where}.rng_state", problem) from None
    rest = {k: v for k, v in data.items() if k not in ("rng_state", SHARED)} | {"log": []}
    return replace(codec.from_data(rest, Snapshot, known, where), log=log, rng_state=state)


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
    unread: tuple[str, ...] = ()
    checkpoints: tuple[str, ...] = ()
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
    steps: tuple[str, ...]
    now: Snapshot
    checkpoints: tuple[str, ...] = ()
    """States before some of the steps (:mod:`.checkpoints`), oldest first."""
    base: tuple[LogEntry, ...] = ()
    """The log the checkpoints were written against (the file's ``[state]`` log)."""

    @functools.cached_property
    def commands(self) -> list[Command]:
        """The steps read (:class:`~hsm_tui.persistence.codec.DataError` names a bad one)."""
        return read_steps(self.steps)

    def reaches(self, end: Snapshot) -> bool:
        """Whether the steps replayed ended at the state the file saved. Who may see each
        log entry, and which numbers in it are the GM's, aside: both are derived from the
        commands by the seat rules of the day, so a file written under older rules keeps
        its history (its entries re-marked).
        """
        a, b = end.log, self.now.log
        if replace(end, log=()) != replace(self.now, log=()) or len(a) != len(b):
            return False
        return all(x is y or _unseen(x) == _unseen(y) for x, y in zip(a, b, strict=True))

    def named(self, rename: Callable[[Snapshot], Snapshot]) -> Unread:
        """The same steps from and to renamed states (the name holds through undo)."""
        return Unread(rename(self.start), self.steps, rename(self.now), self.checkpoints, self.base)

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
            fresh = [e for e, kept in zip(at.log, self.base, strict=False) if e is not kept]
            check_log(tuple(fresh), f"{where}.changed")
        except codec.DataError as err:
            raise HistoryMisfit(len(self.steps), str(err)) from None
        newer = Unread(at, self.steps[step:], self.now)
        if step == 0:
            return None, newer
        return Unread(self.start, self.steps[:step], at, self.checkpoints[:-1], self.base), newer

    def check(self, replayed: Callable[[Unread], object]) -> None:
        """Replay (``replayed``) every stretch between checkpoints: HistoryMisfit names the
        first step, counted from the start, that no longer fits."""
        for first, piece in self.pieces():
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


def read_steps(steps: tuple[str, ...]) -> list[Command]:
    """The commands of undo steps as a file holds them; DataError names a bad one."""
    where = "undo.commands"
    types = known()
    found = lines.values(steps, where)
    return [codec.from_data(v, Command, types, f"{where}[{i}]") for i, v in enumerate(found)]


def session_data(saved: SessionData) -> dict[str, Any]:
    """``saved`` as TOML-ready data (the undo table only when there is history)."""
    data: dict[str, Any] = {"seed": saved.seed, "state": snapshot_data(saved.now)}
    steps = [*saved.unread, *STEP_LINES.lines(saved.commands)]
    if steps:
        marks = [
            *checkpoints.rebased(saved.checkpoints, saved.base, saved.now.log),
            *map(checkpoints.line, saved.marks),
        ]
        data["undo"] = {
            "start": start_data(saved.start, saved.now),
            "commands": lines.block(steps),
            "checkpoints": lines.block(marks),
        }
    data["redo"] = [codec.to_data(c, Command) for c in saved.redo]
    return data


def session_from(data: dict[str, Any]) -> SessionData:
    """Read and check everything a campaign file's session holds before anything changes
    but the undo steps, left unread (``unread``; :func:`read_steps` reads them): bad data
    raises :class:`~hsm_tui.persistence.codec.DataError`.
    """
    types = known()
    seed = codec.from_data(data.get("seed"), int, types, "seed")
    now = snapshot_from(data.get("state"), types, "state")
    undo = data.get("undo", {})
    if not isinstance(undo, dict):
        raise codec.DataError("undo", "expected a table")
    check_bounds(now, "state")
    start = now
    if "start" in undo:
        start = snapshot_from(undo["start"], types, "undo.start", now.log)
        check_bounds(start, "undo.start")
    steps = tuple(lines.split(undo.get("commands", ""), "undo.commands"))
    marks = tuple(lines.split(undo.get("checkpoints", ""), "undo.checkpoints"))
    redo = codec.from_data(data.get("redo", []), list[Command], types, "redo")
    return SessionData(seed, now, start, [], redo, steps, marks, now.log)
