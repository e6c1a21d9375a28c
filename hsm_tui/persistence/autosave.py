"""Autosave files: the session written beside its campaign after every change (debounced
by :class:`Autosaver`, in the GM's app or ``hsm serve --headless``), so a crash, a closed
terminal or a dropped SSH connection loses at most the last two seconds of play.

``<folder>/.autosave/<name>.toml~<host>~<pid>.toml`` for the campaign file
``<folder>/<name>.toml``, or ``<saves>/.autosave/unnamed-<stamp>~<host>~<pid>.toml``
before the campaign's first save: each running hsm-tui writes and removes only its own,
so two on one campaign (one read-only) never overwrite or remove each other's. It is a
campaign file like any other (written atomically, without backups), so anything that
opens a campaign opens it. One newer than its campaign file, left by an hsm-tui that no
longer runs, is offered for recovery, naming that process; discarding it keeps it as
``<name>.discarded``; a normal save removes this process's own.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from . import atomic, store
from .atomic import move_into_place
from .session_file import SessionData, session_data

if TYPE_CHECKING:
    from ..table.session import Session

FOLDER = ".autosave"
UNNAMED = "unnamed-"
DISCARDED = ".discarded"
MARK = "~"
"""Splits an autosave's name from its writer's host and process (``relics.toml~laptop~812``):
no host name holds it."""
DELAY = 1.0
"""Seconds from a change to its autosave (changes meanwhile go in the same write)."""


@dataclass(frozen=True)
class Writer:
    """The running hsm-tui an autosave is of: each writes its own, so two on one campaign
    never write or remove each other's."""

    host: str
    pid: int

    def __str__(self) -> str:
        return f"hsm-tui process {self.pid} on {self.host}"

    @property
    def running(self) -> bool | None:
        """Whether it still runs (None: on another host, which cannot be asked)."""
        if self.host != socket.gethostname():
            return None
        return atomic.running(self.pid)


def me() -> Writer:
    """This process as an autosave's writer."""
    return Writer(socket.gethostname(), os.getpid())


def path_for(
    file: Path | None, stamp: str, saves: Path | None = None, writer: Writer | None = None
) -> Path:
    """The autosave ``writer`` (this process unless named) makes of the campaign ``file``
    (None: not saved yet, named by ``stamp``)."""
    who = writer or me()
    mark = f"{MARK}{who.host}{MARK}{who.pid}{store.SUFFIX}"
    if file is not None:
        return file.parent / FOLDER / f"{file.name}{mark}"
    return (saves or store.saves_folder()) / FOLDER / f"{UNNAMED}{stamp}{mark}"


def _split(auto: Path) -> tuple[str, Writer | None]:
    """An autosave's name without its writer, and the writer (None: an autosave of an
    older hsm-tui, named as its campaign file)."""
    parts = auto.name.removesuffix(store.SUFFIX).rsplit(MARK, 2)
    if len(parts) == 3 and parts[2].isdigit() and auto.name.endswith(store.SUFFIX):
        return parts[0], Writer(parts[1], int(parts[2]))
    return auto.name, None


def writer_of(auto: Path) -> Writer | None:
    """The hsm-tui that wrote ``auto`` (None: one of an older hsm-tui, which did not say)."""
    return _split(auto)[1]


def stamp_of(auto: Path) -> str:
    """The stamp an unnamed session's autosave is named by."""
    return _split(auto)[0].removeprefix(UNNAMED).removesuffix(store.SUFFIX)


def campaign_of(auto: Path) -> Path | None:
    """The campaign file an autosave belongs to (None: an unnamed session's)."""
    name = _split(auto)[0]
    if name.startswith(UNNAMED):
        return None
    return auto.parent.parent / name


def write(frozen: SessionData, path: Path, now: datetime | None = None) -> None:
    """Write the autosave (any thread: ``frozen`` is immutable); CampaignFileError."""
    store.write(store.encode(lambda: session_data(frozen), path, now), path, backups=False)


def newer(auto: Path) -> bool:
    """Whether the autosave ``auto`` holds play its campaign file does not: it exists
    and is newer than the file (or the file is gone, or there never was one).
    """
    mine = store.mtime(auto)
    if mine is None:
        return False
    campaign = campaign_of(auto)
    theirs = store.mtime(campaign) if campaign is not None else None
    return theirs is None or mine > theirs


