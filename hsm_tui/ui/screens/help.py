"""F1 help overlay: the current screen's keys and the quick reference a GM needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

QUICK_REFERENCE = """\
### Target number (R-TASK-1)
Two traits (or one doubled) + one skill + 1 for a Talent − the **largest** difficulty
(light 1, medium 2, heavy 3). Wound (−1/−2), condition, range and extra-action
modifiers **add**.

### Rolling (R-TASK-2..6)
d10 ≤ TN succeeds; a natural 10 always fails. TN ≤ 0: Minions fail; a Hero needs
d10 = 1 and Hero die ≥ 2 − TN. Hero die: 1 ✗ Misfortune, 4/5 ◆ Special, 6 ★ Fortune.
Re-rolls are split between d10 and Hero die after the roll, rolled at once, best kept.

### Strength die (R-ATK-1)
Strength 1 d4 · 2 d6 · 3 d8 · 4 d10 · 5 d12
"""


class HelpScreen(ModalScreen[None]):
    """Keys of the screen underneath plus the quick-reference tables."""

    BINDINGS = [Binding("escape,f1,q,question_mark", "dismiss", "Close help", id="help.close")]
    """Esc, F1, q or ? closes the overlay."""

    def __init__(self, screen_help: str) -> None:
        super().__init__()
        self.screen_help = screen_help

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Markdown(self.screen_help + "\n" + QUICK_REFERENCE)
