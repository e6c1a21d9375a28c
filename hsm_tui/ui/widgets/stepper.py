"""A one-line field that steps through a fixed list of choices.

Keyboard-first and always valid: ←/→ (or −/+) step, a digit jumps to that number,
so a GM can never type an impossible trait value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.events import Key
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Stepper(Widget, can_focus=True):
    """``Label  ◂ choice ▸``; posts :class:`Stepper.Changed` when the choice changes."""

    BINDINGS = [
        Binding("left,minus", "step(-1)", "Less", show=False, id="stepper.less"),
        Binding("right,plus,equals_sign", "step(1)", "More", show=False, id="stepper.more"),
    ]
    """←/− and →/+ step through the choices."""

    index: reactive[int] = reactive(0)
    """Position of the current choice in ``choices``."""

    @dataclass
    class Changed(Message):
        """The choice changed (by key or by code)."""

        stepper: Stepper
        value: Any

        @property
        def control(self) -> Stepper:
            return self.stepper

    def __init__(
        self,
        label: str,
        choices: Sequence[tuple[str, Any]],
        value: Any = None,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.label = label
        self.choices = list(choices)
        values = [v for _, v in self.choices]
        self.set_reactive(Stepper.index, values.index(value) if value in values else 0)

    @property
    def value(self) -> Any:
        return self.choices[self.index][1]

    @value.setter
    def value(self, new: Any) -> None:
        self.index = [v for _, v in self.choices].index(new)

    def set_choices(self, choices: Sequence[tuple[str, Any]], value: Any = None) -> None:
        """New choices (e.g. who can roll changed); keeps ``value`` if it is still there."""
        self.choices = list(choices)
        values = [v for _, v in self.choices]
        self.index = values.index(value) if value in values else 0
        self.refresh()

    def render(self) -> Text:
        width = max(len(label) for label, _ in self.choices)
        shown = self.choices[self.index][0].ljust(width)
        left = "◂" if self.index > 0 else " "
        right = "▸" if self.index < len(self.choices) - 1 else " "
        return Text.assemble(
            (f"{self.label:<11}", "bold"),
            f" {left} ",
            (shown, "reverse" if self.has_focus else "underline"),
            f" {right}",
        )

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.choices) - 1, self.index + delta))

    def watch_index(self) -> None:
        self.post_message(self.Changed(self, self.value))

    def on_key(self, event: Key) -> None:
        """A digit picks the choice shown as that number (or the first starting with it)."""
        if event.character and event.character.isdigit():
            for i, (label, _) in enumerate(self.choices):
                if label.lstrip("+").startswith(event.character):
                    self.index = i
                    event.stop()
                    return
