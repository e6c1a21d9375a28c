"""The player's own Hero's sheet while the GM has made it a draft: the GM's builder form
(:mod:`hsm_tui.ui.screens.sheet_form`), with the engine's reading beside it. Every key
typed reaches the GM live; ctrl+s keeps the draft, Enter sends it for approval, Esc goes
back to the table keeping what was typed. The Hero's kind and id stay: only its sheet is
the player's to fill in.
"""

from __future__ import annotations

from contextlib import suppress

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input

from ...campaign.drafts import Draft, KeepDraft
from ...campaign.making import MAX_TEXT
from ...rules.errors import RulesError
from ...table.views import TableView
from ..screens import FollowsSession
from ..screens.character_form import FormError
from ..screens.help_text import HelpText
from ..screens.sheet_form import SheetField, SheetForm
from ..widgets.keybar import KeyBar
from ..widgets.stepper import focus_arrows
from ..widgets.title_bar import TitleBar


class DraftField(SheetField):
    """A field of the player's draft: Enter sends the sheet to the GM."""

    BINDINGS = [Binding("enter", "submit", "Send", id="draft.submit")]


class DraftSheet(SheetForm, FollowsSession, Screen[None]):
    """The seat's Hero's draft, kept and sent by its player."""

    CSS_PATH = "../styles/characters.tcss"
    HELP = HelpText(__name__, max_text=MAX_TEXT)
    FIELD = DraftField
    BINDINGS = [
        Binding("enter", "send", "Send to the GM", id="draft.send"),
        Binding("ctrl+s", "keep", "Keep", id="draft.keep"),
        Binding("escape", "back", "Back", id="draft.back"),
        Binding("f1", "app.help", "Help", id="draft.help"),
        *focus_arrows(),
    ]
    PINNED = frozenset({"draft.send", "draft.keep", "draft.back"})

    def __init__(self, draft: Draft) -> None:
        super().__init__()
        self.sheet_form(draft.sheet, grows=True)
        self.kept = draft

    @property
    def seat_view(self) -> TableView:
        return self.app.seat_view  # type: ignore[attr-defined,no-any-return]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield from self.compose_form()
        yield KeyBar()

    def on_mount(self) -> None:
        self.sub_title = f"your sheet: {self.start.name}"
        self.query_one("#character-sheet").border_title = "Sheet (the engine's reading)"
        self.query_one("#character-form").border_title = "Enter sends · ctrl+s keeps"
        self.query_one("#character-name").focus()
        self.follow_session(self.follow_draft)
        self.show_sheet()

    def budget_shown(self) -> int:
        return self.seat_view.budget if self.kept.makes else 0

    def heading(self) -> Text:
        text = Text()
        if self.kept.sent:
            text.append("Sent: the GM is reading it\n", style="bold")
        if self.kept.note:
            text.append(f"The GM returned it: {self.kept.note}\n", style="bold yellow")
        return text

    def follow_draft(self) -> None:
        """The GM approved, returned or withdrew the draft, or it was undone."""
        now = self.seat_view.draft
        if now is None:
            self.notify("The GM has your sheet back: it is no longer a draft", title="Sheet")
            self.dismiss(None)
        elif now != self.kept:
            self.kept = now
            self.show_sheet()

    def form_changed(self) -> None:
        """Every change reaches the GM as typed (nothing is kept until ctrl+s or Enter)."""
        super().form_changed()
        with suppress(FormError, RulesError):  # the sheet beside the form says what is wrong
            self.app.table.sketch(self.draft())  # type: ignore[attr-defined]

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_send()

    def _keep(self, send: bool) -> bool:
        try:
            self.app.table.apply(KeepDraft(self.draft(), send=send))  # type: ignore[attr-defined]
        except (FormError, RulesError) as err:
            self.app.clear_notifications()
            self.notify(str(err), title="Not kept", severity="error")
            return False
        return True

    def action_send(self) -> None:
        if self._keep(send=True):
            self.notify("Sent: the GM approves it or hands it back with a note", title="Sheet")
            self.dismiss(None)

    def action_keep(self) -> None:
        if self._keep(send=False):
            self.notify("Kept: Enter sends it to the GM when it is ready", title="Sheet")

    def unkept(self) -> bool:
        """Whether the form holds something the draft has not kept."""
        try:
            return self.draft() != self.kept.sheet
        except FormError:
            return True

    def action_back(self) -> None:
        """Back to the table, keeping what was typed (a sheet that cannot be kept stays)."""
        if not self.unkept() or self._keep(send=False):
            self.dismiss(None)
