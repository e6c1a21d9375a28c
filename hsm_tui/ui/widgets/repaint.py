"""Repainting only what changed on screens that follow the session: with twenty players
and the GM on one loop, every widget repainted for nothing is paid at every change.
"""

from __future__ import annotations

from textual.widget import Widget

UNCHANGED = object()
"""A title left as it is (None removes one)."""


def retitle(widget: Widget, title: object = UNCHANGED, subtitle: object = UNCHANGED) -> None:
    """Set ``widget``'s border title and subtitle where they differ: Textual repaints the
    whole widget, border and content, whenever one is set, even to the same text."""
    if title is not UNCHANGED and widget.border_title != title:
        widget.border_title = title  # type: ignore[assignment]
    if subtitle is not UNCHANGED and widget.border_subtitle != subtitle:
        widget.border_subtitle = subtitle  # type: ignore[assignment]
