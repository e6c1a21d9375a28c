"""Campaign files after a power cut (issue 32): on a scratch ext4 image, cut the power right
after a save (or an autosave) reports success, and count the saves that come back.

The image is made with ``mkfs.ext4``, attached to a loop device and mounted. Each trial
opens the campaign (as the GM's app would after the machine came back), plays one task,
saves it (``store.save``) or autosaves it (``autosave.write``), and the moment that returns
shuts the file system down with the ``EXT4_IOC_SHUTDOWN`` ioctl, flag
``EXT4_GOING_FLAGS_NOLOGFLUSH``: ext4 stops at once without writing its journal, as when
power fails (what was not flushed is lost). The image is then unmounted and mounted again
(the journal replayed) and the file opened: **whole** if it holds the save just reported
(its log ends with that task), **previous** if it came back as the save before, **torn** if
it no longer opens, **missing** if it is gone; every backup (``.bak1`` to ``.bak3``) must
open, and a whole save left under a temporary name is counted as **offered** (the next open
offers it). Target: every save whole.

A control row runs the same trials with the folder flush after each rename turned off in
this process: the rename then lives only in ext4's journal, and most of those saves come
back as the previous one (22 of 25 did before the flush), which shows the bench sees
what it looks for.

Run as root: ``.venv/bin/python bench/powercut.py`` (``--trials N``, default 100 each;
``--entries N``, the campaign's length, default 2,000; ``--control N``, default 25, 0 to
skip). Where the machine does not allow it (not root, not Linux, no loop device, no
``mkfs.ext4``), it says so and exits 0; the image is unmounted, detached and removed
whatever happens. A bench, not a test: the test suite checks the order of every rename and
flush without root (``tests/test_durable_files.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.files import TN, build
from hsm_tui.persistence import atomic, autosave, store, unfinished
from hsm_tui.rules import Rank
from hsm_tui.table.session import RollTask, Session
from tests.campaign import pack

EXT4_IOC_SHUTDOWN = 0x8004587D
"""``_IOR('X', 125, __u32)`` (linux/fs.h ``FS_IOC_SHUTDOWN``)."""
EXT4_GOING_FLAGS_NOLOGFLUSH = 2
"""Shut down without flushing the journal: what power loss does."""
TOOLS = ("losetup", "mkfs.ext4", "mount", "umount")


def unavailable() -> str | None:
    """Why this machine cannot cut power on a scratch image (None: it can)."""
    if not sys.platform.startswith("linux"):
        return f"needs Linux (ext4 and loop devices), not {sys.platform}"
    if os.geteuid() != 0:
        return "needs root (losetup, mount and the shutdown ioctl): run it with sudo"
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        return f"needs {', '.join(missing)} (util-linux, e2fsprogs)"
    if not Path("/dev/loop-control").exists():
        return "no loop device on this machine (/dev/loop-control is missing)"
    return None


class NotAllowed(Exception):
    """The machine refused a step of the set-up (a container without loop devices)."""


def _run(*command: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise NotAllowed(f"{' '.join(command)}: {done.stderr.strip() or done.returncode}")
    return done.stdout.strip()


class Scratch:
    """A scratch ext4 image, attached to a loop device and mounted at :attr:`folder`."""

    def __init__(self, work: Path, size_mb: int) -> None:
        self.image = work / "scratch.img"
        self.folder = work / "mnt"
        self.folder.mkdir()
        with self.image.open("wb") as out:
            out.truncate(size_mb * 2**20)
        _run("mkfs.ext4", "-q", "-F", str(self.image))
        self.device = _run("losetup", "--find", "--show", str(self.image))
        self.mounted = False
        self.mount()

    def mount(self) -> None:
        _run("mount", "-t", "ext4", self.device, str(self.folder))
        self.mounted = True

    def unmount(self) -> None:
        if self.mounted:
            _run("umount", str(self.folder))
            self.mounted = False

    def cut(self) -> None:
        """Power off, as far as ext4 knows: nothing more reaches the image."""
        fd = os.open(self.folder, os.O_RDONLY)
        try:
            fcntl.ioctl(fd, EXT4_IOC_SHUTDOWN, struct.pack("I", EXT4_GOING_FLAGS_NOLOGFLUSH))
        finally:
            os.close(fd)

    def power_on(self) -> None:
        """Unmount the dead file system and mount it again (the journal replayed)."""
        self.unmount()
        self.mount()

    def close(self) -> None:
        """Unmount and detach, whatever state the trials left it in."""
        with contextlib.suppress(NotAllowed):
            self.unmount()
        if self.mounted:  # busy: detach it from the tree now, the kernel lets go later
            with contextlib.suppress(NotAllowed):
                _run("umount", "-l", str(self.folder))
        with contextlib.suppress(NotAllowed):
            _run("losetup", "-d", self.device)


@contextlib.contextmanager
def scratch(size_mb: int) -> Iterator[Scratch]:
    with tempfile.TemporaryDirectory(prefix="hsm-powercut-") as tmp:
        image = Scratch(Path(tmp), size_mb)
        try:
            yield image
        finally:
            image.close()


def trials(
    image: Scratch, mode: str, count: int, entries: int, name: str, flush: bool = True
) -> tuple[Counter[str], float]:
    """``count`` power cuts right after a save or an autosave (``mode``), in the image's
    folder ``name``: what came back. Each save is made by a process of its own, as the
    GM's app makes it; the power goes the moment it reports the save done (``flush``
    False: the control, its folder flushes off)."""
    start = time.perf_counter()
    found: Counter[str] = Counter()
    folder = image.folder / name
    folder.mkdir()
    path = folder / "c.toml"
    session = Session(seed=1, content=pack())
    build(session, entries)
    store.save(session, path)
    auto = autosave.path_for(path, "bench")
    image.power_on()
    for trial in range(count):
        command = [sys.executable, __file__, "--save", mode, str(path), str(auto), str(trial)]
        with subprocess.Popen(
            [*command, *([] if flush else ["--no-flush"])], stdout=subprocess.PIPE, text=True
        ) as child:
            assert child.stdout is not None
            reported = child.stdout.readline()
            image.cut()
        if not reported:
            raise RuntimeError(f"trial {trial}: the save failed (exit {child.returncode})")
        image.power_on()
        found[came_back(auto if mode == "autosave" else path, int(reported), trial)] += 1
        for cut in unfinished.found(path):  # as the GM would: recovered or set aside
            found["offered"] += 1
            unfinished.discard(cut).unlink()
        if mode != "autosave":
            kept = [store.backup(path, n) for n in range(1, store.BACKUPS + 1)]
            found["backups ok"] += kept[0].exists() and all(map(_opens, kept))
    return found, time.perf_counter() - start


def save_once(mode: str, path: Path, auto: Path, trial: int) -> int:
    """One trial's save, in a process of its own: the campaign (its autosave, if that is
    what is cut) opened, one task played, saved or autosaved; the answer is its log's length."""
    session = Session(content=pack())
    if mode == "autosave" and auto.exists():
        store.load(session, auto, mark=False)
    else:
        store.load(session, path)
    session.apply(RollTask(TN, Rank.MINION, f"Trial {trial}"))
    if mode == "autosave":
        autosave.write(session.frozen(), auto)
    else:
        store.save(session, path)
    return len(session.log)


