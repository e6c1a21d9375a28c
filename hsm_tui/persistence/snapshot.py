"""A session's snapshot as campaign-file data and back (hsm_tui/state.py): the codec for
the state, its log as lines of JSON (``lines.py``), the dice state written apart, and
counters and references checked at the door. The whole session (history included) is
:mod:`.session_file`'s.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..campaign.encounter import MAX_DECLARED, MAX_POOL
from ..table.state import Command, LogEntry, Snapshot
from . import codec, lines
from .references import check_references


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
    seqs = list(map(_SEQ, snap.log))
    if seqs == list(range(1, len(seqs) + 1)):  # compared in C: a long log is 50,000 entries
        return
    for i, entry in enumerate(snap.log):
        if entry.seq != i + 1:
            problem = (
                f"{entry.seq} is out of order: entries are numbered 1, 2, 3 …; expected {i + 1}"
            )
            raise codec.DataError(f"{where}.log[{i}].seq", problem)


_SEQ = operator.attrgetter("seq")


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
    data["log"] = log.block(snap.log)
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
    data: Any,
    known: dict[str, type],
    where: str,
    before: tuple[LogEntry, ...] = (),
    memo: lines.Memo | None = None,
    later: bool = False,
) -> Snapshot:
    """The snapshot file ``data`` holds at ``where`` (``state``, ``undo.start``); ``before``
    is the log whose first entries :data:`SHARED` counts (``state``'s, for the start);
    ``memo`` keeps the lines of the log it writes (:func:`snapshot_data`'s ``log``);
    ``later``: its entries are read when first asked for (:func:`.lines.log_from`).
    """
    if not isinstance(data, dict):
        raise codec.DataError(where, "missing, or not a table")
    if "log" not in data:
        raise codec.DataError(f"{where}.log", "missing")
    shared = codec.from_data(data.get(SHARED, 0), int, known, f"{where}.{SHARED}")
    if not 0 <= shared <= len(before):
        problem = f"{shared} is outside 0 to {len(before)} (the entries of the state's log)"
        raise codec.DataError(f"{where}.{SHARED}", problem)
    own = lines.log_from(data["log"], f"{where}.log", memo, first=shared + 1, later=later)
    log = before[:shared] + own
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
