"""The range board full-size, for a terminal too narrow to show it beside the fight.

Theatre of the mind has no map, but the GM still needs the zones, who stands in each
and the band between every pair (R-COMBAT-2); at 80 columns the combat screen has no
room for them, so `b` shows them here. It follows the session, like every view.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label

from ..widgets.keybar import KeyBar
from ..widgets.range_board import RangeBoard
from . import FollowsSession
from .help_text import HelpText


class BoardScreen(FollowsSession, ModalScreen[None]):
    """Zones with who stands in them by side, then the band between each pair."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("escape,b", "dismiss(None)", "Close", id="board.close"),
        Binding("pageup", "scroll(-1)", "Scroll up", show=False, id="board.page-up"),
        Binding("pagedown", "scroll(1)", "Scroll down", show=False, id="board.page-down"),
        Binding("f1,question_mark", "app.help", "Help", id="board.help"),
    ]

    def __init__(self, zone: str | None) -> None:
        super().__init__()
        self.zone = zone
        """The selected combatant's zone, marked ▸."""

    def compose(self) -> ComposeResult:
        with Vertical(id="board-box", classes="dialog-box"):
            yield Label("[b]Range board[/b] (R-COMBAT-2)")
            with VerticalScroll(id="board-body", can_focus=False):
                yield RangeBoard(id="board")
        yield KeyBar()

    def on_mount(self) -> None:
        self.follow_session(self.render_board)
        self.render_board()

    def render_board(self) -> None:
        room = self.app.size.width - 6  # the dialog's borders and padding
        self.query_one(RangeBoard).show(self.session.encounter, self.zone, room)

    def action_scroll(self, pages: int) -> None:
        body = self.query_one(VerticalScroll)
        body.scroll_to(y=body.scroll_y + pages * body.size.height, animate=False)