def came_back(path: Path, length: int, trial: int) -> str:
    """What ``path`` holds after the power came back: the save of ``trial`` (its log
    ``length`` entries long, the last one its task), the one before, or neither."""
    if not path.exists():
        return "missing"
    session = Session(content=pack())
    try:
        store.load(session, path, mark=False)
    except store.CampaignFileError:
        return "torn"
    if len(session.log) == length and session.log[-1].title.startswith(f"Trial {trial} "):
        return "whole"
    return "previous" if len(session.log) == length - 1 else "other"


def _opens(path: Path) -> bool:
    """Whether a backup opens (one not made yet is no loss)."""
    if not path.exists():
        return True
    try:
        store.read(path)
    except store.CampaignFileError:
        return False
    return True


@contextlib.contextmanager
def folder_flush_off() -> Iterator[None]:
    """The control: renames without the folder flush after them (as before issue 32)."""
    flush = atomic.sync_folder
    atomic.sync_folder = lambda _folder: None
    try:
        yield
    finally:
        atomic.sync_folder = flush


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--entries", type=int, default=2_000)
    parser.add_argument("--control", type=int, default=25)
    parser.add_argument("--save", nargs=4, metavar=("MODE", "FILE", "AUTO", "TRIAL"))
    parser.add_argument("--no-flush", action="store_true")
    args = parser.parse_args()
    if args.save:
        mode, path, auto, trial = args.save
        with folder_flush_off() if args.no_flush else contextlib.nullcontext():
            print(save_once(mode, Path(path), Path(auto), int(trial)), flush=True)
        return 0
    print(f"hsm campaign power-cut bench: {args.entries:,} log entries a campaign")
    reason = unavailable()
    if reason is not None:
        print(f"not run: this machine does not allow it: {reason}")
        return 0
    rows = [("save", args.trials, False), ("autosave", args.trials, False)]
    if args.control:
        rows.append(("save", args.control, True))
    head = f"\n{'power cut right after':<34}{'trials':>7}{'whole':>7}{'previous':>10}"
    print(f"{head}{'torn':>6}{'missing':>9}{'backups ok':>12}{'offered':>9}{'time':>7}  result")
    print("-" * 110)
    done = 0
    try:
        with scratch(size_mb=max(256, args.entries // 20)) as image:
            for mode, count, control in rows:
                name = f"{mode}, folder not flushed (control)" if control else mode
                found, seconds = trials(
                    image, mode, count, args.entries, f"run{done}", flush=not control
                )
                whole = found["whole"] == count
                result = ("sees the loss" if not whole else "sees none") if control else None
                result = result or ("pass" if whole else "FAIL")
                backups = f"{found['backups ok']}" if mode == "save" else "-"
                print(
                    f"{name:<34}{count:>7}{found['whole']:>7}{found['previous']:>10}"
                    f"{found['torn']:>6}{found['missing']:>9}{backups:>12}{found['offered']:>9}"
                    f"{seconds:>6.0f}s  {result}"
                )
                done += 1
    except NotAllowed as err:
        stopped = "stopped" if done else "not run: this machine does not allow it"
        print(f"{stopped}: {err}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
