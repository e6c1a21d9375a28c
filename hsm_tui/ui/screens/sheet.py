"""A combatant's character sheet as it stands right now in the fight.

Everything is read from the session on each change (wounds, Fear, charges move while
the sheet is open over an SSH view too); the sheet keeps only which combatant it shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from ...campaign.combat import SetDestroyed, carried_items, carried_losses
from ...campaign.conditions import CONDITIONS, HEALTH_MARKERS, TOKENS
from ...campaign.countdowns import turns_text
from ...campaign.encounter import Combatant, Encounter
from ...packs import Catalog
from ...rules import Derived, Rank, Rating, RulesError, Trait
from ...table.seat_choices import destroyed_options
from ..widgets.keybar import KeyBar
from . import FollowsSession
from .decision_dialog import DecisionDialog
from .help_text import HelpText

MARKS = {
    "dodging": "Dodge: may re-roll Defense until its next turn (R-ACT-2)",
    "full-defense": "full defense: Dodge +2 until its next turn (R-ACT-5)",
    "standby": "Standby: may attack when someone comes within Short (R-ACT-2)",
    TOKENS: "Stamina tokens from bleeding (§8)",
    HEALTH_MARKERS: "Health markers from bleeding out: at Health, dead (§7)",
}
"""Markers the engine sets itself, with what they mean (CONDITIONS has the GM's ones)."""

RULE_SETS = {
    Rank.HERO: "Hero die · wounds −1, −2, severe · Luck · extra actions",
    Rank.MINION: "no Hero die · out at the first wound · 2 actions",
}
"""R-CHAR-8 in a line each: what playing by Hero or Minion rules means."""

HERO_TRACK = ("clean", "−1", "−2", "severe")
MINION_TRACK = ("up", "out")


def track(steps: Sequence[str], at: int) -> Text:
    """``clean ▸−1◂ −2 severe``: the current step marked by arrows and reverse video."""
    text = Text()
    for index, step in enumerate(steps):
        if index == at:
            text.append(f"▸{step}◂", style="bold reverse")
        else:
            text.append(f" {step} ", style="dim")
    return text


class SheetScreen(FollowsSession, ModalScreen[None]):
    """Traits, ratings, weapons, wounds, Fear, conditions, pools and chart results."""

    CSS_PATH = "../styles/combat.tcss"
    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("escape,v", "dismiss(None)", "Close", id="sheet.close"),
        Binding("up", "step(-1)", "Previous", id="sheet.previous"),
        Binding("down", "step(1)", "Next", id="sheet.next"),
        Binding("pageup", "scroll(-1)", "Scroll up", show=False, id="sheet.page-up"),
        Binding("pagedown", "scroll(1)", "Scroll down", show=False, id="sheet.page-down"),
        Binding("D", "destroyed", "Destroyed gear", id="sheet.destroyed"),
        Binding("f1,question_mark", "app.help", "Help", id="sheet.help"),
    ]
    """Esc or v closes (v opened it); ↑ ↓ go through the combatants; PgUp/PgDn scroll;
    D marks a piece of gear destroyed or mends it (§7 row 6, the GM's pick)."""

    def __init__(self, ids: Sequence[str], shown: str) -> None:
        super().__init__()
        self.ids = tuple(ids)
        self.shown = shown
        """The combatant on the sheet."""

    def compose(self) -> ComposeResult:
        return sheet_layout()

    def on_mount(self) -> None:
        self.follow_session(self.render_sheet)
        self.render_sheet()

    def action_scroll(self, pages: int) -> None:
        body = self.query_one(VerticalScroll)
        body.scroll_to(y=body.scroll_y + pages * body.size.height, animate=False)

    def action_destroyed(self) -> None:
        """§7 row 6 by the GM's hand: which piece no longer works, or works again."""
        c = self.session.encounter.get(self.shown)
        options = destroyed_options(c, self.session.catalog)
        if not options:
            self.notify(f"{c.name} carries nothing", severity="warning")
            return
        question = f"{c.name}: which piece is destroyed (no longer works), or mended?"
        dialog = DecisionDialog("Equipment destroyed (§7)", question, options)
        self.app.push_screen(dialog, self._send)

    def _send(self, command: SetDestroyed | None) -> None:
        """The pick, sent as the GM's command; a refusal is said, never raised."""
        if command is None:
            return
        try:
            self.table.apply(command)
        except RulesError as err:
            self.notify(str(err), title="Refused", severity="error")

    def action_step(self, delta: int) -> None:
        index = self.ids.index(self.shown) if self.shown in self.ids else 0
        self.shown = self.ids[(index + delta) % len(self.ids)]
        self.render_sheet()

    def render_sheet(self) -> None:
        enc = self.session.encounter
        try:
            c = enc.get(self.shown)
        except RulesError:
            self.dismiss(None)  # undone away: nothing left to show
            return
        left = standing_text(c)
        engaged = ", ".join(o.name for o in enc.in_melee_with(c))
        if engaged:
            left.append(f"in melee with {engaged}\n")
        left.append_text(turn_line(enc, c))
        show_sheet(self, c, left, self.session.catalog)


