"""Free-flowing task roller (R-COMBAT-1 free-flowing mode; R-TASK-1..7).

The fields only describe the task being built; the TN and its exact odds are computed
by the rules engine on every change, and rolling is one command to the session.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from ...rules import Modifier, Rank, RulesError, TargetNumber, Trait, task_odds, task_tn
from ...rules.odds import percent
from ...rules.tasks import difficulty_label
from ...session import PendingRerolls, RollTask, Session, SpendRerolls
from ..widgets.roll_log import RollLog
from ..widgets.stepper import Stepper
from . import UndoRedo, set_border_titles
from .reroll_dialog import RerollDialog

DOUBLE = None
TRAITS = [(t.value.title(), t) for t in Trait]
SCORES = [(str(n), n) for n in range(1, 5)]


def _numbers(low: int, high: int, signed: bool = True) -> list[tuple[str, int]]:
    return [(f"{n:+d}" if n and signed else str(n), n) for n in range(low, high + 1)]


def odds_table(tn: int, rank: Rank, rerolls: int) -> list[str]:
    """Rows of exact odds without and with the available re-rolls (R-TASK-7)."""
    hero = rank is Rank.HERO
    rows = [f"{'':<12}{'Success':>8}" + (f"{'★ Fort.':>9}{'✗ Misf.':>9}" if hero else "")]
    exact = []
    for k in sorted({0, rerolls}):
        odds = task_odds(tn, rank, k)
        label = "no re-roll" if k == 0 else f"{k} re-roll{'s' if k > 1 else ''}"
        specials = f"{percent(odds.fortune):>9}{percent(odds.misfortune):>9}" if hero else ""
        rows.append(f"{label:<12}{percent(odds.success):>8}{specials}")
        exact.append(str(odds.success))
    rows.append(f"exact success: {' · '.join(exact)}")
    return rows


class TaskRollerScreen(UndoRedo, Screen[None]):
    """Build a task, watch the exact odds, roll, spend re-rolls, read the log."""

    HELP = """\
## Task roller
| key | does |
| --- | --- |
| ↑ ↓ / Tab | move between fields |
| ← → / − + / digit | change the field |
| r / Enter | roll the task |
| e | spend re-rolls on the last roll |
| u / y | undo / redo (dice included) |
| F1 ? | this help · q quits |
"""

    BINDINGS = [
        Binding("r,enter", "roll", "Roll", id="task.roll"),
        Binding("e", "reroll", "Re-roll", id="task.reroll"),
        Binding("u,ctrl+z", "undo", "Undo", id="task.undo"),
        Binding("y,ctrl+y", "redo", "Redo", id="task.redo"),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]
    """Single keys for the whole flow: roll, re-roll, undo, redo."""

    @property
    def session(self) -> Session:
        return self.app.session  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="task-top"):
            with Vertical(id="task-form"):
                yield Stepper("Rank", [("Hero", Rank.HERO), ("Minion", Rank.MINION)], id="rank")
                yield Stepper("Trait 1", TRAITS, Trait.AGILITY, id="trait1")
                yield Stepper("  score", SCORES, 2, id="score1")
                yield Stepper(
                    "Trait 2", [*TRAITS, ("(double 1)", DOUBLE)], Trait.SENSES, id="trait2"
                )
                yield Stepper("  score", SCORES, 2, id="score2")
                yield Stepper("Skill", _numbers(0, 6, signed=False), 0, id="skill")
                yield Stepper("Talent", [("no", False), ("yes", True)], id="talent")
                yield Stepper(
                    "Difficulty",
                    [(difficulty_label(n) if n else "none", n) for n in range(6)],
                    0,
                    id="difficulty",
                )
                yield Stepper("Wounds", _numbers(-2, 0), 0, id="wounds")
                yield Stepper("Other mods", _numbers(-6, 3), 0, id="mods")
                yield Stepper("Re-rolls", _numbers(0, 6, signed=False), 0, id="rerolls")
            yield Static(id="task-odds")
        yield RollLog(id="task-log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        set_border_titles(
            self,
            {"#task-form": "Task", "#task-odds": "Target number & exact odds", "#task-log": "Log"},
        )
        self._unsubscribe = self.session.subscribe(lambda _session: self.refresh_from_session())
        self.refresh_from_session()
        self.query_one("#rank", Stepper).focus()

    def on_unmount(self) -> None:
        self._unsubscribe()

    def _field(self, name: str) -> Any:
        return self.query_one(f"#{name}", Stepper).value

    def build_tn(self) -> TargetNumber:
        """The TN the fields describe (R-TASK-1); wounds apply once per roll (R-WOUND-3)."""
        first = (self._field("trait1").value.title(), self._field("score1"))
        traits = [first]
        if self._field("trait2") is not DOUBLE:
            traits.append((self._field("trait2").value.title(), self._field("score2")))
        skill = self._field("skill")
        return task_tn(
            traits,
            skill=("skill", skill) if skill else None,
            talent="relevant" if self._field("talent") else None,
            difficulties=[self._field("difficulty")],
            modifiers=[
                Modifier("wound", self._field("wounds")),
                Modifier("modifiers", self._field("mods")),
            ],
        )

    def on_stepper_changed(self, _event: Stepper.Changed) -> None:
        self.refresh_odds()

    def refresh_odds(self) -> None:
        tn = self.build_tn()
        rank, rerolls = self._field("rank"), self._field("rerolls")
        lines = [f"[b]TN {tn.value}[/b]  {tn.explain()}", "", *odds_table(tn.value, rank, rerolls)]
        pending = self.session.pending
        if isinstance(pending, PendingRerolls):
            d10, hero = pending.suggested
            lines += ["", f"[b]Re-rolls waiting[/b]: e  (best {d10} d10 + {hero} Hero die)"]
        self.query_one("#task-odds", Static).update("\n".join(lines))

    def refresh_from_session(self) -> None:
        self.query_one(RollLog).show(self.session.log)
        self.refresh_odds()

    def _apply(self, command: RollTask | SpendRerolls) -> None:
        try:
            self.session.apply(command)
        except RulesError as exc:
            self.notify(str(exc), title="Refused", severity="error")

    def action_roll(self) -> None:
        rank = self._field("rank")
        self._apply(RollTask(self.build_tn(), rank, label="Task", rerolls=self._field("rerolls")))

    def action_reroll(self) -> None:
        pending = self.session.pending
        if not isinstance(pending, PendingRerolls):
            self.notify("No roll is waiting for re-rolls (set Re-rolls above 0, then roll)")
            return

        def answer(split: tuple[int, int] | None) -> None:
            if split is not None:
                self._apply(SpendRerolls(*split))

        self.app.push_screen(RerollDialog(pending), answer)
