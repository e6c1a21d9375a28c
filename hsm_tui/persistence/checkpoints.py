"""Checkpoints of the undo history in a campaign file: the state before every
:data:`EVERY`-th undo step, one line of JSON each in ``[undo] checkpoints``. The first
undo after opening then replays only the steps after the last checkpoint, not the whole
history: a year of play (20,000 steps) took 7.5 s and 2.4 GB to replay at the first ``u``.

A line is ``{"step": 400, "kept": 812, "changed": [[5, entry], …], "state": {…},
"rng": [version, [words…], gauss]}``: the state before step 400 (from 0), whose log is the
first 812 entries of ``[state]``'s log but those ``changed`` (an entry opened to the
players since, a re-roll's note), as they were. The log is never written twice.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..table.state import LogEntry, Snapshot
from . import codec, lines

EVERY = 200
"""Undo steps between two checkpoints: the first undo replays at most this many."""

Log = tuple[LogEntry, ...]
Mark = tuple[int, Snapshot, int, tuple[tuple[int, LogEntry], ...]]
"""A checkpoint to write: (step, the state without its log, entries kept, entries changed)."""


def line(mark: Mark) -> str:
    """A checkpoint as its line."""
    step, state, kept, changed = mark
    version, internal, gauss = state.rng_state
    table = codec.to_data(replace(state, log=(), rng_state=None), Snapshot)
    table.pop("log", None)
    row = {
        "step": step,
        "kept": kept,
        "changed": [[i, _row(e)] for i, e in changed],
        "state": table,
        "rng": [version, list(internal), gauss],
    }
    return lines.line(row)


def _row(entry: LogEntry) -> list[Any]:
    return json.loads(lines.entry_line(entry))


def decode(text: str, base: Log, known: dict[str, type], where: str) -> tuple[int, Snapshot]:
    """The step and state a checkpoint line holds (its log from ``base``, the log of the
    ``[state]`` it was written with); :class:`~.codec.DataError` names what is wrong."""
    [row] = lines.values([text], where)
    if not isinstance(row, dict) or set(row) != {"step", "kept", "changed", "state", "rng"}:
        raise codec.DataError(where, "expected step, kept, changed, state and rng")
    step = codec.from_data(row["step"], int, known, f"{where}.step")
    kept = codec.from_data(row["kept"], int, known, f"{where}.kept")
    if not 0 <= kept <= len(base):
        raise codec.DataError(f"{where}.kept", f"{kept} is outside 0 to {len(base)}")
    entries = list(base[:kept])
    changed = row["changed"]
    if not isinstance(changed, list):
        raise codec.DataError(f"{where}.changed", "expected a list")
    for n, pair in enumerate(changed):
        at = f"{where}.changed[{n}]"
        if not (isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int):
            raise codec.DataError(at, "expected [place, entry]")
        if not 0 <= pair[0] < kept:
            raise codec.DataError(at, f"{pair[0]} is outside 0 to {kept - 1}")
        [entries[pair[0]]] = lines.log_from(lines.line(pair[1]), at)
    rng = row["rng"]
    if not (isinstance(rng, list) and len(rng) == 3):
        raise codec.DataError(f"{where}.rng", "expected [version, words, gauss]")
    state = codec.from_data({**row["state"], "log": []}, Snapshot, known, f"{where}.state")
    words = codec.from_data(rng[1], tuple[int, ...], known, f"{where}.rng")
    gauss = None if rng[2] is None else codec.from_data(rng[2], float, known, f"{where}.rng")
    dice = (codec.from_data(rng[0], int, known, f"{where}.rng"), words, gauss)
    try:
        random.Random().setstate(dice)
    except (TypeError, ValueError, OverflowError):
        raise codec.DataError(f"{where}.rng", "not a dice state this Python can use") from None
    return step, replace(state, log=tuple(entries), rng_state=dice)


def rebased(texts: Sequence[str], base: Log, log: Log) -> list[str]:
    """Checkpoint lines written against ``base`` (the log of the file they came from),
    written against ``log`` (the session's log now): as they are, unless an entry they
    keep has changed since (the GM opened an old entry); then those lines are rewritten.
    """
    if not texts:
        return []
    last = json.loads(texts[-1])
    most = min(int(last.get("kept", 0)), len(base))
    if len(log) >= most and log[:most] == base[:most]:
        return list(texts)
    differ = [i for i in range(most) if i >= len(log) or base[i] is not log[i]]
    rows = [json.loads(text) for text in texts]
    out = []
    for row in rows:
        kept = row["kept"]
        changed = {i: e for i, e in row["changed"]}
        for i in differ:
            if i < kept and i not in changed:
                changed[i] = _row(base[i])
        row["changed"] = sorted([i, e] for i, e in changed.items())
        out.append(lines.line(row))
    return out
