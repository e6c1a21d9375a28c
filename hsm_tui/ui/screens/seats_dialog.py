"""Who sits at the shared table (``hsm serve``): every seat of the players file, who is
connected now (from where, at what size, since when) and who left when. The GM's app
opens it from the palette or with ctrl+t; it follows comings and goings as they happen.
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

from ..widgets.keybar import KeyBar
from .help_text import HelpText

if TYPE_CHECKING:  # the dialog opens only under hsm serve: no SSH code before then
    from ...share.players import SeatEntry
    from ...share.server import Connection


class Sharing(Protocol):
    """What the dialog reads of the running server (``hsm_tui.share.server.TableServer``
    and the players file's seats)."""

    seats: Sequence[SeatEntry]

    @property
    def connections(self) -> tuple[Connection, ...]: ...

    def on_change(self, callback: Callable[[], None]) -> Callable[[], None]: ...

    def left_at(self, user: str) -> float | None: ...

    def add_key(self, user: str, role: str, hero: str, key: str) -> str: ...


def _clock(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at))


def seats_text(sharing: Sharing) -> Text:
    """One line per seat: who, role and hero, and whether they are here."""
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
            text.append(f"○ left at {_clock(left)}" if left else "○ not joined", style="dim")
        text.append("\n")
    if not sharing.seats:
        text.append("no seats: the players file lists none", style="dim")
    return text


class SeatsDialog(ModalScreen[None]):
    """The seats and who is connected; Esc closes."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText(__name__)
    BINDINGS = [
        Binding("a", "add_key", "Add a key", id="seats.add-key"),
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


class KeyDialog(ModalScreen[tuple[str, str, str, str] | None]):
    """A seat's user name, role, hero and a pasted public key line; Enter on the key adds
    it (the players file's own checks say what is wrong)."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP = HelpText("hsm_tui.ui.screens.seats_dialog")
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
