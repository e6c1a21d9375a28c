"""The one-line title at the top of every screen: the app's title and the screen's
subtitle (the round and whose turn it is, the campaign and adventure).
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget


class TitleBar(Widget):
    """Textual's Header redraws its title one frame after a subtitle change and then asks
    for a layout pass (and another frame), though its line never changes size; this bar
    reads the titles when it is painted, so a change shows in the frame that made it.
    """

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
        content-align: center middle;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def on_mount(self) -> None:
        for owner in (self.app, self.screen):
            self.watch(owner, "title", self.show, init=False)
            self.watch(owner, "sub_title", self.show, init=False)

    def show(self) -> None:
        """Draw the titles again (in place: the bar never changes size)."""
        self.refresh()

    def render(self) -> Content:
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        return app.format_title(title, sub_title)
