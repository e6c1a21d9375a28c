"""Autosave in the app: after a change the session is written to its autosave file
(``persistence/autosave.py``) at most :data:`DELAY` seconds later, on a worker thread, so
a key press never waits for it; a normal save removes the autosave. On start and on
``O``, an autosave newer than its campaign file is offered: recover it or discard it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..campaign.combat import Option
from ..persistence import autosave, store
from .campaign_lock import claim
from .screens.decision_dialog import DecisionDialog

if TYPE_CHECKING:
    from textual.timer import Timer

    from ..persistence.snapshot import SessionData
    from ..session import Session
    from .app import HsmApp

DELAY = 1.0
"""Seconds from a change to its autosave (changes meanwhile go in the same write)."""


class Host(Protocol):
    """Where an autosave runs: the GM's app, or ``hsm serve --headless``'s loop."""

    session: Session

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Any: ...

    def notify(self, message: str, *, title: str = "", severity: str = "information") -> Any: ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...


class Autosaver:
    """A session's autosave: debounced writes on one worker thread, and their file."""

    def __init__(self, app: Host, delay: float | None = None) -> None:
        self.app = app
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
        if self._timer is None and self.app.session.unsaved:
            self._timer = self.app.set_timer(self.delay, self.write_now)

    def write_now(self) -> None:
        """Take the session's state (cheap, here) and write it on the worker thread."""
        self._timer = None
        session = self.app.session
        if not session.unsaved:
            return
        path = autosave.path_for(session.file, self.stamp)
        if self.current is not None and self.current != path:
            autosave.remove(self.current)  # saved as another name since: the old one goes
        self.current = path
        self._pool.submit(self._write, session.frozen(), path, self._generation)

    def _write(self, frozen: SessionData, path: Path, generation: int) -> None:
        try:
            autosave.write(frozen, path)
        except store.CampaignFileError as err:
            self.app.call_from_thread(self.app.notify, str(err), title="Autosave", severity="error")
            return
        if generation != self._generation:  # a save came while this was writing
            autosave.remove(path)

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
        autosave.remove(self._forget())
        autosave.remove(autosave.path_for(file, self.stamp))

    def opened(self) -> None:
        """Another campaign (or a new one) replaced a session whose changes the GM chose
        to lose: its autosave is set aside (``.discarded``), and a new one begins.
        """
        last = self._forget()
        if last is not None and last.exists():
            autosave.discard(last)
        self.stamp = datetime.now().strftime("%Y%m%d-%H%M%S")

    def close(self) -> None:
        """Let a write under way finish (the app is quitting)."""
        self._pool.shutdown(wait=True)


class AppAutosaver(Autosaver):
    """The GM's app's autosave, which also offers an autosave to recover."""

    app: HsmApp

    def offer(self, auto: Path, discarded: Callable[[], None] = lambda: None) -> None:
        """Ask the GM: recover the autosave ``auto``, or discard it (kept aside) and run
        ``discarded`` (Esc: neither; it stays and is offered again next time).
        """
        campaign = autosave.campaign_of(auto)
        what = campaign.name if campaign is not None else "a campaign never saved"
        when = datetime.fromtimestamp(auto.stat().st_mtime).strftime("%Y-%m-%d %H:%M:%S")
        question = (
            f"An autosave of {what} from {when} holds play its file does not"
            " (hsm-tui stopped before a save)."
        )
        options = [
            Option("r", "recover it: go on from the autosave", "recover"),
            Option("d", f"discard it (kept as {auto.name}{autosave.DISCARDED})", "discard"),
        ]

        def answered(answer: object) -> None:
            if answer == "recover":
                self.recover(auto)
            elif answer == "discard":
                autosave.discard(auto)
                self.app.notify(f"Autosave set aside as {auto.name}{autosave.DISCARDED}")
                discarded()

        self.app.push_screen(DecisionDialog("Recover an autosave?", question, options), answered)

    def recover(self, auto: Path) -> None:
        """Go on from the autosave: its campaign file stays the session's file, unsaved."""
        session = self.app.session
        before, session.file = session.file, autosave.campaign_of(auto)  # shown on load
        try:
            answer = store.load(session, auto, mark=False)
        except store.CampaignFileError as err:
            session.file = before
            self.app.notify(str(err), title="Cannot recover", severity="error", timeout=10)
            return
        self._forget()
        if session.file is not None:
            claim(self.app, session.file)
        self.current = auto
        if session.file is None:
            self.stamp = auto.stem.removeprefix(autosave.UNNAMED)
        self.app.notify(f"Recovered {session.campaign.name} from {auto}: {answer}; S saves it")
        self.changed()
