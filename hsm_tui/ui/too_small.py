"""Below 80×24 every screen, the GM's and a player's, asks for a larger window instead of
losing columns silently (``OU`` for OUT, a pack list four cells wide)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

MIN_SIZE = (80, 24)
"""The smallest terminal the screens are drawn for (the SSH worst case)."""


class TooSmallScreen(Screen[None]):
    """Shown over everything while the terminal is below :data:`MIN_SIZE`."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    #too-small { width: auto; max-width: 100%; height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(
            f"Please enlarge the window to at least {MIN_SIZE[0]}×{MIN_SIZE[1]}: "
            "the table is drawn for that size.",
            id="too-small",
        )


def fit_to_size(app: App, size: Size | None = None) -> None:
    """:class:`TooSmallScreen` on top while the terminal (``size``, else the app's) is
    below :data:`MIN_SIZE`, gone once it is not."""
    if not app.screen_stack:
        return  # a resize before the first screen: fitted once it is up
    width, height = size or app.size
    small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
    showing = isinstance(app.screen, TooSmallScreen)
    if small and not showing:
        app.push_screen(TooSmallScreen())
    elif showing and not small:
        app.pop_screen()


def keep_to_size(app: App) -> None:
    """Fit now and after every change of the screen on top: a mode switch (F2–F8), a dialog
    opened over the request or closed back onto one left in a stack (the app calls
    :func:`fit_to_size` on its resizes)."""
    app.screen_change_signal.subscribe(app, lambda _screen: app.call_later(fit_to_size, app))
    fit_to_size(app)
