"""The character builder: a Hero, Sidekick or Minion made by the book's sheet (R-CHAR-1..7)
or grown between adventures, on the sheet form (:mod:`.sheet_form`) with the engine's
reading beside it.

Enter keeps the character (one undo step; from home a new Hero joins the party in the
same step); Esc backs out, and asks again first when something was changed.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding

from ...campaign import making
from ...campaign.making import MadeCharacter, MakeCharacter
from ..widgets.keybar import KeyBar
from ..widgets.stepper import focus_arrows
from ..widgets.title_bar import TitleBar
from . import SessionScreen
from .character_form import FormError
from .help_text import HelpText
from .sheet_form import SheetForm


class CharacterBuilder(SheetForm, SessionScreen):
    """The GM's builder: a new character, or one grown with a note."""

    CSS_PATH = "../styles/characters.tcss"
    HELP = HelpText(__name__, max_text=making.MAX_TEXT)
    BINDINGS = [
        Binding("enter", "keep", "Keep", id="character.keep"),
        Binding("escape", "back", "Back", id="character.back"),
        Binding("f1", "app.help", "Help", id="character.help"),
        *focus_arrows(),
    ]
    PINNED = frozenset({"character.keep", "character.submit", "character.back"})

    def __init__(self, start: MadeCharacter, grows: bool = False, joins: bool = False) -> None:
        """``start``: the sheet the form opens on; ``grows``: a character the campaign or
        a pack has (its kind and id stay); ``joins``: a new Hero joins the party too."""
        super().__init__()
        self.sheet_form(start, grows)
        self.note_field = grows
        self.joins = joins
        self._backing_out = False

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield from self.compose_form()
        yield KeyBar()

    def on_mount(self) -> None:
        what = "Grow" if self.grows else "Make"
        self.show_subtitle(f"{what} a {self.start.kind}: {self.start.name or 'new'}")
        self.query_one("#character-sheet").border_title = "Sheet (the engine's reading)"
        self.query_one("#character-form").border_title = "Enter keeps · Esc backs out"
        self.query_one("#character-name").focus()
        _character, problems = making.check(self.start, self.session.catalog)
        errors = [p.message.split(": ", 1)[-1] for p in problems if p.is_error]
        if self.grows and errors:  # a hand-edited file: the form holds what fits
            self.notify(f"{errors[0]}; the form shows what fits", title="The saved sheet")
        self.show_sheet()

    def budget_shown(self) -> int:
        return 0 if self.grows else self.session.campaign.budget

    def form_changed(self) -> None:
        self._backing_out = False
        super().form_changed()

    def on_input_submitted(self, event: Any) -> None:
        event.stop()
        self.action_keep()

    # -- keep or back out ------------------------------------------------------------
    def action_keep(self) -> None:
        try:
            made = self.draft()
        except FormError as err:
            self.notify(str(err), title=f"Refused: {err.field}", severity="error")
            return
        note = self._text("note").strip() if self.grows else ""
        command: Any = MakeCharacter(made, note=note, grows=self.grows)
        if self.joins and made.kind == "hero":
            from ...campaign.party import AddHero
            from ...table.state import Batch

            command = Batch((command, AddHero(made.id)))
        if self._apply(command):
            self.notify(self.session.log[-1].title, title="Kept")
            self.dismiss(None)

    def action_back(self) -> None:
        """Back out; when the form was changed, only at a second Esc (nothing lost)."""
        try:
            changed = self.draft() != self.start or bool(self.grows and self._text("note"))
        except FormError:
            changed = True
        if changed and not self._backing_out:
            self._backing_out = True
            self.notify("Esc again discards the changes; Enter keeps them", title="Unsaved sheet")
            return
        self.dismiss(None)
