"""Encounter builder: zones, range bands, combatants from the packs, a forecast, then the fight.

Every change is one command to the session (``u`` undoes it), so the encounter built here
is the very one the combat screen plays. The screen keeps only what the GM is typing or
pointing at, and the last forecast it was asked for (a view of the encounter, not state).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import DescendantBlur, DescendantFocus, Resize
from textual.message import Message
from textual.validation import ValidationResult, Validator
from textual.widgets import Input, Label, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

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
)
from ...campaign.combat import Option as Choice
from ...campaign.encounter import Combatant, Encounter
from ...campaign.party import AddParty
from ...packs import Catalog
from ...rules import Cover, RangeBand, Rank, RulesError
from ...simulate import (
    EncounterSpec,
    Forecast,
    NoReach,
    encounter_spec,
    forecast,
    never_reach,
    nobody_reaches,
)
from ..widgets.combatants import COVER_TEXT, wound_text
from ..widgets.initiative import fit
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper
from ..widgets.title_bar import TitleBar
from . import SessionScreen, set_border_titles
from .decision_dialog import DecisionDialog
from .help_text import help_markdown

KINDS = ("hero", "sidekick", "minion")
"""Pack kinds a combatant comes from, in the order the picker lists them."""

KIND_MARK = {"hero": "H", "sidekick": "S", "minion": "M"}
"""One letter per kind in the picker, so the kind reads without colour."""


BAND_CYCLE = (RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG, RangeBand.EXTRA_LONG)
"""What ``b`` steps through between two zones (R-COMBAT-2), nearest first; Melee is for
combatants, not places, so a zone pair never cycles to it."""

BAND_SHORT = {RangeBand.EXTRA_LONG: "x-long"}
"""Band labels fit seven columns in the bands list; ``?`` marks a pair not set yet."""

FORECAST_RUNS = 200
"""Fights per forecast: about two seconds in a thread, and a stable first estimate."""

COUNTS = [(str(n), n) for n in range(1, 41)]
"""The engine adds 1 to 40 of an entry at a time, so the stepper offers nothing else."""

NO_ZONE = [("none: z adds one", None)]

DEFAULT_SIDES = ("heroes", "enemies")
"""Offered even before anyone stands on them: the defaults per kind (see side_group)."""


@dataclass(frozen=True)
class PackEntry:
    """A pickable pack entry: its kind, id and name, the text that search matches, and
    whether the GM put it on the campaign's roster (the home screen's ``r``).
    """

    kind: str
    id: str
    name: str
    haystack: str
    roster: bool = False

    @property
    def key(self) -> str:
        """``minion:pirate-raider``: the entry's option id in the picker."""
        return f"{self.kind}:{self.id}"

    @property
    def label(self) -> Text:
        """``★ M Pirate raider``: the star marks a roster entry, ahead of the name so an
        ellipsis never cuts it off.
        """
        return Text.assemble(
            ("★ " if self.roster else "", "bold"), (f"{KIND_MARK[self.kind]} ", "dim"), self.name
        )


def pack_entries(catalog: Catalog, roster: Iterable[tuple[str, str]] = ()) -> list[PackEntry]:
    """The roster's entries first, in the GM's order (prepared for the evening, so they
    are at hand), then every other Hero, Sidekick and Minion of the loaded packs (party
    first, foes last). A roster entry whose pack is not loaded is left out.
    """
    kept = [(kind, entry) for kind, entry in roster if entry in catalog.kind(kind)]
    rest = [(k, c.id) for k in KINDS for c in catalog.kind(k).values() if (k, c.id) not in kept]
    found = []
    for kind, entry in [*kept, *rest]:
        c = catalog.kind(kind)[entry]
        on_roster = (kind, entry) in kept
        words = [kind, c.id, c.name, *c.tags, *(["roster"] if on_roster else [])]
        found.append(PackEntry(kind, c.id, c.name, " ".join(words).lower(), on_roster))
    return found


def entry_summary(catalog: Catalog, entry: PackEntry) -> Text:
    """Rank, the ratings it fights with and its weapons: enough to pick without the card."""
    sheet = catalog.kind(entry.kind)[entry.id]
    ratings = vars(sheet.ratings)
    fights = " · ".join(f"{name} {value}" for name, value in ratings.items() if value)
    weapons = ", ".join(catalog.weapons[w].name for w in sheet.weapons if w in catalog.weapons)
    return Text.assemble(
        (entry.kind.title(), "bold"),
        f" · {fights or 'no combat ratings'}\n",
        (weapons or "unarmed", "dim"),
    )


