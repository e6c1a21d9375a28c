"""The builder's zones: the places of the encounter, the one new entries go to marked,
and a field to name a new zone, checked as it is typed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.validation import ValidationResult, Validator
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...campaign.combat import zone_name_refusal
from ...campaign.encounter import Encounter
from .labels import zone_text


def zone_problem(name: str, zones: Sequence[str]) -> str | None:
    """Why the engine would refuse the zone name (its own words), checked as typed."""
    return zone_name_refusal(zones, name) or None


class ZoneName(Validator):
    """A new zone's name: not empty, not one of the encounter's zones."""

    def __init__(self, zones: Callable[[], Sequence[str]]) -> None:
        super().__init__()
        self.zones = zones

    def validate(self, value: str) -> ValidationResult:
        problem = zone_problem(value, self.zones())
        return self.failure(problem) if problem else self.success()


def zone_row(zone: str, enc: Encounter, target: bool, width: int = 80) -> Text:
    """``▸ ridge (3)``: the arrow marks where the next entry goes, without colour; a spot
    on the way too wide for ``width`` keeps where it leads (``ruins→ridge S (1)``).
    """
    count = f" ({sum(c.zone == zone for c in enc.combatants)})"
    name = zone_text(zone, max(6, width - 2 - len(count)))
    return Text.assemble(
        ("▸ " if target else "  ", "bold"), (name, "bold" if target else ""), (count, "dim")
    )


class ZonePanel(Vertical):
    """The new zone's name (shown while typed), then the zones with their head counts."""

    @dataclass
    class Named(Message):
        """Enter in the name field: the GM wants a zone called ``name``."""

        name: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.zones: tuple[str, ...] = ()
        """The encounter's zones as last shown: the names a new one must differ from."""
        self._shown: tuple[Encounter, str | None] = (Encounter(zones=()), None)

    def compose(self) -> ComposeResult:
        yield Input(
            placeholder="new zone name",
            id="builder-zone-name",
            compact=True,
            validators=[ZoneName(lambda: self.zones)],
        )
        yield Static(id="builder-zone-msg")
        yield OptionList(id="builder-zone-list")

    def on_mount(self) -> None:
        self.show_name_field(False)

    def on_resize(self) -> None:
        """Its width known (or changed): the rows fitted to it."""
        self.show(*self._shown)

    def show(self, enc: Encounter, target: str | None) -> None:
        """The zones, the target one marked and highlighted (it follows the Zone field)."""
        self.zones, self._shown = enc.zones, (enc, target)
        listing = self.query_one("#builder-zone-list", OptionList)
        width = listing.scrollable_content_region.width or 22
        options = [Option(zone_row(z, enc, z == target, width), id=z) for z in enc.zones]
        listing.set_options(options or [Option(Text("No zones yet: z adds one", "dim"))])
        if target in enc.zones:
            listing.highlighted = enc.zones.index(target)

    @property
    def naming(self) -> bool:
        """Whether the name field is open (``z`` opens it, Enter or Esc closes it)."""
        return bool(self.query_one("#builder-zone-name").display)

    def show_name_field(self, shown: bool) -> None:
        """Open the name field, empty and focused, or close it."""
        field = self.query_one("#builder-zone-name", Input)
        field.display = shown
        self.query_one("#builder-zone-msg").display = shown
        if shown:
            field.value = ""
            self.show_problem()
            field.focus()

    @on(Input.Changed, "#builder-zone-name")
    def show_problem(self) -> None:
        """Under the name: why it would be refused, or that Enter adds it."""
        name = self.query_one("#builder-zone-name", Input).value
        problem = zone_problem(name, self.zones)
        msg = self.query_one("#builder-zone-msg", Static)
        msg.set_class(problem is not None, "-error")
        msg.update(f"✗ {problem}" if problem else "✓ Enter adds · Esc cancels")

    @on(Input.Submitted, "#builder-zone-name")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Named(event.value))
