"""HsmApp: the Textual application. The only place (with its screens) importing Textual."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from .screens import SessionReady

if TYPE_CHECKING:
    from ..packs import LoadResult
    from ..session import Session


def _lazy(module: str, name: str) -> Callable[[], Screen]:
    """A mode's screen factory that imports the screen's module on first use, so start-up
    pays only for the first screen (combat alone pulls in the simulator and its pools).
    """

    def make() -> Screen:
        screen_class: type[Screen] = getattr(import_module(f"{__package__}.screens.{module}"), name)
        return screen_class()

    make.__qualname__ = make.__name__ = name
    return make


class HsmApp(App[None]):
    """The GM's app; every screen reads and commands ``self.session``."""

    CSS_PATH = Path(__file__).parent / "styles" / "app.tcss"  # absolute: subclasses live elsewhere
    TITLE = "hsm-tui"
    SUB_TITLE = "Heroes, Sidekicks & Minions: Relic Worlds"
    MODES = {
        "tasks": _lazy("task_roller", "TaskRollerScreen"),
        "content": _lazy("content_browser", "ContentBrowserScreen"),
        "combat": _lazy("combat", "CombatScreen"),
        "chart": _lazy("chart", "ChartScreen"),
        "log": _lazy("log", "LogScreen"),
        "builder": _lazy("encounter_builder", "EncounterBuilderScreen"),
        "campaign": _lazy("campaign", "CampaignScreen"),
    }
    """Each mode's base screen, built (and its module imported) when first shown."""
    DEFAULT_MODE = "campaign"
    BINDINGS = [
        Binding("f1,question_mark", "help", "Help", id="help"),
        Binding("f2", "switch_mode('tasks')", "Tasks", id="mode.tasks"),
        Binding("f3", "switch_mode('content')", "Content", id="mode.content"),
        Binding("f4", "switch_mode('combat')", "Combat", id="mode.combat"),
        Binding("f5", "switch_mode('chart')", "Chart", id="mode.chart"),
        Binding("f6", "switch_mode('log')", "Log", id="mode.log"),
        Binding("f7", "switch_mode('builder')", "Builder", id="mode.builder"),
        Binding("f8", "switch_mode('campaign')", "Campaign", id="mode.campaign"),
        Binding("q", "quit", "Quit", id="quit"),
    ]
    """F1/? help for the current screen; F2–F8 switch screens; q quits."""

    def __init__(
        self,
        session: Session | None = None,
        content: Sequence[str | Path] = (),
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self._session = session
        self._seed = seed
        self.content_extra = tuple(content)

    @property
    def session(self) -> Session:
        """The Session, built on first use when none was given: the engine it imports
        (~50 ms) then loads after the first frame, which the home screen draws without it.
        """
        if self._session is None:
            from ..session import Session

            self._session = Session() if self._seed is None else Session(seed=self._seed)
        return self._session

    @property
    def content(self) -> LoadResult:
        return self.session.load_content(self.content_extra)

    @property
    def has_session(self) -> bool:
        return self._session is not None

    def on_ready(self) -> None:
        """The first frame is out: now load the engine, the packs and the Session, then
        let the home screen fill in (it drew its frame without them).
        """
        self._announce_content()
        self.screen.post_message(SessionReady())

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
        from .screens.help import HelpScreen  # Markdown and its parser load on first use

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
            "Encounter builder",
            "Zones, bands, combatants from the packs, forecast, start combat (F7)",
            lambda: self.switch_mode("builder"),
        )
        yield SystemCommand(
            "Campaign",
            "The party's Luck, Clues and wounds, the roster, scene notes (F8)",
            lambda: self.switch_mode("campaign"),
        )
        yield SystemCommand(
            "Help", "Keys and quick reference for this screen (F1)", self.action_help
        )


def run_app(seed: int | None = None, content: Sequence[str] | None = None) -> int:
    """Start the app in this terminal (``hsm`` / ``hsm play``)."""
    HsmApp(content=content or (), seed=seed).run()
    return 0
