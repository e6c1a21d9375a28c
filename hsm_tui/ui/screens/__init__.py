"""One screen per module; what they share."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.screen import Screen

from ...rules import RulesError

if TYPE_CHECKING:
    from ...session import Command, Session


def set_border_titles(screen: Screen, titles: dict[str, str]) -> None:
    """Border titles by selector (Textual sets border titles in code, not in CSS)."""
    for selector, title in titles.items():
        screen.query_one(selector).border_title = title


class SessionScreen(Screen[None]):
    """A screen that reads the app's Session and sends it commands: a refusal becomes a
    notification (never a crash), and ``u``/``y`` undo and redo with the dice.
    """

    @property
    def session(self) -> Session:
        return self.app.session  # type: ignore[attr-defined]

    def _apply(self, command: Command) -> bool:
        try:
            self.session.apply(command)
        except RulesError as err:
            self.notify(str(err), title="Refused", severity="error")
            return False
        self.after_apply()
        return True

    def after_apply(self) -> None:
        """A screen's follow-up once a command went through (e.g. ask a pending question)."""

    def action_undo(self) -> None:
        self._history(self.session.undo, "Undone")

    def action_redo(self) -> None:
        self._history(self.session.redo, "Redone")

    def _history(self, step: Callable[[], Command], verb: str) -> None:
        try:
            command = step()
        except RulesError as err:
            self.notify(str(err))
            return
        self.after_history()
        self.notify(f"{verb}: {type(command).__name__}")

    def after_history(self) -> None:
        """A screen's own reset after undo/redo (the session has notified already)."""
