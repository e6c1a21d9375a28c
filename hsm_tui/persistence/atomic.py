"""Files replaced whole: the new bytes go to a temporary file in the same folder, are
flushed to disk, and only then take the old file's name; the folder is flushed after
every rename, so a crash, a full disk or a power cut leaves either the old file or the
new one, never half of one, and a save reported done stays done.

A temporary file is named ``.<name>.<pid>.<random>.tmp``: one whose process is gone was
left by a crash (kill -9 mid-save) and :func:`clean_stale` removes it on the next save
or open (unless the caller keeps it: a whole save that never took its name); one of a
running process is its save in progress, and stays.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # not on Windows: saves there are not serialised between processes
    fcntl = None  # type: ignore[assignment]


def keep_copy(target: Path, copy: Path) -> None:
    """``target`` as it is now also under the name ``copy`` (a backup), atomically: a hard
    link (no copy) made under a temporary name, then renamed; a copy where links fail.
    """
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target), suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        os.unlink(tmp)
        try:
            os.link(target, tmp)
        except OSError:  # a file system without hard links: copy instead
            shutil.copy2(target, tmp)
        move_into_place(tmp, copy)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def replace_file(
    target: Path, data: bytes, mode: int, before: Callable[[], None] = lambda: None
) -> None:
    """Write ``data`` as ``target`` (permissions ``mode``); ``before`` runs just before
    the new file takes the name (to keep a backup of the old one). Raises OSError; the
    temporary file is then gone.
    """
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target), suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        before()
        move_into_place(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def move_into_place(source: Path | str, target: Path) -> None:
    """Rename ``source`` to ``target`` atomically and flush the folder: until the folder
    is on disk, a power cut may bring back the old name (ext4 did, for 22 of 25 saves).
    """
    os.replace(source, target)
    sync_folder(target.parent)


_CANNOT_SYNC = frozenset({errno.EINVAL, errno.ENOTSUP, errno.EBADF, errno.EACCES})
"""What file systems that cannot flush a folder (some network ones) answer: nothing more
can be done there, and the rename itself succeeded."""


def sync_folder(folder: Path) -> None:
    """Flush ``folder``'s names to disk (a no-op on Windows, which cannot open one)."""
    if os.name == "nt":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as err:
        if err.errno in _CANNOT_SYNC:
            return
        raise
    try:
        os.fsync(fd)
    except OSError as err:
        if err.errno not in _CANNOT_SYNC:
            raise
    finally:
        os.close(fd)


OLD_STYLE_AGE = 60.0
"""Seconds after which a temporary file named the old way (no process id) is stale."""


def temp_prefix(target: Path) -> str:
    """How this process's temporary files for ``target`` begin."""
    return f".{target.name}.{os.getpid()}."


def clean_stale(target: Path, keep: Callable[[Path], bool] = lambda _p: False) -> list[Path]:
    """Remove the temporary files a crashed writer of ``target`` left beside it; the
    answer lists them. Files of a running process (a save in progress) stay, and so do
    those ``keep`` says are worth keeping (a whole save that never took its name).
    """
    old = re.compile(rf"\.{re.escape(target.name)}\.[a-z0-9_]{{8}}")
    removed = []
    for path in _beside(target):
        owner = temp_owner(path, target)
        try:
            if owner is not None:
                stale = not running(owner) and not keep(path)
            else:
                stale = bool(old.fullmatch(path.name)) and _age(path) > OLD_STYLE_AGE
            if stale and path.is_file():
                path.unlink()
                removed.append(path)
        except OSError:
            continue
    return removed


def orphans(target: Path) -> list[Path]:
    """The temporary files of ``target`` whose writer is gone (killed, or the machine
    lost power) before its file took the name."""
    found = []
    for path in _beside(target):
        owner = temp_owner(path, target)
        if owner is not None and not running(owner):
            found.append(path)
    return found


def _beside(target: Path) -> list[Path]:
    try:
        return list(target.parent.glob(f".{glob_escape(target.name)}.*"))
    except OSError:
        return []


def temp_owner(path: Path, target: Path) -> int | None:
    """The process id in the name of ``path`` when it is a temporary file of ``target``."""
    match = re.fullmatch(rf"\.{re.escape(target.name)}\.(\d+)\.[^/]*\.tmp", path.name)
    return int(match[1]) if match else None


def glob_escape(text: str) -> str:
    """``text`` matched literally by ``Path.glob``."""
    return re.sub(r"([*?[])", r"[\1]", text)


def running(pid: int) -> bool:
    """Whether process ``pid`` runs on this host (this process: yes)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0
    return True


def _age(path: Path) -> float:
    return time.time() - path.stat().st_mtime


@contextlib.contextmanager
def folder_held(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (flock, released when the block ends or the
    process dies): hsm processes saving into one folder take turns, so the check that a
    file is still the one a session last saw and the save that replaces it are one step.
    """
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


FileId = tuple[int, int, int, int]


def file_id(path: Path) -> FileId | None:
    """Which file ``path`` is now (device, inode, size, modified), None if none: a
    file replaced or rewritten by another program has another."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
