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
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hsm_tui.persistence import store, unfinished
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=200)
    args = parser.parse_args()
    print(
        f"hsm campaign file benchmark: Python {platform.python_version()} on"
        f" {platform.machine()}, {os.cpu_count()} CPU(s)"
    )
    head = f"{'kill -9 during':<16}{'trials':>8}{'torn':>6}{'lost':>6}"
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
