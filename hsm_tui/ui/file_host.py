"""What the campaign-file helpers (``files``, ``campaign_lock``, ``autosave``) use of the
GM's app: the app is passed in, and they name only this, so none imports the app that
imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from ..table.session import Session


class AutosaveOffers(Protocol):
    """The app's autosaver as the file helpers tell it what happened to the campaign."""

    def saved(self, file: Path) -> None: ...

    def opened(self) -> None: ...

    def offer(self, auto: Path, discarded: Callable[[], None] = ...) -> None: ...


class FileHost(Protocol):
    """The GM's app: the session it holds, the campaign it has locked (or opened
    read-only), whether it guards its files at all, and how it tells and asks the GM."""

    guard: bool
    locked: Path | None
    read_only: Path | None
    autosaver: AutosaveOffers | None

    @property
    def session(self) -> Session: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def push_screen(
        self, screen: Screen[Any], callback: Callable[[Any], None] | None = None
    ) -> Any: ...
