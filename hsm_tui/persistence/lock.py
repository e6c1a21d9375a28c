"""The campaign lock: a campaign open in one hsm-tui is marked as held, so a second one
opening it is told who holds it (user, host, process, since when) and may open it
read-only or take over. The lock is advisory (a file ``.<name>.toml.lock`` beside the
campaign, replaced whole): a lock whose process is gone (same host) is free again.

A save to a campaign another hsm-tui holds is refused (``store.save``): after a take-over
the first one's saves no longer land on the file.
"""

from __future__ import annotations

import getpass
import os
import socket
import tomllib
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

import tomli_w

from .atomic import replace_file, running
from .safe_read import read_regular

LIMIT = 4096


@dataclass(frozen=True)
class Holder:
    """Who holds a campaign."""

    user: str
    host: str
    pid: int
    since: str

    def __str__(self) -> str:
        return f"{self.user} on {self.host} (process {self.pid}) since {self.since}"

    @property
    def is_me(self) -> bool:
        return self.pid == os.getpid() and self.host == socket.gethostname()


class Locked(Exception):
    """Another hsm-tui holds the campaign."""

    def __init__(self, path: Path, holder: Holder) -> None:
        super().__init__(f"{path} is open in another hsm-tui: {holder}")
        self.holder = holder


def lock_path(file: Path) -> Path:
    """Where the lock of the campaign ``file`` is kept."""
    target = file.resolve()
    return target.with_name(f".{target.name}.lock")


def _me() -> Holder:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "?"
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    return Holder(user, socket.gethostname(), os.getpid(), stamp)


def _written(file: Path) -> Holder | None:
    """The holder the lock file names (None: no lock file, or not one this reads)."""
    try:
        data = tomllib.loads(read_regular(lock_path(file), LIMIT).decode("utf-8"))
        return Holder(str(data["user"]), str(data["host"]), int(data["pid"]), str(data["since"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def unit_key(file: Path) -> Holder | None:
    """Who else holds ``file`` (None: nobody, or this process, or a process gone)."""
    found = _written(file)
    if found is None or found.is_me:
        return None
    if found.host == socket.gethostname() and not running(found.pid):
        return None
    return found


def acquire(file: Path, *, take_over: bool = False) -> None:
    """Hold ``file`` for this process; :class:`Locked` if another holds it (unless
    ``take_over``). OSError if the lock cannot be written (a read-only folder).
    """
    other = unit_key(file)
    if other is not None and not take_over:
        raise Locked(file, other)
    text = tomli_w.dumps(asdict(_me())).encode("utf-8")
    replace_file(lock_path(file), text, 0o644)


def release(file: Path) -> None:
    """Let ``file`` go, if this process holds it (a lock taken over stays theirs)."""
    found = _written(file)
    if found is not None and found.is_me:
        lock_path(file).unlink(missing_ok=True)
