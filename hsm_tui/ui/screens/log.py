"""The session log, full screen: read the story so far, search it, export it, and open
a GM-only entry to every seat of a shared session.

The log itself lives in the session; this screen only renders it (again on every
change), sends the one command it has (``o``: OpenEntry) and writes the Markdown
export, the one file it ever touches.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from ...campaign.combat import Option
from ...persistence.store import saves_folder
from ...table.logbook import as_read, fights, search, to_markdown
from ...table.seat_choices import export_options, open_options, whisper_options
from ...table.seats import Role, Seat
from ...table.session import LogEntry
from ...table.state import OpenEntry, Say
from ...table.visibility import keeps_secrets
from ..widgets.keybar import KeyBar
from ..widgets.roll_log import entry_heading, line_text
from ..widgets.title_bar import TitleBar
from . import SessionScreen
from .decision_dialog import DecisionDialog
from .help_text import HelpText


def render_log(entries: Sequence[LogEntry], needle: str = "") -> Group:
    """Entries oldest first, each line indented under its title (wrapped lines too);
    ``needle`` is reversed and underlined where found: style, not colour, so it shows
    on a monochrome terminal."""
    word = needle.strip()

    def marked(text: Text) -> Text:
        if word:
            text.highlight_words([word], "reverse underline", case_sensitive=False)
        return text

    parts: list[RenderableType] = []
    for entry in entries:
        parts.append(marked(entry_heading(entry)))
        parts.extend(Padding(marked(line_text(line)), (0, 0, 0, 2)) for line in entry.lines)
    return Group(*parts)


def export_path(now: datetime, folder: Path, name: str = "session-log") -> Path:
    """``<folder>/<name>-<YYYYmmdd-HHMMSS>.md``; ``-2``, ``-3`` … if that second is
    taken, so an export never overwrites an earlier one. A folder not made yet, or not
    usable, takes the first name: the write says why it failed, naming that file."""
    stem = f"{name}-{now:%Y%m%d-%H%M%S}"
    path, n = folder / f"{stem}.md", 1
    with contextlib.suppress(OSError):
        while path.exists():
            n += 1
            path = folder / f"{stem}-{n}.md"
    return path


class LogScreen(SessionScreen):
    """Every log entry with the lines that explain it; `/` filters, `x` exports."""

    CSS_PATH = "../styles/chart_log.tcss"
    HELP = HelpText(__name__)

    BINDINGS = [
        Binding("slash", "search", "Search", id="log.search"),
        Binding("escape", "clear_search", "Clear", id="log.clear"),
        Binding("x", "export", "Export .md", id="log.export"),
        Binding(
            "X",
            "export_fight",
            "Export a fight",
            show=False,
            id="log.export-fight",
            tooltip="One fight only: its set-up, rounds and end (asks which)",
        ),
        Binding(
            "p",
            "export_players",
            "Players' export",
            show=False,
            id="log.export-players",
            tooltip="The log as the players read it (no GM numbers), for the group's recap",
        ),
        Binding("apostrophe", "say", "Say", show=False, id="log.say"),
        Binding("quotation_mark", "whisper", "Whisper", show=False, id="log.whisper"),
        Binding(
            "o",
            "open_entry",
            "Open to all",
            id="log.open",
            tooltip="Open the newest entry shown that keeps secrets to every seat",
        ),
        Binding(
            "O",
            "open_to_seat",
            "Open to a seat",
            id="log.open_to",
            tooltip="Open the newest entry shown that keeps secrets to one seat",
        ),
    ]
    """/ searches, Esc clears the search, x exports the log as Markdown, o opens the
    newest entry the search shows that keeps something from the players to every seat,
    O to one seat of a shared table (the key bar names them while there is one)."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Input(
            placeholder="/ search titles and lines · Esc clears", id="log-search", compact=True
        )
        with VerticalScroll(id="log-view"):
            yield Static(id="log-body")
        yield KeyBar()

    def on_mount(self) -> None:
        self.follow_session(self.refresh_log)
        self.refresh_log()
        self.query_one("#log-view").focus()

    def on_screen_resume(self) -> None:
        """F6 opens at the newest entry, wherever the GM scrolled on an earlier visit."""
        self.query_one("#log-view", VerticalScroll).anchor(False)
        self.call_after_refresh(self._settle_anchor)

    @property
    def needle(self) -> str:
        return self.query_one("#log-search", Input).value

    @property
    def secret(self) -> LogEntry | None:
        """The entry ``o`` opens: the newest the search shows that keeps something from
        the players (GM-only, or numbers hidden in it; the screen has no cursor, a search
        narrows it to an older one)."""
        shown = search(self.session.log, self.needle)
        return next((e for e in reversed(shown) if keeps_secrets(e)), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``o`` is on the key bar only while there is an entry to open."""
        if action == "open_to_seat":
            return self.secret is not None and self.app.sharing is not None
        return action != "open_entry" or self.secret is not None

    def refresh_log(self) -> None:
        log = self.session.log
        shown = search(log, self.needle)
        body = render_log(shown, self.needle) if shown else Text(self._empty(), "italic")
        self.query_one("#log-body", Static).update(body)
        view = self.query_one("#log-view", VerticalScroll)
        view.border_title = f"Log ({len(log)} entries)"
        if self.needle.strip():
            view.border_title = f"Log: {len(shown)} of {len(log)} match “{self.needle.strip()}”"
        self.refresh_bindings()  # o comes and goes with the GM-only entries shown
        self.call_after_refresh(self._settle_anchor)

    def on_resize(self) -> None:
        self.call_after_refresh(self._settle_anchor)

    def _settle_anchor(self) -> None:
        """Anchor the view to its end once the log overflows it, so new entries and
        resizes keep the newest entry in place (until the GM scrolls up, Textual's own
        rule); a log that fits stays top-aligned instead of sinking to the bottom."""
        view = self.query_one("#log-view", VerticalScroll)
        if view.virtual_size.height <= view.scrollable_content_region.height:
            view.anchor(False)
            view.scroll_home(animate=False, immediate=True)
        elif not view.is_anchored:
            view.anchor()

    def _empty(self) -> str:
        if not self.session.log:
            return "The log is empty: rolls and decisions appear here as they happen."
        return f"No entry mentions “{self.needle.strip()}” (Esc clears the search)."

    def on_input_changed(self, _event: Input.Changed) -> None:
        self.refresh_log()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.query_one("#log-view").focus()

    def action_search(self) -> None:
        self.query_one("#log-search").focus()

    def action_clear_search(self) -> None:
        self.query_one("#log-search", Input).value = ""
        self.query_one("#log-view").focus()

    def action_open_entry(self) -> None:
        """Every seat now sees the entry in full; ``u`` on another screen takes
        it back."""
        entry = self.secret
        if entry is None:
            self.notify("No GM-only entry to open (every seat sees the ones shown)")
        elif self._apply(OpenEntry(entry.seq)):
            self.notify(f"Opened #{entry.seq} to every seat: {escape(entry.gm_title)}", title="Log")

    def action_open_to_seat(self) -> None:
        """One seat of the shared table sees the entry in full (a secret roll its player
        may learn); the menu is the engine's (``seat_choices.open_options``)."""
        entry, sharing = self.secret, self.app.sharing
        if entry is None or sharing is None:
            return
        seats = [held.seat for held in sharing.seats]
        options = open_options(self.session.log, entry.seq, seats)
        self.choose(f"Open #{entry.seq} to a seat", entry.gm_title, options)

    def action_export(self) -> None:
        """Write the whole log (not just the matches) as Markdown; report the path."""
        now = datetime.now()
        title = f"Session log {now:%Y-%m-%d %H:%M} (seed {self.session.seed})"
        self._write(to_markdown(self.session.log, title), now, "session-log")

    def action_say(self) -> None:
        """A line to every seat of the table."""
        self._ask_line("Say to the table", "")

    def action_whisper(self) -> None:
        """A line to one seat of the shared table, which the other seats never read."""
        sharing = self.app.sharing
        seats = [held.seat for held in sharing.seats] if sharing else []
        options = whisper_options(seats)
        if not options:
            self.notify("No seat to whisper to: the table is not shared (hsm serve)")
            return
        dialog = DecisionDialog("Whisper", "To which seat?", options)
        self.app.push_screen(
            dialog,
            lambda to: (
                None if to is None else self._ask_line(f"Whisper to {to.partition(':')[2]}", to)
            ),
        )

    def _ask_line(self, title: str, to: str) -> None:
        from .say_dialog import SayDialog

        def said(text: str | None) -> None:
            if text is not None:
                self._apply(Say(text, to))

        self.app.push_screen(SayDialog(title), said)

    def action_export_players(self) -> None:
        """The log as a seat reads it: every seat's public log, or one player's."""
        sharing = self.app.sharing
        options = export_options([held.seat for held in sharing.seats] if sharing else [])
        if len(options) == 1:
            self._export_as(options[0].command)
            return
        dialog = DecisionDialog("Players' export", "The log as whom reads it?", options)
        self.app.push_screen(dialog, lambda seat: None if seat is None else self._export_as(seat))

    def _export_as(self, seat: Seat) -> None:
        now = datetime.now()
        who = "the table" if seat.role is Role.WATCHER else seat.user
        log = as_read(self.session.view(seat).log)
        title = f"{self.session.campaign.name}: the log as {who} reads it, {now:%Y-%m-%d %H:%M}"
        self._write(to_markdown(log, title), now, f"players-log-{seat.user}")

    def action_export_fight(self) -> None:
        """One fight only; with more than one in the log, which (newest: 1)."""
        found = fights(self.session.log)
        if not found:
            self.notify("No fight in the log yet (F4 s starts one)", title="Export")
            return
        if len(found) == 1:
            self._export_fight(found, 0)
            return
        options = [
            Option(str(n + 1), f"fight {i + 1}: #{f[0].seq}–#{f[-1].seq}", i)
            for n, (i, f) in enumerate(reversed(list(enumerate(found))))
            if n < 9
        ]
        dialog = DecisionDialog("Export a fight", "Which fight? (newest first)", options)
        self.app.push_screen(dialog, lambda i: None if i is None else self._export_fight(found, i))

    def _export_fight(self, found: list[tuple[LogEntry, ...]], index: int) -> None:
        now = datetime.now()
        title = f"Fight {index + 1} of {len(found)} {now:%Y-%m-%d %H:%M} (seed {self.session.seed})"
        self._write(to_markdown(found[index], title), now, f"fight-{index + 1}-log")

    def _write(self, text: str, now: datetime, name: str) -> None:
        """Write an export beside the campaign files, never over another; say where."""
        folder = saves_folder()
        path = export_path(now, folder, name)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8") as file:
                file.write(text)
        except OSError as err:
            reason = err.strerror or str(err)
            self.notify(
                f"Could not write {path.absolute()}: {reason}", title="Export", severity="error"
            )
            return
        self.notify(f"Log written to {path.absolute()}", title="Export")
