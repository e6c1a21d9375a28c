"""The players' side of the shared table, through a real SSH client and pyte: what a
group meets on its first evening, each seat's screen read as the player sees it.
"""

from __future__ import annotations

import pytest

from tests.share.conftest import fight


@pytest.mark.parametrize("size", [(60, 20), (79, 24), (80, 23), (0, 0)])
async def test_below_80x24_a_player_is_asked_to_enlarge_the_window(game, size) -> None:
    """Item 5 of the first evening: the request is drawn (a 0×0 PTY is taken as 20×10),
    and the table comes back when the window grows."""
    table = await game(fight())
    kara = await table.join("kara", size)
    if 0 in size:  # the server draws 20×10; let the emulator hold what it draws
        kara.screen.resize(10, 20)
    await kara.shows("Please enlarge")
    kara.resize(80, 24)
    await kara.shows("YOUR TURN")
