"""§8 conditions of one combatant, set by the GM: every condition with its level.

Returns one ``SetCondition`` per changed row; the combat screen sends them as one
``Batch`` so a single undo takes them all back. The engine still checks each level.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ...campaign.combat import SetCondition
from ...campaign.conditions import CONDITIONS
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper, focus_arrows
from .help_text import HelpText

BODY = {
    "prone": (False, "knocked down or dived: an action to stand up (R-ACT-6)"),
    "unconscious": (False, "out of the fight until revived (R-WOUND-5)"),
}
"""The two states that are not §8 markers but flags on the combatant (leveled, text)."""

ROWS: dict[str, tuple[bool, str]] = {
    **{name: (c.leveled, c.text) for name, c in CONDITIONS.items()},
    **BODY,
}
"""Every row of the dialog: condition → (has a level 1–9, what it does)."""


def choices(leveled: bool) -> list[tuple[str, int]]:
    """``0 off``/``1 on``, or 0–9 for a leveled condition (a digit jumps to it)."""
    if not leveled:
        return [("0 off", 0), ("1 on", 1)]
    return [("0 off", 0), *((str(n), n) for n in range(1, 10))]


class ConditionsDialog(ModalScreen[tuple[SetCondition, ...] | None]):
    """↑↓ pick a condition, ←→ or a digit set its level, Enter applies the changes."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("enter", "apply", "Apply", id="conditions.apply"),
        Binding("escape", "dismiss(None)", "Cancel", id="conditions.cancel"),
        Binding("f1,question_mark", "app.help", "Help", id="conditions.help"),
        *focus_arrows(priority=True),
    ]
    """Enter applies every changed level; Esc leaves them as they were. ↑ ↓ move between
    rows before the list scrolls (a focused row scrolls into view)."""

    def __init__(
        self,
        combatant: str,
        name: str,
        current: Mapping[str, int],
        rows: Iterable[str] = tuple(ROWS),
    ) -> None:
        super().__init__()
        self.combatant = combatant
        self.name_text = name
        self.rows = {row: ROWS[row] for row in rows}
        """The rows offered: all of them in a fight, what the engine lets a Hero keep outside."""
        self.current = {row: current.get(row, 0) for row in self.rows}
        """Levels when the dialog opened: a row differing from them is a change."""

    def compose(self) -> ComposeResult:
        with Vertical(id="conditions-box", classes="dialog-box"):
            yield Label(f"[b]Conditions of {self.name_text}[/b] (§8)", id="conditions-title")
            with VerticalScroll(id="conditions-rows"):
                for row, (leveled, text) in self.rows.items():
                    with Horizontal(classes="condition-row"):
                        yield Stepper(row, choices(leveled), self.current[row], id=f"cond-{row}")
                        yield Static(text, classes="condition-text", markup=False)
            yield Static(id="conditions-changes", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query(Stepper).first().focus()
        self._show_changes()

    def changed(self) -> dict[str, int]:
        """Rows whose level differs from when the dialog opened."""
        levels = {row: self.query_one(f"#cond-{row}", Stepper).value for row in self.rows}
        return {row: n for row, n in levels.items() if n != self.current[row]}

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        event.stop()
        if self.is_mounted:
            self._show_changes()

    def _show_changes(self) -> None:
        changes = self.changed()
        for row in self.rows:
            self.query_one(f"#cond-{row}").parent.set_class(row in changes, "-changed")  # type: ignore[union-attr]
        text = ", ".join(f"{row} {self.current[row]}→{n}" for row, n in changes.items())
        self.query_one("#conditions-changes", Static).update(
            f"Enter applies: {text}" if text else "No change yet: ←→ or a digit sets a level"
        )

    def action_apply(self) -> None:
        changes = self.changed()
        if not changes:
            self.notify("Nothing changed (Esc goes back)")
            return
        self.dismiss(tuple(SetCondition(self.combatant, row, n) for row, n in changes.items()))
