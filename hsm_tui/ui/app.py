"""HsmApp: the Textual application. The only place (with its screens) importing Textual."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.events import Resize
from textual.screen import Screen

from .commands import ScreenActions
from .screens import SessionReady
from .too_small import fit_to_size, keep_to_size

if TYPE_CHECKING:
    from ..packs import LoadResult
    from ..table.seated import SeatedSession
    from ..table.seats import Seat
    from ..table.session import Session
    from .autosave import AppAutosaver
    from .screens.seats_dialog import Sharing


def _lazy(module: str, name: str) -> Callable[[], Screen]:
    """A mode's screen factory that imports the screen's module on first use, so start-up
    pays only for the first screen (combat alone pulls in the simulator and its pools).
    """

    def make() -> Screen:
        screen_class: type[Screen] = getattr(import_module(f"{__package__}.screens.{module}"), name)
        return screen_class()

    make.__qualname__ = make.__name__ = name
    return make


@dataclass(frozen=True)
class Place:
    """One of the app's screens: its key, mode, where its class lives, and what it is for
    (the key bar, the command palette and the help overlay all read this one table).
    """

    key: str
    mode: str
    module: str
    screen: str
    label: str
    title: str
    about: str


PLACES = (
    Place("f8", "campaign", "campaign", "CampaignScreen", "Home", "Campaign (home)",
          "the party's Luck, Clues and wounds, the roster, scene notes"),
    Place("f2", "tasks", "task_roller", "TaskRollerScreen", "Tasks", "Task roller",
          "free-flowing tasks, opposed and group tasks, with exact odds"),
    Place("f3", "content", "content_browser", "ContentBrowserScreen", "Content",
          "Content browser", "packs, weapons, minions, sidekicks, heroes, chart, problems"),
    Place("f4", "combat", "combat", "CombatScreen", "Combat", "Combat",
          "initiative, turns, attacks with exact odds, every action and decision"),
    Place("f5", "chart", "chart", "ChartScreen", "Chart", "Severe Wound chart",
          "§7 chart with exact odds for a Hero; roll on it"),
    Place("f6", "log", "log", "LogScreen", "Log", "Session log",
          "every roll explained: search it, export it as Markdown"),
    Place("f7", "builder", "encounter_builder", "EncounterBuilderScreen", "Builder",
          "Encounter builder", "zones, bands, combatants from the packs, forecast, start"),
)  # fmt: skip
"""The screens in the order a GM meets them: home first, then F2–F7."""

SCREENS_HELP = "\n".join(
    [
        "## Screens (any time)",
        "| key | screen | for |",
        "| --- | --- | --- |",
        *(f"| {p.key.upper()} | {p.title} | {p.about} |" for p in PLACES),
        "| q | quit | asks first when anything is unsaved (s saves, then quits) |",
        "",
    ]
)
"""The part of every help overlay that says where else to go."""

CAMPAIGN_FILE_COMMANDS = (
    ("Save campaign", "Save to its file; the first time, name it (S on home)", "save_campaign"),
    ("Save campaign as…", "Save under a new name: a new file", "save_campaign(True)"),
    ("Open campaign", "Recent campaigns, newest first (O on home)", "open_campaign"),
    ("New campaign", "Start afresh; asks first if anything is unsaved (C on home)", "new_campaign"),
)
"""In the palette on every screen: a file is never more than ctrl+p away."""


UNSAVED = "unsaved"
"""The app's result when the GM quit leaving changes unsaved, by choice."""


