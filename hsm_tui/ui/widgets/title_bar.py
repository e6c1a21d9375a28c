"""The one-line title at the top of every screen: the app's title and the screen's
subtitle (the round and whose turn it is, the campaign and adventure).
"""

from __future__ import annotations

from textual.widgets import Static


class TitleBar(Static):
    """Textual's Header redraws its title one frame after a subtitle change and then asks
    for a layout pass (and another frame), though its line never changes size; this bar
    is drawn in the frame that changed it, in place.
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
        self.show()

    def show(self) -> None:
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        self.update(app.format_title(title, sub_title), layout=False)
