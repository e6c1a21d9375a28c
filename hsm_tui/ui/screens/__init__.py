"""One screen per module; helpers they share."""

from __future__ import annotations

from textual.screen import Screen


def set_border_titles(screen: Screen, titles: dict[str, str]) -> None:
    """Border titles by selector (Textual sets border titles in code, not in CSS)."""
    for selector, title in titles.items():
        screen.query_one(selector).border_title = title
