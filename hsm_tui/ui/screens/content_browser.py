"""Content browser: packs, entries by kind with search, full cards, and pack problems.

It only reads the catalog the session holds; a pack problem never stops the app, it is
listed here with its file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...packs import Catalog, Character, LoadResult
from ...packs.kinds import KINDS
from ..widgets.entry_card import (
    character_sheet,
    chart_table,
    pack_card,
    problem_card,
    weapon_card,
)
from ..widgets.keybar import KeyBar
from ..widgets.title_bar import TitleBar
from . import SessionScreen, set_border_titles
from .help_text import HelpText


@dataclass(frozen=True)
class Item:
    """One browsable row: its label, what search matches, and how to draw its card."""

    label: str
    haystack: str
    card: Callable[[], RenderableType]
    character: Character | None = None  # a minion, sidekick or hero: the builder copies it


def character_words(c: Character) -> str:
    """What a character's search matches: its name, id, tags and text, and the names on
    its sheet a GM looks it up by in play (a Skill, a Talent, an Advantage or a Drawback
    recalled without the name of whoever has it).
    """
    skills = (name for name, _rating in c.skills)
    return " ".join(
        [c.id, c.name, *c.tags, c.text, *skills, *c.talents, *c.advantages, *c.drawbacks]
    )


def _items(kind: str, content: LoadResult) -> list[Item]:
    catalog: Catalog = content.catalog
    if kind == "packs":
        return [
            Item(p.name, f"{p.id} {p.name}", lambda p=p: pack_card(p, catalog))
            for p in catalog.packs
        ]
    if kind == "weapons":
        return [
            Item(
                w.name,
                f"{w.id} {w.name} {w.kind} {w.skill.value} {w.text}",
                lambda w=w: weapon_card(w),
            )
            for w in catalog.weapons.values()
        ]
    if kind in ("minions", "sidekicks", "heroes"):
        return [
            Item(
                c.name,
                character_words(c),
                lambda c=c: character_sheet(c, catalog),
                c,
            )
            for c in catalog.kind(kind).values()
        ]
    if kind == "chart":
        return [
            Item(
                f"{r.min}{'+' if r.max is None else ''} {r.name}",
                f"{r.id} {r.name} {r.text}",
                lambda r=r: chart_table(catalog.chart, catalog.chart_pack, r.id),
            )
            for r in catalog.chart
        ]
    return [
        Item(
            f"{'✗' if p.is_error else '!'} {p.path.rsplit('/', 1)[-1]}:{p.line}",
            p.format(),
            lambda p=p: problem_card(p),
        )
        for p in content.problems
    ]


TABS = ("packs", "weapons", "minions", "sidekicks", "heroes", "chart", "problems")
KIND_OF = {plural: kind for kind, plural in KINDS.items()}
"""A tab, and the kind of its entries (the builder makes one of that kind)."""


class ContentBrowserScreen(SessionScreen):
    """Browse everything the loaded packs define."""

    CSS_PATH = "../styles/content.tcss"

    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("slash", "search", "Search", id="content.search"),
        Binding("b", "build", "Copy", id="content.build"),
        Binding("escape", "leave_search", "Back", show=False),
        Binding("right", "focus_next_list", show=False),
        Binding("left", "focus_previous_list", show=False),
    ]
    """/ searches; ←/→ move between the kinds, entries and card."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Input(
            placeholder="/ search names, tags, text, skills, talents, advantages, drawbacks",
            id="content-search",
            compact=True,
        )
        with Horizontal(id="content-body"):
            yield OptionList(id="content-kinds")
            yield OptionList(id="content-entries")
            with VerticalScroll(id="content-card"):
                yield Static(id="content-card-body")
        yield KeyBar()

    @property
    def content(self) -> LoadResult:
        return self.app.content  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        set_border_titles(
            self,
            {"#content-kinds": "Kinds", "#content-entries": "Entries", "#content-card": "Card"},
        )
        kinds = self.query_one("#content-kinds", OptionList)
        for kind in TABS:
            count = len(_items(kind, self.content))
            label = f"{kind.title()} {count}"
            if kind == "problems" and any(p.is_error for p in self.content.problems):
                label = f"Problems ✗ {count}"
            kinds.add_option(Option(label, id=kind))
        kinds.highlighted = 1
        kinds.focus()
        self.follow_session(lambda: None)  # nothing here changes with play but the unsaved mark

    @property
    def kind(self) -> str:
        kinds = self.query_one("#content-kinds", OptionList)
        return TABS[kinds.highlighted or 0]

    def _visible(self) -> list[Item]:
        needle = self.query_one("#content-search", Input).value.strip().lower()
        items = _items(self.kind, self.content)
        return [i for i in items if needle in i.haystack.lower()] if needle else items

    def refresh_entries(self) -> None:
        entries = self.query_one("#content-entries", OptionList)
        entries.clear_options()
        self._shown = self._visible()
        entries.add_options([Option(item.label) for item in self._shown])
        entries.border_title = f"{self.kind.title()} ({len(self._shown)})"
        if self._shown:
            entries.highlighted = 0
        self.show_card()

    def show_card(self) -> None:
        entries = self.query_one("#content-entries", OptionList)
        body = self.query_one("#content-card-body", Static)
        index = entries.highlighted
        if not self._shown or index is None:
            body.update(
                "Nothing here."
                if not self.query_one("#content-search", Input).value
                else "No match."
            )
            return
        body.update(self._shown[index].card())

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "content-kinds":
            self.refresh_entries()
        else:
            self.show_card()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_focus_next_list()

    def action_build(self) -> None:
        """The highlighted character as a new one of the campaign's, to change and keep."""
        from ...campaign.making import from_entry
        from .character_builder import CharacterBuilder

        index = self.query_one("#content-entries", OptionList).highlighted
        item = self._shown[index] if self._shown and index is not None else None
        if item is None or item.character is None:
            self.notify("Highlight a minion, sidekick or hero to copy", severity="warning")
            return
        kind = KIND_OF[self.kind]
        copy = replace(from_entry(item.character, kind), id=f"{item.character.id}-copy")
        self.app.push_screen(CharacterBuilder(copy))

    def on_input_changed(self, _event: Input.Changed) -> None:
        self.refresh_entries()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.query_one("#content-entries").focus()

    def action_search(self) -> None:
        self.query_one("#content-search").focus()

    def action_leave_search(self) -> None:
        """Esc drops the filter (Enter keeps it): a forgotten one hid every kind's entries."""
        search = self.query_one("#content-search", Input)
        if search.value:
            search.value = ""  # Input.Changed lists everything again
        self.query_one("#content-entries").focus()

    def _move(self, step: int) -> None:
        order = ["#content-kinds", "#content-entries", "#content-card"]
        focused = self.focused
        current = next((i for i, w in enumerate(order) if focused is self.query_one(w)), 0)
        self.query_one(order[max(0, min(len(order) - 1, current + step))]).focus()

    def action_focus_next_list(self) -> None:
        self._move(1)

    def action_focus_previous_list(self) -> None:
        self._move(-1)