class HsmApp(App[str | None]):
    """The GM's app; every screen reads and commands ``self.session``."""

    CSS_PATH = Path(__file__).parent / "styles" / "app.tcss"  # absolute: subclasses live elsewhere
    TITLE = "hsm-tui"
    SUB_TITLE = "Heroes, Sidekicks & Minions: Relic Worlds"
    MODES = {p.mode: _lazy(p.module, p.screen) for p in PLACES[1:]}
    """F2–F7: each mode's base screen, built (and its module imported) when first shown;
    home's mode is added when the app mounts (:meth:`get_default_screen`)."""
    DEFAULT_MODE = PLACES[0].mode
    COMMANDS = App.COMMANDS | {ScreenActions}
    """The palette offers the system commands and every described key of the screen on top
    (its own and any dialog's): one provider for all, so no screen can be left out.
    """
    BINDINGS = [
        Binding("f1,question_mark", "help", "Help", id="help"),
        *(Binding(p.key, f"switch_mode('{p.mode}')", p.label, id=f"mode.{p.mode}") for p in PLACES),
        Binding("q", "quit", "Quit", id="quit"),
        Binding("ctrl+t,f9", "seats", "Seats", show=False, id="seats"),
    ]
    """F1/? help for the current screen; F2–F8 switch screens; q quits; ctrl+t or F9 (a
    browser keeps ctrl+t for a new tab) lists the shared table's seats."""

    def __init__(
        self,
        session: Session | None = None,
        content: Sequence[str | Path] = (),
        seed: int | None = None,
        seat: Seat | None = None,
        guard: bool = False,
    ) -> None:
        super().__init__()
        self.guard = guard
        """Guard the campaign files as ``hsm play`` does (tests ask for it): autosave and
        offer recovery, and lock the campaign open here against a second hsm-tui."""
        self.autosaver: AppAutosaver | None = None
        self.locked: Path | None = None
        """The campaign file this app holds the lock of (``persistence/lock.py``)."""
        self.read_only: Path | None = None
        """The campaign file opened read-only (another hsm-tui holds it): S saves as."""
        self._session = session
        self._seed = seed
        self.content_extra = tuple(content)
        self.seat = seat
        """Who sits at this app (None: the GM at the local terminal); every command the
        screens send goes out as this seat's (:attr:`table`)."""
        self._table: SeatedSession | None = None
        self.sharing: Sharing | None = None
        """The SSH server this app's session is shared through (``hsm serve``), or None."""

    def get_default_screen(self) -> Screen:
        """Home, as Textual's default screen rather than a mode's (its CSS is the app's):
        Textual mounts a mode's first screen inside the app's first batched update, so
        home's first layout and render (~10 ms) were thrown away and done again; the
        default screen mounts after that batch, and its first render is the first frame.
        """
        return _lazy(PLACES[0].module, PLACES[0].screen)()

    def on_mount(self) -> None:
        """Home's mode for F8 and the palette; starting on home, its stack is there already.
        Below 80×24 every screen asks for a larger window."""
        self.add_mode(PLACES[0].mode, self.get_default_screen)
        keep_to_size(self)

    def on_resize(self, event: Resize) -> None:
        fit_to_size(self, event.size)

    @property
    def session(self) -> Session:
        """The Session, built on first use when none was given: the engine it imports
        (~50 ms) then loads after the first frame, which the home screen draws without it.
        """
        if self._session is None:
            from ..table.session import Session

            self._session = Session() if self._seed is None else Session(seed=self._seed)
        return self._session

    @property
    def table(self) -> SeatedSession:
        """This app's handle on the session: it stamps :attr:`seat` on every command."""
        if self._table is None:
            from ..table.seated import SeatedSession
            from ..table.seats import GM_SEAT

            self._table = SeatedSession(self.session, self.seat or GM_SEAT)
        return self._table

    @property
    def content(self) -> LoadResult:
        return self.session.load_content(self.content_extra)

    @property
    def has_session(self) -> bool:
        return self._session is not None

    async def on_ready(self) -> None:
        """The first frame is out: now load the engine, the packs and the Session, then
        let the home screen fill in (it drew its frame without them).
        """
        # One turn of the loop first: the screen's frame timer starts now, so the frame
        # with the party comes at its next tick, not a whole frame (16.7 ms) after it.
        await asyncio.sleep(0)
        gc.disable()  # as from hsm's start (cli/play.py): none through the engine's load either
        try:
            self._announce_content()
        finally:
            _keep_what_start_built()
        self.screen.post_message(SessionReady())
        if self.guard:  # after home shows the party (~5 ms sooner); each autosave is whole
            self.call_after_refresh(self._guard_files)

    def _guard_files(self) -> None:
        """Hold the campaign open here (ask if another hsm-tui does); autosave from now
        on; offer the autosave of this campaign (or, with none open, the newest in the
        saves folder) if it holds play its file does not.
        """
        from .autosave import AppAutosaver, recovery_for
        from .campaign_lock import claim

        self.autosaver = AppAutosaver(self)
        self.session.subscribe(self.autosaver.changed)
        file = self.session.file
        autosaver = self.autosaver

        def offer() -> None:  # once "Campaign in use" is answered, never on top of it
            offered = recovery_for(file)
            if offered is not None:
                autosaver.offer(offered)

        if file is not None:
            claim(self, file, offer)
        else:
            offer()

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
        """Help for whatever screen or dialog is on top, and where else to go."""
        from .screens.help_text import open_help

        open_help(self, SCREENS_HELP)

    async def action_quit(self) -> None:
        """Quit at once when nothing is unsaved; otherwise offer to save first. The app's
        result says whether the GM chose to leave changes unsaved (``hsm serve`` then
        does not save them behind the GM's back)."""
        if not self.has_session:
            self.exit()
            return
        from .files import keep_or_lose

        def leave() -> None:
            self.exit(UNSAVED if self.session.unsaved else None)

        keep_or_lose(self, "Quit hsm-tui?", leave, ("q", "quit without saving (q again)"))

    def action_seats(self) -> None:
        """Who sits at the shared table (``hsm serve``): seats and connections."""
        if self.sharing is None:
            self.notify("this table is not shared: hsm serve shares it over SSH")
            return
        from .screens.seats_dialog import SeatsDialog

        if not isinstance(self.screen, SeatsDialog):
            self.push_screen(SeatsDialog(self.sharing))

    def action_save_campaign(self, ask: bool = False) -> None:
        """Save the campaign to its file (the first time, or ``ask``, name it)."""
        from .files import save

        save(self, ask=ask)

    def action_open_campaign(self) -> None:
        """Open one of the recent campaigns (asks first if anything is unsaved)."""
        from .files import open_recent

        open_recent(self)

    def action_new_campaign(self) -> None:
        """Start a fresh campaign (asks first if anything is unsaved)."""
        from .files import new_campaign

        new_campaign(self)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for place in PLACES:
            yield SystemCommand(
                place.title,
                f"{place.about[0].upper()}{place.about[1:]} ({place.key.upper()})",
                partial(self.switch_mode, place.mode),
            )
        yield SystemCommand(
            "Help", "Keys and quick reference for this screen (F1)", self.action_help
        )
        if self.sharing is not None:
            yield SystemCommand(
                "Seats",
                "Who sits at the shared table, who is connected (ctrl+t or F9)",
                self.action_seats,
            )
        for title, about, action in CAMPAIGN_FILE_COMMANDS:
            yield SystemCommand(title, about, partial(self.run_action, action))


