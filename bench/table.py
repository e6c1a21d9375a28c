"""The figures issue 22 asks for, gathered from every bench script of one ``make bench`` run
and printed as one table, each beside its target.

Each script calls :func:`record` for the rows it measures; with ``HSM_BENCH_TABLE`` naming a
file (``make bench`` sets it) the row is appended there as a JSON line, otherwise nothing
is kept. ``python bench/table.py FILE`` then prints the table in the issue's order; a row no
script recorded shows "not measured".
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROWS = (
    ("builder", "builder forecast, 200 fights, shipped example encounter", "≤ 1 s"),
    ("simulate", "hsm simulate 1,000 fights 6 v 12, one worker", "≤ 5 s"),
    ("first-frame", "first frame / bare hello-world (medians, same run)", "≤ 1.2×"),
    ("usable", "app usable (engine and packs loaded) / hello-world", "≤ 1.5×"),
    ("odds", "Hero task odds vs icepool, same query, cold", "≥ 10× faster"),
    ("save", "save a campaign with 10,000 log entries", "≤ 100 ms"),
    ("open", "open a campaign with 10,000 log entries", "≤ 100 ms"),
    ("round", "one round of the shipped example by keys, key → frame (median)", "≤ 50 ms"),
)
"""Each row's key, the figure as the issue names it, and its target."""

TARGETS = {key: target for key, _, target in ROWS}


def record(key: str, figure: str, ok: bool) -> None:
    """Keep row ``key``'s figure (text as shown) and whether it meets its target."""
    if key not in TARGETS:
        raise KeyError(f"no row {key!r} in the issue's table")
    path = os.environ.get("HSM_BENCH_TABLE")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"key": key, "figure": figure, "ok": ok}) + "\n")


def main(argv: list[str]) -> int:
    found: dict[str, dict[str, object]] = {}
    if argv and Path(argv[0]).exists():
        for line in Path(argv[0]).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            found[row["key"]] = row
    print("\nIssue 22: a GM's waits, each beside its target (this run)")
    named = max(len(name) for _, name, _ in ROWS) + 1
    width = max([16, *(len(str(row["figure"])) + 1 for row in found.values())])
    print(f"{'figure':<{named}}{'now':>{width}}{'target':>16}{'result':>9}")
    print("-" * (named + width + 25))
    for key, name, target in ROWS:
        row = found.get(key)
        if row is None:
            figure, verdict = "not measured", "—"
        else:
            figure, verdict = str(row["figure"]), "pass" if row["ok"] else "over"
        print(f"{name:<{named}}{figure:>{width}}{target:>16}{verdict:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
