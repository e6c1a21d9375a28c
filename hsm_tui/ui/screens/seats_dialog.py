"""Who sits at the shared table (``hsm serve``): every seat of the players file, who is
connected now (from where, at what size, since when) and who left when. The GM's app
opens it from the palette or with ctrl+t; it follows comings and goings as they happen.
From here the GM adds a key, invites a seat from a browser and revokes a seat's browser
sessions; the table (``hsm_tui.share.serve.Table``) decides, this only asks and shows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from ...share.invites import INVITE_TTL, SESSION_TTL, Invite, InviteRefused
from ..widgets.keybar import KeyBar
from .help_text import HelpText
from .say_dialog import SayDialog

if TYPE_CHECKING:  # the dialog opens only under hsm serve: no SSH code before then
    from ...share.players import SeatEntry
    from ...share.server import Connection


class Sharing(Protocol):
    """What the dialog reads and asks of the shared table (``hsm_tui.share.serve.Table``):
    the seats, who is connected, a key added, a browser invite made or revoked."""

    seats: Sequence[SeatEntry]

    @property
    def connections(self) -> tuple[Connection, ...]: ...

    def on_change(self, callback: Callable[[], None]) -> Callable[[], None]: ...

    def left_at(self, user: str) -> float | None: ...

    def add_key(self, user: str, role: str, hero: str, key: str) -> str: ...

    def invite(self, user: str) -> Invite: ...

    def link(self, invite: Invite) -> str: ...

    def revoke(self, user: str) -> int: ...


def _clock(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at))


def seats_text(sharing: Sharing) -> Text:
    """One line per seat: who, role and hero, whether they are here, and "invite only"
    for a seat no SSH key opens."""
    text = Text()
    here: dict[str, list[Connection]] = {}
    for c in sharing.connections:
        here.setdefault(c.seat.user, []).append(c)
    for entry in sharing.seats:
        seat = entry.seat
        text.append(f"{seat.user:<12}", style="bold")
        text.append(f"{seat.role.value:<8}{seat.hero or '':<18}")
        for c in here.get(seat.user, []):
            cols, rows = c.size
            text.append(f"● here since {_clock(c.connected_at)} ({c.peer}, {cols}×{rows}) ")
        if seat.user not in here:
            left = sharing.left_at(seat.user)
            text.append(f"○ left at {_clock(left)} " if left else "○ not joined ", style="dim")
        if not entry.keys:
            text.append("· invite only", style="italic")
        text.append("\n")
    if not sharing.seats:
        text.append("no seats: the players file lists none", style="dim")
    return text


_TTLS = {"invite_minutes": INVITE_TTL // 60, "session_hours": SESSION_TTL // 3600}
"""How long an invite and a browser's session last, for the help text."""


