"""The player's own hero's sheet: the GM's sheet layout, filled from the seat's view."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen

from ..screens import FollowsSession
from ..screens.help_text import HelpText
from ..screens.sheet import sheet_layout, show_sheet, standing_text


class PlayerSheet(FollowsSession, ModalScreen[None]):
    """Traits, ratings, weapons, wounds, Fear, conditions, Luck and Clues of one's hero."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = HelpText(__name__)
    BINDINGS = [
        Binding("escape,v", "dismiss(None)", "Close", id="player-sheet.close"),
        Binding("pageup", "page(-1)", "Page up", id="player-sheet.page-up"),
        Binding("pagedown", "page(1)", "Page down", id="player-sheet.page-down"),
        Binding("f1,question_mark", "app.help", "Help", id="player-sheet.help"),
    ]
    """The sheet is taller than an 80×24 terminal: PgUp and PgDn scroll it."""

    def compose(self) -> ComposeResult:
        return sheet_layout()

    def on_mount(self) -> None:
        self.follow_session(self.render_sheet)
        self.render_sheet()

    def render_sheet(self) -> None:
        view = self.app.seat_view  # type: ignore[attr-defined]
        hero = view.hero
        if hero is None:  # the fight ended or the GM undid it away
            self.dismiss(None)
            return
        left = standing_text(hero)
        if view.left is not None:
            left.append(f"your turn: {view.left} action(s) left\n", style="bold")
        else:
            left.append_text(Text("not your turn\n", style="dim"))
        show_sheet(self, hero, left, self.app.table.catalog)  # type: ignore[attr-defined]

    def action_page(self, pages: int) -> None:
        body = self.query_one("#sheet-body")
        if pages > 0:
            body.scroll_page_down(animate=False)
        else:
            body.scroll_page_up(animate=False)
