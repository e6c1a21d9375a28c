"""An effect on one combatant for some of its turns (F4 ``K``): a §8 condition such as
Stunned (marked with it) or the GM's own words; the engine counts the turns and ends it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Input, Label, Static

from ...campaign.combat import SetCountdown
from ...campaign.countdowns import MAX_EFFECT, MAX_TURNS, turns_text
from ..widgets.stepper import Stepper
from .help_text import HelpText
from .note_dialog import CheckedDialog


class CountdownDialog(CheckedDialog):
    """The effect's words and its turns (0 ends it); its countdowns now listed above."""

    HELP = HelpText(__name__, most=MAX_TURNS, effect=MAX_EFFECT)

    def fields(self) -> ComposeResult:
        c = self.combatant
        acting = self.enc.turn is not None and c.group == self.enc.turn.actor
        now = " · ".join(f"{cd.effect} ({turns_text(cd, acting)})" for cd in c.countdowns)
        first = c.countdowns[0] if c.countdowns else None
        turns = [("0 (end it)", 0), *((str(n), n) for n in range(1, MAX_TURNS + 1))]
        yield Label(f"[b]Countdown on {c.name}[/b] (its turns)")
        yield Static(f"Now: {now or 'none'}", id="countdown-now", markup=False)
        effect = first.effect if first else "stunned"
        yield Input(effect, id="countdown-effect", max_length=MAX_EFFECT + 20)
        yield Stepper("Turns", turns, max(first.left, 1) if first else 1, id="countdown-turns")

    def command(self) -> SetCountdown:
        effect = self.query_one("#countdown-effect", Input).value
        turns = self.query_one("#countdown-turns", Stepper).value
        return SetCountdown(self.combatant.id, effect, turns)

    def done(self) -> str:
        command = self.command()
        effect = " ".join(command.effect.split())
        if not command.turns:
            return f"end {effect}"
        return f"{effect} for its next {command.turns} turn{'s' if command.turns != 1 else ''}"