def sheet_layout() -> ComposeResult:
    """The parts :func:`show_sheet` fills, and the key bar."""
    with Vertical(id="sheet-box", classes="dialog-box"):
        yield Label(id="sheet-title")
        with VerticalScroll(id="sheet-body", can_focus=False):  # ↑ ↓ page combatants
            yield Static(id="sheet-traits")
            with Horizontal(id="sheet-columns"):
                yield Static(id="sheet-left")
                yield Static(id="sheet-right")
    yield KeyBar()


def show_sheet(screen: Screen, c: Combatant, left: Text, catalog: Catalog) -> None:
    """Fill a sheet's parts (``#sheet-title`` …): the GM's sheet and a player's own hero's
    share the layout; ``left`` ends with what only the caller may say (whom it fights).
    """
    screen.query_one("#sheet-title", Label).update(title_text(c))
    screen.query_one("#sheet-traits", Static).update(traits_text(c))
    screen.query_one("#sheet-left", Static).update(left)
    screen.query_one("#sheet-right", Static).update(gear_text(c, catalog))


def title_text(c: Combatant) -> Text:
    rank = c.rank.value.title()
    if c.rank is Rank.SIDEKICK:
        plays = c.plays_as.value.title() if c.plays_as else "not decided yet"
        rank = f"Sidekick (plays as {plays})"
    state = " · OUT" if c.out else " · unconscious" if c.unconscious else ""
    return Text.assemble((c.name, "bold"), f" — {rank} · {c.side}{state}")


def traits_text(c: Combatant) -> Text:
    """Traits (R-CHAR-2) and ratings (R-CHAR-4); derived traits open the left column."""
    text = Text()
    rows = (
        ("Traits", [(t.value.title(), c.traits[t]) for t in Trait]),
        ("Ratings", [(r.value.title(), c.ratings[r]) for r in Rating]),
    )
    for label, values in rows:
        text.append(f"{label:<8}", style="bold")
        text.append(" ".join(f"{name} {value}" for name, value in values) + "\n")
    text.rstrip()
    return text


# -- left column: how it stands ---------------------------------------------------------
def standing_text(c: Combatant) -> Text:
    """Derived traits, wounds, Fear, pools and where it stands."""
    text = Text()
    text.append("Derived traits\n", style="bold")
    derived = [f"{d.value.title()} {c.traits[d]}" for d in Derived]
    text.append(" ".join(derived[:4]) + "\n" + " ".join(derived[4:]) + "\n\n")
    minion = c.rank is Rank.MINION or c.plays_as is Rank.MINION
    text.append("Wounds     ", style="bold")
    if minion:
        text.append_text(track(MINION_TRACK, int(c.out)))
    else:
        text.append_text(track(HERO_TRACK, min(c.wounds, 3)))
        text.append("\nNon-lethal ", style="bold")
        text.append_text(track((*HERO_TRACK[:3], "unc."), min(c.nonlethal, 3)))
        text.append(f"\nSevere wounds so far: {c.severe}")
    text.append("\n")
    morale = c.traits[Derived.MORALE]
    text.append("Fear ", style="bold")
    text.append(f"{c.fear} vs Morale {morale}")
    text.append(" ! Fear check (R-FEAR-1)\n" if c.fear >= morale else "\n", style="bold")
    if minion:
        text.append("no Luck or Clues (Minion)\n", style="dim")
    else:
        text.append("Luck ", style="bold")
        text.append(f"{c.luck}  ")
        text.append("Clues ", style="bold")
        text.append(f"{c.clues}\n")
    text.append("\nZone ", style="bold")
    cover = f"{c.cover.label} cover" if c.cover else "in the open"
    text.append(f"{c.zone} · {cover}{' · Prone' if c.prone else ''}\n")
    return text


