"""Home: the campaign between fights — the party with its Luck and Clue pools, wounds and
scars (R-CHAR-9, R-WOUND-7), the GM's roster of sidekicks and minions, and scene notes.

Everything is a campaign command to the session (undoable); the scene notes are edited
in a dialog and sent when it closes, so typing does not flood the undo history.
S / O / C save, open and start campaigns (hsm_tui/ui/files.py).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.keybar import KeyBar
from ..widgets.title_bar import TitleBar
from . import SessionReady, SessionScreen, set_border_titles
from .help_text import HelpText
from .picker import PickerScreen

if TYPE_CHECKING:
    from ...campaign.combat import ApplyDamage
    from ...packs import Character
    from ...table.session import Command

_WAY = (
    "[b]F7[/] build an encounter",
    "[b]F4[/] run the fight",
    "[b]F2[/] tasks · [b]F5[/] chart",
    "[b]F6[/] log · [b]F3[/] content",
    "[b]S[/] save · [b]O[/] open",
    "[b]F1[/] keys for any screen",
)
"""Where a GM goes from home: the way through an evening, one screen per line."""
START_HERE = "\n".join(_WAY)


def start_here(fight_round: int) -> str:
    """The Go box; in a fight (a campaign saved mid-fight, opened again) its first two
    lines, the encounter's, say where it goes on, ``fight_round`` 0 outside
    one.
    """
    if not fight_round:
        return START_HERE
    fight = (f"round {fight_round} — [b]F4[/] continues", "the fight · [b]F7[/] its set-up")
    return "\n".join((*fight, *_WAY[2:]))


def _party() -> ModuleType:
    """The campaign commands' module, imported on first use: home is the first screen and
    draws its first frame before the engine has loaded.
    """
    from ...campaign import party

    return party


class CampaignScreen(SessionScreen):
    """Party, roster and scene notes; F1 for the keys."""

    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("a", "add_hero", "Add hero", id="campaign.add-hero"),
        Binding("b", "build_hero", "Build hero", id="campaign.build-hero"),
        Binding("g", "grow_hero", "Grow", show=False, id="campaign.grow-hero"),
        Binding("B", "budget", "Budget", show=False, id="campaign.budget"),
        Binding("D", "draft", "Draft sheet", show=False, id="campaign.draft"),
        Binding("R", "chart_rows", "Chart rows", show=False, id="campaign.chart-rows"),
        Binding("X", "export_characters", "Export", show=False, id="campaign.export-characters"),
        Binding("I", "import_character", "Import", show=False, id="campaign.import-character"),
        Binding("x", "remove_hero", "Remove hero", show=False, id="campaign.remove-hero"),
        Binding("plus,equals_sign", "clues(1)", "Clue +1", id="campaign.clue-up"),
        Binding("minus", "clues(-1)", "Clue −1", show=False, id="campaign.clue-down"),
        Binding("r", "add_roster", "Roster +", id="campaign.add-roster"),
        Binding("d", "drop_roster", "Roster −", show=False, id="campaign.drop-roster"),
        Binding("e", "edit_scene", "Notes", id="campaign.edit-scene"),
        Binding("W", "damage", "Damage", show=False, id="campaign.damage"),
        Binding("c", "conditions", "Conditions", show=False, id="campaign.conditions"),
        Binding("N", "new_adventure", "New adventure", id="campaign.new-adventure"),
        Binding("S", "app.save_campaign", "Save", id="campaign.save"),
        Binding("O", "app.open_campaign", "Open", show=False, id="campaign.open"),
        Binding("C", "app.new_campaign", "New campaign", show=False, id="campaign.new"),
        Binding("u", "undo", "Undo", id="campaign.undo"),
        Binding("y", "redo", "Redo", show=False, id="campaign.redo"),
    ]
    """Single keys on the lists; typing goes to the notes dialog (e)."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="campaign-top"):
            yield OptionList(id="party")
            yield OptionList(id="roster")
        with Horizontal(id="campaign-bottom"):
            yield Static(id="scene", markup=False)
            yield Static(START_HERE, id="start-here")
        yield KeyBar()

    def on_mount(self) -> None:
        set_border_titles(
            self,
            {
                "#party": "Party",
                "#roster": "Roster",
                "#scene": "Scene notes (e)",
                "#start-here": "Go",
            },
        )
        self.query_one("#party", OptionList).focus()
        self._filled = False
        if self.app.has_session:  # type: ignore[attr-defined]
            self._fill_in()

    def on_session_ready(self, _message: SessionReady) -> None:
        self._fill_in()

    def _fill_in(self) -> None:
        """Fill in from the session; as the first screen, once the first frame is out
        (see ``_party``).
        """
        if self._filled:
            return
        self._filled = True
        self.follow_session(self.refresh_from_session)
        self.refresh_from_session()

    def refresh_from_session(self) -> None:
        from ...table.views import marker  # the engine, loaded with the session after 1st frame

        campaign = self.session.party_now()  # Heroes in a fight as the fight has them
        file = self.session.file
        where = f" · {file.name}" if file is not None else ""
        self.show_subtitle(f"{campaign.name} · adventure {campaign.adventure}{where}")
        enc = self.session.encounter
        self.query_one("#start-here", Static).update(start_here(enc.round if enc.active else 0))
        party = self.query_one("#party", OptionList)
        keep = party.highlighted
        party.clear_options()
        chart = {r.id: r.name for r in self.session.catalog.chart}
        drafted = {
            d.hero: " · draft sent (D reads it)" if d.sent else " · draft with its player"
            for d in campaign.drafts
        }
        for m in campaign.party:
            wounds = "DEAD" if m.dead else marker(m.wounds)
            scars = (
                f" · {len(m.chart)} on the chart, last {chart.get(m.chart[-1], m.chart[-1])}"
                if m.chart
                else ""
            )
            marks = "".join(f" · {c}" for c in m.conditions)  # §8, kept between fights
            marks += drafted.get(m.entry, "")
            party.add_option(
                Option(
                    f"{m.name}  Luck {m.luck} · Clues {m.clues} · {wounds}{marks}{scars}", m.entry
                )
            )
        if not campaign.party:
            party.add_option(Option("(no heroes yet: a adds one)", disabled=True))
        party.highlighted = min(keep or 0, max(0, len(campaign.party) - 1))
        roster = self.query_one("#roster", OptionList)
        roster.clear_options()
        catalog = self.session.catalog
        for kind, entry in campaign.roster:
            found = catalog.kind(kind).get(entry)
            name = found.name if found else f"{entry} (missing)"
            roster.add_option(Option(f"{name}  ({kind})", f"{kind}:{entry}"))
        if not campaign.roster:
            roster.add_option(Option("(empty: r adds a sidekick or minion)", disabled=True))
        roster.highlighted = 0 if campaign.roster else None
        self.query_one("#scene", Static).update(campaign.scene or "(none yet: e writes them)")

    def _highlighted(self, list_id: str) -> str | None:
        options = self.query_one(list_id, OptionList)
        if options.highlighted is None or options.option_count == 0:
            return None
        option = options.get_option_at_index(options.highlighted)
        return None if option.disabled else option.id

    # -- party --------------------------------------------------------------------
    def action_add_hero(self) -> None:
        heroes = self.session.catalog.kind("hero")
        party = {m.entry for m in self.session.campaign.party}
        choices = [(f"{h.name} ({h.id})", h.id) for h in heroes.values() if h.id not in party]
        if not choices:
            self.notify(
                "Every Hero is in the party already: b builds a new one", severity="warning"
            )
            return

        def picked(entry: str | None) -> None:
            if entry is not None:
                self._apply(_party().AddHero(entry))

        self.app.push_screen(PickerScreen("Add a Hero to the party", choices), picked)

    def action_build_hero(self) -> None:
        """A new Hero by the book's sheet, who joins the party (the character builder)."""
        from ...campaign.making import MadeCharacter
        from .character_builder import CharacterBuilder

        self.app.push_screen(CharacterBuilder(MadeCharacter("hero", "", ""), joins=True))

    def action_grow_hero(self) -> None:
        """The highlighted Hero's sheet, to grow between adventures (each change logged)."""
        from ...campaign.making import from_entry
        from .character_builder import CharacterBuilder

        entry = self._highlighted("#party")
        hero = self.session.catalog.heroes.get(entry or "")
        made = next((m for m in self.session.campaign.made if m.id == entry), None)
        if made is None and hero is None:  # the campaign's own opens even when it no longer checks
            self.notify("Highlight a Hero in the party first", severity="warning")
            return
        start = made if made is not None else from_entry(hero, "hero")  # type: ignore[arg-type]
        self.app.push_screen(CharacterBuilder(start, grows=True))

    def action_draft(self) -> None:
        """The highlighted Hero's sheet handed to its player to fill in over SSH (to make
        or to grow it), or, once it is, the draft as the player has it now."""
        from ...campaign.combat import Option
        from ...campaign.drafts import OpenDraft, draft_of
        from .draft_review import DraftReview

        entry = self._highlighted("#party")
        if entry is None:
            self.notify("Highlight a Hero in the party first", severity="warning")
            return
        if draft_of(self.session.campaign.drafts, entry) is not None:
            self.app.push_screen(DraftReview(entry))
            return
        options = [
            Option("m", "to make the Hero (the trait budget holds)", OpenDraft(entry, makes=True)),
            Option("g", "to grow the Hero (between adventures)", OpenDraft(entry)),
        ]
        name = self.session.campaign.member(entry).name
        self.choose("Draft sheet", f"{name}'s player fills in the sheet over SSH:", options)

    def action_chart_rows(self) -> None:
        """The highlighted Hero's lasting chart results (§7): one taken off (healed), or a
        row added (from before the campaign kept them)."""
        from ...campaign.combat import Option

        entry = self._highlighted("#party")
        if entry is None:
            self.notify("Highlight a Hero in the party first", severity="warning")
            return
        campaign, catalog = self.session.party_now(), self.session.catalog
        member = campaign.member(entry)
        rows = {row.id: row.name for row in catalog.chart}
        edits = _party().chart_edits(campaign, entry, catalog)  # the engine's own menu
        keys = "123456789abcdefhijklmnpqrstuvwxz"
        options = [Option(k, label, cmd) for k, (label, cmd) in zip(keys, edits, strict=False)]
        now = ", ".join(rows.get(r, r) for r in member.chart) or "none"
        self.choose("Severe Wound chart results (§7)", f"{member.name} has: {now}", options)

    def action_budget(self) -> None:
        """The trait points a new character may spend (the book gives none: the GM's)."""
        from ...campaign.making import BUDGETS, SetTraitBudget

        now = self.session.campaign.budget
        choices = [
            (f"{n} trait points" if n else "no budget (the book gives none)", n) for n in BUDGETS
        ]

        def picked(points: int | None) -> None:
            if points is not None and points != now:
                self._apply(SetTraitBudget(points))

        title = f"Trait budget for new characters (now {now or 'none'})"
        self.app.push_screen(PickerScreen(title, choices), picked)

    def action_export_characters(self) -> None:
        """The characters the campaign made, as a pack another campaign imports (``I``)."""
        from ...campaign.making import kebab
        from ...persistence import own_packs

        campaign = self.session.campaign
        if not campaign.made:
            self.notify("The campaign has made no character yet (b builds one)", severity="warning")
            return
        try:
            folder = own_packs.export(
                campaign.made, self.session.catalog, kebab(campaign.name), campaign.name
            )
        except OSError as err:
            self.notify(f"cannot write the pack: {err.strerror or err}", severity="error")
            return
        count = len(campaign.made)
        self.notify(f"{count} character(s) in {folder}: I imports them into another campaign")

    def action_import_character(self) -> None:
        """A character of an exported pack, into the builder as the campaign's own."""
        from dataclasses import replace

        from ...campaign.making import free_id, from_entry
        from ...persistence import own_packs
        from .character_builder import CharacterBuilder

        found = own_packs.importable()
        if not found:
            where = own_packs.packs_folder()
            self.notify(f"No exported characters in {where} (X exports some)", severity="warning")
            return
        choices = [(f"{c.name} ({kind}, {c.source.pack})", (kind, c)) for kind, c in found]

        def picked(choice: tuple[str, Character] | None) -> None:
            if choice is None:
                return
            kind, character = choice
            made = from_entry(character, kind)  # a new id if its own is taken here
            made = replace(made, id=free_id(made.id, set(self.session.catalog.kind(kind))))
            self.app.push_screen(CharacterBuilder(made, joins=True))

        self.app.push_screen(PickerScreen("Import a character", choices), picked)

    def action_remove_hero(self) -> None:
        entry = self._highlighted("#party")
        if entry is not None and self._apply(_party().RemoveHero(entry)):
            self.notify(f"{self.session.log[-1].title} (u brings them back)")

    def action_clues(self, delta: int) -> None:
        entry = self._highlighted("#party")
        if entry is None:
            self.notify("Highlight a Hero in the party first", severity="warning")
            return
        self._apply(_party().GrantClues(entry, delta))

    def action_damage(self) -> None:
        """A fall or a trap between fights, for the highlighted Hero (R-OTHER-6)."""
        from .damage_dialog import DamageDialog

        entry = self._highlighted("#party")
        if entry is None or entry not in self.session.catalog.kind("hero"):
            self.notify("Highlight a Hero in the party first", severity="warning")
            return

        def hurt(command: ApplyDamage | None) -> None:
            if self.apply_answer(command):
                self.ask_severe_wound("F5 r")

        session = self.session  # the Hero as the engine will take the damage
        hero = _party().wounded_as(
            session.encounter, session.party_now(), entry, session.catalog
        )  # fmt: skip
        self.app.push_screen(DamageDialog(hero), hurt)

    def action_conditions(self) -> None:
        """§8 between fights: the conditions the engine lets a Hero keep (Fatigued …)."""
        from ...campaign.conditions import level
        from .conditions_dialog import ConditionsDialog

        entry = self._highlighted("#party")
        if entry is None:
            self.notify("Highlight a Hero in the party first", severity="warning")
            return
        party = _party()
        member = self.session.party_now().member(entry)
        current = {row: level(member, row) for row in party.LASTING}

        def changed(commands: tuple[Command, ...] | None) -> None:
            if commands:
                from ...table.session import Batch

                self._apply(Batch(commands))

        dialog = ConditionsDialog(party.PARTY + entry, member.name, current, party.LASTING)
        self.app.push_screen(dialog, changed)

    def action_new_adventure(self) -> None:
        """Asks first: a new adventure heals and refills every Hero at once (u undoes it)."""
        from ...campaign.combat import Option

        if not self.session.campaign.party:
            self.notify("No Hero in the party yet (a adds one)", severity="warning")
            return
        yes = Option("y", "yes: each Hero heals 1 wound, Luck refills", _party().NewAdventure())
        question = f"Start adventure {self.session.campaign.adventure + 1}? (u undoes it)"
        self.choose("New adventure", question, [yes])

    # -- roster -------------------------------------------------------------------
    def action_add_roster(self) -> None:
        catalog = self.session.catalog
        choices = [
            (f"{c.name} ({kind})", (kind, c.id))
            for kind in ("sidekick", "minion")
            for c in catalog.kind(kind).values()
        ]

        def picked(value: tuple[str, str] | None) -> None:
            if value is not None:
                self._apply(_party().AddToRoster(*value))

        self.app.push_screen(PickerScreen("Add to the roster", choices), picked)

    def action_drop_roster(self) -> None:
        value = self._highlighted("#roster")
        if value is not None:
            kind, _, entry = value.partition(":")
            self._apply(_party().RemoveFromRoster(kind, entry))

    # -- scene notes --------------------------------------------------------------
    def action_edit_scene(self, text: str | None = None) -> None:
        """The notes in their dialog (``text``: the GM's own, back after a refusal, so a
        refused edit is never lost)."""
        from .notes_dialog import NotesDialog  # the text editor loads on first use

        def edited(text: str | None) -> None:
            if text is None or text == self.session.campaign.scene:
                return
            if not self._apply(_party().SetScene(text)):
                self.action_edit_scene(text)

        shown = self.session.campaign.scene if text is None else text
        self.app.push_screen(NotesDialog(shown), edited)
