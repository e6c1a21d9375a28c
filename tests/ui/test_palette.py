"""The command palette (Ctrl+P) offers the keyed actions of whatever screen is shown.

Found by a GM walkthrough: "hero" on the home screen, "opposed" on F2 and "export" on F6
found nothing, because only the combat screen and the builder listed their actions.
"""

from __future__ import annotations

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot

from hsm_tui.campaign.party import AddHero
from hsm_tui.table.session import Session
from hsm_tui.ui.app import PLACES, HsmApp
from hsm_tui.ui.screens.picker import PickerScreen

SEED = 5

WANTED = {
    "campaign": ("hero", "Campaign: Add hero"),
    "tasks": ("opposed", "Task roller: Opposed"),
    "content": ("search", "Content browser: Search"),
    "combat": ("end turn", "Combat: End turn"),
    "chart": ("roll", "Chart: Roll chart"),
    "log": ("export", "Log: Export .md"),
    "builder": ("forecast", "Builder: Forecast"),
}
"""Per screen: a word a GM types, and the command it must find."""


def _app() -> HsmApp:
    session = Session(seed=SEED)
    session.load_content()
    session.apply(AddHero("kestrel-vance"))
    return HsmApp(session)


async def _search(pilot: Pilot, query: str) -> list[str]:
    """Open the palette, type ``query`` and wait for its hits (it searches in a worker)."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*query)
    found: list[str] = []
    for _ in range(50):
        await pilot.pause(0.02)
        results = pilot.app.screen.query_one(CommandList)
        found = [str(results.get_option_at_index(i).hit.text) for i in range(results.option_count)]
        if found:
            break
    return found


def test_every_screen_has_a_palette_word() -> None:
    """A new screen must get its entry here (and so its check)."""
    assert set(WANTED) == {place.mode for place in PLACES}


@pytest.mark.parametrize("place", PLACES, ids=[place.mode for place in PLACES])
async def test_the_palette_finds_the_screens_own_actions(place) -> None:
    app = _app()
    query, command = WANTED[place.mode]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(place.key)
        await pilot.pause()
        assert command in await _search(pilot, query)


async def test_a_palette_command_runs_the_screens_action() -> None:
    """Enter on "Campaign: Add hero" does what `a` does: the picker of Heroes opens."""
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        found = await _search(pilot, "add hero")
        assert found[0] == "Campaign: Add hero"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
