"""HsmApp: the Textual application. The only place (with its screens) importing Textual."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from ..packs import LoadResult
from ..session import Session
from .screens.chart import ChartScreen
from .screens.combat import CombatScreen
from .screens.content_browser import ContentBrowserScreen
from .screens.help import HelpScreen
from .screens.log import LogScreen
from .screens.task_roller import TaskRollerScreen


class HsmApp(App[None]):
    """The GM's app; every screen reads and commands ``self.session``."""

    CSS_PATH = "styles/app.tcss"
    TITLE = "hsm-tui"
    SUB_TITLE = "Heroes, Sidekicks & Minions: Relic Worlds"
    MODES = {
        "tasks": TaskRollerScreen,
        "content": ContentBrowserScreen,
        "combat": CombatScreen,
        "chart": ChartScreen,
        "log": LogScreen,
    }
    DEFAULT_MODE = "tasks"
    BINDINGS = [
        Binding("f1,question_mark", "help", "Help", id="help"),
        Binding("f2", "switch_mode('tasks')", "Tasks", id="mode.tasks"),
        Binding("f3", "switch_mode('content')", "Content", id="mode.content"),
        Binding("f4", "switch_mode('combat')", "Combat", id="mode.combat"),
        Binding("f5", "switch_mode('chart')", "Chart", id="mode.chart"),
        Binding("f6", "switch_mode('log')", "Log", id="mode.log"),
        Binding("q", "quit", "Quit", id="quit"),
    ]
    """F1/? help for the current screen; F2–F6 switch screens; q quits."""

    def __init__(self, session: Session | None = None, content: Sequence[str | Path] = ()) -> None:
        super().__init__()
        self.session = session or Session()
        self.content_extra = tuple(content)

    @property
    def content(self) -> LoadResult:
        return self.session.load_content(self.content_extra)

    def on_mount(self) -> None:
        self.call_after_refresh(self._announce_content)

    def _announce_content(self) -> None:
        errors = len(self.content.errors)
        warnings = len(self.content.problems) - errors
        if errors or warnings:
            self.notify(
                f"{errors} error(s), {warnings} warning(s) in content packs: F3 → Problems",
                title="Content",
                severity="error" if errors else "warning",
            )

    def action_help(self) -> None:
        """Help for whatever screen or dialog is on top (its ``HELP`` text)."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(getattr(self.screen, "HELP", "")))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(
            "Task roller",
            "Free-flowing tasks with exact odds (F2)",
            lambda: self.switch_mode("tasks"),
        )
        yield SystemCommand(
            "Content browser",
            "Packs, weapons, minions, chart, problems (F3)",
            lambda: self.switch_mode("content"),
        )
        yield SystemCommand(
            "Combat",
            "Initiative, combatants, attacks with exact odds (F4)",
            lambda: self.switch_mode("combat"),
        )
        yield SystemCommand(
            "Severe Wound chart",
            "§7 chart with exact odds for a Hero; roll on it (F5)",
            lambda: self.switch_mode("chart"),
        )
        yield SystemCommand(
            "Session log",
            "The whole log: search it, export it as Markdown (F6)",
            lambda: self.switch_mode("log"),
        )
        yield SystemCommand(
            "Help", "Keys and quick reference for this screen (F1)", self.action_help
        )


def run_app(seed: int | None = None, content: Sequence[str] | None = None) -> int:
    """Start the app in this terminal (``hsm`` / ``hsm play``)."""
    session = Session(seed=seed) if seed is not None else Session()
    HsmApp(session, content or ()).run()
    return 0
