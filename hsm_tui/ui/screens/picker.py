"""Pick one item from a long list by typing part of its name: pack entries for the party
and the roster. Returns the chosen value, or None on Escape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from ..widgets.keybar import KeyBar
from .help_text import HelpText


class PickerScreen(ModalScreen[Any]):
    """Type to filter, ↑ ↓ to move, Enter to pick, Esc to cancel."""

    CSS_PATH = "../styles/dialogs.tcss"

    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel", id="picker.cancel"),
        Binding("down", "move(1)", "Next", show=False, id="picker.down"),
        Binding("up", "move(-1)", "Previous", show=False, id="picker.up"),
        Binding("f1", "app.help", "Help", id="picker.help"),
    ]
    """Typing goes to the filter; arrows and Enter work from it."""

    def __init__(self, title: str, choices: Sequence[tuple[str, Any]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.shown = list(range(len(self.choices)))

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box"):
            yield Label(f"[b]{self.title_text}[/b]")
            yield Input(placeholder="type to filter", id="picker-filter")
            yield OptionList(*(label for label, _ in self.choices), id="picker-list")
        yield KeyBar()  # its own keys (Esc, F1), not those of the screen underneath

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self.query_one(OptionList).highlighted = 0 if self.choices else None

    def on_input_changed(self, event: Input.Changed) -> None:
        text = event.value.strip().lower()
        self.shown = [i for i, (label, _) in enumerate(self.choices) if text in label.lower()]
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(self.choices[i][0]) for i in self.shown])
        options.highlighted = 0 if self.shown else None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._pick(self.query_one(OptionList).highlighted)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(event.option_index)

    def action_move(self, delta: int) -> None:
        options = self.query_one(OptionList)
        if self.shown:
            current = options.highlighted or 0
            options.highlighted = max(0, min(len(self.shown) - 1, current + delta))

    def _pick(self, index: int | None) -> None:
        if index is None or not self.shown:
            self.notify("Nothing matches: change the filter", severity="warning")
            return
        self.dismiss(self.choices[self.shown[index]][1])
