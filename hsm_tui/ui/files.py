"""Campaign files from the app: save (naming the campaign the first time), save as,
open one of the recent campaigns, start a new one, and the question before any of them
would lose unsaved changes. Home's S / O / C keys, the palette and quit come here.

The file work itself is :mod:`hsm_tui.persistence.store`; a file that cannot be written or read
is a notification naming the file and what is wrong, and the session is left as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..campaign.combat import Option
from ..campaign.party import Campaign
from ..persistence import store
from ..rules.errors import RulesError
from .autosave import recovery_for
from .campaign_lock import claim, let_go
from .screens.decision_dialog import DecisionDialog
from .screens.name_dialog import NameDialog
from .screens.picker import PickerScreen

if TYPE_CHECKING:
    from pathlib import Path

    from .file_host import FileHost

Then = Callable[[], None]


def save(app: FileHost, then: Then | None = None, *, ask: bool = False) -> None:
    """Save to the session's file; the first time (or ``ask``: save as) ask the name."""
    session = app.session
    if app.read_only is not None and session.file is not None and not ask:
        app.notify(f"{session.file} is open read-only: save it under another name")
        ask = True
    if session.file is not None and not ask:
        _write(app, session.file, then)
        return
    folder = session.file.parent if session.file is not None else store.saves_folder()

    def named(name: str | None) -> None:
        if name is None:
            return
        path = folder / store.file_name(name)
        mine = session.file is not None and path.resolve() == session.file.resolve()
        if path.exists() and not mine:
            replace = Option("o", f"overwrite {path}", "overwrite")
            question = f"{path} already holds a campaign. Overwrite it?"
            app.push_screen(
                DecisionDialog("Overwrite?", question, [replace]),
                lambda answer: _write(app, path, then, name) if answer == "overwrite" else None,
            )
            return
        _write(app, path, then, name)

    title = "Save campaign as" if session.file is not None else "Name this campaign to save it"
    name = "" if session.campaign.name == Campaign().name else session.campaign.name
    app.push_screen(NameDialog(title, name, str(folder)), named)


def _write(app: FileHost, path: Path, then: Then | None, name: str | None = None) -> None:
    """Write the file, renaming the campaign first when ``name`` is new; a failed write
    gives the old name back, so nothing changed but the message.
    """
    session = app.session
    old_name = session.campaign.name
    try:
        if name is not None and name != old_name:
            session.rename(name)
        store.save(session, path)
    except (RulesError, store.CampaignFileError) as err:
        if session.campaign.name != old_name:
            session.rename(old_name)
        app.notify(str(err), title="Not saved", severity="error", timeout=10)
        return
    if app.autosaver is not None:
        app.autosaver.saved(path)
    if app.guard and (app.locked is None or app.locked.resolve() != path.resolve()):
        claim(app, path)
    app.notify(f"Saved {session.campaign.name} to {path}", title="Campaign")
    if then is not None:
        then()


def keep_or_lose(
    app: FileHost,
    title: str,
    then: Then,
    lose: tuple[str, str] = ("d", "go on and lose the unsaved changes"),
) -> None:
    """Run ``then`` at once when nothing is unsaved; otherwise ask: save first (``s``),
    or go on without saving (``lose``: its key and label).
    """
    session = app.session
    if not session.unsaved:
        then()
        return
    first = Option("s", "save first, then go on", "save")
    lose_option = Option(*lose, "lose")
    question = f"{session.campaign.name} has changes that are not saved."

    def answered(answer: object) -> None:
        if answer == "save":
            save(app, then)
        elif answer == "lose":
            then()

    app.push_screen(DecisionDialog(title, question, [first, lose_option]), answered)


def open_recent(app: FileHost) -> None:
    """Pick a saved campaign (newest first) and open it, asking first if needed."""
    keep_or_lose(app, "Open a campaign", lambda: _pick(app))


def _pick(app: FileHost) -> None:
    folder = store.saves_folder()
    entries = store.recent(folder)
    if not entries:
        app.notify(f"No campaign saved in {folder}/ yet: S on home saves one", title="Open")
        return
    choices = [(_label(e), e) for e in entries]

    def picked(entry: store.SavedCampaign | store.CampaignFileError | None) -> None:
        if isinstance(entry, store.CampaignFileError):
            app.notify(str(entry), title="Cannot open", severity="error", timeout=10)
        elif entry is not None:
            _offer_or_load(app, entry.path)

    app.push_screen(PickerScreen(f"Open a campaign from {folder}/ (newest first)", choices), picked)


def _label(entry: store.SavedCampaign | store.CampaignFileError) -> str:
    if isinstance(entry, store.CampaignFileError):
        return f"⚠ {entry}"
    fight = " · in combat" if entry.in_combat else ""
    party = ", ".join(entry.party) or "no party yet"
    return (
        f"{entry.name} · adventure {entry.adventure}{fight}\n"
        f"  {party}\n  saved {entry.saved.replace('T', ' ')[:16]} · {entry.path.name}"
    )


def _offer_or_load(app: FileHost, path: Path) -> None:
    """Open ``path``, first offering a save of it that did not finish moving into place, or
    its autosave, when that holds play the file does not."""
    auto = recovery_for(path)
    if app.autosaver is not None and auto is not None:
        app.autosaver.offer(auto, lambda: _load(app, path))
        return
    _load(app, path)


def _load(app: FileHost, path: Path) -> None:
    try:
        answer = store.load(app.session, path)
    except store.CampaignFileError as err:
        app.notify(str(err), title="Cannot open", severity="error", timeout=10)
        return  # the session stays, and so does its autosave
    if app.autosaver is not None:
        app.autosaver.opened()  # the session left behind: its autosave is set aside
    if app.guard:
        claim(app, path)
    app.notify(f"Opened {app.session.campaign.name} from {path}: {answer}", title="Campaign")


def new_campaign(app: FileHost) -> None:
    """A fresh campaign (the packs stay loaded), asking first if needed."""

    def fresh() -> None:
        if app.autosaver is not None:
            app.autosaver.opened()
        let_go(app)
        app.session.new_campaign()
        app.notify("New campaign: a adds the party, S saves it", title="Campaign")

    keep_or_lose(app, "New campaign", fresh)
