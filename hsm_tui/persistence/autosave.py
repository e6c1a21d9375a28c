"""Autosave files: the session written beside its campaign after every change (debounced
by :class:`Autosaver`, in the GM's app or ``hsm serve --headless``), so a crash, a closed
terminal or a dropped SSH connection loses at most the last two seconds of play.

``<folder>/.autosave/<name>.toml`` for the campaign file ``<folder>/<name>.toml``, or
``<saves>/.autosave/unnamed-<stamp>.toml`` before the campaign's first save. It is a
campaign file like any other (written atomically, without backups), so anything that
opens a campaign opens it. One that is newer than its campaign file is offered for
recovery; discarding it keeps it as ``<name>.toml.discarded``; a normal save removes it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from . import store
from .atomic import move_into_place
from .snapshot import SessionData, session_data

if TYPE_CHECKING:
    from ..table.session import Session

FOLDER = ".autosave"
UNNAMED = "unnamed-"
DISCARDED = ".discarded"
DELAY = 1.0
"""Seconds from a change to its autosave (changes meanwhile go in the same write)."""


def path_for(file: Path | None, stamp: str, saves: Path | None = None) -> Path:
    """The autosave of the campaign ``file`` (None: not saved yet, named by ``stamp``)."""
    if file is not None:
        return file.parent / FOLDER / file.name
    return (saves or store.saves_folder()) / FOLDER / f"{UNNAMED}{stamp}{store.SUFFIX}"


def campaign_of(auto: Path) -> Path | None:
    """The campaign file an autosave belongs to (None: an unnamed session's)."""
    if auto.name.startswith(UNNAMED):
        return None
    return auto.parent.parent / auto.name


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


def recoverable(saves: Path | None = None) -> list[Path]:
    """The autosaves in the saves folder newer than their campaign file, newest first."""
    folder = (saves or store.saves_folder()) / FOLDER
    try:
        found = [p for p in folder.glob(f"*{store.SUFFIX}") if newer(p)]
    except OSError:
        return []
    return sorted(found, key=lambda p: store.mtime(p) or 0.0, reverse=True)


def discard(auto: Path) -> Path:
    """Set the autosave aside as ``<name>.toml.discarded`` (kept, never offered again)."""
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