class SeatsDialog(ModalScreen[None]):
    """The seats and who is connected; Esc closes."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText(__name__, **_TTLS)
    BINDINGS = [
        Binding("a", "add_key", "Add a key", id="seats.add-key"),
        Binding("i", "invite", "Invite", id="seats.invite"),
        Binding("r", "revoke", "Revoke", id="seats.revoke"),
        Binding("escape,ctrl+t", "dismiss(None)", "Close", id="seats.close"),
        Binding("f1,question_mark", "app.help", "Help", id="seats.help"),
    ]

    def __init__(self, sharing: Sharing) -> None:
        super().__init__()
        self.sharing = sharing
        self._unsubscribe: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="seats-box"):
            yield Label("[b]The table: seats and who is connected[/b]")
            yield Static(id="seats-list")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_seats()
        self._unsubscribe = self.sharing.on_change(lambda: self.call_later(self.show_seats))

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def show_seats(self) -> None:
        if self.is_attached:
            self.query_one("#seats-list", Static).update(seats_text(self.sharing))

    def action_add_key(self) -> None:
        self.app.push_screen(KeyDialog(), self._add)

    def _add(self, fields: tuple[str, str, str, str] | None) -> None:
        from ...share.players import PlayersFileError

        if fields is None:
            return
        try:
            said = self.sharing.add_key(*fields)
        except PlayersFileError as err:
            self.notify(str(err), title="Key not added", severity="error")
            return
        self.notify(said, title="Key added")
        self.show_seats()

    def action_invite(self) -> None:
        prompt = SeatPrompt("Invite from a browser: type the seat's user name")
        self.app.push_screen(prompt, self._invite)

    def action_revoke(self) -> None:
        prompt = SeatPrompt("Revoke browser sessions: type the seat's user name")
        self.app.push_screen(prompt, self._revoke)

    def _invite(self, user: str | None) -> None:
        from ...share.players import PlayersFileError

        if not user:
            return
        try:
            invite = self.sharing.invite(user)
            url = self.sharing.link(invite)
        except (InviteRefused, PlayersFileError) as err:
            self.notify(str(err), title="No invite", severity="error")
            return
        self.app.push_screen(InviteDialog(invite, url))

    def _revoke(self, user: str | None) -> None:
        from ...share.players import PlayersFileError

        if not user:
            return
        try:
            ended = self.sharing.revoke(user)
        except PlayersFileError as err:
            self.notify(str(err), title="Nothing revoked", severity="error")
            return
        sessions = "1 browser session" if ended == 1 else f"{ended} browser sessions"
        said = f"{user}: {sessions} ended; an unused invite of theirs no longer works"
        self.notify(said, title="Revoked")


class SeatPrompt(SayDialog):
    """A seat's user name, typed: Enter takes it, Esc backs out. It opens at the top, so
    the seat list stays in sight below it."""

    HELP = HelpText("hsm_tui.ui.screens.seats_dialog", **_TTLS)


class InviteDialog(ModalScreen[None]):
    """An invite the GM reads aloud or sends: the link, the code and until when they
    work; it stays until Esc, so the GM can read it out slowly."""

    CSS_PATH = "../styles/seats.tcss"
    HELP = HelpText("hsm_tui.ui.screens.seats_dialog", **_TTLS)
    BINDINGS = [
        Binding("c", "copy", "Copy the link", id="invite.copy"),
        Binding("escape", "dismiss(None)", "Close", id="invite.close"),
        Binding("f1,question_mark", "app.help", "Help", id="invite.help"),
    ]

    def __init__(self, invite: Invite, url: str) -> None:
        super().__init__()
        self.invite = invite
        self.url = url

    def compose(self) -> ComposeResult:
        text = Text()
        text.append(f"Invite for {self.invite.user}", style="bold")
        text.append(f": works once, until {_clock(self.invite.expires_at)}\n\n")
        text.append("Link  ", style="dim")
        text.append(f"{self.url}\n")
        text.append("Code  ", style="dim")
        text.append(self.invite.code, style="bold")
        text.append(f"  (or open {self.url.split('#', 1)[0]} and type it)\n\n")
        hours = SESSION_TTL // 3600
        text.append(f"The browser then sits at {self.invite.user}'s seat for {hours} hours.")
        with Vertical(id="invite-box"):
            yield Static(text, id="invite-text")
        yield KeyBar()

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.url)
        self.notify("the link is on the clipboard, if this terminal lets apps copy")


class KeyDialog(ModalScreen[tuple[str, str, str, str] | None]):
    """A seat's user name, role, hero and a pasted public key line; Enter on the key adds
    it (the players file's own checks say what is wrong)."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText("hsm_tui.ui.screens.seats_dialog", **_TTLS)
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="key.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="key-box"):
            yield Label("[b]Add a key: a new seat, or another key for a user[/b]")
            yield Input(placeholder="user (the SSH login name, e.g. kara)", id="key-user")
            yield Input("player", placeholder="role: gm, player or watcher", id="key-role")
            yield Input(placeholder="hero id (players only, e.g. kestrel-vance)", id="key-hero")
            yield Input(placeholder="paste the key: ssh-ed25519 AAAA… name@host", id="key-line")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#key-user", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        inputs = list(self.query(Input))
        if event.input is not inputs[-1]:
            self.focus_next()
            return
        user, role, hero, line = (i.value.strip() for i in inputs)
        self.dismiss((user, role, hero, line))
