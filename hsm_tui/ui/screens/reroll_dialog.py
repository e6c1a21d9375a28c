"""Modal that answers the pending re-roll decision (R-TASK-6) with (d10, Hero die)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from ...session import PendingRerolls
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper


class RerollDialog(ModalScreen[tuple[int, int] | None]):
    """Pick how many d10 and Hero-die re-rolls to spend; starts at the best split."""

    HELP = """\
## Re-rolls (R-TASK-6)
All re-rolls are rolled at once, after the first roll; the best d10 and the best Hero die
are kept. The fields start at the split with the best odds.

| key | does |
| --- | --- |
| ↑ ↓ | d10 / Hero die field |
| ← → or a digit | how many re-rolls go to that die |
| Enter | re-roll |
| k | keep the first roll (spend nothing) |
| Esc | back, deciding later (`e` reopens) |
"""

    BINDINGS = [
        Binding("enter", "confirm", "Re-roll", id="reroll.confirm"),
        Binding("k", "keep", "Keep roll", id="reroll.keep"),
        Binding("escape", "dismiss(None)", "Later", id="reroll.later"),
        Binding("f1,question_mark", "app.help", "Help", id="reroll.help"),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]
    """Enter re-rolls, k keeps the first roll, Esc goes back without deciding."""

    def __init__(self, pending: PendingRerolls) -> None:
        super().__init__()
        self.pending = pending

    def compose(self) -> ComposeResult:
        p = self.pending
        choices = [(str(n), n) for n in range(p.available + 1)]
        d10, hero = p.suggested
        with Vertical(id="reroll-box"):
            yield Label(f"[b]Re-rolls for {p.title}[/b] — {p.available} available", markup=True)
            yield Label(p.roll.explain())
            yield Stepper("d10", choices, d10, id="reroll-d10")
            if p.roll.hero_first is not None:
                yield Stepper("Hero die", choices, hero, id="reroll-hero")
            yield Label(f"Best odds: {d10} d10 + {hero} Hero die", id="reroll-hint")
            yield Label("", id="reroll-error")
        yield KeyBar()

    def _split(self) -> tuple[int, int]:
        d10 = self.query_one("#reroll-d10", Stepper).value
        heroes = self.query("#reroll-hero")
        return d10, heroes.first(Stepper).value if heroes else 0

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        d10, hero = self._split()
        over = d10 + hero - self.pending.available
        message = f"{over} more than available" if over > 0 else ""
        self.query_one("#reroll-error", Label).update(message)

    def action_confirm(self) -> None:
        d10, hero = self._split()
        if d10 + hero > self.pending.available:
            self.notify(f"Only {self.pending.available} re-roll(s) available", severity="error")
            return
        self.dismiss((d10, hero))

    def action_keep(self) -> None:
        self.dismiss((0, 0))
