"""One line of words at the table (a player's to everyone or to the GM, the GM's to
everyone or to one seat): typed here, checked and cleaned by the engine when sent."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from ...table.talk import MAX_SAID
from ..widgets.keybar import KeyBar
from .help_text import HelpText


class SayDialog(ModalScreen[str | None]):
    """Type the line; Enter sends it, Esc keeps it unsaid."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText(__name__, max_said=MAX_SAID)
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel", id="say.cancel"),
        Binding("f1", "app.help", "Help", id="say.help"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box"):
            yield Label(self.title_text, markup=False)
            yield Input(id="say-field", max_length=MAX_SAID)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)
