"""One screen per module; what they share."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.markup import escape
from textual.message import Message
from textual.screen import Screen

from ..widgets.repaint import retitle
from ..widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from ...campaign.combat import Option, PendingChartChoice, PendingCombatRerolls
    from ...table.seated import SeatedSession
    from ...table.session import Command, Event, LogEntry, Session
    from ...table.state import Decision


def set_border_titles(screen: Screen, titles: dict[str, str]) -> None:
    """Border titles by selector (Textual sets border titles in code, not in CSS)."""
    for selector, title in titles.items():
        screen.query_one(selector).border_title = title


def words(name: str) -> str:
    """``SpendCombatRerolls`` → ``spend combat rerolls``: a class's name for a GM (an
    undone command, a screen's actions in the palette).
    """
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def _amended(before: Sequence[LogEntry], after: Sequence[LogEntry], command: Command) -> str:
    """What a step that added no log entry did: re-rolls amend the entry of their roll."""
    altered = [a for a, b in zip(after, before, strict=False) if a != b]
    if altered:
        return f"the re-rolls on {altered[-1].gm_title}"
    return words(type(command).__name__)


class SessionReady(Message):
    """The app built its Session after the first frame; a screen drawn before can fill in."""


class FollowsSession:
    """What every view of the session shares: reading it and following its changes."""

    @property
    def session(self) -> Session:
        return self.app.session  # type: ignore[attr-defined]

    @property
    def table(self) -> SeatedSession:
        """The app's seat-bound handle: what a screen sends goes out as its seat's."""
        return self.app.table  # type: ignore[attr-defined]

    def follow_session(self, refresh: Callable[[], None]) -> None:
        """Run ``refresh`` after every session change until this screen unmounts.

        Run in this screen's own app: with two views of one session (the GM's, a
        player's over SSH) a change made in one app notifies all of them, and Textual's
        ``self.app`` is the app in whose context code runs, so the other views refresh
        from their own message queues rather than inside the issuing app, coalesced:
        however many changes arrive before it runs, one refresh is pending per view.
        Screens of other modes stay mounted but hidden; they refresh once when shown again.
        """
        own = self.app
        self._stale_refresh: Callable[[], None] | None = None
        self._refresh_pending = False

        def scheduled() -> None:
            self._refresh_pending = False
            refresh()

        def changed(_event: Event) -> None:
            if self not in own.screen_stack:  # another mode's screen: catch up when shown
                self._stale_refresh = refresh
            elif self.app is own:
                refresh()
            elif not self._refresh_pending:
                self._refresh_pending = True
                self.call_later(scheduled)

        self._unfollow = self.table.subscribe(changed)

    def on_screen_resume(self) -> None:
        """A screen of another mode was not redrawn while hidden: one refresh now."""
        stale, self._stale_refresh = getattr(self, "_stale_refresh", None), None
        if stale is not None:
            stale()

    def on_unmount(self) -> None:
        unfollow = getattr(self, "_unfollow", None)
        if unfollow is not None:
            unfollow()


class SessionScreen(FollowsSession, Screen[None]):
    """A screen that reads the app's Session and sends it commands: a refusal becomes a
    notification (never a crash), and ``u``/``y`` undo and redo with the dice.
    """

    def _apply(self, command: Command, answering: Decision | None = None) -> bool:
        """Send ``command`` (the answer to ``answering``, a waiting question)."""
        # the engine loads after the first frame
        from ...rules.errors import DecisionPending, RulesError

        try:
            self.table.apply(command, answering)
        except RulesError as err:
            where = self._where_to_answer() if isinstance(err, DecisionPending) else ""
            self.app.clear_notifications()  # one refusal at a time: a stack hid the screen
            self.notify(f"{err}{where}", title="Refused", severity="error")
            return False
        self.after_apply()
        return True

    def _where_to_answer(self) -> str:
        """Where the question that blocks every other command is answered: it may have
        been asked on another screen, or its dialog closed with Esc.
        """
        from ...campaign.freeflow import PendingRerolls

        pending = self.session.pending
        if pending is None:
            return ""
        if isinstance(pending, PendingRerolls):
            return " (F2, then e re-rolls or k keeps it)"
        return " (F4, then o answers it)"

    UNSAVED_PANEL: ClassVar[str] = ""
    """The panel whose border says "unsaved" too (F4, F7: their title bar folds away at
    24 rows); "" for a screen whose title bar always shows."""

    def follow_session(self, refresh: Callable[[], None]) -> None:
        """As :meth:`FollowsSession.follow_session`; the unsaved mark follows too."""

        def refreshed() -> None:
            refresh()
            self.show_unsaved()

        super().follow_session(refreshed)

    def on_mount(self) -> None:
        """After the screen's own mount (Textual runs the base class's handler last)."""
        self.show_unsaved()

    def on_screen_resume(self) -> None:
        self.show_unsaved()  # saved or changed on another screen meanwhile

    def show_subtitle(self, text: str) -> None:
        """The screen's subtitle (the round and whose turn, the campaign …); the unsaved
        mark is added after it (:meth:`show_unsaved`)."""
        self._subtitle = text
        self.show_unsaved()

    def show_unsaved(self) -> None:
        """The one place every GM screen says `` · unsaved`` after its subtitle while the
        campaign has changes not in its file (and in :attr:`UNSAVED_PANEL`'s border).
        Set quietly, the title bar alone redrawn: setting ``sub_title`` repaints the whole
        screen (a full frame, ~10 KB to an SSH terminal, each turn).
        """
        if not getattr(self.app, "has_session", True):
            return  # home's first frame comes before the session (app.on_ready)
        unsaved = self.session.unsaved
        subtitle = getattr(self, "_subtitle", None) or self.app.sub_title
        text = subtitle + (" · unsaved" if unsaved else "")
        if text != self.sub_title:
            self.set_reactive(Screen.sub_title, text)
            for bar in self.query(TitleBar):
                bar.show()
        if self.UNSAVED_PANEL:
            retitle(self.query_one(self.UNSAVED_PANEL), subtitle="unsaved" if unsaved else "")

    def after_apply(self) -> None:
        """A screen's follow-up once a command went through (e.g. ask a pending question)."""

    def choose(
        self,
        title: str,
        question: str,
        options: Sequence[Option],
        reopen: str = "",
        answers: Decision | None = None,
    ) -> None:
        """A menu on the decision dialog: the option picked is applied (Esc picks none);
        ``answers``: the waiting question it answers, if it answers one."""
        from .decision_dialog import DecisionDialog

        dialog = DecisionDialog(title, question, options, reopen=reopen, answers=answers)
        self.app.push_screen(dialog, lambda command: self.apply_answer(command, answers))

    def apply_answer(self, command: Command | None, answering: Decision | None = None) -> bool:
        """A dialog's answer: its command, or None when the GM backed out (Esc)."""
        return command is not None and self._apply(command, answering)

    def severe_wound_question(self) -> PendingChartChoice | PendingCombatRerolls | None:
        """What a severe wound waits on, if the session waits on one: a Hero's re-rolls on
        the grip roll (R-TASK-6, R-WOUND-5) or the §7 erratum's pick on a 13."""
        from ...campaign.combat import PendingChartChoice, PendingCombatRerolls
        from ...campaign.combat.outcome import RollStage

        pending = self.session.pending
        if isinstance(pending, PendingChartChoice) or (
            isinstance(pending, PendingCombatRerolls) and pending.stage is RollStage.GRIP
        ):
            return pending
        return None

    def ask_severe_wound(self, reopen: str) -> None:
        """Ask :meth:`severe_wound_question` in its dialog: the re-rolls first, then the
        chart's pick; Esc leaves it waiting (``reopen`` asks again).
        """
        from ...campaign.combat import PendingChartChoice
        from .combat_dialogs import pending_dialog

        pending = self.severe_wound_question()
        if isinstance(pending, PendingChartChoice):
            title = "Severe Wound chart: 13"
            self.choose(title, pending.question, pending.options, reopen, answers=pending)
        elif pending is not None:
            dialog, command_of = pending_dialog(pending, reopen)

            def answer(value: object) -> None:
                command = command_of(value)
                if command is not None and self._apply(command, pending):
                    self.ask_severe_wound(reopen)  # the chart may land on a 13 next

            self.app.push_screen(dialog, answer)

    def action_undo(self) -> None:
        self._history(self.table.undo, "Undone")

    def action_redo(self) -> None:
        self._history(self.table.redo, "Redone")

    def _history(self, step: Callable[[], Command], verb: str) -> None:
        from ...rules.errors import RulesError

        before = self.session.log
        self.before_history()
        try:
            command = step()
        except RulesError as err:
            self.notify(str(err))
            return
        after = self.session.log
        changed = before[len(after) :] if len(before) > len(after) else after[len(before) :]
        what = changed[0].gm_title if changed else _amended(before, after, command)
        more = f" (+{len(changed) - 1} more log entries)" if len(changed) > 1 else ""
        self.app.clear_notifications()  # one message per step, not a growing stack of them
        self.notify(f"{verb}: {escape(what)}{more}")  # a title may hold a player's words

    def before_history(self) -> None:
        """A screen's own reset before undo/redo, so the redraw the session's change
        notice brings is the only one (a second full redraw cost ~10 ms at 120×40).
        """