def side_group(kind: str) -> str:
    """A kind's side until the GM picks another: Heroes and Sidekicks usually join the
    party's side, Minions the other one.
    """
    return "enemies" if kind == "minion" else "heroes"


def side_names(enc: Encounter, remembered: Iterable[str]) -> list[str]:
    """The sides to pick from: the encounter's, the defaults, then those picked earlier,
    so the GM chooses a side instead of retyping it (and mistyping it).
    """
    return list(dict.fromkeys([*(c.side for c in enc.combatants), *DEFAULT_SIDES, *remembered]))


def known_side(name: str, sides: Iterable[str]) -> str | None:
    """The listed side a typed name means, case and spaces aside: ``Pirates `` is the
    ``pirates`` side, not a second one the engine would keep apart.
    """
    wanted = name.strip().casefold()
    return next((side for side in sides if side.casefold() == wanted), None)


def zone_problem(name: str, zones: Sequence[str]) -> str | None:
    """Why a zone name would be refused (the engine's own reasons), checked as typed."""
    name = name.strip()
    if not name:
        return "a zone needs a name"
    if name in zones:
        return f"zone {name!r} already exists"
    return None


class ZoneName(Validator):
    """A new zone's name: not empty, not one of the encounter's zones."""

    def __init__(self, zones: Callable[[], Sequence[str]]) -> None:
        super().__init__()
        self.zones = zones

    def validate(self, value: str) -> ValidationResult:
        problem = zone_problem(value, self.zones())
        return self.failure(problem) if problem else self.success()


class SideName(Validator):
    """A side is any name, but a name: the engine groups combatants by it."""

    def validate(self, value: str) -> ValidationResult:
        return self.success() if value.strip() else self.failure("a side needs a name")


def forecast_problem(spec: EncounterSpec) -> str | None:
    """What stops a forecast before any fight is played (the file reader's own checks)."""
    if not spec.combatants:
        return "no combatants yet: add some (Enter in the picker, p for the party)"
    if len({c["side"] for c in spec.combatants}) < 2:
        return "combatants must stand on at least two sides"
    return None


def unreached_lines(unreached: Iterable[NoReach]) -> Text:
    """One line per side that can never reach another, with the reason."""
    return Text("\n").join(
        Text.assemble(("· ", "bold"), (n.side, "bold"), f" can't reach {n.target}: {n.why}")
        for n in unreached
    )


def stalemate_text(unreached: Sequence[NoReach]) -> Text:
    """Why there is no forecast table: no side can ever reach another."""
    return Text.assemble(
        ("✗ No forecast: no side can ever reach another", "bold"),
        (" (all fights would be draws)\n", "dim"),
        unreached_lines(unreached),
        ("\nb sets a band of Short between two zones; or add someone who can reach.", "dim"),
    )


def forecast_text(result: Forecast, seed: int, undecided: int) -> Text:
    """The forecast as a small table: per side the win rate, the wound steps it took and
    its combatants out per fight (a Minion taken out took its one wound, R-WOUND-2, so
    the two agree); draws and rounds below, then who can never reach whom. Fixed widths,
    so it reads at 80 columns. A forecast where nobody was ever hurt says so instead.
    """
    rounds = result.rounds
    footer = Text(
        f"draws {result.draws:.1%} · rounds {rounds['mean']:.1f} "
        f"({rounds['min']:.0f}–{rounds['max']:.0f}) · {result.runs} fights, seed {seed}",
        "dim",
    )
    if result.harmless:
        text = Text.assemble(
            (f"✗ Nobody was wounded or taken out in {result.runs} fights", "bold"),
            ": the attacks never get through (range, cover, Defense or Health)\n",
            footer,
        )
    else:
        width = max(10, *(len(s) for s in result.wins))
        width = min(width, 24)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(
            f"{'side':<{width}} {'wins':>6} {'wounds taken/fight':>19} {'out/fight':>10}\n",
            "bold",
        )
        for side, rate in result.wins.items():
            text.append(f"{fit(side, width):<{width}} {rate:>6.1%} ")
            text.append(f"{result.wounds[side]:>19.1f} {result.out[side]:>10.1f}\n")
        text.append_text(footer)
    if result.never_reach:
        text.append("\n")
        text.append_text(unreached_lines(result.never_reach))
    if undecided:
        text.append(f"\n{undecided} undecided Sidekick(s) forecast as Heroes (d decides)", "dim")
    return text


