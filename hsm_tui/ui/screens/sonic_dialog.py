"""The Sonic Relik's cone: tick who is in it and can hear, pick the charges and the die.

The dialog renders the engine's plan (:func:`~hsm_tui.campaign.combat.plan_sonic`): each
candidate's band and odds, the refusal (✗) and the exact odds of the cone as set are
worked out there, the very numbers the ``SonicBlast`` handler then rolls. The caller
applies the command this dialog returns, so a refusal still comes back from the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static

from ...campaign.combat import SonicBlast, SonicPlan
from ..widgets.keybar import KeyBar
from .help_text import HelpText


class SonicDialog(ModalScreen[SonicBlast | None]):
    """Space ticks a target, ``]``/``[`` change the charges, ``d`` the die, Enter fires."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("space", "toggle", "Tick", id="sonic.tick"),
        Binding(
            "right_square_bracket", "charges(1)", "Charge +1", id="sonic.more", key_display="]"
        ),
        Binding(
            "left_square_bracket", "charges(-1)", "Charge −1", id="sonic.fewer", key_display="["
        ),
        Binding("d", "die", "Die", id="sonic.die"),
        Binding("enter", "fire", "Fire", id="sonic.fire", priority=True),
        Binding("escape", "dismiss(None)", "Cancel", id="sonic.cancel"),
        Binding("pageup", "scroll_plan(-1)", "Scroll up", show=False, priority=True),
        Binding("pagedown", "scroll_plan(1)", "Scroll down", show=False, priority=True),
        Binding("f1,question_mark", "app.help", "Help", id="sonic.help"),
    ]

    def __init__(self, command: SonicBlast, replan: Callable[[SonicBlast], SonicPlan]) -> None:
        """``command``: the cone to start from; ``replan``: the engine's plan of each cone."""
        super().__init__()
        self.replan = replan
        self.command = command
        self.plan = replan(command)

    def compose(self) -> ComposeResult:
        with Vertical(id="sonic-box", classes="dialog-box"):
            yield Label(f"[b]{self.plan.weapon.name}[/b] — cone", id="sonic-title")
            yield Static(id="sonic-count", markup=False)
            yield OptionList(*self._prompts(), id="sonic-targets")
            with VerticalScroll(id="sonic-plan-box", can_focus=False):
                yield Static(id="sonic-plan", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._show()

    def _prompts(self) -> list[Text]:
        rows = []
        for t in self.plan.candidates:
            text = Text(no_wrap=True, overflow="ellipsis")
            tick = "[x]" if t.combatant.id in self.command.targets else "[ ]"
            text.append(f"{tick} ", style="bold")
            text.append(f"{t.combatant.name[:24]:<25}", style="dim" if t.reason else "")
            text.append(f"{t.band_label:<10}", style="dim")
            text.append(t.reason or self.plan.forecast(t), style="dim")
            rows.append(text)
        return rows

    def _show(self) -> None:
        """Redraw from the engine's plan of the command as set."""
        self.plan = self.replan(self.command)
        options = self.query_one(OptionList)
        for index, prompt in enumerate(self._prompts()):
            options.replace_option_prompt_at_index(index, prompt)
        die = self.plan.weapon.damage_options[self.command.damage_choice]
        self.query_one("#sonic-count", Static).update(
            f"{self.command.charges} of {self.plan.most_charges} charge(s) · die {die}"
            f" · a failure takes {self.plan.damage} · {len(self.command.targets)} ticked"
        )
        _, *lines = self.plan.preview()  # the count line says the headline's numbers
        if self.plan.refusal:
            lines = [f"✗ {self.plan.refusal}"]
        self.query_one("#sonic-plan", Static).update("\n".join(lines))

    def _change(self, **changes: Any) -> None:
        self.command = replace(self.command, **changes)
        self._show()

    def action_toggle(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None:
            return
        cid = self.plan.candidates[index].combatant.id
        ticked = self.command.targets
        self._change(
            targets=tuple(t for t in ticked if t != cid) if cid in ticked else (*ticked, cid)
        )

    def action_charges(self, step: int) -> None:
        self._change(charges=min(max(1, self.command.charges + step), self.plan.most_charges))

    def action_die(self) -> None:
        options = len(self.plan.weapon.damage_options)
        self._change(damage_choice=(self.command.damage_choice + 1) % options)

    def action_scroll_plan(self, pages: int) -> None:
        box = self.query_one("#sonic-plan-box", VerticalScroll)
        box.scroll_to(y=box.scroll_y + pages * box.size.height, animate=False)

    def action_fire(self) -> None:
        if self.plan.refusal:
            self.notify(f"✗ {self.plan.refusal}", severity="warning")
            return
        self.dismiss(self.command)
