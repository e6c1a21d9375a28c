"""Modal that answers a pending re-roll decision (R-TASK-6) with (d10, Hero die): a task's
on the task roller, an attack's or a Defense's on the combat screen.
"""

from __future__ import annotations

from typing import Protocol

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from ...rules.rerolls import split_text
from ...rules.tasks import PoolRoll
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper, focus_arrows
from .decision_dialog import bind_escape
from .help_text import HelpText
from .question import AnswersQuestion


class Rerolls(Protocol):
    """What the dialog reads of a pending decision (the session's PendingRerolls, the
    combat engine's PendingCombatRerolls).
    """

    @property
    def roll(self) -> PoolRoll: ...

    @property
    def available(self) -> int: ...

    @property
    def suggested(self) -> tuple[int, int]: ...

    @property
    def title(self) -> str: ...


class RerollDialog(AnswersQuestion, ModalScreen[tuple[int, int] | None]):
    """Pick how many d10 and Hero-die re-rolls to spend; starts at the engine's offer."""

    CSS_PATH = "../styles/tasks.tcss"

    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("enter", "confirm", "Re-roll", id="reroll.confirm"),
        Binding("k", "keep", "Keep roll", id="reroll.keep"),
        Binding("f1,question_mark", "app.help", "Help", id="reroll.help"),
        *focus_arrows(),
    ]
    """Enter re-rolls, k keeps the first roll, Esc goes back without deciding."""

    def __init__(
        self, pending: Rerolls, *, purse: tuple[int, int, int] | None = None, reopen: str = "e"
    ) -> None:
        """``purse``: the free re-rolls, then the Luck and Clues that pay for the rest
        (R-CHAR-9), None when nobody's pools pay; ``reopen``: the key that brings the
        waiting re-roll back (``e`` on the task roller, ``o`` in combat).
        """
        super().__init__()
        self.pending = pending
        self.answers = pending
        self.purse = purse
        bind_escape(self, reopen)

    def compose(self) -> ComposeResult:
        p = self.pending
        choices = [(str(n), n) for n in range(p.available + 1)]
        d10, hero = p.suggested
        with Vertical(id="reroll-box"):
            title = f"[b]Re-rolls for {p.title}[/b] — {p.available} available"
            yield Label(title, markup=True, id="reroll-title")
            yield Label(p.roll.explain(), id="reroll-roll")
            if self.purse is not None:
                free, luck, clues = self.purse
                pools = f"Free {free}, then Luck {luck}, then Clues {clues} (R-CHAR-9)"
                yield Label(pools, id="reroll-pools", markup=False)
            yield Stepper("d10", choices, d10, id="reroll-d10")
            if p.roll.hero_first is not None:
                yield Stepper("Hero die", choices, hero, id="reroll-hero")
            yield Label(f"Suggested: {d10} d10 + {hero} Hero die", id="reroll-hint")
            yield Label(self._odds(d10, hero), id="reroll-odds", markup=False)
        yield KeyBar()

    def _odds(self, d10: int, hero: int) -> str:
        """What this split buys and, with pools, costs (the engine's summary)."""
        return split_text(self.pending.roll, d10, hero, self.purse)

    def _split(self) -> tuple[int, int]:
        d10 = self.query_one("#reroll-d10", Stepper).value
        heroes = self.query("#reroll-hero")
        return d10, heroes.first(Stepper).value if heroes else 0

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        """Keep the split possible (R-TASK-6): raising one die past the re-rolls available
        takes the excess from the other, so the GM never has to lower it first.
        """
        d10, hero = self._split()
        over = d10 + hero - self.pending.available
        if over > 0:  # only with a Hero die: each field alone offers at most ``available``
            other = "#reroll-hero" if event.stepper.id == "reroll-d10" else "#reroll-d10"
            self.query_one(other, Stepper).action_step(-over)
            return  # the other field's change redraws the odds
        self.query_one("#reroll-odds", Label).update(self._odds(d10, hero))

    def action_confirm(self) -> None:
        self.dismiss(self._split())

    def action_keep(self) -> None:
        self.dismiss((0, 0))
