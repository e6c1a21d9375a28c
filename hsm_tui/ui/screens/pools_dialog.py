"""Luck and Clue pools of one combatant (R-CHAR-9), set by the GM.

Returns a ``SetPools`` command; the engine refuses it for anyone playing as a Minion,
so the rule lives in one place and the refusal reaches the GM as a notification.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label

from ...campaign.combat import SetPools
from ...campaign.encounter import MAX_POOL
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper
from .help_text import HelpText
from .stepper_dialog import StepperDialog


class PoolsDialog(StepperDialog):
    """Two steppers: Luck and Clues; Enter sets both."""

    HELP = HelpText(__name__)

    def __init__(self, combatant: str, name: str, luck: int, clues: int) -> None:
        super().__init__(combatant, name)
        self.luck = luck
        self.clues = clues

    def compose(self) -> ComposeResult:
        numbers = [(str(n), n) for n in range(MAX_POOL + 1)]
        with Vertical(id="pools-box", classes="dialog-box"):
            yield Label(f"[b]Pools of {self.name_text}[/b] (R-CHAR-9)")
            yield Stepper("Luck", numbers, self.luck, id="pools-luck")
            yield Stepper("Clues", numbers, self.clues, id="pools-clues")
        yield KeyBar()

    def action_apply(self) -> None:
        luck = self.query_one("#pools-luck", Stepper).value
        clues = self.query_one("#pools-clues", Stepper).value
        self.dismiss(SetPools(self.combatant, luck=luck, clues=clues))
