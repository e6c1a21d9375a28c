"""Autosave in the app: after a change the session is written to its autosave file at
most ``DELAY`` seconds later, on a worker thread, so a key press never waits for it (the
host-independent :class:`~hsm_tui.persistence.autosave.Autosaver`, which ``hsm serve
--headless`` runs too); a normal save removes the autosave. On start and on ``O``, an
autosave newer than its campaign file is offered: recover it or discard it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..campaign.combat import Option
from ..persistence import autosave, store
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
