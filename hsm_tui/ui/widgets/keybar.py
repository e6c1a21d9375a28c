"""The key bar at the bottom of every screen: the screen's main keys on one line."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget


class KeyBar(Widget):
    """Shown bindings of the focused chain, one text line (the palette key at the end).

    Textual's ``Footer`` builds one widget per key and rebuilds them all whenever focus
    or the bindings change; with our 10–15 keys that was 30–90 ms per change, the
    largest single cost of a cold start. One line of text redraws in well under 1 ms.
    A click on a key presses it, so the mouse still works where a terminal sends it.
    """

    COMPONENT_CLASSES = {"keybar--key", "keybar--description", "keybar--disabled"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    KeyBar > .keybar--key {
        color: $footer-key-foreground;
        background: $footer-key-background;
        text-style: bold;
    }
    KeyBar > .keybar--description {
        color: $footer-description-foreground;
        background: $footer-description-background;
    }
    KeyBar > .keybar--disabled {
        text-style: dim;
    }
    """
    """One line at the bottom of its screen, in any app (the GM's and a player's over
    SSH, whose styles differ): a plain widget would fill the screen, and a dialog's key
    bar drew mid-screen in the player's app when these lived in the GM's styles."""

    def __init__(self) -> None:
        super().__init__()
        self._spans: list[tuple[int, int, str]] = []

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen:
            self.refresh()

    def render(self) -> Text:
        """The whole keys that fit, in binding order, with help, the command palette and
        the keys a screen pins (its ``PINNED`` binding ids) kept at the right end at any
        width; disabled keys are dimmed. Built when painted,
        at the width laid out, so the first frame shows them and a resize redraws them.
        """
        active = self.screen.active_bindings
        pins = getattr(self.screen, "PINNED", frozenset())
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        pinned: list[tuple[Binding, bool]] = []
        keys: list[tuple[Binding, bool]] = []
        actions: set[str] = set()
        for _node, binding, enabled, _tooltip in active.values():
            if binding.show and binding.action not in actions:
                actions.add(binding.action)
                pin = binding.action == "help" or binding.id in pins
                (pinned if pin else keys).append((binding, enabled))
        if palette is not None and self.app.ENABLE_COMMAND_PALETTE:  # shown though show=False
            pinned.append((palette[1], palette[2]))
        room = self.size.width - sum(map(self._width, pinned))
        shown: list[tuple[Binding, bool]] = []
        for entry in keys:
            if self._width(entry) > room:
                continue  # a shorter key further on may still fit
            room -= self._width(entry)
            shown.append(entry)
        line = Text(no_wrap=True, overflow="crop")
        self._spans = []
        for n, (binding, enabled) in enumerate((*shown, *pinned)):
            if n == len(shown):
                line.append(" " * max(0, room))
            start = len(line)
            dim = Style() if enabled else self.get_component_rich_style("keybar--disabled")
            key_style = self.get_component_rich_style("keybar--key") + dim
            line.append(f" {self.app.get_key_display(binding)} ", key_style)
            text_style = self.get_component_rich_style("keybar--description") + dim
            line.append(f"{binding.description} ", text_style)
            self._spans.append((start, len(line), binding.key.split(",")[0]))
        return line

    def _width(self, entry: tuple[Binding, bool]) -> int:
        binding = entry[0]
        return len(self.app.get_key_display(binding)) + len(binding.description) + 3

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
