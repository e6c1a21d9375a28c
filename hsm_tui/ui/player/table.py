"""The player's table: the fight as their seat may see it, their hero's turn, and every
thing they may do, each a menu the engine has checked (:mod:`hsm_tui.table.seat_choices`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from ...campaign.combat import EndTurn, Option
from ...campaign.countdowns import turns_text
from ...rules import Cover
from ...rules.errors import RulesError
from ...table.seats import watching
from ...table.state import Say
from ...table.views import SeenCombatant, TableView
from ..screens import FollowsSession
from ..screens.combat_dialogs import action_menu, detail_menu, pending_dialog
from ..screens.decision_dialog import DecisionDialog
from ..screens.help_text import HelpText
from ..widgets.keybar import KeyBar
from ..widgets.line_table import Column, LineTable, Row
from ..widgets.roll_log import RollLog
from ..widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from ...table.state import Command, Decision

GM_KEYS = {
    "u": "undo",
    "y": "redo",
    "S": "save the campaign",
    "ctrl+s": "save the campaign",
    "ctrl+o": "open a campaign",
    "ctrl+p": "the command palette",
    "ctrl+t": "the seats",
    "f9": "the seats",
    "E": "end the fight",
    "V": "reveal a hidden combatant",
    "h": "roll in secret",
    **{f"f{n}": "the GM's screens" for n in range(2, 9)},
}
"""Keys the GM's app binds that a player's does not: each says why instead of nothing."""

HERO_KEYS = "a,m,A,t,x,n,enter,o,v,b"
"""A hero's keys, which a watcher's seat refuses with the engine's reason."""


def refusals(keys: dict[str, str], why: str) -> list[Binding]:
    """A hidden binding per key that says why it does nothing here (``why`` takes the
    key and what it does elsewhere)."""
    return [
        Binding(key, f"refuse({why.format(key=key, does=does)!r})", show=False)
        for key, does in keys.items()
    ]


RECENT = 12
"""Log entries the table keeps in its 6-line log pane (l shows them all): each kept
entry holds its wrapped lines, in every player's app."""


def status_line(view: TableView) -> Text:
    """Round, whose turn, and whose answer the game waits for, from this seat's side."""
    you = view.seat.issuer
    text = Text()
    if not view.active:
        text.append("No fight on: the GM is setting the scene", style="bold")
    else:
        text.append(f"Round {view.round}", style="bold")
        text.append(f" · turn: {view.turn or '—'}")
        if view.left is not None:
            text.append(f" · YOUR TURN: {view.left} action(s) left", style="bold reverse")
    if view.asked:
        label = view.asked[0].task.label
        text.append(f" · the GM asks you to roll {label}: t rolls it", style="bold reverse")
    if view.draft is not None and not view.draft.sent:
        back = "came back" if view.draft.note else "is a draft"
        text.append(f" · your sheet {back}: b opens it", style="bold reverse")
    if view.waiting_for == you:
        text.append(" · a question waits for you: Enter answers it", style="bold reverse")
    elif view.waiting_for:
        text.append(f" · waiting for {view.waiting_for.partition(':')[2] or 'the GM'}")
    return text


def _status(view: TableView) -> tuple[object, ...]:
    """The facts :func:`status_line` reads."""
    return (view.active, view.round, view.turn, view.left, view.waiting_for, view.asked, view.draft)


def _aside(view: TableView) -> tuple[object, ...]:
    """The facts :func:`party_text` reads."""
    return (view.party, view.member, view.bands, view.active, view.order, view.turn)


FIGHT_COLUMNS = (
    Column(""),
    Column("Name", 4, own_bold=True),
    Column("Side", 2),
    Column("Zone", 2),
    Column("Cover", least=max(len(cover.label) for cover in Cover)),
    Column("State", 3),
)
"""The fight's columns: the turn marker, then where each combatant is and how it fares (the
cover's as wide as its longest word: a raider diving into medium cover moves no column)."""


def fight_rows(view: TableView) -> tuple[Row, ...]:
    """Everyone the seat may see: where they are and how they fare (never numbers); the
    seat's own hero's name in bold."""
    mine = view.hero.id if view.hero is not None else None
    return tuple(
        Row(
            (
                "▶" if c.acting else "",
                c.name,
                c.side,
                c.zone,
                c.cover.label if c.cover else "—",
                ", ".join((c.state, *(("prone",) if c.prone else ()), *timed_marks(c))),
            ),
            own=c.id == mine,
        )
        for c in view.combatants
    )


def timed_marks(c: SeenCombatant) -> tuple[str, ...]:
    """Its conditions, each with the turns a countdown gives it (``stunned (2 more
    turns)``), then the GM's own timed effects."""
    timed = {cd.effect: f"{cd.effect} ({turns_text(cd, c.acting)})" for cd in c.countdowns}
    return (*(timed.pop(mark, mark) for mark in c.conditions), *timed.values())


