"""A combatant's Fear tokens, set by the GM (R-ATK-4: "given to an individual, or a unit").

Returns a ``SetFear`` command; a Minion unit holds its Fear as one, so the dialog offers
the whole unit (each figure then holds the count) or this figure alone, a split. The
engine says who holds the Fear (``unit_of``) and refuses a count out of range.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label

from ...campaign.combat import MAX_FEAR, SetFear
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper
from .help_text import HelpText
from .stepper_dialog import StepperDialog


class FearDialog(StepperDialog):
    """A Fear stepper and, for a figure of a unit, who holds it; Enter sets it."""

    HELP = HelpText(__name__)

    def __init__(self, combatant: str, name: str, fear: int, unit: int) -> None:
        super().__init__(combatant, name)
        self.fear = fear
        self.unit = unit  # the standing figures that hold its Fear, itself included

    def compose(self) -> ComposeResult:
        numbers = [(str(n), n) for n in range(MAX_FEAR + 1)]
        with Vertical(id="fear-box", classes="dialog-box"):
            yield Label(f"[b]Fear of {self.name_text}[/b] (R-ATK-4)")
            yield Stepper("Fear", numbers, self.fear, id="fear-count")
            if self.unit > 1:
                who = [(f"the unit ({self.unit})", True), ("this figure only", False)]
                yield Stepper("Held by", who, True, id="fear-unit")
        yield KeyBar()

    def action_apply(self) -> None:
        fear = self.query_one("#fear-count", Stepper).value
        unit = self.unit > 1 and self.query_one("#fear-unit", Stepper).value
        self.dismiss(SetFear(self.combatant, fear, unit=unit))
