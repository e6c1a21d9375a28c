"""Encounter builder: zones, range bands, combatants from the packs, a forecast, then the fight.

Every change is one command to the session (``u`` undoes it), so the encounter built here
is the very one the combat screen plays. The screen lays out its widgets, shows them the
session after every change and turns each key into one command or one widget call; what
the GM is typing or pointing at, and the last forecast, live in the widgets (a view of
the encounter, not state).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widgets import OptionList

from ...campaign.combat import (
    AddCombatants,
    AddZone,
    ClearEncounter,
    DecideSidekick,
    PendingSidekick,
    RemoveCombatant,
    SetBand,
    SetCover,
    StartCombat,
    next_cover,
)
from ...campaign.combat import Option as Choice
from ...campaign.encounter import Combatant, Encounter
from ...campaign.party import AddParty
from ...forecast.simulate import Forecast
from ...persistence.encounter_file import EncounterSpec
from ...rules import Rank
from ...table.seat_choices import cover_options, place_options
from ..widgets.band_list import BandList
from ..widgets.encounter_list import EncounterList, who_is_there
from ..widgets.forecast_panel import ForecastPanel
from ..widgets.keybar import KeyBar
from ..widgets.pack_picker import PackPicker
from ..widgets.side_field import SideField
from ..widgets.stepper import Stepper, focus_arrows
from ..widgets.title_bar import TitleBar
from ..widgets.zone_panel import ZonePanel
from . import SessionScreen, set_border_titles
from .decision_dialog import DecisionDialog
from .help_text import HelpText

if TYPE_CHECKING:
    from .prepared_dialog import Forecasts


def party_zones(enc: Encounter, side: str) -> list[Choice]:
    """Where the party may start: one option per zone, saying who waits there."""
    options = []
    for i, zone in enumerate(enc.zones):
        key, there = str(i + 1) if i < 9 else "", who_is_there(zone, enc)
        options.append(Choice(key, f"{zone}: {there}", AddParty(zone, side)))
    return options


def new_encounter_question(enc: Encounter) -> tuple[str, list[Choice]]:
    """What a new encounter discards, asked first: keep the zones and bands, or not."""
    n = len(enc.combatants)
    options = [Choice("z", "clear the zones and bands too", ClearEncounter(keep_zones=False))]
    leave = "Only the zones and bands are left to clear."
    if n:
        options.insert(0, Choice("y", "yes: keep the zones and bands", ClearEncounter()))
        leave = f"The {n} combatant(s) leave; the party keeps its wounds, Luck and Clues."
    return f"Start a new encounter? {leave} (u undoes it; Esc keeps this one)", options


class EncounterBuilderScreen(SessionScreen):
    """Zones and bands | pack picker | the encounter's combatants, over the forecast."""

    CSS_PATH = "../styles/builder.tcss"
    UNSAVED_PANEL = "#builder-zones"
    PALETTE_PREFIX = "Builder"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    """From 100 columns the side lists widen; below 30 rows the header gives way."""

    HELP = HelpText(__name__)
    """F1's text for this screen, kept in ``encounter_builder.md``."""

    BINDINGS = [
        Binding("z", "new_zone", "Zone", id="builder.zone", tooltip="Add a zone"),
        Binding(
            "b", "band(1)", "Band", show=False, id="builder.band", tooltip="Next band of the pair"
        ),
        Binding("p", "party", "Party", id="builder.party", tooltip="Add the whole party"),
        Binding(
            "x,delete",
            "remove",
            "Remove",
            id="builder.remove",
            tooltip="Remove the highlighted combatant",
        ),
        Binding(
            "N", "new_encounter", "New", id="builder.new", tooltip="New encounter (asks first)"
        ),
        Binding("F,f", "forecast", "Forecast", id="builder.forecast", tooltip="200 fights"),
        Binding("s", "start", "Start", id="builder.start", tooltip="Start combat (F4)"),
        Binding(
            "P",
            "prepared",
            "Prepared",
            id="builder.prepared",
            tooltip="Encounters prepared ahead: keep this one, load, import, export",
        ),
        Binding("c", "cover", "Cover", id="builder.cover", tooltip="Cycle cover"),
        Binding(
            "g",
            "group",
            "Group",
            show=False,
            id="builder.group",
            tooltip="One cover or one zone for the highlighted combatant's whole group",
        ),
        Binding("d", "decide", "Sidekick", id="builder.decide", tooltip="Sidekick's rules"),
        Binding(
            "J",
            "dive_policy",
            "Dive policy",
            show=False,
            id="builder.dive-policy",
            tooltip="How a side's Minions answer dive questions: once, for all",
        ),
        Binding(
            "M",
            "make",
            "Make one-off",
            show=False,
            id="builder.make",
            tooltip="A one-off minion or sidekick: the highlighted entry copied into the builder",
        ),
        Binding(
            "h",
            "hidden",
            "Add hidden",
            show=False,
            id="builder.hidden",
            tooltip="New entries join hidden from the players (h again: seen)",
        ),
        Binding("u,ctrl+z", "undo", "Undo", id="builder.undo", tooltip="Undo the last change"),
        Binding("y,ctrl+y", "redo", "Redo", show=False, id="builder.redo"),
        Binding("B", "band(-1)", "Previous band", show=False, id="builder.band-back"),
        Binding("slash", "search", "Search packs", show=False, id="builder.search"),
        Binding("escape", "escape", "Back to the list", show=False, id="builder.escape"),
        Binding("enter", "add", "Add entry", show=False, id="builder.add"),
        Binding("left", "panel(-1)", show=False, id="builder.left"),
        Binding("right", "panel(1)", show=False, id="builder.right"),
        *focus_arrows(),
    ]
    """One key per change; lists and fields handle their own keys first. The key bar
    shows them in this order and drops the last ones at 80 columns (c and d are named
    in the encounter list's subtitle)."""

    PANELS = ("#builder-zone-list", "#builder-bands", "#builder-entries", "#builder-roster")
    """The lists ← and → move between."""

    def __init__(self) -> None:
        super().__init__()
        self.prepared_forecasts: Forecasts = {}
        """The prepared encounters' forecasts (P), kept while the app runs: played once."""

    @property
    def enc(self) -> Encounter:
        return self.session.encounter

    @property
    def sides(self) -> dict[str, str]:
        """The side picked last for each kind of entry (the picker's Side field keeps it)."""
        return self.query_one(SideField).sides

    @property
    def result(self) -> tuple[EncounterSpec, Forecast] | None:
        """The last forecast and the encounter it was run on (the forecast panel's)."""
        return self.query_one(ForecastPanel).result

    # -- layout ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="builder-top"):
            with Vertical(id="builder-left"):
                yield ZonePanel(id="builder-zones")
                yield BandList(id="builder-bands")
            yield PackPicker(id="builder-picker")
            yield EncounterList(id="builder-roster")
        yield ForecastPanel(id="builder-forecast")
        yield KeyBar()

    def on_mount(self) -> None:
        set_border_titles(
            self,
            {
                "#builder-zones": "Zones (z)",
                "#builder-bands": "Bands (b)",
                "#builder-roster": "Encounter",
                "#builder-forecast": "Forecast (F) · prepared encounters (P)",
            },
        )
        self.follow_session(self.refresh_from_session)
        self.refresh_from_session()
        self.query_one(PackPicker).focus_list()

    def on_screen_resume(self) -> None:
        """Back from another screen or a dialog, Textual gives the focus back to the widget
        that had it. Not to the search: it reads as the list's header, so keys typed on
        coming back filtered the packs instead of acting. The pack list takes it; the
        filter stays (``/`` goes back to it). The zone and side name fields keep it: they
        are shown only while being typed in (Esc closes them).
        """
        if self.focused is self.query_one("#builder-search"):
            self.query_one(PackPicker).focus_list()

    def on_resize(self, _event: Resize) -> None:
        self.call_after_refresh(self.refresh_from_session)  # once the lists have their width

    def refresh_from_session(self) -> None:
        enc = self.enc
        picker = self.query_one(PackPicker)
        picker.show(self.session.catalog, self.session.campaign.roster, enc)
        self.query_one(ZonePanel).show(enc, picker.zone)
        self.query_one(BandList).show(enc)
        self.query_one(EncounterList).show(enc)
        self.query_one(ForecastPanel).show_encounter(enc)
        if enc.active:
            what = f"Builder · combat under way (round {enc.round}): F4 fights"
        else:
            what = f"Builder · {len(enc.zones)} zone(s), {len(enc.combatants)} combatant(s)"
        self.show_subtitle(what)

    # -- what the widgets report ----------------------------------------------
    @on(OptionList.OptionHighlighted, "#builder-zone-list")
    def _zone_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """↑ ↓ in the zones picks where new entries go, as the Zone field does."""
        if event.option.id is not None and event.option_list.has_focus:
            self.query_one(PackPicker).zone = event.option.id

    @on(Stepper.Changed, "#builder-zone")
    def _zone_changed(self, event: Stepper.Changed) -> None:
        self.query_one(ZonePanel).show(self.enc, event.value)

    @on(OptionList.OptionSelected, "#builder-zone-list")
    @on(PackPicker.Submitted)
    def _submitted(self, event: OptionList.OptionSelected | PackPicker.Submitted) -> None:
        """Enter in the zones, the search, the pack list or a new side's name adds."""
        event.stop()
        self.action_add()

    @on(OptionList.OptionSelected, "#builder-bands")
    def _band_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_band(1)

    def on_zone_panel_named(self, event: ZonePanel.Named) -> None:
        zones = self.query_one(ZonePanel)
        if self._apply(AddZone(event.name)):
            zones.show_name_field(False)
            self.query_one(PackPicker).focus_list()
        else:
            zones.show_problem()

    # -- commands ---------------------------------------------------------------
    def action_new_zone(self) -> None:
        self.query_one(ZonePanel).show_name_field(True)

    def action_escape(self) -> None:
        """Esc: close the zone or side field or leave the search, back to the pack list;
        the Side field still shows the side it showed before ``n``.
        """
        zones = self.query_one(ZonePanel)
        if zones.naming:
            zones.show_name_field(False)
        self.query_one(PackPicker).back_to_list()

    def action_search(self) -> None:
        self.query_one(PackPicker).focus_search()

    def action_panel(self, step: int) -> None:
        focused = self.focused
        current = next(
            (i for i, sel in enumerate(self.PANELS) if focused is self.query_one(sel)), 2 - step
        )
        self.query_one(self.PANELS[(current + step) % len(self.PANELS)]).focus()

    def action_band(self, step: int) -> None:
        """Set the highlighted pair's band to the next (or previous) one; unset → Short.
        The bands list takes the focus, so ↓ then b sets the next pair.
        """
        bands = self.query_one(BandList)
        change = bands.stepped(self.enc, step)
        if change is None:
            self.notify("Add two zones first (z), then b sets the band between them")
            return
        bands.focus()
        self._apply(SetBand(*change))

    def action_add(self) -> None:
        """Add the highlighted pack entry: count, side and zone as the fields show them,
        or the side named after ``n``.
        """
        picker = self.query_one(PackPicker)
        entry, side, zone = picker.entry, picker.side, picker.zone
        if entry is None:
            self.notify("Highlight a pack entry first (/ searches)", severity="warning")
        elif side is None:
            self.notify("a side needs a name", title="Refused", severity="error")
            picker.focus_side_name()
        elif zone is None:
            self.notify("Add a zone first (z)", title="Refused", severity="error")
        elif self._apply(
            AddCombatants(entry.kind, entry.id, side, zone, picker.count, hidden=picker.hidden)
        ):
            picker.added(entry.kind, side)
            self.query_one(EncounterList).picked = self.enc.combatants[-1].id
            self.refresh_from_session()  # the new side is a choice now, and shown
            picker.focus_list()  # ready for the next entry (/ or ↑ ↓)

    def action_dive_policy(self) -> None:
        from .dive_policy import ask_dive_policy

        ask_dive_policy(self)

    def action_make(self) -> None:
        """A one-off Minion or Sidekick for tonight: the highlighted pack entry copied into
        the character builder (a blank Minion when none is highlighted); once kept it is
        in the list here, to add as any entry."""
        from dataclasses import replace

        from ...campaign.making import MadeCharacter, free_id, from_entry
        from .character_builder import CharacterBuilder

        entry = self.query_one(PackPicker).entry
        if entry is None:
            start = MadeCharacter("minion", "", "")
        else:
            catalog = self.session.catalog
            copy = from_entry(catalog.kind(entry.kind)[entry.id], entry.kind)  # type: ignore[arg-type]
            start = replace(copy, id=free_id(f"{entry.id}-copy", set(catalog.kind(entry.kind))))
        self.app.push_screen(CharacterBuilder(start))

    def action_hidden(self) -> None:
        """The entries added from now on join hidden from the players (an
        ambush), until ``h`` again; F4 ``V`` reveals a group when it springs.
        """
        picker = self.query_one(PackPicker)
        picker.hidden = not picker.hidden
        self.app.clear_notifications()
        if picker.hidden:
            self.notify("Entries added now join hidden from the players (◌); h again: seen")
        else:
            self.notify("Entries added now join seen by the players")

    def action_party(self) -> None:
        """The party's zone is asked when there is a choice, never taken from the picker
        (a first party once landed among the foes).
        """
        zones = self.enc.zones
        # the party's own side: where its Heroes already fight, else "heroes" (never the
        # side last picked for a Sidekick or a villain Hero, which may be the enemies')
        side = next((c.side for c in self.enc.combatants if c.player), "heroes")
        if not zones:
            self.notify("Add a zone first (z)", title="Refused", severity="error")
        elif len(zones) == 1 or not self.session.campaign.party:
            self._add_party(AddParty(zones[0], side))  # nothing to ask: added, or why not
        else:
            question = f"Where does the party (side {side!r}) start?"
            self._choose("Party's zone", question, party_zones(self.enc, side), self._add_party)

    def _add_party(self, command: AddParty) -> None:
        if self._apply(command):
            self.query_one(EncounterList).picked = self.enc.combatants[-1].id
            self.refresh_from_session()

    def _chosen(self, what: str) -> Combatant | None:
        """The combatant highlighted in the encounter list, else a note saying to pick one."""
        picked = self.query_one(EncounterList).picked
        if picked in {c.id for c in self.enc.combatants}:
            return self.enc.get(picked)
        self.notify(f"Highlight a combatant in the encounter list to {what}")
        return None

    def _choose(
        self,
        title: str,
        question: str,
        options: Sequence[Choice],
        then: Callable[[Any], None] | None = None,
    ) -> None:
        """Ask through the decision dialog; the chosen command goes to ``then`` (applied
        by default), Esc to nothing.
        """

        def chosen(command: Any) -> None:
            if command is not None:
                (then or self._apply)(command)

        self.app.push_screen(DecisionDialog(title, question, options), chosen)

    def action_cover(self) -> None:
        c = self._chosen("change its cover")
        if c is not None:
            self._apply(SetCover(c.id, next_cover(c.cover).label))

    def action_group(self) -> None:
        """The highlighted combatant's whole group in one cover or one zone
        (one undo step).
        """
        c = self._chosen("place its group")
        if c is not None:
            question = f"{c.name} and its group in {c.zone}: which cover, or which zone?"
            options = [
                *cover_options(self.enc, c, self.session.catalog),
                *place_options(self.enc, c),
            ]
            self._choose("Group cover and zone", question, options)

    def action_remove(self) -> None:
        """The highlighted combatant leaves (added by mistake, or gone); the highlight
        moves to its neighbour in the list. ``u`` brings it back.
        """
        c = self._chosen("remove it")
        if c is None:
            return
        roster = self.query_one(EncounterList)
        roster.pick_neighbour(c.id)
        if not self._apply(RemoveCombatant(c.id)):
            roster.picked = c.id

    def action_new_encounter(self) -> None:
        """A new fight: this one's combatants go, the place stays unless the GM drops it
        too. It discards the set-up, so it asks first (and ``u`` still brings it back).
        """
        enc = self.enc
        if enc.active or not (enc.combatants or enc.zones):
            self._apply(ClearEncounter())  # the engine says why not
            return
        question, options = new_encounter_question(enc)
        self._choose("New encounter", question, options)

    def action_decide(self) -> None:
        """R-CHAR-8 ahead of the fight: the GM picks a Sidekick's rules for the encounter."""
        c = self._chosen("decide its rules")
        if c is None:
            return
        if c.rank is not Rank.SIDEKICK or c.plays_as is not None:
            self._apply(DecideSidekick(c.id, "hero"))  # the engine says why not
            return
        question = f"Does {c.name} play as a Hero or a Minion this encounter?"
        options = PendingSidekick(c.id, question).options
        self._choose("Sidekick rules (R-CHAR-8)", question, options)

    def action_start(self) -> None:
        """Roll initiative and go to the fight; a Sidekick question waits there."""
        if self._apply(StartCombat()):
            self.app.switch_mode("combat")

    def action_prepared(self) -> None:
        from .prepared_dialog import PreparedDialog

        self.app.push_screen(PreparedDialog(self.prepared_forecasts))

    def action_forecast(self) -> None:
        """Play the encounter as built many times in a thread (the forecast panel)."""
        self.query_one(ForecastPanel).run(self.enc, self.session.catalog, self.session.seed)
