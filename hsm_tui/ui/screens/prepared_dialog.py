"""Encounters prepared ahead, over F7 (``P``): each with its place, its sides and its
forecast. Enter loads one into the builder; ``k`` keeps the builder's encounter by name,
``x`` drops one, ``i`` imports an encounter file and ``e`` exports one. Every change is
one session command (``u`` undoes it); the list follows the session, and the forecasts
are played in a thread, kept by the builder so that reopening plays none again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from ...campaign.combat import Option as Choice
from ...campaign.prepared import (
    DropEncounter,
    KeepEncounter,
    LoadEncounter,
    PreparedEncounter,
    named,
    prepared_name,
)
from ...campaign.staging import fight_refusal, packs_refusal
from ...packs import Catalog
from ...persistence import store
from ...persistence.encounter_file import read_prepared, spec_of, write_encounter
from ...rules.errors import RulesError
from ...table.prepared import described
from ..widgets.forecast_panel import forecast_summary
from ..widgets.keybar import KeyBar
from . import SessionScreen
from .help_text import HelpText
from .name_dialog import NameDialog

Forecasts = dict[tuple[PreparedEncounter, int], str]
"""Each prepared encounter's forecast line by the encounter and the seed it was played with."""
PLAYING = "forecast: playing its fights…"


def encounters_folder() -> Path:
    """Where encounter files go unless the GM types another path: beside the campaigns."""
    return store.saves_folder() / "encounters"


def typed_path(text: str) -> str:
    """A path the GM typed (``~`` for home), or why it is none."""
    if not text.strip():
        raise RulesError("type a file's path")
    return str(Path(text.strip()).expanduser())


class TextDialog(NameDialog):
    """One line asked, checked as it is typed by ``rule``; ``said`` tells what Enter does."""

    HELP = HelpText(__name__)
    LONGEST = 4096

    def __init__(
        self, title: str, text: str, rule: Callable[[str], str], said: Callable[[str], str]
    ) -> None:
        super().__init__(title, text, "")
        self._rule, self._said = rule, said

    def rule(self, text: str) -> str:
        return self._rule(text)

    def said(self, text: str) -> str:
        return self._said(self._rule(text))


def row_text(prep: PreparedEncounter, why: str, forecast: str) -> Text:
    """A prepared encounter on two lines: its name and what it holds, then why it cannot
    be loaded now (✗, the engine's reason) or its forecast."""
    text = Text.assemble((prep.name, "bold"), (f" · {described(prep)}", "dim"))
    second = f"✗ {why}" if why else forecast or PLAYING
    return text.append(f"\n  {second}", "" if why or forecast else "dim")