def party_text(view: TableView) -> Text:
    """The party's Heroes with their wound markers, the seat's own in bold; the
    initiative order as this seat may see it (R-INIT-1), ▶ on whose turn it is."""
    text = Text()
    text.append("Party\n", style="bold underline")
    for m in view.party:
        own = view.member is not None and m.entry == view.member.entry
        state = "dead" if m.dead else m.wounds
        text.append(f"{m.name}: {state}\n", style="bold" if own else "")
    if view.member is not None:
        text.append(f"Luck {view.member.luck} · Clues {view.member.clues}\n")
    if view.active and view.order:
        text.append("Initiative\n", style="bold underline")
        for name in view.order:
            acting = name == view.turn
            text.append(f"{'▶' if acting else ' '} {name}\n", style="bold" if acting else "")
    if view.bands:
        text.append("Range bands\n", style="bold underline")
        for a, b, band in view.bands:
            text.append(f"{a} ↔ {b}: {band}\n")
    return text


class TableScreen(FollowsSession, Screen[None]):
    """The fight, the party and the log, as this seat sees them; the hero's actions."""

    HELP = HelpText(__name__)
    BINDINGS = [
        Binding("a", "attack", "Attack", id="player.attack"),
        Binding("m", "move", "Move", id="player.move"),
        Binding("A", "act", "Act", id="player.act"),
        Binding("t", "task", "Task", id="player.task"),
        Binding("n", "end_turn", "End", id="player.end-turn"),
        Binding("v", "sheet", "Sheet", id="player.sheet"),
        Binding("b", "draft", "Draft sheet", show=False, id="player.draft"),
        Binding("x", "declare", "Declare", id="player.declare"),
        Binding("enter,o", "answer", "Answer", show=False, id="player.answer"),
        Binding("apostrophe", "say('')", "Say", show=False, id="player.say"),
        Binding("quotation_mark", "say('gm')", "Whisper to GM", show=False, id="player.whisper"),
        Binding("l", "log", "Log", id="player.log"),
        Binding("f1,question_mark", "app.help", "Help", id="player.help"),
        *refusals(GM_KEYS, "{key} is the GM's key ({does}): only the GM's screen has it"),
    ]
    """The hero's turn, its questions, its sheet and the log: all a player does, the
    most used first (the key bar drops what does not fit; the status line names Enter
    when a question waits)."""
    PINNED = frozenset({"player.log", "player.help", "player.quit"})
    """Kept on the key bar at any width: the log, help and the way out."""

    def __init__(self, missed: int = 0) -> None:
        super().__init__()
        self.missed = missed
        self._shown: TableView | None = None  # the view the screen shows now

    @property
    def seat_view(self) -> TableView:
        return self.app.seat_view  # type: ignore[attr-defined,no-any-return]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static(id="status")
        with Horizontal(id="player-main"):
            yield LineTable(FIGHT_COLUMNS, id="fight")
            yield Static(id="party")
        yield RollLog(id="player-log", focusable=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#fight").border_title = "The fight"
        self.query_one("#player-log").border_title = "Log"
        self.follow_session(self.refresh_view)
        self.refresh_view()
        if self.seat_view.decision is not None:  # back at the table: the question asks again
            self.call_after_refresh(self.action_answer)
        if self.missed:
            log = self.seat_view.log[-self.missed :]
            titles = "\n".join(f"#{e.seq} {escape(e.title)}" for e in log[-5:])
            more = f"\n… and {len(log) - 5} more (l shows the log)" if len(log) > 5 else ""
            count = f"{len(log)} entr{'y' if len(log) == 1 else 'ies'}"
            self.notify(f"{titles}{more}", title=f"Since you left: {count}", timeout=20)

    def refresh_view(self) -> None:
        """Redraw the parts whose facts changed: with 20 players on one loop, each part
        left alone is a layout pass saved per player per change.
        """
        view, last = self.seat_view, self._shown
        self._shown = view
        seat = view.seat
        self.sub_title = f"{seat.user} · {view.member.name if view.member else seat.role}"
        if last is None or _status(last) != _status(view):
            self.query_one("#status", Static).update(status_line(view))
        if last is None or last.combatants != view.combatants:
            self.query_one(LineTable).show(fight_rows(view))
        if last is None or _aside(last) != _aside(view):
            self.query_one("#party", Static).update(party_text(view), layout=False)
        if last is None or last.log != view.log:
            self.query_one(RollLog).show(view.log[-RECENT:])

    # -- what the player does -----------------------------------------------------------
    def _send(self, command: Command | None, answering: Decision | None = None) -> None:
        """Send ``command`` as this seat's (the answer to ``answering``, if it is one)."""
        if command is None:
            return
        try:
            self.app.table.apply(command, answering)  # type: ignore[attr-defined]
        except RulesError as err:
            self.app.clear_notifications()
            self.notify(str(err), title="Refused", severity="error")
            return
        if self.seat_view.decision is not None:
            self.action_answer()  # the roll asks its own player at once

    def _menu(self, title: str, question: str, options: Sequence[Option[Any]]) -> None:
        if not options:
            self.notify(f"{title}: nothing to choose from now")
            return
        self.app.push_screen(DecisionDialog(title, question, options), self._send)

    def _hero_or_say(self) -> bool:
        if self.seat_view.hero is None:
            self.notify("your hero is not in this fight", severity="warning")
            return False
        return True

    def action_attack(self) -> None:
        if self._hero_or_say():
            options = self.app.table.attacks()  # type: ignore[attr-defined]
            self._menu("Attack (R-ATK-1)", "Whom, with what? TN, dice, chance of a hit", options)

    def action_move(self) -> None:
        if self._hero_or_say():
            options = self.app.table.moves()  # type: ignore[attr-defined]
            self._menu("Move (R-ACT-2)", "To which zone? A Move covers half a band", options)

    def action_act(self) -> None:
        hero = self.seat_view.hero
        if not self._hero_or_say() or hero is None:
            return
        menu = action_menu(hero, self.app.table.actions())  # type: ignore[attr-defined]

        def then(command: Command | None) -> None:
            if command is None:
                return
            options = self.app.table.action_details(command)  # type: ignore[attr-defined]
            detail = detail_menu(hero, command, options)  # type: ignore[arg-type]
            if detail is None:
                self._send(command)
            else:
                self._menu(*detail)

        self.app.push_screen(DecisionDialog(*menu), then)

    def action_task(self) -> None:
        """The roll the GM asked for, if one waits; else a task of the player's own."""
        from .task import AskedRoll, PlayerTask

        roller = self.app.table.roller()  # type: ignore[attr-defined]
        if roller is None:
            self.notify("your seat has no hero to roll for", severity="warning")
            return
        asked = self.seat_view.asked
        dialog = AskedRoll(roller, asked[0]) if asked else PlayerTask(roller)
        self.app.push_screen(dialog, self._send)

    def action_declare(self) -> None:
        options = self.app.table.declares()  # type: ignore[attr-defined]
        self._menu("Declare actions (R-ACT-3)", "How many actions this turn?", options)

    def action_end_turn(self) -> None:
        self._send(EndTurn())

    def action_answer(self) -> None:
        decision = self.seat_view.decision
        if decision is None:
            self.notify("no question waits for you")
            return
        dialog, command_of = pending_dialog(decision)
        self.app.push_screen(dialog, lambda answer: self._send(command_of(answer), decision))

    def action_sheet(self) -> None:
        from .sheet import PlayerSheet

        if self._hero_or_say():
            self.app.push_screen(PlayerSheet())

    def action_draft(self) -> None:
        """The hero's draft sheet, when the GM made it one, to fill in and send."""
        from .draft import DraftSheet

        draft = self.seat_view.draft
        if draft is None:
            self.notify("your sheet is not a draft: the GM makes it one (F8 D)")
            return
        self.app.push_screen(DraftSheet(draft))

    def action_log(self) -> None:
        from .log import PlayerLog

        self.app.push_screen(PlayerLog())

    def action_say(self, to: str) -> None:
        """A line to the table (``to`` "") or a whisper to the GM (``to`` "gm")."""
        from ..screens.say_dialog import SayDialog

        title = "Say to the table" if not to else "Whisper to the GM"
        self.app.push_screen(
            SayDialog(title), lambda text: None if text is None else self._send(Say(text, to))
        )

    def action_refuse(self, why: str) -> None:
        self.app.clear_notifications()
        self.notify(why, title="Not on your screen", severity="error")

    def action_watching(self) -> None:
        self.action_refuse(watching(self.app.table.seat))  # type: ignore[attr-defined]


class WatchScreen(TableScreen, inherit_bindings=False):
    """The table as a watcher reads it: the log and help, and nothing to do."""

    PINNED = frozenset({"watch.log", "watch.help", "player.quit"})
    BINDINGS = [
        Binding("l", "log", "Log", id="watch.log"),
        Binding("f1,question_mark", "app.help", "Help", id="watch.help"),
        *refusals(GM_KEYS, "{key} is the GM's key ({does}): only the GM's screen has it"),
        Binding(HERO_KEYS, "watching", show=False),
    ]
