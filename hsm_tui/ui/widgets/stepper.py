"""A one-line field that steps through a fixed list of choices.

Keyboard-first and always valid: ←/→ (or −/+) step, digits jump to that number (typed
in quick succession they build one: 1 then 2 is 12), so a GM can never type an impossible
trait value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from time import monotonic
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.events import Key
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


def focus_arrows(priority: bool = False) -> list[Binding]:
    """↑/↓ move between a form's stacked fields, as ←/→ are a stepper's own; ``priority``
    where a focused child would take the arrows first (a scrolling list)."""
    return [
        Binding("up", "app.focus_previous", show=False, priority=priority),
        Binding("down", "app.focus_next", show=False, priority=priority),
    ]


class Stepper(Widget, can_focus=True):
    """``Label  ◂ choice ▸``; posts :class:`Stepper.Changed` when the choice changes."""

    DEFAULT_CSS = """
    Stepper {
        height: 1;
    }
    Stepper:focus {
        background: $boost;
    }
    """
    """One line wherever it is used, the player's app too (whose styles are not the GM's):
    a plain widget would fill its box and push the fields below it out of sight."""

    BINDINGS = [
        Binding("left,minus", "step(-1)", "Less", show=False, id="stepper.less"),
        Binding("right,plus,equals_sign", "step(1)", "More", show=False, id="stepper.more"),
    ]
    """←/− and →/+ step through the choices."""

    TYPE_AHEAD_SECONDS: ClassVar[float] = 1.0
    """A digit typed within this long of the previous one extends the number (like a list's
    type-ahead), so counts of 10 or more can be typed."""

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
        self._typed = ""
        """The digits typed so far, while they still pick a choice."""
        self._typed_at = 0.0
        """When the last of them was typed (``monotonic``)."""

    @property
    def value(self) -> Any:
        return self.choices[self.index][1]

    @value.setter
    def value(self, new: Any) -> None:
        self._typed = ""  # set by code (e.g. back to 1 after an add): the next digit starts anew
        self.index = [v for _, v in self.choices].index(new)

    def set_choices(self, choices: Sequence[tuple[str, Any]], value: Any = None) -> None:
        """New choices (e.g. who can roll changed); keeps ``value`` if it is still there."""
        self._typed = ""
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
        self._typed = ""
        self.index = max(0, min(len(self.choices) - 1, self.index + delta))

    def watch_index(self) -> None:
        self.post_message(self.Changed(self, self.value))

    def type_digit(self, digit: str) -> bool:
        """Pick the choice shown as the digits typed so far plus ``digit`` when the last came
        within ``TYPE_AHEAD_SECONDS`` (1 then 2 is 12), else as ``digit`` alone; False if
        neither is a choice (nothing changes). Public so the builder's pack list types into
        its Count field the same way.
        """
        now = monotonic()
        tries = [digit]
        if self._typed and now - self._typed_at <= self.TYPE_AHEAD_SECONDS:
            tries.insert(0, self._typed + digit)
        self._typed, self._typed_at = "", now
        for typed in tries:
            index = self._match(typed)
            if index is not None:
                self._typed = typed
                self.index = index
                return True
        return False

    def _match(self, typed: str) -> int | None:
        """The choice shown as ``typed`` (a leading + ignored), else the first starting with it."""
        shown = [label.lstrip("+") for label, _ in self.choices]
        if typed in shown:
            return shown.index(typed)
        return next((i for i, label in enumerate(shown) if label.startswith(typed)), None)

    def on_key(self, event: Key) -> None:
        """Digits type a choice (see :meth:`type_digit`)."""
        if event.character and event.character.isdigit() and self.type_digit(event.character):
            event.stop()

    def on_blur(self) -> None:
        """Typing elsewhere and back starts a new number."""
        self._typed = ""