def roster_row(c: Combatant, width: int) -> Text:
    """``? Name  zone  cover``: the mark flags a Sidekick's rules (? undecided, h / m); one
    out of the fight reads ``OUT`` (or ``unc``) in place of its cover, dimmed (R-WOUND-2).
    """
    mark = " "
    if c.rank is Rank.SIDEKICK:
        mark = c.plays_as.value[0] if c.plays_as else "?"
    zone_w = 7 if width < 36 else 12
    name_w = max(6, width - zone_w - 9)
    return Text.assemble(
        (mark, "bold"),
        f" {fit(c.name, name_w):<{name_w}} ",
        (f"{fit(c.zone, zone_w):<{zone_w}} ", "dim"),
        COVER_TEXT[c.cover] if c.standing else (wound_text(c), "bold"),
        style="" if c.standing else "dim",
        no_wrap=True,
        overflow="ellipsis",
    )


def rank_note(c: Combatant) -> str:
    if c.rank is not Rank.SIDEKICK:
        return c.rank.value.title()
    if c.plays_as is None:
        return "Sidekick, rules undecided (d)"
    return f"Sidekick as {c.plays_as.value.title()}"


def zone_row(zone: str, enc: Encounter, target: bool) -> Text:
    """``▸ ridge (3)``: the arrow marks where the next entry goes, without colour."""
    here = sum(c.zone == zone for c in enc.combatants)
    return Text.assemble(
        ("▸ " if target else "  ", "bold"), (zone, "bold" if target else ""), (f" ({here})", "dim")
    )


def who_is_there(zone: str, enc: Encounter) -> str:
    """``pirates (3)`` or ``empty``: the party's zone is chosen knowing who waits there."""
    sides: dict[str, int] = {}
    for c in enc.combatants:
        if c.zone == zone and c.standing:
            sides[c.side] = sides.get(c.side, 0) + 1
    return ", ".join(f"{side} ({n})" for side, n in sides.items()) or "empty"


class SideField(Stepper):
    """The Side choice among the sides in use: ← → step and stop at either end, so
    stepping never starts a new side; ``n`` names one (an explicit choice).
    """

    BINDINGS = [
        Binding("n", "screen.new_side", "New side", show=False, id="builder.new-side"),
    ]
    """Besides the Stepper's own ← → − +."""


class _Cancelled(Exception):
    """Raised inside the forecast thread once a newer forecast has replaced it."""


class PackList(OptionList):
    """The pack entries; − + and digits set the Count from here, as the help says."""

    BINDINGS = [
        Binding("minus", "screen.count(-1)", "Fewer", show=False, id="builder.fewer"),
        Binding("plus,equals_sign", "screen.count(1)", "More", show=False, id="builder.more"),
        *(Binding(str(n), f"screen.count_digit('{n}')", show=False) for n in range(10)),
    ]
    """The Count stepper's own keys, so the GM need not Tab to it: digits typed in quick
    succession build the count (1 then 2 is 12), as in the stepper."""