def left(auto: Path) -> bool:
    """Whether ``auto`` was left by an hsm-tui that no longer runs (or may not: one on
    another host, one of an older hsm-tui), not this process's own."""
    writer = writer_of(auto)
    return writer is None or (writer != me() and writer.running is not True)


def recoverable(saves: Path | None = None, file: Path | None = None) -> list[Path]:
    """The autosaves newer than their campaign file that an hsm-tui no longer running
    left, newest first: those of the campaign ``file``, or (None) any in the saves folder.
    """
    if file is not None:
        folder = file.parent / FOLDER
        pattern = f"{atomic.glob_escape(file.name)}*"
    else:
        folder = (saves or store.saves_folder()) / FOLDER
        pattern = f"*{store.SUFFIX}"
    try:
        found = list(folder.glob(pattern))
    except OSError:
        return []
    if file is not None:
        found = [p for p in found if campaign_of(p) == file.parent / file.name]
    found = [p for p in found if p.name.endswith(store.SUFFIX) and newer(p) and left(p)]
    return sorted(found, key=lambda p: store.mtime(p) or 0.0, reverse=True)


def discard(auto: Path) -> Path:
    """Set the autosave aside as ``<name>.discarded`` (kept, never offered again)."""
    kept = auto.with_name(auto.name + DISCARDED)
    move_into_place(auto, kept)
    return kept


def remove(auto: Path | None) -> None:
    """Remove an autosave whose play a normal save now holds."""
    if auto is not None:
        auto.unlink(missing_ok=True)


class Timer(Protocol):
    """A callback to come, which :meth:`stop` cancels."""

    def stop(self) -> Any: ...


class Host(Protocol):
    """Where an autosave runs: the GM's app (a Textual App is one as it is), or
    ``hsm serve --headless``'s loop. Its timers and messages are the host's thread's.
    """

    session: Session

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...

    def notify(self, message: str, *, title: str = "", severity: str = "information") -> Any: ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...


class Autosaver:
    """A session's autosave: debounced writes on one worker thread, and their file."""

    def __init__(self, host: Host, delay: float | None = None) -> None:
        self.host = host
        self.delay = DELAY if delay is None else delay
        self.stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        """Names an unnamed session's autosave (``unnamed-<stamp>.toml``)."""
        self.current: Path | None = None
        """The autosave this session last wrote (or recovered from)."""
        self._timer: Timer | None = None
        self._generation = 0
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")

    def changed(self, _event: object = None) -> None:
        """The session changed: write it within :attr:`delay` unless it is saved."""
        if self._timer is None and self.host.session.unsaved:
            self._timer = self.host.set_timer(self.delay, self.write_now)

    def write_now(self) -> None:
        """Take the session's state (cheap, here) and write it on the worker thread."""
        self._timer = None
        session = self.host.session
        if not session.unsaved:
            return
        path = path_for(session.file, self.stamp)
        if self.current is not None and self.current != path:
            remove(self.current)  # saved as another name since: the old one goes
        self.current = path
        self._pool.submit(self._write, session.frozen(), path, self._generation)

    def _write(self, frozen: SessionData, path: Path, generation: int) -> None:
        try:
            write(frozen, path)
        except store.CampaignFileError as err:
            host = self.host
            host.call_from_thread(host.notify, str(err), title="Autosave", severity="error")
            return
        if generation != self._generation:  # a save came while this was writing
            remove(path)

    def _forget(self) -> Path | None:
        """Drop the write to come and any under way; the answer is the last autosave."""
        self._generation += 1
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        last, self.current = self.current, None
        return last

    def saved(self, file: Path) -> None:
        """A normal save wrote ``file``: its autosave (and this session's) go."""
        remove(self._forget())
        remove(path_for(file, self.stamp))

    def opened(self) -> None:
        """Another campaign (or a new one) replaced a session whose changes the GM chose
        to lose: its autosave is set aside (``.discarded``), and a new one begins.
        """
        last = self._forget()
        if last is not None and last.exists():
            discard(last)
        self.stamp = datetime.now().strftime("%Y%m%d-%H%M%S")

    def close(self) -> None:
        """Let a write under way finish (the host is stopping)."""
        self._pool.shutdown(wait=True)
