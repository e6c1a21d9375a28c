"""One modal for every question: combat decisions — dive for cover (R-ATK-5), the chart
pick on a 13 (§7), a Sidekick's rules (R-CHAR-8) — the menus (the zone to move to, the
actions) and the app's own (save first? overwrite?). Re-rolls have their own dialog
(reroll_dialog.py): the d10 / Hero die split is two numbers.

It lists the options (key, label, value) and returns the chosen value, for the session's
decisions a command the caller applies. Escape returns None: a pending decision simply
stays pending.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ...campaign.combat import Option
from ..widgets.keybar import KeyBar
from .help_text import HelpText
from .question import AnswersQuestion


def bind_escape(screen: Screen, reopen: str) -> None:
    """Esc closes the dialog; where it answers a waiting decision, the key bar says which
    key (``reopen``) brings it back. A per-instance binding, like the options' keys.
    """
    label = f"Close (answer later with {reopen})" if reopen else "Close"
    screen._bindings.bind("escape", "dismiss(None)", label)


class DecisionDialog(AnswersQuestion, ModalScreen[Any]):
    """Pick an option by its key, or highlight it and press Enter."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = HelpText(__name__)
    """A list, not a table: a table's narrow first column wrapped one word a line at 80×24."""

    BINDINGS = [
        Binding("f1,question_mark", "app.help", "Help", id="decision.help"),
    ]
    """Esc (bound in ``__init__``) leaves a decision pending; so are the options' keys."""

    def __init__(
        self,
        title: str,
        question: str,
        options: Sequence[Option[Any]],
        *,
        reopen: str = "",
        answers: object = None,
    ) -> None:
        """``reopen``: the key that brings a waiting decision back, named on Esc;
        ``answers``: the session's decision it answers (:class:`AnswersQuestion`)."""
        super().__init__()
        bind_escape(self, reopen)
        self.answers = answers
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
