"""PlayerApp: the app a player's (or a watcher's) SSH connection runs. It has no GM
screen, no file command and no Session of its own: it reads ``table.view()``, what its
seat may see, and sends what it does through ``table``, which stamps the seat on it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.events import Resize

from ...table.seated import SeatedSession
from ...table.seats import Role
from ...table.session import Event
from ...table.views import TableView
from ..too_small import fit_to_size, keep_to_size
from .table import TableScreen, WatchScreen


class PlayerApp(App[None]):
    """One player's (or watcher's) view of the shared table."""

    CSS_PATH = Path(__file__).parent / "player.tcss"
    TITLE = "hsm-tui"
    ENABLE_COMMAND_PALETTE = False  # the palette would list system commands a player lacks
    BINDINGS = [Binding("q", "quit", "Leave", id="player.quit")]
    """q leaves the table (the game goes on; ssh back in, or Rejoin in the browser)."""

    def __init__(
        self,
        table: SeatedSession,
        missed: int = 0,
        on_leave: Callable[[int], None] | None = None,
    ) -> None:
        """``missed``: how many log entries came while this player was away; ``on_leave``
        hears the number of the last entry the player could read when the app ends.
        """
        super().__init__()
        self.table = table
        self.missed = missed
        self._on_leave = on_leave
        self._heard_seq = -1  # the last change heard: the view is worked out once per change
        self._view: tuple[int, TableView] | None = None
        self._mine = (False, False, False, False)  # its turn, question, roll asked, draft
        self._bell_pending = False
        self._unsubscribe = table.subscribe(self._heard)

    @property
    def seat_view(self) -> TableView:
        """What this seat may see now (the one source of every player screen), worked
        out once per change: the bell and every screen of this app read the same one.
        """
        if self._view is None or self._view[0] != self._heard_seq:
            self._view = (self._heard_seq, self.table.view())
        return self._view[1]

    def on_mount(self) -> None:
        self._mine = self._now_mine(self.seat_view)
        watching = self.table.seat.role is Role.WATCHER
        self.push_screen((WatchScreen if watching else TableScreen)(self.missed))
        keep_to_size(self)

    def on_unmount(self) -> None:
        self._unsubscribe()
        self.table.keep_sketch()  # a draft sheet typed and not kept: the player left
        if self._on_leave is not None:
            log = self.seat_view.log
            self._on_leave(log[-1].seq if log else 0)

    def _now_mine(self, view: TableView) -> tuple[bool, bool, bool, bool]:
        draft = view.draft is not None and not view.draft.sent  # handed over, or back
        return view.left is not None, view.decision is not None, bool(view.asked), draft

    def _heard(self, event: Event) -> None:
        """Note the change; whether to ring is worked out from this app's own queue, once
        however many changes came before it runs: a notification only schedules, so the
        GM's change does not wait while twenty seats work out their views.
        """
        self._heard_seq = event.seq
        if self.is_running and not self._bell_pending:
            self._bell_pending = True
            self.call_later(self._ring_if_mine)

    def _ring_if_mine(self) -> None:
        """Ring the player's bell when their turn starts, a question waits for them, the
        GM asks them for a roll or hands them their sheet to fill in."""
        self._bell_pending = False
        now = self._now_mine(self.seat_view)
        if any(n and not b for n, b in zip(now, self._mine, strict=True)):
            self.bell()
        self._mine = now

    def action_help(self) -> None:
        """Help for the screen on top (a player has no other screens to go to)."""
        from ..screens.help_text import open_help

        open_help(self)

    def on_resize(self, event: Resize) -> None:
        if len(self.screen_stack) > 1:  # the table is up (a resize may come before it)
            fit_to_size(self, event.size)
