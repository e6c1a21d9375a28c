"""The GM's note on one combatant (F4 ``N``): a line of the GM's own words, checked by
the engine as it is typed. :class:`CheckedDialog` is the shape the countdown dialog
shares: fields, the engine's verdict under them, Enter sends the command.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from ...campaign.combat import SetCountdown, SetNote, timed_refusal
from ...campaign.countdowns import MAX_NOTE
from ...campaign.encounter import Combatant, Encounter
from ..widgets.keybar import KeyBar
from ..widgets.stepper import focus_arrows
from .help_text import HelpText
from .stepper_dialog import Rechecked


class CheckedDialog(Rechecked[SetNote | SetCountdown | None]):
    """Fields for one command about ``combatant``; the engine's refusal (✗) or what
    Enter does (✓) under them, worked out at every change."""

    CSS_PATH = "../styles/combat.tcss"

    BINDINGS = [
        Binding("enter", "apply", "Set", priority=True, id="checked.apply"),
        Binding("escape", "dismiss(None)", "Cancel", id="checked.cancel"),
        Binding("f1", "app.help", "Help", id="checked.help"),
        *focus_arrows(),
    ]
    """Enter sets (even from the typing field), Esc leaves; F1 only, as ``?`` is typed."""

    def __init__(self, enc: Encounter, combatant: Combatant) -> None:
        super().__init__()
        self.enc = enc
        self.combatant = combatant

    fields: Callable[[], ComposeResult]
    """The dialog's own fields, title first (each dialog's own method, as are the next)."""
    command: Callable[[], SetNote | SetCountdown]
    """The command the fields say now."""
    done: Callable[[], str]
    """What Enter does, in words."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box checked-box"):
            yield from self.fields()
            yield Static(id="checked-message", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query(Input).first().focus()
        self.show_check()

    def show_check(self) -> str:
        command = self.command()
        refusal = timed_refusal(self.enc, command)
        message = self.query_one("#checked-message", Static)
        message.set_class(bool(refusal), "-error")
        message.update(f"✗ {refusal}" if refusal else f"✓ Enter: {self.done()}")
        return refusal

    def action_apply(self) -> None:
        if self.show_check():
            self.app.bell()
        else:
            self.dismiss(self.command())


class NoteDialog(CheckedDialog):
    """One line the GM keeps about a combatant; empty clears it."""

    HELP = HelpText(__name__, most=MAX_NOTE)

    def fields(self) -> ComposeResult:
        yield Label(f"[b]Note on {self.combatant.name}[/b] (the GM's alone)")
        yield Input(self.combatant.note, id="note-text", max_length=MAX_NOTE + 20)

    def command(self) -> SetNote:
        return SetNote(self.combatant.id, self.query_one("#note-text", Input).value)

    def done(self) -> str:
        return "keep this note" if self.command().text.strip() else "clear the note"
