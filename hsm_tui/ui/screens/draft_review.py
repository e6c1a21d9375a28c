"""A Hero's draft sheet as its player fills it in, read by the GM live: what the player is
typing now (or last kept), what it would change, and what keeps it from checking. ``a``
approves it (the Hero grows by it, one undo step), ``r`` hands it back with a note, ``c``
withdraws it (the Hero stays as it was).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...campaign import making
from ...campaign.drafts import (
    ApproveDraft,
    CloseDraft,
    ReturnDraft,
    draft_of,
    sheet_problems,
    sheets_of,
)
from ..widgets.keybar import KeyBar
from ..widgets.title_bar import TitleBar
from . import SessionScreen
from .help_text import HelpText


class DraftReview(SessionScreen):
    """One Hero's draft, as the engine reads it, following every key its player types."""

    CSS_PATH = "../styles/characters.tcss"
    HELP = HelpText(__name__)
    BINDINGS = [
        Binding("a", "approve", "Approve", id="draft-review.approve"),
        Binding("r", "give_back", "Return with a note", id="draft-review.return"),
        Binding("c", "withdraw", "Withdraw", id="draft-review.withdraw"),
        Binding("escape", "back", "Back", id="draft-review.back"),
        Binding("f1", "app.help", "Help", id="draft-review.help"),
    ]

    def __init__(self, hero: str) -> None:
        super().__init__()
        self.hero = hero

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="draft-body"):
            yield Static(id="draft-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.follow_session(self.render_draft)
        self.render_draft()

    def render_draft(self) -> None:
        s = self.session
        draft = draft_of(s.campaign.drafts, self.hero)
        if draft is None:  # approved, withdrawn or undone, here or at another seat
            self.dismiss(None)
            return
        now = sheets_of((self.hero,), s.campaign.made, s.catalog).get(self.hero, draft.sheet)
        typed = s.sketch_of(self.hero)
        shown = typed or draft.sheet
        self.show_subtitle(f"{now.name}'s draft sheet")
        text = Text()
        state = "sent for approval" if draft.sent else "with its player"
        typing = " · being typed now (a approves what was last kept)" if typed else ""
        purpose = "to make (the trait budget holds)" if draft.makes else "to grow"
        text.append(f"{state}{typing} · {purpose}\n", style="bold")
        if draft.note:
            text.append(f"returned: {draft.note}\n", style="italic")
        for problem in sheet_problems(shown, s.catalog, draft, s.campaign.budget):
            text.append(f"✗ {problem}\n", style="bold red")
        changes = list(making.changed(now, shown))
        text.append("Changes\n", style="bold")
        text.append("\n".join(changes) + "\n" if changes else "none yet\n", style="")
        text.append("Derived traits (R-CHAR-3)\n", style="bold")
        text.append("\n".join(making.derived_lines(shown)))
        self.query_one("#draft-text", Static).update(text)

    def action_approve(self) -> None:
        if self._apply(ApproveDraft(self.hero)):
            self.notify(self.session.log[-1].title, title="Approved")

    def action_give_back(self) -> None:
        from .say_dialog import SayDialog

        def back(note: str | None) -> None:
            if note is not None:
                self._apply(ReturnDraft(self.hero, note))

        self.app.push_screen(SayDialog("Return the draft: what should its player change?"), back)

    def action_withdraw(self) -> None:
        self._apply(CloseDraft(self.hero))

    def action_back(self) -> None:
        self.dismiss(None)
