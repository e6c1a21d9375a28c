"""A small dialog of steppers (pools, Fear): ↑ ↓ between them, Enter sets, Esc leaves."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import ModalScreen

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