def _keep_what_start_built() -> None:
    """Exempt what is alive now (Textual, the parsed CSS, the first screen, the engine and
    the packs: all live as long as the app) from the cyclic collector, once per process,
    then collect again. Until now no collection ran (``hsm`` pauses it before Textual
    loads, cli/play.py): each would walk all of that while the GM waits (~6 ms of the first
    frame, ~10 ms more until home shows the party), and every full one later would again.
    Reference counting still frees those objects; only a cycle already garbage is kept (a
    few hundred objects; once, not per app: ``hsm serve`` starts an app per player).
    """
    if not gc.get_freeze_count():
        gc.freeze()
    gc.enable()


def run_app(
    seed: int | None = None, content: Sequence[str] | None = None, campaign: str | None = None
) -> int:
    """Start the app in this terminal (``hsm`` / ``hsm play [CAMPAIGN]``). A campaign file
    is read before the app starts, so a bad one is refused (CampaignFileError) at once.
    """
    session = None
    if campaign is not None:
        from ..persistence import store
        from ..table.session import Session

        session = Session() if seed is None else Session(seed=seed)
        session.load_content(content or ())
        store.load(session, store.find(campaign))
    from ..forecast import fight_pool

    fight_pool.before_apps()  # while stderr is still the terminal's
    app = HsmApp(session, content=content or (), seed=seed, guard=True)
    try:
        app.run()
    finally:
        release(app)
        fight_pool.stop()  # a forecast still running is not played out before exit
    return 0


def release(app: HsmApp) -> None:
    """After a guarded app (``hsm play``, ``hsm serve``'s own): the last autosave
    written, the campaign's lock let go."""
    if app.autosaver is not None:
        app.autosaver.close()
    from .campaign_lock import let_go

    let_go(app)
