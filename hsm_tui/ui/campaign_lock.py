"""The campaign lock in the app (``persistence/lock.py``): the campaign open here is
held; one another hsm-tui holds is offered read-only (S then saves under another name)
or taken over (the other one's saves are refused from then on).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..campaign.combat import Option
from ..persistence import lock
from .screens.decision_dialog import DecisionDialog

if TYPE_CHECKING:
    from .file_host import FileHost


def claim(app: FileHost, path: Path, then: Callable[[], None] = lambda: None) -> None:
    """Hold ``path`` for this app (letting go of the one held before); if another
    hsm-tui holds it, ask: read-only (also on Esc) or take over. ``then`` runs once that
    is settled (after the answer, when asked): a question it asks never stacks on this
    one, where one key would answer the question hidden under it.
    """
    let_go(app)
    try:
        lock.acquire(path)
    except lock.Locked as held:
        _ask(app, path, held, then)
        return
    except OSError as err:  # a folder it cannot write in: say so, play on
        app.notify(f"{path} is not locked: {err.strerror or err}", severity="warning")
    else:
        app.locked = path
    then()


def _ask(app: FileHost, path: Path, held: lock.Locked, then: Callable[[], None]) -> None:
    app.read_only = path
    options = [
        Option("r", "read-only: S saves under another name", "read"),
        Option("t", "take over: saves from the other one are refused from now on", "take"),
    ]

    def answered(answer: object) -> None:
        if answer == "take":
            lock.acquire(path, take_over=True)
            app.locked, app.read_only = path, None
            app.notify(f"You hold {path.name} now", title="Campaign")
        else:
            app.notify(f"{path.name} is open read-only: S saves it under another name")
        then()

    app.push_screen(DecisionDialog("Campaign in use", f"{held}.", options), answered)


def let_go(app: FileHost) -> None:
    """Release the campaign this app holds (another opened, a new one, quitting)."""
    if app.locked is not None:
        lock.release(app.locked)
    app.locked = app.read_only = None
