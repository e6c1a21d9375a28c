"""The player's own task roller: their hero's traits, skills and Talents, the GM's
difficulty, the exact odds, and the roll, which is theirs (re-rolls asked of them).
"""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ...campaign.freeflow import Asked, affliction_line, own_task
from ...campaign.party import Roller
from ...rules import Rank
from ...rules.tasks import difficulty_label
from ...table.session import RollTask
from ..screens.help_text import HelpText
from ..screens.task_roller import (
    DOUBLE,
    TRAIT_CHOICES,
    odds_table,
    skill_choices,
    talent_choices,
)
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper, focus_arrows


def odds_lines(roller: Roller, task: RollTask) -> list[str]:
    """What a player reads of their hero's task before rolling it: the TN and its exact
    odds with every re-roll their pools may buy (§8 afflictions counted), or "TN hidden"
    when the GM keeps the difficulty; then their Luck and Clues."""
    rerolls = task.rerolls + roller.luck + roller.clues
    if task.tn_hidden:
        lines = ["TN hidden: the GM keeps the difficulty"]
    else:
        lines = [f"[b]TN {task.tn.value}[/b]  {escape(task.tn.explain())}", ""]
        lines += odds_table(task.tn.value, task.rank, rerolls)
        if sick := affliction_line(roller, task.tn.value, task.rank, rerolls):
            lines.append(sick)  # §8 Nauseated, Fatigued
    return [*lines, f"Luck {roller.luck} · Clues {roller.clues}"]


class AskedRoll(ModalScreen[RollTask | None]):
    """A roll the GM asked for: the task as the GM set it, its exact odds (or "TN
    hidden" when the GM keeps the difficulty), the player's Luck and Clues; Enter rolls."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText(__name__)
    BINDINGS = [
        Binding("enter,r", "roll", "Roll", id="asked.roll"),
        Binding("escape", "dismiss(None)", "Later", id="asked.later"),
        Binding("f1,question_mark", "app.help", "Help", id="asked.help"),
    ]

    def __init__(self, roller: Roller, asked: Asked) -> None:
        super().__init__()
        self.roller = roller
        self.asked = asked

    def compose(self) -> ComposeResult:
        task = self.asked.task
        asks = f"[b]The GM asks {escape(self.roller.name)} to roll: {escape(task.label)}[/b]"
        lines = [asks, "", *odds_lines(self.roller, task)]
        with Vertical(id="player-task-box"):
            yield Static("\n".join(lines), id="asked-roll")
        yield KeyBar()

    def action_roll(self) -> None:
        self.dismiss(self.asked.task)


class PlayerTask(ModalScreen[RollTask | None]):
    """Pick the traits, skill and Talent; the GM says the difficulty; Enter rolls."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText(__name__)
    BINDINGS = [
        Binding("enter,r", "roll", "Roll", id="player-task.roll"),
        Binding("escape", "dismiss(None)", "Cancel", id="player-task.cancel"),
        *focus_arrows(),
        Binding("f1,question_mark", "app.help", "Help", id="player-task.help"),
    ]

    def __init__(self, roller: Roller) -> None:
        super().__init__()
        self.roller = roller
        self.rank = roller.rank or Rank.HERO

    def compose(self) -> ComposeResult:
        with Vertical(id="player-task-box"):
            yield Label(f"[b]{escape(self.roller.name)}: a task (R-TASK-1)[/b]")
            yield Stepper("Trait 1", TRAIT_CHOICES, TRAIT_CHOICES[0][1], id="trait1")
            yield Stepper("Trait 2", [*TRAIT_CHOICES, ("(double 1)", DOUBLE)], DOUBLE, id="trait2")
            yield Stepper("Skill", skill_choices(self.roller), id="skill")
            yield Stepper("Talent", talent_choices(self.roller, self.rank), id="talent")
            yield Stepper(
                "Difficulty",
                [(difficulty_label(n) if n else "none", n) for n in range(6)],
                0,
                id="difficulty",
            )
            yield Static(id="player-task-odds")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#trait1", Stepper).focus()
        self.show_odds()

    def on_stepper_changed(self, _event: Stepper.Changed) -> None:
        self.show_odds()

    def _field(self, name: str) -> object:
        return self.query_one(f"#{name}", Stepper).value

    def task(self) -> RollTask:
        """The task the fields pick; the engine counts wounds, conditions and Talent."""
        traits = [self._field("trait1")]
        if self._field("trait2") is not DOUBLE:
            traits.append(self._field("trait2"))
        return own_task(
            self.roller,
            traits,  # type: ignore[arg-type]
            self._field("skill"),  # type: ignore[arg-type]
            str(self._field("talent")),
            int(self._field("difficulty")),  # type: ignore[call-overload]
        )

    def show_odds(self) -> None:
        lines = odds_lines(self.roller, self.task())
        self.query_one("#player-task-odds", Static).update("\n".join(lines))

    def action_roll(self) -> None:
        self.dismiss(self.task())
