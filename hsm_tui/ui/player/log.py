"""The public log as this seat may read it: whole entries for its own hero's rolls and
those the GM opened, titles for the rest, nothing of what the GM keeps."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen

from ..screens import FollowsSession
from ..screens.help_text import HelpText
from ..widgets.keybar import KeyBar
from ..widgets.roll_log import RollLog


class PlayerLog(FollowsSession, ModalScreen[None]):
    """Every entry this seat may read, newest at the bottom; Esc goes back."""

    HELP = HelpText(__name__)
    BINDINGS = [
        Binding("escape,l", "dismiss(None)", "Close", id="player-log.close"),
        Binding("pageup", "page(-1)", "Page up", id="player-log.page-up"),
        Binding("pagedown", "page(1)", "Page down", id="player-log.page-down"),
        Binding("f1,question_mark", "app.help", "Help", id="player-log.help"),
    ]

    def compose(self) -> ComposeResult:
        yield RollLog(id="player-full-log")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(RollLog).border_title = "Log (what your seat may read)"
        self.follow_session(self.render_log)
        self.render_log()

    def render_log(self) -> None:
        self.query_one(RollLog).show(self.app.seat_view.log)  # type: ignore[attr-defined]

    def action_page(self, pages: int) -> None:
        log = self.query_one(RollLog)
        log.scroll_to(y=log.scroll_y + pages * log.size.height, animate=False)
