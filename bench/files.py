"""Campaign file reliability (issue 20): kill -9 a process in the middle of saving, again
and again, and count what it leaves behind.

Each trial starts a process that saves one campaign over and over (each save another
version, ``tests/test_campaign_safety.py``'s saver), kills it with SIGKILL after a few
milliseconds, then opens the file: **torn** if it (or a backup) no longer opens,
**lost** if it opens as neither the old nor the new version. The temporary files the
kills left are counted after each kill, and again after the next open, which must have
removed them all but a whole save newer than the file (**offered**: the kill fell
between its write and its rename; the app offers it like an autosave).

Run: ``.venv/bin/python bench/files.py`` (``--trials N``, default 200 for each of save and
autosave). Prints a table; never fails. Target: 0 torn, 0 lost, 0 temporary files left
after the next open but those offered. The tests run the same trials, 12 of each.

A second table (``--only sizes``; ``--sizes 10000,50000``; ``--repeat 3``: each figure the
median of that many processes) times long campaigns: one of N log entries, every step
undoable (ten Minions set up in two zones, then task rolls, one entry and one step each),
saved in this process; then a fresh process, as a GM's app starts, opens it (**open**),
plays a task and undoes it, times the **first undo** into the file's history and reports
the **peak** memory so far (the maximum resident set of the app's whole process, Python and
packs included), then plays a task and saves (**save**). At 50,000 entries it also times an
**autosave** after one more change: the part on the app's thread (``Session.frozen``) and
the write on the autosave thread. Targets (issue 32): save and open ≤ 250 ms at 50,000
entries, first undo ≤ 200 ms and peak ≤ 250 MB at 20,000 and growing linearly, autosave
≤ 20 ms on the app's thread. **check** is the whole ``hsm campaign check FILE`` process
(every entry read, every undo step replayed on the shipped packs), run once per size:
target ≤ 10 s at 50,000. A power cut after a save is ``bench/powercut.py``'s (root).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hsm_tui.campaign.combat import AddCombatants, AddZone, SetBand
from hsm_tui.campaign.freeflow import RollTask
from hsm_tui.persistence import autosave, store, unfinished
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import Session
from tests.campaign import pack
from tests.test_campaign_safety import after_kill, kill_mid_save


def trials(mode: str, count: int) -> tuple[Counter[str], int, int, int, float]:
    """``count`` kills during ``mode`` (save or autosave): (what the kills left, temporary
    files found after the kills, still there after the next open and not offered, offered,
    seconds)."""
    start = time.perf_counter()
    found: Counter[str] = Counter()
    left = after = offered = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.toml"
        store.save(Session(seed=1, content=pack()), path)
        for trial in range(count):
            kill_mid_save(path, mode, 0.002 * (trial % 25))
            left += len(list(Path(tmp).glob(".c.toml.*.tmp")))
            found[after_kill(path) or "whole"] += 1  # opens it: cleans up
            kept = unfinished.found(path)
            offered += len(kept)
            after += len(set(Path(tmp).glob(".c.toml.*.tmp")) - set(kept))
            for cut in kept:  # as the GM would: set aside, so the next trial starts clean
                unfinished.discard(cut).unlink()
    return found, left, after, offered, time.perf_counter() - start


TN = task_tn([("Agility", 3), ("Senses", 2)])


def build(session: Session, entries: int) -> None:
    """Play ``session`` on to ``entries`` log entries (set up first if it is new)."""
    if not session.log:
        for command in (AddZone("ridge"), AddZone("dig"), SetBand("ridge", "dig", "medium")):
            session.apply(command)
        session.apply(AddCombatants("minion", "pirate-raider", "pirates", "dig", count=10))
    while len(session.log) < entries:
        session.apply(RollTask(TN, Rank.MINION, f"Task {len(session.log)}"))


def measure(path: Path) -> dict[str, float]:
    """What a GM's app pays for ``path`` (run in a fresh process: its peak is its own):
    open, a task played and undone, the first undo into the file's history (the peak is
    taken there), then a save and an autosave of the session as it is then.
    """
    session = Session(content=pack())
    opened = _timed(lambda: store.load(session, path))
    session.apply(RollTask(TN, Rank.MINION, "One more"))
    session.undo()
    undo = _timed(session.undo)
    peak = peak_mb()
    session.apply(RollTask(TN, Rank.MINION, "One more"))
    saved = _timed(lambda: store.save(session, path.with_name("again.toml")))
    session.apply(RollTask(TN, Rank.MINION, "And one more"))
    start = time.perf_counter()
    frozen = session.frozen()
    on_app = time.perf_counter() - start
    written = _timed(lambda: autosave.write(frozen, path.parent / autosave.FOLDER / path.name))
    return {"open": opened, "save": saved, "undo": undo, "peak": peak, "frozen": on_app,
            "write": written}  # fmt: skip


def peak_mb() -> float:
    """This process's peak resident memory since it started (``VmHWM``: Linux keeps
    ``ru_maxrss`` across exec, so a child started by a big parent would report the
    parent's)."""
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kb = next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(kb) / 1024


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def sizes(counts: list[int], repeat: int) -> None:
    """The long-campaign table: each figure the median of ``repeat`` fresh processes."""
    head = f"{'entries':>9}{'file MB':>9}{'save':>9}{'open':>9}{'first u':>9}{'peak MB':>9}"
    print(f"\n{head}{'check':>9}{'autosave: app thread':>22}{'write':>9}")
    print("-" * 94)
    session = Session(seed=1, content=pack())
    with tempfile.TemporaryDirectory() as tmp:
        for count in counts:
            build(session, count)
            path = store.save(session, Path(tmp) / f"c{count}.toml")
            runs = [
                json.loads(subprocess.run(
                    [sys.executable, __file__, "--measure", str(path)],
                    capture_output=True, text=True, check=True,
                ).stdout)
                for _ in range(repeat)
            ]  # fmt: skip
            got = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "hsm_tui", "campaign", "check", str(path)],
                capture_output=True, check=True, cwd=Path(__file__).resolve().parents[1],
            )  # fmt: skip
            checked = time.perf_counter() - start
            auto = f"{got['frozen'] * 1000:>20.1f}ms{got['write'] * 1000:>7.0f}ms"
            print(
                f"{count:>9,}{path.stat().st_size / 2**20:>9.1f}{got['save'] * 1000:>7.0f}ms"
                f"{got['open'] * 1000:>7.0f}ms{got['undo'] * 1000:>7.0f}ms{got['peak']:>9.0f}"
                f"{checked:>8.1f}s{auto if count == 50_000 else ''}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--only", choices=("kills", "sizes"))
    parser.add_argument("--sizes", default="10000,20000,50000,100000")
    parser.add_argument("--repeat", type=int, default=3, help="processes per size (median)")
    parser.add_argument("--measure", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return 0
    print(
        f"hsm campaign file benchmark: Python {platform.python_version()} on"
        f" {platform.machine()}, {os.cpu_count()} CPU(s)"
    )
    if args.only != "kills":
        sizes([int(n) for n in args.sizes.split(",")], args.repeat)
    if args.only == "sizes":
        return 0
    head = f"\n{'kill -9 during':<16}{'trials':>8}{'torn':>6}{'lost':>6}"
    print(f"{head}{'tmp files':>11}{'after open':>12}{'offered':>9}{'time':>8}{'result':>8}")
    print("-" * 83)
    for mode in ("save", "autosave"):
        found, left, after, offered, seconds = trials(mode, args.trials)
        ok = found["torn"] == found["lost"] == after == 0
        print(
            f"{mode:<16}{args.trials:>8}{found['torn']:>6}{found['lost']:>6}{left:>11}"
            f"{after:>12}{offered:>9}{seconds:>7.0f}s{'pass' if ok else 'FAIL':>8}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
