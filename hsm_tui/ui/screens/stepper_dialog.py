"""A small dialog of steppers (pools, Fear): ↑ ↓ between them, Enter sets, Esc leaves;
and what a dialog of typed and stepped fields does at each change (:class:`Rechecked`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Input

from ..widgets.stepper import Stepper, focus_arrows


class StepperDialog(ModalScreen[Any]):
    """One combatant's numbers: subclasses compose the steppers and answer
    ``action_apply`` with a command for it."""

    CSS_PATH = "../styles/combat.tcss"

    BINDINGS = [
        Binding("enter", "apply", "Set", id="steppers.apply"),
        Binding("escape", "dismiss(None)", "Cancel", id="steppers.cancel"),
        Binding("f1,question_mark", "app.help", "Help", id="steppers.help"),
        *focus_arrows(),
    ]
    """Enter sets what the steppers show; Esc leaves it as it was."""

    def __init__(self, combatant: str, name: str) -> None:
        """``combatant``: the id the command names; ``name``: the title's."""
        super().__init__()
        self.combatant = combatant
        self.name_text = name

    def on_mount(self) -> None:
        self.query(Stepper).first().focus()


Answer = TypeVar("Answer")


class Rechecked(ModalScreen[Answer]):
    """A dialog whose message (the engine's verdict, a preview) is worked out again at
    every change of a field, typed or stepped."""

    show_check: Callable[[], object]
    """Work the message out from the fields as they are now: each dialog's own method."""

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.show_check()

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        event.stop()
        if self.is_mounted:  # a stepper set while composing says so before the message exists
            self.show_check()