class EncounterBuilderScreen(SessionScreen):
    """Zones and bands | pack picker | the encounter's combatants, over the forecast."""

    CSS_PATH = "../styles/builder.tcss"
    PALETTE_PREFIX = "Builder"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    """From 100 columns the side lists widen; below 30 rows the header gives way."""

    HELP = help_markdown(__name__)
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
        Binding("c", "cover", "Cover", id="builder.cover", tooltip="Cycle cover"),
        Binding("d", "decide", "Sidekick", id="builder.decide", tooltip="Sidekick's rules"),
        Binding("u,ctrl+z", "undo", "Undo", id="builder.undo", tooltip="Undo the last change"),
        Binding("y,ctrl+y", "redo", "Redo", show=False, id="builder.redo"),
        Binding("B", "band(-1)", "Previous band", show=False, id="builder.band-back"),
        Binding("slash", "search", "Search packs", show=False, id="builder.search"),
        Binding("escape", "escape", "Back to the list", show=False, id="builder.escape"),
        Binding("enter", "add", "Add entry", show=False, id="builder.add"),
        Binding("left", "panel(-1)", show=False, id="builder.left"),
        Binding("right", "panel(1)", show=False, id="builder.right"),
        Binding("up", "app.focus_previous", show=False, id="builder.up"),
        Binding("down", "app.focus_next", show=False, id="builder.down"),
    ]
    """One key per change; lists and fields handle their own keys first. The key bar
    shows them in this order and drops the last ones at 80 columns (c and d are named
    in the encounter list's subtitle)."""

    PANELS = ("#builder-zone-list", "#builder-bands", "#builder-entries", "#builder-roster")
    """The lists ← and → move between."""

    @dataclass
    class ForecastProgress(Message):
        """``done`` fights of forecast ``run`` are played."""

        run: int
        done: int

    @dataclass
    class ForecastDone(Message):
        """Forecast ``run`` finished: the spec it played and what came out."""

        run: int
        spec: EncounterSpec
        result: Forecast

    @dataclass
    class ForecastFailed(Message):
        """Forecast ``run`` was refused by the rules, with the reason."""

        run: int
        reason: str

    def __init__(self) -> None:
        super().__init__()
        self.sides = {kind: side_group(kind) for kind in KINDS}
        """The side picked last for each kind of entry (the GM's choice, not game state):
        set by stepping the Side field or adding, and shown again whenever an entry of
        that kind is highlighted."""
        self.picked: str | None = None
        """The combatant highlighted in the encounter list."""
        self.entries: list[PackEntry] = []
        """The pack entries the search shows, in list order."""
        self.listed_roster: tuple[tuple[str, str], ...] = ()
        """The campaign's roster as the pack list shows it (listed again once it changes)."""
        self.result: tuple[EncounterSpec, Forecast] | None = None
        """The last forecast and the encounter it was run on (stale once that changes)."""
        self._forecast_id = 0
        self._worker: Worker[None] | None = None

    @property
    def enc(self) -> Encounter:
        return self.session.encounter

    # -- layout ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="builder-top"):
            with Vertical(id="builder-left"):
                with Vertical(id="builder-zones"):
                    yield Input(
                        placeholder="new zone name",
                        id="builder-zone-name",
                        compact=True,
                        validators=[ZoneName(lambda: self.enc.zones)],
                    )
                    yield Static(id="builder-zone-msg")
                    yield OptionList(id="builder-zone-list")
                yield OptionList(id="builder-bands")
            with Vertical(id="builder-picker"):
                yield Input(placeholder="/ search packs", id="builder-search", compact=True)
                yield PackList(id="builder-entries")
                yield Static(id="builder-entry-info")
                yield Stepper("Count", COUNTS, 1, id="builder-count")
                sides = [(side, side) for side in DEFAULT_SIDES]
                yield SideField("Side", sides, "heroes", id="builder-side")
                with Horizontal(id="builder-side-row"):
                    yield Label("Side", id="builder-side-label")
                    yield Input(
                        placeholder="new side's name",
                        id="builder-side-name",
                        compact=True,
                        validators=[SideName()],
                    )
                yield Static(id="builder-side-msg")
                yield Stepper("Zone", NO_ZONE, id="builder-zone")
            yield OptionList(id="builder-roster")
        with VerticalScroll(id="builder-forecast"):
            yield ProgressBar(FORECAST_RUNS, show_eta=False, id="builder-progress")
            yield Static(id="builder-forecast-body")
        yield KeyBar()

    def on_mount(self) -> None:
        set_border_titles(
            self,
            {
                "#builder-zones": "Zones (z)",
                "#builder-bands": "Bands (b)",
                "#builder-picker": "Add (Enter)",
                "#builder-roster": "Encounter",
                "#builder-forecast": "Forecast (F)",
            },
        )
        self._show_zone_input(False)
        self._show_side_input(False)
        self.query_one("#builder-progress").display = False
        self.query_one("#builder-forecast-body", Static).update(
            Text("F plays 200 fights of the encounter as built and shows who wins.", "dim")
        )
        self._show_entries()
        self.follow_session(self.refresh_from_session)
        self.refresh_from_session()
        self.query_one("#builder-entries").focus()

    def on_screen_resume(self) -> None:
        """Back from another screen or a dialog, Textual gives the focus back to the widget
        that had it. Not to the search: it reads as the list's header, so keys typed on
        coming back filtered the packs instead of acting. The pack list takes it; the
        filter stays (``/`` goes back to it). The zone and side name fields keep it: they
        are shown only while being typed in (Esc closes them).
        """
        if self.focused is self.query_one("#builder-search"):
            self.query_one("#builder-entries").focus()

    def on_resize(self, _event: Resize) -> None:
        self.call_after_refresh(self.refresh_from_session)  # once the lists have their width

    # -- rendering ------------------------------------------------------------
    def refresh_from_session(self) -> None:
        enc = self.enc
        self._show_zones(enc)
        self._show_bands(enc)
        self._show_roster(enc)
        if self.session.campaign.roster != self.listed_roster:  # home screen r, d, or undo
            self._show_entries(keep=self._entry())
        self._show_sides(enc)
        self._mark_stale()
        if enc.active:
            self.show_subtitle(f"Builder · combat under way (round {enc.round}): F4 fights")
        else:
            count = len(enc.combatants)
            self.show_subtitle(f"Builder · {len(enc.zones)} zone(s), {count} combatant(s)")

    def _show_zones(self, enc: Encounter) -> None:
        stepper = self.query_one("#builder-zone", Stepper)
        stepper.set_choices([(z, z) for z in enc.zones] or NO_ZONE, stepper.value)
        self._show_zone_list(enc, stepper.value)

    def _show_zone_list(self, enc: Encounter, target: str | None) -> None:
        """The zones, the target one marked and highlighted (it follows the Zone field)."""
        listing = self.query_one("#builder-zone-list", OptionList)
        options = [Option(zone_row(z, enc, z == target), id=z) for z in enc.zones]
        listing.set_options(options or [Option(Text("No zones yet: z adds one", "dim"))])
        if target in enc.zones:
            listing.highlighted = enc.zones.index(target)

    def _show_bands(self, enc: Encounter) -> None:
        bands = self.query_one("#builder-bands", OptionList)
        keep = bands.highlighted
        options = []
        for i, (a, b) in enumerate(combinations(enc.zones, 2)):
            try:
                between = enc.zone_band(a, b)
            except RulesError:
                band = "?"
            else:
                band = BAND_SHORT.get(between, between.label)
            label = Text.assemble((f"{band:<7}", "bold"), f"{a} ↔ {b}")
            options.append(Option(label, id=str(i)))
        if not options:
            hint = "two zones needed" if enc.zones else "add zones first (z)"
            options.append(Option(Text(hint, "dim"), disabled=True))
        bands.set_options(options)
        if options and not options[0].disabled:
            bands.highlighted = min(keep or 0, len(options) - 1)

    def _show_roster(self, enc: Encounter) -> None:
        roster = self.query_one("#builder-roster", OptionList)
        width = max(20, roster.scrollable_content_region.width or 26)
        options: list[Option] = []
        for side in dict.fromkeys(c.side for c in enc.combatants):
            members = [c for c in enc.combatants if c.side == side]
            down = sum(not c.standing for c in members)
            count = f"{len(members)}" + (f", {down} out" if down else "")
            head = Text(f"{fit(side, width - len(count) - 3)} · {count}", "bold underline")
            options.append(Option(head, disabled=True))
            options += [Option(roster_row(c, width), id=c.id) for c in members]
        if not options:
            options.append(Option(Text("No combatants yet", "dim"), disabled=True))
        picked = self.picked
        roster.set_options(options)
        ids = [o.id for o in options if o.id is not None]
        if ids:
            roster.highlighted = roster.get_option_index(picked if picked in ids else ids[0])
        roster.border_title = f"Encounter ({len(enc.combatants)})"
        self._show_picked()

    def _show_picked(self) -> None:
        roster = self.query_one("#builder-roster", OptionList)
        c = self._picked()
        roster.border_subtitle = f"{rank_note(c)} · c cover" if c else ""

    def _show_sides(self, enc: Encounter) -> None:
        """The Side field's choices, names fitted to its width, showing the side kept
        for the highlighted entry's kind. Every change of the field not made by the
        GM's keys comes through here, so none is taken for the GM's pick.
        """
        stepper = self.query_one("#builder-side", Stepper)
        room = max(6, (stepper.size.width or 24) - 16)
        names = side_names(enc, self.sides.values())
        entry = self._entry()
        side = stepper.value if entry is None else self.sides[entry.kind]
        with self.prevent(Stepper.Changed):
            stepper.set_choices([(fit(name, room), name) for name in names], side)
        self._show_side_message()

    def _show_entries(self, keep: PackEntry | None = None) -> None:
        """The entries the search matches, the roster's first and ruled off from the rest.
        The highlight goes to ``keep`` while it is listed (the roster changed under it),
        else to the best match, the top one.
        """
        needle = self.query_one("#builder-search", Input).value.strip().lower()
        self.listed_roster = self.session.campaign.roster
        every = pack_entries(self.session.catalog, self.listed_roster)
        shown = [e for e in every if needle in e.haystack]
        self.entries = shown
        options: list[Option | None] = []
        for i, e in enumerate(shown):
            if i and shown[i - 1].roster and not e.roster:
                options.append(None)  # a rule between the roster and the rest
            options.append(Option(e.label, id=e.key))
        listing = self.query_one("#builder-entries", OptionList)
        listing.set_options(
            options
            or [Option(Text("No match" if needle else "No pack entries", "dim"), disabled=True)]
        )
        keys = [e.key for e in shown]
        if shown:
            listing.highlighted = keys.index(keep.key) if keep and keep.key in keys else 0
        legend = "★ roster · " if any(e.roster for e in every) else ""  # what ★ means
        self.query_one("#builder-picker").border_subtitle = f"{legend}{len(shown)} of {len(every)}"

    def _mark_stale(self) -> None:
        box = self.query_one("#builder-forecast")
        stale = self.result is not None and self.result[0] != encounter_spec(self.enc)
        box.border_subtitle = "stale: the encounter changed, F re-runs" if stale else ""

    # -- what the GM points at -------------------------------------------------
    def _entry(self) -> PackEntry | None:
        index = self.query_one("#builder-entries", OptionList).highlighted
        return self.entries[index] if index is not None and index < len(self.entries) else None

    def _picked(self) -> Combatant | None:
        ids = {c.id for c in self.enc.combatants}
        return self.enc.get(self.picked) if self.picked in ids else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "builder-roster":
            self.picked = event.option.id
            self._show_picked()
        elif event.option_list.id == "builder-zone-list":
            if event.option.id is not None and event.option_list.has_focus:
                self.query_one("#builder-zone", Stepper).value = event.option.id
        elif event.option_list.id == "builder-entries":
            entry = self._entry()
            info = self.query_one("#builder-entry-info", Static)
            info.update(entry_summary(self.session.catalog, entry) if entry else "")
            if entry is not None:
                self._show_side_input(False)
                self._show_sides(self.enc)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id in ("builder-entries", "builder-zone-list"):
            self.action_add()
        elif event.option_list.id == "builder-bands":
            self.action_band(1)

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        if event.stepper.id == "builder-zone":
            self._show_zone_list(self.enc, event.value)
        elif event.stepper.id == "builder-side":  # the GM's keys: the rest is prevented
            entry = self._entry()
            if entry is not None:
                self.sides[entry.kind] = event.value
            self._show_side_message()

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        if event.widget.id == "builder-side":
            self._show_side_message()  # the key that names a new side

    def on_descendant_blur(self, event: DescendantBlur) -> None:
        if event.widget.id == "builder-side":
            self._show_side_message()

    # -- typing -----------------------------------------------------------------
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "builder-search":
            self._show_entries()
        elif event.input.id == "builder-zone-name":
            self._show_zone_problem()
        elif event.input.id == "builder-side-name":
            self._show_side_message()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter adds from the search and from a new side's name, as everywhere in the
        picker; in the zone field it adds the zone.
        """
        event.stop()
        if event.input.id in ("builder-search", "builder-side-name"):
            self.action_add()
        elif event.input.id == "builder-zone-name":
            if self._apply(AddZone(event.value)):
                self._show_zone_input(False)
                self.query_one("#builder-entries").focus()
            else:
                self._show_zone_problem()

    def _show_zone_problem(self) -> None:
        name = self.query_one("#builder-zone-name", Input).value
        problem = zone_problem(name, self.enc.zones)
        msg = self.query_one("#builder-zone-msg", Static)
        msg.set_class(problem is not None, "-error")
        msg.update(f"✗ {problem}" if problem else "✓ Enter adds · Esc cancels")

    def _naming_side(self) -> bool:
        """Whether the new side's name field stands in for the Side choice (``n``)."""
        return bool(self.query_one("#builder-side-row").display)

    def _typed_side(self) -> str | None:
        """The side the name field means: a listed side if it names one, else the text."""
        field = self.query_one("#builder-side-name", Input)
        if not self._naming_side() or not field.value.strip():
            return None
        names = side_names(self.enc, self.sides.values())
        return known_side(field.value, names) or field.value.strip()

    def _show_side_message(self) -> None:
        """Under the Side field: while it has the focus, the key that names a new side;
        while one is named, whether it is a listed side or a new one (a typo shows as
        *new side* before it is used).
        """
        msg = self.query_one("#builder-side-msg", Static)
        typing = self._naming_side()
        msg.display = typing or self.query_one("#builder-side").has_focus
        msg.remove_class("-error", "-new")
        if not typing:
            msg.update("n: name a new side")
            return
        side = self._typed_side()
        names = side_names(self.enc, self.sides.values())
        if side is None:
            msg.add_class("-error")
            msg.update("✗ a side needs a name")
        elif side in names:
            msg.update(f"✓ joins {side}")
        else:
            msg.add_class("-new")
            msg.update("+ new side · Enter adds")

    def _show_zone_input(self, shown: bool) -> None:
        field = self.query_one("#builder-zone-name", Input)
        field.display = shown
        self.query_one("#builder-zone-msg").display = shown
        if shown:
            field.value = ""
            self._show_zone_problem()
            field.focus()

    def _show_side_input(self, shown: bool) -> None:
        """The name field stands in for the Side choices while a new side is typed."""
        field = self.query_one("#builder-side-name", Input)
        self.query_one("#builder-side-row").display = shown
        self.query_one("#builder-side").display = not shown
        if shown:
            field.value = ""
            field.focus()
        self._show_side_message()

    # -- commands ---------------------------------------------------------------
    def action_new_zone(self) -> None:
        self._show_zone_input(True)

    def action_escape(self) -> None:
        """Esc: close the zone or side field or leave the search, back to the pack list;
        the Side field still shows the side it showed before ``n``.
        """
        if self.query_one("#builder-zone-name").display:
            self._show_zone_input(False)
        if self._naming_side():
            self._show_side_input(False)
        self.query_one("#builder-entries").focus()

    def action_new_side(self) -> None:
        """``n`` in the Side field: type the new side's name (Enter adds, Esc goes back)."""
        self._show_side_input(True)

    def action_search(self) -> None:
        self.query_one("#builder-search").focus()

    def action_panel(self, step: int) -> None:
        focused = self.focused
        current = next(
            (i for i, sel in enumerate(self.PANELS) if focused is self.query_one(sel)), 2 - step
        )
        self.query_one(self.PANELS[(current + step) % len(self.PANELS)]).focus()

    def action_count(self, step: int) -> None:
        self.query_one("#builder-count", Stepper).action_step(step)

    def action_count_digit(self, digit: str) -> None:
        self.query_one("#builder-count", Stepper).type_digit(digit)

    def action_band(self, step: int) -> None:
        """Set the highlighted pair's band to the next (or previous) one; unset → Short.
        The bands list takes the focus, so ↓ then b sets the next pair.
        """
        bands = self.query_one("#builder-bands", OptionList)
        pairs = list(combinations(self.enc.zones, 2))
        index = bands.highlighted
        if not pairs or index is None:
            self.notify("Add two zones first (z), then b sets the band between them")
            return
        bands.focus()
        a, b = pairs[index]
        try:
            now = BAND_CYCLE.index(self.enc.zone_band(a, b))
            band = BAND_CYCLE[(now + step) % len(BAND_CYCLE)]
        except (RulesError, ValueError):  # not set yet, or set to a band outside the cycle
            band = BAND_CYCLE[0]
        self._apply(SetBand(a, b, band.label))

    def action_add(self) -> None:
        """Add the highlighted pack entry: count, side and zone as the fields show them,
        or the side named after ``n``.
        """
        entry = self._entry()
        naming = self._naming_side()
        side = self._typed_side() if naming else self.query_one("#builder-side", Stepper).value
        zone = self.query_one("#builder-zone", Stepper).value
        count = self.query_one("#builder-count", Stepper)
        if entry is None:
            self.notify("Highlight a pack entry first (/ searches)", severity="warning")
        elif side is None:
            self.notify("a side needs a name", title="Refused", severity="error")
            self.query_one("#builder-side-name").focus()
        elif zone is None:
            self.notify("Add a zone first (z)", title="Refused", severity="error")
        elif self._apply(AddCombatants(entry.kind, entry.id, side, zone, count.value)):
            self.sides[entry.kind] = side
            self.picked = self.enc.combatants[-1].id
            count.value = 1
            self._show_side_input(False)
            self.refresh_from_session()  # the new side is a choice now, and shown
            self.query_one("#builder-entries").focus()  # ready for the next entry (/ or ↑ ↓)

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
            options = []
            for i, zone in enumerate(zones):
                key, there = str(i + 1) if i < 9 else "", who_is_there(zone, self.enc)
                options.append(Choice(key, f"{zone}: {there}", AddParty(zone, side)))
            question = f"Where does the party (side {side!r}) start?"
            self._choose("Party's zone", question, options, self._add_party)

    def _add_party(self, command: AddParty) -> None:
        if self._apply(command):
            self.picked = self.enc.combatants[-1].id
            self.refresh_from_session()

    def _chosen(self, what: str) -> Combatant | None:
        c = self._picked()
        if c is None:
            self.notify(f"Highlight a combatant in the encounter list to {what}")
        return c

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
            following = Cover((int(c.cover) + 1) % len(Cover))
            self._apply(SetCover(c.id, following.label))

    def action_remove(self) -> None:
        """The highlighted combatant leaves (added by mistake, or gone); the highlight
        moves to its neighbour in the list. ``u`` brings it back.
        """
        c = self._chosen("remove it")
        if c is None:
            return
        roster = self.query_one("#builder-roster", OptionList)
        ids = [o.id for o in roster.options if o.id is not None]
        at = ids.index(c.id)
        self.picked = (ids[at + 1 : at + 2] or ids[at - 1 : at] or [None])[0]
        if not self._apply(RemoveCombatant(c.id)):
            self.picked = c.id

    def action_new_encounter(self) -> None:
        """A new fight: this one's combatants go, the place stays unless the GM drops it
        too. It discards the set-up, so it asks first (and ``u`` still brings it back).
        """
        enc = self.enc
        if enc.active or not (enc.combatants or enc.zones):
            self._apply(ClearEncounter())  # the engine says why not
            return
        n = len(enc.combatants)
        options = [Choice("z", "clear the zones and bands too", ClearEncounter(keep_zones=False))]
        leave = "Only the zones and bands are left to clear."
        if n:
            options.insert(0, Choice("y", "yes: keep the zones and bands", ClearEncounter()))
            leave = f"The {n} combatant(s) leave; the party keeps its wounds, Luck and Clues."
        question = f"Start a new encounter? {leave} (u undoes it; Esc keeps this one)"
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

    # -- forecast ---------------------------------------------------------------
    def action_forecast(self) -> None:
        """Play FORECAST_RUNS fights of the encounter as built, in a thread."""
        self._forecast_id += 1  # whatever runs still is replaced by this one
        spec = encounter_spec(self.enc)
        problem = forecast_problem(spec)
        if problem:
            self._forecast_failed(self._forecast_id, problem)
            return
        try:
            unreached = never_reach(spec, self.session.catalog)
        except RulesError as err:
            self._forecast_failed(self._forecast_id, str(err))
            return
        if nobody_reaches(spec, unreached):  # nothing to play: say why instead of zeros
            self._forecast_failed(self._forecast_id, stalemate_text(unreached))
            return
        bar = self.query_one("#builder-progress", ProgressBar)
        bar.update(total=FORECAST_RUNS, progress=0)
        bar.display = True
        self.query_one("#builder-forecast-body", Static).update(
            Text(f"Playing {FORECAST_RUNS} fights…", "dim")
        )
        self._worker = self._forecast(
            spec, self.session.catalog, self.session.seed, self._forecast_id
        )

    @work(thread=True, exclusive=True, group="forecast", exit_on_error=False)
    def _forecast(self, spec: EncounterSpec, catalog: Catalog, seed: int, run: int) -> None:
        """The fights, off the UI thread. It only posts messages (thread-safe, never
        blocking), and stops at the next chunk of fights once cancelled (replaced by a
        newer forecast, or the app closing).
        """
        worker = get_current_worker()

        def progress(done: int) -> None:
            if worker.is_cancelled:
                raise _Cancelled
            self.post_message(self.ForecastProgress(run, done))

        try:
            result = forecast(spec, catalog, FORECAST_RUNS, seed, progress=progress)
        except _Cancelled:
            return
        except RulesError as err:
            self.post_message(self.ForecastFailed(run, str(err)))
            return
        if not worker.is_cancelled:  # replaced, or the app is closing
            self.post_message(self.ForecastDone(run, spec, result))

    def on_encounter_builder_screen_forecast_progress(self, event: ForecastProgress) -> None:
        if event.run == self._forecast_id:
            self.query_one("#builder-progress", ProgressBar).update(progress=event.done)

    def on_encounter_builder_screen_forecast_done(self, event: ForecastDone) -> None:
        if event.run != self._forecast_id:
            return
        self.result = (event.spec, event.result)
        enc = self.enc
        undecided = sum(c.rank is Rank.SIDEKICK and c.plays_as is None for c in enc.combatants)
        self.query_one("#builder-progress").display = False
        self.query_one("#builder-forecast-body", Static).update(
            forecast_text(event.result, self.session.seed, undecided)
        )
        self._mark_stale()

    def on_encounter_builder_screen_forecast_failed(self, event: ForecastFailed) -> None:
        self._forecast_failed(event.run, event.reason)

    def _forecast_failed(self, run: int, reason: str | Text) -> None:
        """No forecast: the reason, or a text that explains itself (see stalemate_text)."""
        if run != self._forecast_id:
            return
        self.result = None
        self.query_one("#builder-progress").display = False
        self.query_one("#builder-forecast-body", Static).update(
            reason if isinstance(reason, Text) else Text(f"✗ No forecast: {reason}", "bold")
        )
        self._mark_stale()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """An unexpected failure in the forecast thread is shown, never a crash."""
        if event.worker is self._worker and event.state is WorkerState.ERROR:
            self._forecast_failed(self._forecast_id, f"the simulation failed: {event.worker.error}")
