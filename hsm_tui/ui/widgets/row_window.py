"""Which rows of a long table to draw when they do not all fit.

Scrolling to the selected row let the acting or targeted combatant scroll away at 80×24;
a folded view keeps every row that matters on screen and draws each run of rows left
out as one line saying how many.
"""

from __future__ import annotations

from collections.abc import Sequence

Fold = tuple[int, int]
"""A run of rows left out, first and last index: drawn as one ``⋯ N more`` line."""


def _lines_for(kept: set[int], count: int) -> int:
    """Lines the kept rows take with a fold line for each run between them."""
    runs = sum(1 for i in range(count) if i not in kept and (i == 0 or i - 1 in kept))
    return len(kept) + runs


def shown_rows(count: int, keep: Sequence[int], lines: int) -> list[int | Fold]:
    """Every row when ``count`` fit in ``lines``; else the rows in ``keep`` (most
    important first, as many as fit), then their neighbours nearest first, top to
    bottom, each run of rows left out as a :data:`Fold`.
    """
    if count <= lines:
        return list(range(count))
    kept: set[int] = set()
    pinned = [i for i in dict.fromkeys(keep) if 0 <= i < count]
    near = sorted(range(count), key=lambda i: min((abs(i - p) for p in pinned), default=i))
    for index in [*pinned, *near]:
        if index not in kept and _lines_for(kept | {index}, count) <= lines:
            kept.add(index)
    shown: list[int | Fold] = []
    for index in range(count):
        if index in kept:
            shown.append(index)
        elif index == 0 or index - 1 in kept:
            last = next((i - 1 for i in range(index, count) if i in kept), count - 1)
            shown.append((index, last))
    return shown
