"""Autosave in the app: after a change the session is written to its autosave file at
most ``DELAY`` seconds later, on a worker thread, so a key press never waits for it (the
host-independent :class:`~hsm_tui.persistence.autosave.Autosaver`, which ``hsm serve
--headless`` runs too); a normal save removes the autosave. On start and on ``O``, a save
that did not finish moving into place, or an autosave newer than its campaign file, is
offered: recover it or discard it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..campaign.combat import Option
from ..persistence import autosave, store, unfinished
from ..persistence.autosave import Autosaver
from .campaign_lock import claim
from .screens.decision_dialog import DecisionDialog

if TYPE_CHECKING:
    from .file_host import FileHost


class AppAutosaver(Autosaver):
    """The GM's app's autosave, which also offers an autosave to recover."""

    def __init__(self, app: FileHost) -> None:
        super().__init__(app)
        self.app = app

    def offer(self, auto: Path, discarded: Callable[[], None] = lambda: None) -> None:
        """Ask the GM: recover ``auto`` (an autosave, or a save that did not finish moving
        into place), or discard it (kept aside) and run ``discarded`` (Esc: neither; it
        stays and is offered again next time).
        """
        cut = unfinished.campaign_of(auto) is not None
        campaign = _campaign_of(auto)
        what = campaign.name if campaign is not None else "a campaign never saved"
        when = datetime.fromtimestamp(auto.stat().st_mtime).strftime("%Y-%m-%d %H:%M:%S")
        if cut:
            title = "Recover an unfinished save?"
            question = (
                f"A save of {what} from {when} did not finish moving into place (hsm-tui or"
                " the machine stopped during the save); it holds play the file does not."
            )
            aside = auto.name.lstrip(".") + unfinished.DISCARDED
        else:
            title = "Recover an autosave?"
            question = (
                f"An autosave of {what} from {when} holds play its file does not ({_why(auto)})."
            )
            aside = auto.name + autosave.DISCARDED
        options = [
            Option("r", "recover it: go on from there", "recover"),
            Option("d", f"discard it (kept as {aside})", "discard"),
        ]

        def answered(answer: object) -> None:
            if answer == "recover":
                self.recover(auto)
            elif answer == "discard":
                (unfinished.discard if cut else autosave.discard)(auto)
                self.app.notify(f"Set aside as {aside}")
                discarded()

        self.app.push_screen(DecisionDialog(title, question, options), answered)

    def recover(self, auto: Path) -> None:
        """Go on from ``auto``: its campaign file stays the session's file, unsaved."""
        session = self.app.session
        before, session.file = session.file, _campaign_of(auto)  # shown on load
        try:
            answer = store.load(session, auto, mark=False)
        except store.CampaignFileError as err:
            session.file = before
            self.app.notify(str(err), title="Cannot recover", severity="error", timeout=10)
            return
        self._forget()
        if session.file is not None:
            claim(self.app, session.file)
        self.current = None if unfinished.campaign_of(auto) else auto  # a save removes it
        if session.file is None:
            self.stamp = autosave.stamp_of(auto)
        self.app.notify(f"Recovered {session.campaign.name} from {auto}: {answer}; S saves it")
        self.changed()


def recovery_for(file: Path | None) -> Path | None:
    """What to offer on opening ``file`` (None: starting with no campaign): a save of it
    that did not finish moving into place, else its autosave when that holds play the
    file does not, else (no file) the newest autosave of any campaign.
    """
    if file is not None and (cut := unfinished.found(file)):
        return cut[0]
    offered = autosave.recoverable(file=file)
    return offered[0] if offered else None


def _why(auto: Path) -> str:
    """Who left the autosave, as far as this host can tell (never "stopped" of a process
    still running: those are not offered, and one on another host may be)."""
    writer = autosave.writer_of(auto)
    if writer is None:
        return "hsm-tui stopped before a save"
    if writer.running is None:
        return f"written by {writer}, which may still be running there"
    return f"{writer} stopped before a save"


def _campaign_of(auto: Path) -> Path | None:
    return unfinished.campaign_of(auto) or autosave.campaign_of(auto)
