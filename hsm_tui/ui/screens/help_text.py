"""A screen's F1 help as a Markdown file beside its module: prose a GM reads is easier to
edit and review there than inside a Python string, and the package ships it as data.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App


class HelpText:
    """A screen's ``HELP``: the file named like its module (``…screens.combat`` →
    ``combat.md``), read the first time F1 asks for it rather than when the module is
    imported, so no screen reads a file before its first frame. ``values`` fill its
    ``{name}`` fields, so a limit the engine sets is said once.
    """

    def __init__(self, module_name: str, **values: object) -> None:
        self._module = module_name
        self._values = values
        self._text: str | None = None

    def __get__(self, screen: object, owner: type | None = None) -> str:
        if self._text is None:
            file = sys.modules[self._module].__file__
            assert file is not None  # a screen module is always a file
            text = Path(file).with_suffix(".md").read_text(encoding="utf-8")
            self._text = text.format(**self._values) if self._values else text
        return self._text


def open_help(app: App[None], screens: str = "") -> None:
    """F1: the help of whatever screen or dialog is on top (its ``HELP``), then
    ``screens`` (where else to go); the GM's app and a player's app alike.
    """
    from .help import HelpScreen  # Markdown and its parser load on first use

    if not isinstance(app.screen, HelpScreen):
        app.push_screen(HelpScreen(getattr(app.screen, "HELP", ""), screens))
