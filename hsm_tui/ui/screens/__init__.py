"""One screen per module; helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.screen import Screen

from ...rules import RulesError

if TYPE_CHECKING:
    from ...session import Command


def set_border_titles(screen: Screen, titles: dict[str, str]) -> None:
    """Border titles by selector (Textual sets border titles in code, not in CSS)."""
    for selector, title in titles.items():
        screen.query_one(selector).border_title = title


class UndoRedo:
    """``u``/``y`` on a screen: undo or redo the last command (dice included) and say which."""

    def action_undo(self) -> None:
        self._history(self.app.session.undo, "Undone")  # type: ignore[attr-defined]

    def action_redo(self) -> None:
        self._history(self.app.session.redo, "Redone")  # type: ignore[attr-defined]

    def _history(self, step: Callable[[], Command], verb: str) -> None:
        try:
            command = step()
        except RulesError as err:
            self.notify(str(err))  # type: ignore[attr-defined]
            return
        self.after_history()
        self.notify(f"{verb}: {type(command).__name__}")  # type: ignore[attr-defined]

    def after_history(self) -> None:
        """A screen's own reset after undo/redo (the session has notified already)."""
