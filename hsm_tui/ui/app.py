"""HsmApp: the Textual application. The only place (with its screens) importing Textual."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from ..session import Session
from .screens.help import HelpScreen
from .screens.task_roller import TaskRollerScreen


class HsmApp(App[None]):
    """The GM's app; every screen reads and commands ``self.session``."""

    CSS_PATH = "styles/app.tcss"
    TITLE = "hsm-tui"
    SUB_TITLE = "Heroes, Sidekicks & Minions: Relic Worlds"
    BINDINGS = [
        Binding("f1,question_mark", "help", "Help", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
    ]
    """F1/? help for the current screen; q quits."""

    def __init__(self, session: Session | None = None) -> None:
        super().__init__()
        self.session = session or Session()

    def on_mount(self) -> None:
        self.push_screen(TaskRollerScreen())

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(getattr(self.screen, "HELP", "")))


def run_app(seed: int | None = None, content: list[str] | None = None) -> int:
    """Start the app in this terminal (``hsm`` / ``hsm play``)."""
    HsmApp(Session(seed=seed) if seed is not None else Session()).run()
    return 0