class PreparedDialog(SessionScreen, ModalScreen[None]):
    """The prepared encounters; Esc (or P) goes back to the builder."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText(__name__)
    BINDINGS = [
        Binding("l,enter", "load", "Load", id="prepared.load", tooltip="Into the builder"),
        Binding("k", "keep", "Keep", id="prepared.keep", tooltip="Keep the builder's encounter"),
        Binding("x,delete", "drop", "Drop", id="prepared.drop"),
        Binding("i", "import", "Import", id="prepared.import", tooltip="Read an encounter file"),
        Binding("e", "export", "Export", id="prepared.export", tooltip="Write an encounter file"),
        Binding("u,ctrl+z", "undo", "Undo", id="prepared.undo"),
        Binding("escape,P", "dismiss(None)", "Back", id="prepared.close"),
        Binding("f1", "app.help", "Help", id="prepared.help"),
    ]

    @dataclass
    class Forecasted(Message, bubble=False):
        """The forecast of ``prep`` (played with ``seed``) is ``line``."""

        prep: PreparedEncounter
        seed: int
        line: str

    def __init__(self, forecasts: Forecasts) -> None:
        super().__init__()
        self.forecasts = forecasts
        """The builder's: forecasts outlive the dialog, as the encounters do."""
        self._queued: set[tuple[PreparedEncounter, int]] = set()
        """Forecasts a worker of this dialog plays or will: none is started twice."""
        self._refused: dict[PreparedEncounter, str] = {}
        """Each encounter's packs' reason (:func:`packs_refusal`), for the catalog below."""
        self._refused_with: Catalog | None = None
        """The catalog those reasons were worked out with (the packs and made characters)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="prepared-box"):
            yield Label("[b]Prepared encounters[/b] (the GM's alone)")
            yield OptionList(id="prepared-list")
            yield Static(id="prepared-note")
        yield KeyBar()

    def on_mount(self) -> None:
        self.follow_session(self.show)
        self.show()
        self.query_one(OptionList).focus()

    @property
    def prepared(self) -> tuple[PreparedEncounter, ...]:
        return self.session.campaign.prepared

    def show(self) -> None:
        """The list as the session has it, the highlight kept; forecasts not yet played
        are started."""
        options = self.query_one(OptionList)
        at = options.highlighted
        catalog, seed = self.session.catalog, self.session.seed
        options.clear_options()
        options.add_options(
            Option(row_text(p, self._refusal(p), self.forecasts.get((p, seed), "")))
            for p in self.prepared
        )
        if self.prepared:
            options.highlighted = min(at or 0, len(self.prepared) - 1)
        note = (
            "Enter loads one into the builder; it stays here for a rematch."
            if self.prepared
            else "Nothing prepared yet: k keeps the builder's encounter by name; "
            "i imports an encounter file."
        )
        self.query_one("#prepared-note", Static).update(Text(note, "dim"))
        todo = [(p, seed) for p in self.prepared if (p, seed) not in self.forecasts]
        todo = [key for key in todo if key not in self._queued]
        if todo:
            self._queued.update(todo)
            self._forecast([p for p, _ in todo], catalog, seed)

    def _refusal(self, prep: PreparedEncounter) -> str:
        """The engine's reason ``prep`` cannot be loaded now (:func:`load_refusal`), its
        packs' part kept while the catalog is the same: a refresh of 40 prepared
        encounters set each up again (~60 ms)."""
        catalog = self.session.catalog
        if catalog is not self._refused_with:
            self._refused, self._refused_with = {}, catalog
        if prep not in self._refused:
            self._refused[prep] = packs_refusal(prep, catalog)
        return fight_refusal(prep, self.session.encounter) or self._refused[prep]

    @work(thread=True, group="prepared-forecasts", exit_on_error=False)
    def _forecast(self, todo: list[PreparedEncounter], catalog: Catalog, seed: int) -> None:
        """One forecast after the other, off the UI thread; stops once the dialog closes."""
        worker = get_current_worker()
        for prep in todo:
            try:
                line = forecast_summary(spec_of(prep), catalog, seed, lambda: worker.is_cancelled)
            except Exception as err:  # a thread's failure is a row's note, never a crash
                line = f"✗ the simulation failed: {err}"
            if line is None or worker.is_cancelled:
                return
            self.post_message(self.Forecasted(prep, seed, line))

    def on_prepared_dialog_forecasted(self, event: Forecasted) -> None:
        self.forecasts[(event.prep, event.seed)] = event.line
        self.show()

    def _highlighted(self) -> PreparedEncounter | None:
        at = self.query_one(OptionList).highlighted
        if at is None or not self.prepared:
            self.notify("Nothing prepared yet: k keeps the builder's encounter")
            return None
        return self.prepared[at]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_load()

    # -- commands ------------------------------------------------------------------
    def action_load(self) -> None:
        """Load the highlighted one; over an encounter already set up, ask first (it goes,
        as with N). One the engine refuses (a fight is on) is refused at once, with why."""
        prep = self._highlighted()
        if prep is None:
            return
        enc, load = self.session.encounter, LoadEncounter(prep.name)
        if self._refusal(prep) or not (enc.zones or enc.combatants):
            self._loaded(load)  # nothing to lose, or the engine says why not
            return
        question = (
            f"Load {prep.name!r} in place of the builder's encounter? Its "
            f"{len(enc.combatants)} combatant(s), zones and bands go; the party keeps its "
            f"wounds, Luck and Clues; {prep.name!r} stays prepared. (u undoes it)"
        )
        options = [Choice("y", f"yes: load {prep.name}", load)]
        from .decision_dialog import DecisionDialog

        self.app.push_screen(
            DecisionDialog("Load a prepared encounter", question, options), self._loaded
        )

    def _loaded(self, command: LoadEncounter | None) -> None:
        if command is not None and self._apply(command):
            self.dismiss(None)
            self.notify(f"{command.name} loaded: s starts the fight")

    def action_keep(self) -> None:
        """Keep the builder's encounter by a name; a name already kept is replaced (said
        before Enter; u undoes it)."""

        def said(name: str) -> str:
            if name.casefold() in {p.name.casefold() for p in self.prepared}:
                return f"✓ Enter keeps the builder's encounter in place of {name!r}"
            return f"✓ Enter keeps the builder's encounter as {name!r}"

        def kept(name: str | None) -> None:
            if name is not None:
                known = {p.name.casefold() for p in self.prepared}
                self._apply(KeepEncounter(name, replace=name.casefold() in known))

        dialog = TextDialog("Keep the builder's encounter as", "", prepared_name, said)
        self.app.push_screen(dialog, kept)

    def action_drop(self) -> None:
        prep = self._highlighted()
        if prep is not None and self._apply(DropEncounter(prep.name)):
            self.notify(f"{prep.name} dropped (u brings it back)")

    def action_import(self) -> None:
        """An encounter file into the list, by the name it gives itself; one of that name
        already kept is replaced only when the GM says so."""

        def read(path: str | None) -> None:
            if path is None:
                return
            try:
                prep = read_prepared(Path(path), self.session.catalog)
            except RulesError as err:
                self.notify(str(err), title="Not imported", severity="error")
                return
            try:
                named(self.prepared, prep.name)
            except RulesError:
                self._apply(KeepEncounter(prep.name, prep))
                return
            replace = Choice(
                "r", f"replace the prepared {prep.name}", KeepEncounter(prep.name, prep, True)
            )
            question = f"{prep.name!r} is prepared already. Replace it with {path}'s?"
            self.choose("Import an encounter file", question, [replace])

        start = f"{encounters_folder()}/"
        dialog = TextDialog(
            "Import an encounter file", start, typed_path, lambda p: f"✓ Enter reads {p}"
        )
        self.app.push_screen(dialog, read)

    def action_export(self) -> None:
        """The highlighted one as an encounter file (``hsm simulate --encounter`` plays it)."""
        prep = self._highlighted()
        if prep is None:
            return

        def said(path: str) -> str:
            over = " (over the file there)" if Path(path).is_file() else ""
            return f"✓ Enter writes {path}{over}"

        def write(path: str | None) -> None:
            if path is None:
                return
            try:
                written = write_encounter(prep, Path(path))
            except OSError as err:
                why = err.strerror or err
                self.notify(f"{path}: cannot write ({why})", title="Not written", severity="error")
                return
            self.notify(f"{prep.name} written to {written}")

        start = str(encounters_folder() / store.file_name(prep.name))
        self.app.push_screen(TextDialog(f"Export {prep.name} to", start, typed_path, said), write)