def turn_line(enc: Encounter, c: Combatant) -> Text:
    causes = "; ".join(carried_losses(c))
    lost = f"next turn — {causes}" if causes else ""
    if enc.turn is not None and c.group == enc.turn.actor:
        used = ", ".join(enc.turn.used_by(c.id)) or "nothing yet"
        now = f"its turn: {enc.turn.left(c.id)} left · used {used}"
        return Text("; ".join(x for x in (now, lost) if x))
    return Text(lost or "not its turn", style="" if lost else "dim")


# -- right column: what it carries and what befell it ----------------------------------
def gear_text(c: Combatant, catalog: Catalog) -> Text:
    text = Text()
    text.append("Weapons\n", style="bold underline")
    for state in c.weapons:
        weapon = catalog.weapons.get(state.id)
        if weapon is None:
            text.append(f" {state.id} (not in the loaded packs)\n", style="dim")
            continue
        wrecked = state.id in c.destroyed
        strike = state.dropped or wrecked
        text.append(f" {weapon.name}", style="dim strike" if strike else "bold")
        if state.charges is not None:
            text.append(f" {state.charges}/{state.power}")
        if state.stuck:
            text.append(f" STUCK ({state.stuck} action(s))", style="bold")
        if state.dropped:
            text.append(" DROPPED", style="bold")
        if wrecked:
            text.append(" DESTROYED (§7)", style="bold")
        attacks = f"{weapon.attacks.source}×" if weapon.attacks else "style×"
        card = f"{weapon.skill.value} {attacks} {weapon.damage.source} {weapon.range.label}"
        text.append(f"\n   {card}\n", style="dim")
        notes = [
            f"suppression {weapon.suppression}" if weapon.suppression else "",
            f"thrown {weapon.thrown_damage.source}" if weapon.thrown_damage else "",
        ]
        if any(notes):
            text.append("   " + " · ".join(n for n in notes if n) + "\n", style="dim")
    weapons = {w.id for w in c.weapons}
    items = dict(carried_items(c, catalog)) if c.destroyed else {}
    gear = [items.get(k, k) for k in c.destroyed if k not in weapons]
    if gear:
        text.append("Equipment destroyed (§7)\n", style="bold underline")
        text.append("".join(f" {name}: no longer works\n" for name in gear))
    text.append("Conditions\n", style="bold underline")
    marks = [("prone", "an action to stand up (R-ACT-6)")] if c.prone else []
    timed = {cd.effect: f" ({turns_text(cd, False)})" for cd in c.countdowns}
    for mark in c.conditions:
        name, _, n = mark.partition(":")
        info = CONDITIONS.get(name)
        label = (f"{name} {n}" if n else name) + timed.pop(name, "")
        marks.append((label, info.text if info else MARKS.get(name, "")))
    marks += [(effect + turns, "the GM's, ends by itself") for effect, turns in timed.items()]
    for label, meaning in marks:
        text.append(f" {label}", style="bold")
        text.append(f": {meaning}\n" if meaning else "\n")
    if not marks:
        text.append(" none\n", style="dim")
    text.append("Severe Wound chart (§7)\n", style="bold underline")
    names = {row.id: row.name for row in catalog.chart}
    for row in c.chart:
        text.append(f" {names.get(row, row)}\n")
    if not c.chart:
        text.append(" nothing rolled\n", style="dim")
    if c.rank is Rank.SIDEKICK:
        text.append("Sidekick rules (R-CHAR-8)\n", style="bold underline")
        for rank, meaning in RULE_SETS.items():
            playing = c.plays_as is rank
            text.append(f" {'▸' if playing else ' '} as a {rank.value}", style="bold")
            text.append(" (this encounter)" if playing else "", style="bold")
            text.append(f"\n   {meaning}\n", style="" if playing else "dim")
    return text
