"""Scene notes, edited in a dialog so the home screen (the first one drawn) needs no
text editor: Textual's TextArea costs ~20 ms of a cold start.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea
from textual.widgets.text_area import Edit, EditResult

from ...campaign.party import SCENE_LIMIT
from ..widgets.keybar import KeyBar
from .help_text import HelpText


class NotesArea(TextArea):
    """A text area that takes no more than the engine keeps (:data:`SCENE_LIMIT`): typing
    or a paste past it keeps what fits and drops only the rest, so closing never
    carries notes the session would refuse.
    """

    def edit(self, edit: Edit) -> EditResult:
        """Every change goes through here (typing, a paste, a cut): what would pass the
        limit is cut from what it inserts."""
        start, end = sorted((edit.from_location, edit.to_location))
        room = SCENE_LIMIT - len(self.text) + len(self.get_text_range(start, end))
        if len(edit.text) > room:
            kept = edit.text[: max(room, 0)]
            self.app.bell()
            self.notify(
                f"Scene notes hold {SCENE_LIMIT:,} characters: "
                f"{len(edit.text) - len(kept):,} not added",
                severity="warning",
            )
            edit = Edit(kept, edit.from_location, edit.to_location, edit.maintain_selection_offset)
        return super().edit(edit)


class NotesDialog(ModalScreen[str]):
    """Edit the text; Esc closes and keeps it (the caller sends it to the session)."""

    CSS_PATH = "../styles/dialogs.tcss"

    HELP = HelpText(__name__, limit=f"{SCENE_LIMIT:,}")

    BINDINGS = [
        Binding("escape", "close", "Keep and close", id="notes.close"),
        Binding("f1", "app.help", "Help", id="notes.help"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="notes-box"):
            yield Label("[b]Scene notes[/b]")
            yield NotesArea(self.text, id="notes-text")
        yield KeyBar()

    def on_mount(self) -> None:
        area = self.query_one(NotesArea)
        area.focus()
        area.move_cursor(area.document.end)
        self._count()

    def on_text_area_changed(self, _event: TextArea.Changed) -> None:
        self._count()

    def _count(self) -> None:
        """Characters used of the limit, under the box: the GM sees the room left."""
        used = len(self.query_one(NotesArea).text)
        full = " · full" if used >= SCENE_LIMIT else ""
        self.query_one("#notes-box").border_subtitle = f"{used:,} / {SCENE_LIMIT:,}{full}"

    def action_close(self) -> None:
        self.dismiss(self.query_one(NotesArea).text)
