"""The picker's Side field: a choice among the sides in use, or a new side named after
``n``, so the GM picks a side instead of retyping it (and mistyping it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import DescendantBlur, DescendantFocus
from textual.validation import ValidationResult, Validator
from textual.widgets import Input, Label, Static

from ...campaign.encounter import Encounter
from .labels import fit
from .stepper import Stepper

DEFAULT_SIDES = ("heroes", "enemies")
"""Offered even before anyone stands on them: the defaults per kind (see side_group)."""


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


class SideName(Validator):
    """A side is any name, but a name: the engine groups combatants by it."""

    def validate(self, value: str) -> ValidationResult:
        return self.success() if value.strip() else self.failure("a side needs a name")


class SideField(Vertical):
    """The Side choice among the sides in use: ← → step and stop at either end, so
    stepping never starts a new side; ``n`` names one (an explicit choice). It keeps the
    side picked last for each kind of entry (the GM's choice, not game state).
    """

    DEFAULT_CSS = """
    SideField {
        height: auto;
    }
    """

    BINDINGS = [
        Binding("n", "new_side", "New side", show=False, id="builder.new-side"),
    ]
    """Besides the Side stepper's own ← → − +."""

    def __init__(self, kinds: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.sides = {kind: side_group(kind) for kind in kinds}
        """The side picked last for each kind of entry: set by stepping the field or
        adding, and shown again whenever an entry of that kind is highlighted."""
        self.encounter = Encounter(zones=())
        """The encounter as the screen last showed it: its sides are the choices."""

    def compose(self) -> ComposeResult:
        sides = [(side, side) for side in DEFAULT_SIDES]
        yield Stepper("Side", sides, "heroes", id="builder-side")
        with Horizontal(id="builder-side-row"):
            yield Label("Side", id="builder-side-label")
            yield Input(
                placeholder="new side's name",
                id="builder-side-name",
                compact=True,
                validators=[SideName()],
            )
        yield Static(id="builder-side-msg")

    def on_mount(self) -> None:
        self.show_name_field(False)

    def show(self, kind: str | None) -> None:
        """The choices, names fitted to the field's width, showing the side kept for
        ``kind`` (None: the side shown now). Every change of the field not made by the
        GM's keys comes through here, so none is taken for the GM's pick.
        """
        stepper = self.query_one("#builder-side", Stepper)
        room = max(6, (stepper.size.width or 24) - 16)
        names = side_names(self.encounter, self.sides.values())
        side = stepper.value if kind is None else self.sides[kind]
        with self.prevent(Stepper.Changed):
            stepper.set_choices([(fit(name, room), name) for name in names], side)
        self.show_message()

    @property
    def naming(self) -> bool:
        """Whether the new side's name field stands in for the Side choice (``n``)."""
        return bool(self.query_one("#builder-side-row").display)

    @property
    def side(self) -> str | None:
        """The side to add to: the one chosen, or while naming the one the name means (a
        listed side if it names one, else the text; None while it is empty).
        """
        if not self.naming:
            return self.query_one("#builder-side", Stepper).value
        return self._typed_side()

    def _typed_side(self) -> str | None:
        field = self.query_one("#builder-side-name", Input)
        if not self.naming or not field.value.strip():
            return None
        names = side_names(self.encounter, self.sides.values())
        return known_side(field.value, names) or field.value.strip()

    def action_new_side(self) -> None:
        """``n`` in the Side field: type the new side's name (Enter adds, Esc goes back)."""
        self.show_name_field(True)

    def show_name_field(self, shown: bool) -> None:
        """The name field stands in for the Side choices while a new side is typed."""
        field = self.query_one("#builder-side-name", Input)
        self.query_one("#builder-side-row").display = shown
        self.query_one("#builder-side").display = not shown
        if shown:
            field.value = ""
            field.focus()
        self.show_message()

    def focus_name(self) -> None:
        """Back to the name field (Enter found it empty)."""
        self.query_one("#builder-side-name").focus()

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        if event.widget.id == "builder-side":
            self.show_message()  # the key that names a new side

    def on_descendant_blur(self, event: DescendantBlur) -> None:
        if event.widget.id == "builder-side":
            self.show_message()

    @on(Input.Changed, "#builder-side-name")
    def show_message(self) -> None:
        """Under the Side field: while it has the focus, the key that names a new side;
        while one is named, whether it is a listed side or a new one (a typo shows as
        *new side* before it is used).
        """
        msg = self.query_one("#builder-side-msg", Static)
        typing = self.naming
        msg.display = typing or self.query_one("#builder-side").has_focus
        msg.remove_class("-error", "-new")
        if not typing:
            msg.update("n: name a new side")
            return
        side = self._typed_side()
        names = side_names(self.encounter, self.sides.values())
        if side is None:
            msg.add_class("-error")
            msg.update("✗ a side needs a name")
        elif side in names:
            msg.update(f"✓ joins {side} · Enter: zone")
        else:
            msg.add_class("-new")
            msg.update("+ new side · Enter: zone")
