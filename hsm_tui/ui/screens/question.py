"""A dialog opened for one waiting question (a re-roll, a dive, the chart's pick): it
answers that question and no other. It closes by itself once the question no longer
waits (answered at another seat, undone, set aside for another seat's roll), and it takes
no key typed before it opened: a second Enter after a roll, or the Enter that opened it
in a burst of typing over SSH, was meant for what was on screen then.
"""

from __future__ import annotations

from typing import Any

from textual import events

from . import FollowsSession


class AnswersQuestion(FollowsSession):
    """Mixed into a modal screen with ``answers``: the session's decision it answers, or
    None for a plain menu (which does not close by itself)."""

    answers: Any = None
    _opened = float("inf")  # no key counts until the dialog is mounted

    def on_mount(self, event: events.Mount) -> None:
        self._opened = event.time
        if self.answers is not None:
            self.follow_session(self._check_question)

    def on_key(self, event: events.Key) -> None:
        """A key from before the dialog opened goes nowhere (the bindings never see it)."""
        if self.answers is not None and event.time < self._opened:
            event.stop()
            event.prevent_default()

    def on_screen_resume(self) -> None:
        """Back on top (help closed over it): the question may have gone meanwhile."""
        super().on_screen_resume()
        if self.answers is not None:
            self._check_question()

    def _check_question(self) -> None:
        if not self.table.session.still_asks(self.answers) and self.is_current:  # type: ignore[attr-defined]
            self.notify("That question no longer waits: it was answered or undone")
            self.dismiss(None)  # type: ignore[attr-defined]
