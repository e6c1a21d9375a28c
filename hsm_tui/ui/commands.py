"""Command-palette provider: every keyed action of the current screen, found by name.

A screen lists its actions once, in ``BINDINGS`` (with a description and a tooltip);
this provider turns those into palette commands, so keys and palette never disagree.
The app lists it (``HsmApp.COMMANDS``), so every screen and dialog has it, none by hand.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider

from .screens import words

if TYPE_CHECKING:
    from textual.screen import Screen


def palette_prefix(screen: Screen) -> str:
    """What a screen's commands start with: its ``PALETTE_PREFIX``, else its class's name
    in words (``TaskRollerScreen`` → ``Task roller``), so a new screen needs nothing.
    """
    prefix = getattr(screen, "PALETTE_PREFIX", None)
    return prefix or words(type(screen).__name__.removesuffix("Screen")).capitalize()


class ScreenActions(Provider):
    """The calling screen's described bindings as commands (``Combat: Attack`` …)."""

    def _commands(self) -> list[tuple[str, str, str]]:
        screen = self.screen
        prefix = palette_prefix(screen)
        found = []
        for binding in getattr(type(screen), "BINDINGS", []):
            if not isinstance(binding, Binding) or not binding.description:
                continue
            if binding.action.startswith("app."):  # the app's own: already system commands
                continue
            keys = binding.key_display or binding.key.replace(",", " / ")
            help_text = f"{binding.tooltip} ({keys})" if binding.tooltip else f"key: {keys}"
            found.append((f"{prefix}: {binding.description}", help_text, binding.action))
        return found

    async def discover(self) -> Hits:
        for name, help_text, action in self._commands():
            yield DiscoveryHit(name, partial(self.screen.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, action in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(name),
                    partial(self.screen.run_action, action),
                    help=help_text,
                )
