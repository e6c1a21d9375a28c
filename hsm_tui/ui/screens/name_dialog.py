"""The campaign's name, asked the first time it is saved: it titles home and names the
file (``saves/<name>.toml``). Checked as it is typed; Enter takes it, Esc backs out.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from ...campaign.party import MAX_NAME, campaign_name
from ...persistence.store import file_name
from ...rules.errors import RulesError
from ..widgets.keybar import KeyBar
from .help_text import HelpText


def name_problem(text: str, rule: Callable[[str], str] = campaign_name) -> str:
    """Why ``text`` cannot be taken by ``rule`` (a campaign's name: the session's own
    rule), or "" when it can."""
    try:
        rule(text)
    except RulesError as err:
        return f"✗ {err}"
    return ""


class NameDialog(ModalScreen[str | None]):
    """Type the name; the file it will be saved as shows beside it."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText(__name__, max_name=MAX_NAME)
    LONGEST = MAX_NAME + 20
    """The most characters the field takes (the rule says what is too long)."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel", id="name.cancel"),
        Binding("f1", "app.help", "Help", id="name.help"),
    ]

    def __init__(self, title: str, name: str, folder: str) -> None:
        super().__init__()
        self.title_text = title
        self.name_now = name
        self.folder = folder

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box"):
            yield Label(f"[b]{self.title_text}[/b]")
            yield Input(self.name_now, id="name-field", max_length=self.LONGEST)
            yield Static(id="name-message", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._show(self.name_now)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._show(event.value)

    def rule(self, text: str) -> str:
        """What the typed text is taken as, or a RulesError saying why it cannot be."""
        return campaign_name(text)

    def said(self, text: str) -> str:
        """What Enter will do with ``text``, which :meth:`rule` takes."""
        return f"✓ Enter saves {self.folder}/{file_name(text)}"

    def _show(self, text: str) -> None:
        problem = name_problem(text, self.rule)
        message = self.query_one("#name-message", Static)
        message.set_class(bool(problem), "-error")
        self.query_one(Input).set_class(bool(problem), "-invalid")
        message.update(problem or self.said(text))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not name_problem(event.value, self.rule):
            self.dismiss(self.rule(event.value))
