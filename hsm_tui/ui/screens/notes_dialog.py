"""Scene notes, edited in a dialog so the home screen (the first one drawn) needs no
text editor: Textual's TextArea costs ~20 ms of a cold start.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea

from ..widgets.keybar import KeyBar
from .help_text import HelpText


class NotesDialog(ModalScreen[str]):
    """Edit the text; Esc closes and keeps it (the caller sends it to the session)."""

    CSS_PATH = "../styles/dialogs.tcss"

    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("escape", "close", "Keep and close", id="notes.close"),
        Binding("f1", "app.help", "Help", id="notes.help"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="notes-box"):
            yield Label("[b]Scene notes[/b]")
            yield TextArea(self.text, id="notes-text")
        yield KeyBar()

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    def action_close(self) -> None:
        self.dismiss(self.query_one(TextArea).text)
