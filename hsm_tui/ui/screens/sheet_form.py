"""The character sheet as a form: one line a field beside the sheet the engine reads
from it, live (derived traits as the book writes them, ratings, Talents against Luck,
what is carried against the Encumbrance number, trait points against a budget, and every
problem the packs' own check finds, :func:`hsm_tui.campaign.making.check`, by the field
at fault). The GM's builder and a player's draft sheet are this form; what Enter and Esc
do is each screen's own.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label, Static

from ...campaign import making
from ...campaign.making import MadeCharacter
from ...packs.problems import Problem
from ...rules import Trait
from ...rules.models import TRAIT_MAX, TRAIT_MIN
from ..widgets.stepper import Stepper
from .character_form import (
    FormError,
    equipment_of,
    equipment_text,
    number_of,
    numbers_of,
    numbers_text,
    texts_of,
    texts_text,
    weapons_of,
)

TEXTS = (
    ("name", "Name"),
    ("player", "Player"),
    ("career", "Career"),
    ("motivation", "Motivation"),
)
LISTS = (
    ("skills", "Skills", "e.g. observation 2, lock picking 1"),
    ("ratings", "Ratings", "by hand, e.g. agile 8 (blank: the convention)"),
    ("talents", "Talents", "e.g. Pathfinder; Quick draw"),
    ("advantages", "Advantages", "e.g. Keen eyes: a re-roll on Observation"),
    ("drawbacks", "Drawbacks", "e.g. Restless"),
    ("weapons", "Weapons", "e.g. assault-laser, dagger"),
    ("equipment", "Equipment", "e.g. Assault Laser 3 back; Rope 1 pack"),
    ("encumbrance", "Encumbrance", "blank: 6 + Strength × 2"),
    ("storage", "Storage", "Storage Space (blank: none)"),
)
TRAIT_CHOICES = [(str(n), n) for n in range(TRAIT_MIN, TRAIT_MAX + 1)]


class SheetField(Input):
    """A one-line field of the sheet: Enter keeps the character (the key bar says so)."""

    BINDINGS = [Binding("enter", "submit", "Keep", id="character.submit")]


def _as_typed(s: MadeCharacter) -> dict[str, str]:
    """Each list field of ``s`` as the form shows it (:mod:`.character_form`)."""
    numbers = {
        k: "" if getattr(s, k) is None else str(getattr(s, k)) for k in ("encumbrance", "storage")
    }
    return {
        "skills": numbers_text(s.skills),
        "ratings": numbers_text(s.ratings),
        **{k: texts_text(getattr(s, k)) for k in ("talents", "advantages", "drawbacks")},
        "weapons": ", ".join(s.weapons),
        "equipment": equipment_text(s.equipment),
        **numbers,
    }


class SheetForm:
    """The form on the left, the sheet as the engine reads it on the right; a mixin of a
    Screen that has ``table`` (the seat-bound session handle). ``start``: the sheet the
    form opens on; ``grows``: a character that exists (its kind and id stay)."""

    start: MadeCharacter
    grows: bool
    FIELD: type[SheetField] = SheetField
    """The fields' class (what Enter in a field does, as the key bar says)."""
    note_field = False
    """Whether the form ends with a note field (why a character grows)."""

    def sheet_form(self, start: MadeCharacter, grows: bool) -> None:
        self.start, self.grows = start, grows
        self._id_typed = bool(start.id)  # a blank id follows the name until typed

    def compose_form(self) -> ComposeResult:
        s = self.start
        with Horizontal(id="character-main"):
            with VerticalScroll(id="character-form"):
                if not self.grows:
                    kinds = [(k, k) for k in making.KINDS]
                    yield Stepper("Kind", kinds, s.kind, id="character-kind")
                    yield self._field("id", "Id", s.id, "e.g. ada-quill (follows the name)")
                for key, label in TEXTS:
                    yield self._field(key, label, getattr(s, key), "")
                for trait, value in zip(Trait, s.traits, strict=True):
                    label = trait.value.title()
                    yield Stepper(label, TRAIT_CHOICES, value, id=f"character-{trait.value}")
                shown = _as_typed(s)
                for key, label, hint in LISTS:
                    yield self._field(key, label, shown[key], hint)
                if self.note_field:
                    yield self._field("note", "Note", "", "why: the XP awarded, the reason")
            yield Static(id="character-sheet")

    def _field(self, key: str, label: str, value: str, hint: str) -> Horizontal:
        return Horizontal(
            Label(label, classes="character-label"),
            self.FIELD(value, placeholder=hint, id=f"character-{key}", compact=True),
            classes="character-row",
        )

    def budget_shown(self) -> int:
        """The trait budget the sheet counts points against (0: none)."""
        return 0

    def heading(self) -> Text:
        """Lines above the sheet's reading (a returned draft's note)."""
        return Text()

    # -- reading the form ------------------------------------------------------------
    def _text(self, key: str) -> str:
        return self.query_one(f"#character-{key}", Input).value  # type: ignore[attr-defined]

    def draft(self) -> MadeCharacter:
        """The character as the form has it now; FormError for a field it cannot read."""
        query = self.query_one  # type: ignore[attr-defined]
        kind = self.start.kind if self.grows else query("#character-kind", Stepper).value
        traits = tuple(query(f"#character-{t.value}", Stepper).value for t in Trait)
        return replace(
            self.start,
            kind=kind,
            id=self.start.id if self.grows else self._text("id").strip(),
            traits=traits,
            **{key: self._text(key).strip() for key, _ in TEXTS},
            skills=numbers_of("skills", self._text("skills")),
            ratings=numbers_of("ratings", self._text("ratings")),
            talents=texts_of(self._text("talents")),
            advantages=texts_of(self._text("advantages")),
            drawbacks=texts_of(self._text("drawbacks")),
            weapons=weapons_of(self._text("weapons")),
            equipment=equipment_of(self._text("equipment")),
            encumbrance=number_of("encumbrance", self._text("encumbrance")),
            storage=number_of("storage", self._text("storage")),
        )

    def form_changed(self) -> None:
        """After every change to a field: the sheet worked out again."""
        self.show_sheet()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.id == "character-id" and event.input.has_focus:
            self._id_typed = True
        if event.input.id == "character-name" and not self._id_typed and not self.grows:
            self.query_one("#character-id", Input).value = making.kebab(event.value)  # type: ignore[attr-defined]
        self.form_changed()

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        event.stop()
        if self.is_mounted:  # type: ignore[attr-defined]
            self.form_changed()

    # -- the sheet -------------------------------------------------------------------
    def show_sheet(self) -> None:
        """Work the sheet out again and mark each field the engine finds fault with."""
        for widget in self.query(".-invalid"):  # type: ignore[attr-defined]
            widget.remove_class("-invalid")
        sheet = self.query_one("#character-sheet", Static)  # type: ignore[attr-defined]
        try:
            made = self.draft()
        except FormError as err:
            self._mark(err.field)
            sheet.update(self.heading() + Text(f"✗ {err.field}: {err}"))
            return
        _character, problems = making.check(made, self.table.catalog)  # type: ignore[attr-defined]
        for problem in problems:
            if problem.is_error and problem.key:
                self._mark(problem.key.split(".")[-1 if problem.key.startswith("traits.") else 0])
        sheet.update(self.heading() + self._sheet(made, problems))

    def _mark(self, key: str) -> None:
        for widget in self.query(f"#character-{key}"):  # type: ignore[attr-defined]
            widget.add_class("-invalid")

    def _sheet(self, made: MadeCharacter, problems: list[Problem]) -> Text:
        text = Text()
        for problem in problems:
            mark, style = ("✗ ", "bold red") if problem.is_error else ("⚠ ", "yellow")
            text.append(mark + problem.message.split(": ", 1)[-1] + "\n", style=style)
        text.append("Derived traits (R-CHAR-3)\n", style="bold")
        text.append("\n".join(making.derived_lines(made)) + "\n")
        ratings = making.ratings_of(made)
        shown = " · ".join(f"{k.title()} {v}" for k, v in ratings.items())
        text.append("Ratings (R-CHAR-4) ", style="bold").append(shown + "\n")
        if made.kind == "hero":
            text.append(f"Talents {len(made.talents)}, Luck {made.trait(Trait.LUCK)} (R-CHAR-5)\n")
        load = f"Carried {making.carried(made)} of {making.encumbrance_of(made)}"
        text.append(load, style="bold red" if making.encumbered(made) else "")
        text.append(" — Encumbered\n" if making.encumbered(made) else " (R-CHAR-7)\n")
        budget = self.budget_shown()
        left = making.points_left(made, budget)
        points = f"Trait points {sum(made.traits)}"
        text.append(points + (f" of {budget}: {left} left" if left is not None else "") + "\n")
        return text
