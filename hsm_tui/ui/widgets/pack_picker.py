"""The builder's picker: the pack entries a combatant comes from (searched with ``/``),
then how many, on which side and in which zone they join the encounter.

The screen shows it the catalog, the campaign's roster and the encounter; the picker
says what the GM pointed at (``entry``, ``count``, ``side``, ``zone``, ``hidden``) and posts
:class:`PackPicker.Submitted` when Enter asks for the entry to be added.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...campaign.combat import Kind
from ...campaign.encounter import Encounter
from ...packs import Catalog
from .combatants import HIDDEN_MARK
from .side_field import SideField
from .stepper import Stepper

KIND_MARK = {"hero": "H", "sidekick": "S", "minion": "M"}
"""One letter per kind in the picker, so the kind reads without colour."""

COUNTS = [(str(n), n) for n in range(1, 41)]
"""The engine adds 1 to 40 of an entry at a time, so the stepper offers nothing else."""

NO_ZONE = [("none: z adds one", None)]


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
    rest = [
        (k, c.id) for k in tuple(Kind) for c in catalog.kind(k).values() if (k, c.id) not in kept
    ]
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


class PackList(OptionList):
    """The pack entries; − + and digits set the Count from here, as the help says."""

    BINDINGS = [
        Binding("minus", "count(-1)", "Fewer", show=False, id="builder.fewer"),
        Binding("plus,equals_sign", "count(1)", "More", show=False, id="builder.more"),
        *(Binding(str(n), f"count_digit('{n}')", show=False) for n in range(10)),
    ]
    """The Count stepper's own keys, so the GM need not Tab to it: digits typed in quick
    succession build the count (1 then 2 is 12), as in the stepper."""

    @dataclass
    class CountKey(Message):
        """A Count key pressed in the list: a ``step`` (−1 or 1), or a ``digit`` typed."""

        step: int = 0
        digit: str = ""

    def action_count(self, step: int) -> None:
        """− or +: the picker steps its Count field (the list only says which key)."""
        self.post_message(self.CountKey(step=step))

    def action_count_digit(self, digit: str) -> None:
        """A digit: the picker types it into its Count field."""
        self.post_message(self.CountKey(digit=digit))


class PackPicker(Vertical):
    """Search, the pack entries, the highlighted one's summary, then Count, Side, Zone."""

    @dataclass
    class Submitted(Message):
        """Enter in the search, the entries or a new side's name: add the entry."""

    hidden: var[bool] = var(False)
    """Entries join hidden from the players (the screen's ``h``), until ``h`` again: an
    ambush they do not see yet. The border title says so while it holds."""

    def watch_hidden(self, hidden: bool) -> None:
        self.border_title = f"Add hidden {HIDDEN_MARK} (Enter · h)" if hidden else "Add (Enter)"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.catalog = Catalog()
        """The loaded packs, as the screen last showed them."""
        self.entries: list[PackEntry] = []
        """The pack entries the search shows, in list order."""
        self.roster: tuple[tuple[str, str], ...] | None = None
        """The campaign's roster as the list shows it, first and starred (None until
        listed; listed again once it changes)."""

    def compose(self) -> ComposeResult:
        yield Input(placeholder="/ search packs", id="builder-search", compact=True)
        yield PackList(id="builder-entries")
        yield Static(id="builder-entry-info")
        yield Stepper("Count", COUNTS, 1, id="builder-count")
        yield SideField(tuple(Kind))
        yield Stepper("Zone", NO_ZONE, id="builder-zone")

    @property
    def side_field(self) -> SideField:
        """The Side choice, with the side kept per kind of entry."""
        return self.query_one(SideField)

    @property
    def entry(self) -> PackEntry | None:
        """The highlighted pack entry, if the search shows any."""
        index = self.query_one("#builder-entries", OptionList).highlighted
        return self.entries[index] if index is not None and index < len(self.entries) else None

    @property
    def side(self) -> str | None:
        """The side to add to (see SideField.side)."""
        return self.side_field.side

    @property
    def count(self) -> int:
        """How many of the entry to add (1–40)."""
        return self.query_one("#builder-count", Stepper).value

    @property
    def zone(self) -> str | None:
        """The zone new entries go to (None until the encounter has one)."""
        return self.query_one("#builder-zone", Stepper).value

    @zone.setter
    def zone(self, zone: str) -> None:
        self.query_one("#builder-zone", Stepper).value = zone

    def show(self, catalog: Catalog, roster: tuple[tuple[str, str], ...], enc: Encounter) -> None:
        """The encounter's zones, the entries again if the roster or the catalog changed
        (home screen r, d, a character made, or undo), and the sides for the highlighted
        entry.
        """
        zone = self.query_one("#builder-zone", Stepper)
        zone.set_choices([(z, z) for z in enc.zones] or NO_ZONE, zone.value)
        if roster != self.roster or catalog is not self.catalog:
            self.roster, self.catalog = roster, catalog
            self._list(keep=self.entry)
        self.side_field.encounter = enc
        entry = self.entry
        self.side_field.show(entry.kind if entry else None)

    def added(self, kind: str, side: str) -> None:
        """An entry went in: its side is kept for its kind, Count is 1 again and a new
        side's name field gives way to the choices (now listing that side).
        """
        self.side_field.sides[kind] = side
        self.query_one("#builder-count", Stepper).value = 1
        self.side_field.show_name_field(False)

    def focus_list(self) -> None:
        """The pack list takes the focus: ready for the next entry (/ or ↑ ↓)."""
        self.query_one("#builder-entries").focus()

    def focus_side_name(self) -> None:
        """Back to the new side's name (Enter found it empty)."""
        self.side_field.focus_name()

    def back_to_list(self) -> None:
        """Esc: a new side's name field closes (the Side field shows the side it showed
        before ``n``) and the pack list takes the focus, from the search too.
        """
        if self.side_field.naming:
            self.side_field.show_name_field(False)
        self.focus_list()

    def focus_search(self) -> None:
        """``/``: type to filter the entries (Esc goes back to the list)."""
        self.query_one("#builder-search").focus()

    @on(Input.Changed, "#builder-search")
    def _search(self) -> None:
        self._list()

    def _list(self, keep: PackEntry | None = None) -> None:
        """The entries the search matches, the roster's first and ruled off from the rest.
        The highlight goes to ``keep`` while it is listed (the roster changed under it),
        else to the best match, the top one.
        """
        needle = self.query_one("#builder-search", Input).value.strip().lower()
        every = pack_entries(self.catalog, self.roster or ())
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
        self.border_subtitle = f"{legend}{len(shown)} of {len(every)}"

    @on(OptionList.OptionHighlighted, "#builder-entries")
    def _highlighted(self) -> None:
        """The entry's summary, and the side kept for its kind."""
        entry = self.entry
        info = self.query_one("#builder-entry-info", Static)
        info.update(entry_summary(self.catalog, entry) if entry else "")
        if entry is not None:
            self.side_field.show_name_field(False)
            self.side_field.show(entry.kind)

    @on(Stepper.Changed, "#builder-side")
    def _side_stepped(self, event: Stepper.Changed) -> None:
        """The GM's keys (every other change is prevented): kept for the entry's kind."""
        entry = self.entry
        if entry is not None:
            self.side_field.sides[entry.kind] = event.value
        self.side_field.show_message()

    def on_pack_list_count_key(self, event: PackList.CountKey) -> None:
        """− + and digits in the pack list set the Count as in the field itself."""
        count = self.query_one("#builder-count", Stepper)
        if event.digit:
            count.type_digit(event.digit)
        else:
            count.action_step(event.step)

    @on(Input.Submitted, "#builder-search")
    @on(OptionList.OptionSelected, "#builder-entries")
    def _submitted(self, event: Input.Submitted | OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Submitted())

    @on(Input.Submitted, "#builder-side-name")
    def _side_named(self, event: Input.Submitted) -> None:
        """Enter on a new side's name: the Zone field comes next (nothing is added before
        the GM has seen where they go); Enter there adds. An empty name is refused."""
        event.stop()
        if self.side is None:
            self.post_message(self.Submitted())  # the screen says why and asks again
        else:
            self.query_one("#builder-zone").focus()
