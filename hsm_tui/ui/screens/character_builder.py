"""The character builder: a Hero, Sidekick or Minion made by the book's sheet (R-CHAR-1..7)
or grown between adventures, with the sheet worked out live beside the form: derived
traits as the book writes them, ratings, Talents against Luck, what is carried against
the Encumbrance number, trait points against the campaign's budget, and every problem the
packs' own check finds (:func:`hsm_tui.campaign.making.check`), by the field at fault.

Enter keeps the character (one undo step; from home a new Hero joins the party in the
same step); Esc backs out, and asks again first when something was changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label, Static

from ...campaign import making
from ...campaign.making import MadeCharacter, MakeCharacter
from ...packs.problems import Problem
from ...rules import Trait
from ...rules.models import TRAIT_MAX, TRAIT_MIN
from ..widgets.keybar import KeyBar
from ..widgets.stepper import Stepper, focus_arrows
from ..widgets.title_bar import TitleBar
from . import SessionScreen
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
from .help_text import HelpText

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


class CharacterBuilder(SessionScreen):
    """The form on the left, the sheet as the engine reads it on the right."""

    CSS_PATH = "../styles/characters.tcss"
    HELP = HelpText(__name__, max_text=making.MAX_TEXT)
    BINDINGS = [
        Binding("enter", "keep", "Keep", id="character.keep"),
        Binding("escape", "back", "Back", id="character.back"),
        Binding("f1", "app.help", "Help", id="character.help"),
        *focus_arrows(),
    ]
    PINNED = frozenset({"character.keep", "character.submit", "character.back"})

    def __init__(self, start: MadeCharacter, grows: bool = False, joins: bool = False) -> None:
        """``start``: the sheet the form opens on; ``grows``: a character the campaign or
        a pack has (its kind and id stay); ``joins``: a new Hero joins the party too."""
        super().__init__()
        self.start, self.grows, self.joins = start, grows, joins
        self._id_typed = bool(start.id)  # a blank id follows the name until typed
        self._backing_out = False

    def compose(self) -> ComposeResult:
        s = self.start
        yield TitleBar()
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
                if self.grows:
                    yield self._field("note", "Note", "", "why: the XP awarded, the reason")
            yield Static(id="character-sheet")
        yield KeyBar()

    @staticmethod
    def _field(key: str, label: str, value: str, hint: str) -> Horizontal:
        return Horizontal(
            Label(label, classes="character-label"),
            SheetField(value, placeholder=hint, id=f"character-{key}", compact=True),
            classes="character-row",
        )

    def on_mount(self) -> None:
        what = "Grow" if self.grows else "Make"
        self.show_subtitle(f"{what} a {self.start.kind}: {self.start.name or 'new'}")
        self.query_one("#character-sheet").border_title = "Sheet (the engine's reading)"
        self.query_one("#character-form").border_title = "Enter keeps · Esc backs out"
        self.query_one("#character-name").focus()
        _character, problems = making.check(self.start, self.session.catalog)
        errors = [p.message.split(": ", 1)[-1] for p in problems if p.is_error]
        if errors:  # a hand-edited file: the form holds what fits, the change is logged
            self.notify(f"{errors[0]}; the form shows what fits", title="The saved sheet")
        self._show()

    # -- reading the form ------------------------------------------------------------
    def _text(self, key: str) -> str:
        return self.query_one(f"#character-{key}", Input).value

    def draft(self) -> MadeCharacter:
        """The character as the form has it now; FormError for a field it cannot read."""
        kind = self.start.kind if self.grows else self.query_one("#character-kind", Stepper).value
        traits = tuple(self.query_one(f"#character-{t.value}", Stepper).value for t in Trait)
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

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.id == "character-id" and event.input.has_focus:
            self._id_typed = True
        if event.input.id == "character-name" and not self._id_typed:
            self.query_one("#character-id", Input).value = making.kebab(event.value)
        self._backing_out = False
        self._show()

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        event.stop()
        self._backing_out = False
        if self.is_mounted:
            self._show()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_keep()

    # -- the sheet -------------------------------------------------------------------
    def _show(self) -> None:
        """Work the sheet out again and mark each field the engine finds fault with."""
        for widget in self.query(".-invalid"):
            widget.remove_class("-invalid")
        try:
            made = self.draft()
        except FormError as err:
            self._mark(err.field)
            self.query_one("#character-sheet", Static).update(Text(f"✗ {err.field}: {err}"))
            return
        _character, problems = making.check(made, self.session.catalog)
        for problem in problems:
            if problem.is_error and problem.key:
                self._mark(problem.key.split(".")[-1 if problem.key.startswith("traits.") else 0])
        self.query_one("#character-sheet", Static).update(self._sheet(made, problems))

    def _mark(self, key: str) -> None:
        for widget in self.query(f"#character-{key}"):
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
        budget = self.session.campaign.budget
        left = None if self.grows else making.points_left(made, budget)
        points = f"Trait points {sum(made.traits)}"
        text.append(points + (f" of {budget}: {left} left" if left is not None else "") + "\n")
        return text

    # -- keep or back out ------------------------------------------------------------
    def action_keep(self) -> None:
        try:
            made = self.draft()
        except FormError as err:
            self.notify(str(err), title=f"Refused: {err.field}", severity="error")
            return
        note = self._text("note").strip() if self.grows else ""
        command: Any = MakeCharacter(made, note=note, grows=self.grows)
        if self.joins and made.kind == "hero":
            from ...campaign.party import AddHero
            from ...table.state import Batch

            command = Batch((command, AddHero(made.id)))
        if self._apply(command):
            self.notify(self.session.log[-1].title, title="Kept")
            self.dismiss(None)

    def action_back(self) -> None:
        """Back out; when the form was changed, only at a second Esc (nothing lost)."""
        try:
            changed = self.draft() != self.start or bool(self.grows and self._text("note"))
        except FormError:
            changed = True
        if changed and not self._backing_out:
            self._backing_out = True
            self.notify("Esc again discards the changes; Enter keeps them", title="Unsaved sheet")
            return
        self.dismiss(None)
