"""One modal for every combat decision: dive for cover (R-ATK-5), the chart pick on a 13
(§7), a Sidekick's rules (R-CHAR-8) — and the menus (the zone to move to, the actions).
Re-rolls have their own dialog (reroll_dialog.py): the d10 / Hero die split is two numbers.

It lists the session's options (key, label, command) and returns the chosen command;
the caller applies it. Escape returns None: a pending decision simply stays pending.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ...campaign.combat import CombatCommand, Option
from ..widgets.keybar import KeyBar

LATER = "Close (answer later with {key})"
"""Esc's label where the dialog answers a waiting decision that ``key`` reopens."""


def relabel(screen: Screen, key: str, description: str) -> None:
    """Give ``key``'s binding on this one screen the words for what it does here (the
    key bar shows them); its action and id stay, so a remapped key still works.
    """
    bindings = screen._bindings.key_to_bindings
    bindings[key] = [replace(b, description=description) for b in bindings.get(key, ())]


class DecisionDialog(ModalScreen[CombatCommand | None]):
    """Pick an option by its key, or highlight it and press Enter."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = """\
## Decision
The fight waits for this answer; nothing else can happen until it is given.

| key | does |
| --- | --- |
| the key shown before an option | choose it |
| ↑ ↓ then Enter | choose the highlighted option |
| Esc | close: a decision stays waiting (on the combat screen Enter or `o` reopens it) |
"""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close", id="decision.later"),
        Binding("f1,question_mark", "app.help", "Help", id="decision.help"),
    ]
    """Esc leaves the decision pending; each option's own key is bound in ``__init__``."""

    def __init__(
        self, title: str, question: str, options: Sequence[Option], *, escape: str = ""
    ) -> None:
        """``escape``: what Esc does here, when more than closing (e.g. :data:`LATER`)."""
        super().__init__()
        if escape:
            relabel(self, "escape", escape)
        self.title_text = title
        self.question = question
        self.options = tuple(options)
        for index, option in enumerate(self.options):
            # per-instance bindings: the keys come from the session's options
            self._bindings.bind(option.key, f"choose({index})", option.label, show=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="decision-box"):
            yield Label(f"[b]{self.title_text}[/b]", id="decision-title")
            yield Static(self.question, id="decision-question", markup=False)
            yield OptionList(
                *(ListOption(f"{o.key}  {o.label}", id=str(i)) for i, o in enumerate(self.options)),
                id="decision-options",
            )
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose(event.option_index)

    def action_choose(self, index: int) -> None:
        self.dismiss(self.options[index].command)
