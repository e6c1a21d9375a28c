"""What the Session gives a campaign file and takes from one: its whole state and undo
history as plain data (``persistence/store.py`` writes and reads the file), the undo steps
a file brought replayed on the first undo that needs them, and ``hsm campaign check``'s
replay of all of them.

A mixin of :class:`~hsm_tui.table.session.Session`, which holds the state it reads.
"""

from __future__ import annotations

import functools
from typing import Any

from ..campaign.missing import missing_entries
from ..persistence import checkpoints, collector, session_file
from ..persistence.lines import Lines
from .history import History
from .seats import only_the_gm
from .state import GM, LogEntry


class SessionFiles:
    """The Session's state and undo history as a file keeps them."""

    def to_data(self) -> dict[str, Any]:
        """The whole session as TOML-ready data: :meth:`frozen`, written out."""
        return session_file.session_data(self.frozen())

    def frozen(self) -> session_file.SessionData:
        """State and undo/redo history as immutable values (cheap; SessionData says how)."""
        start = self._undo.first(self.log) if self._undo else self._snapshot()
        unread = self._unread or session_file.Unread(start, Lines(), start)
        marks = tuple(self._undo.marks(self.log, len(unread.steps), checkpoints.EVERY))
        now, commands, redo = self._snapshot(), self._undo.commands(), list(self._redo)
        return unread.data(self.seed, now, commands, redo, marks)

    def load_data(self, data: dict[str, Any], issuer: str = GM) -> str:
        """Replace the whole session with ``data`` from :meth:`to_data`; views re-render.

        All but the undo steps is read and checked first: bad data raises DataError and
        changes nothing. The steps are replayed on the first undo that needs them
        (:meth:`_replayed`). The answer counts them and names entries the packs lack.
        """
        only_the_gm(issuer, "open a campaign")
        saved = session_file.session_from(data)
        self.seed = saved.seed
        self._restore(saved.now)
        self._undo, self._redo = History(), list(saved.redo)
        self._unread = saved.history()
        self._notify()
        answer = f"undo history of {len(saved.unread)} step(s), checked on the first undo"
        enc, camp = self.encounter, self.campaign
        missing = [] if self.content is None else missing_entries(camp, enc, self.catalog)
        return "; ".join([answer, *missing])

    def _replayed(
        self, unread: session_file.Unread, keep: bool = True
    ) -> tuple[History, tuple[LogEntry, ...]]:
        """The undo steps a file brought, replayed on the packs loaded now, and the log they
        end with (``Unread.replay``: HistoryMisfit if they no longer fit). Unless ``keep``
        (a check), each step is only played, not made undoable, and the log grows in place:
        keeping a step compares the whole log before and after it, and adding an entry to
        a tuple copies the whole log."""
        scratch = type(self)(seed=self.seed, content=self.content)
        scratch._restore(unread.start)
        scratch._checking = not keep
        apply = scratch._apply if keep else scratch._dispatch
        unread.replay(apply, lambda: scratch.log, scratch._snapshot)
        return scratch._undo, tuple(scratch.log)

    def check_history(self, saved: session_file.SessionData) -> None:
        """Replay every undo step of a file read already (``hsm campaign check``) on the
        packs of this session."""
        unread = saved.history()
        if unread is not None:
            with collector.paused():
                unread.check(functools.partial(self._replayed, keep=False))
