"""Many views, one session (DESIGN): two apps on one Session show the same fight.

What one GM view does by keys reaches the other through the session's change
notifications alone, by the other's next frame: the shape the SSH-shared session needs.
Seed 7 with the shipped dig-site ambush, as in test_combat_screen.py.
"""

from __future__ import annotations

from textual.pilot import Pilot

from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp
from hsm_tui.ui.screens.combat import CombatScreen
from hsm_tui.ui.widgets.combatants import CombatantTable

SEED = 7
SIZE = (100, 30)


def _view(app: HsmApp) -> dict[str, object]:
    """The combat screen's session-derived text as rendered: initiative, table, log."""
    screen = app.screen
    assert isinstance(screen, CombatScreen)
    table = screen.query_one("#combat-table", CombatantTable)
    return {
        "subtitle": screen.sub_title,
        "round": screen.query_one("#combat-initiative").border_title,
        "initiative": str(screen.query_one("#combat-initiative").render()),
        "table": [tuple(str(cell) for cell in row) for row in table.row_texts],
        "log": [line.text for line in screen.query_one("#combat-log").lines],
    }


async def _keys(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


async def _next_frame(pilot: Pilot) -> None:
    """Let the other view paint once; no key is pressed in it."""
    await pilot.pause(0)


async def test_two_views_of_one_session_follow_each_others_commands() -> None:
    session = Session(seed=SEED)
    gm, table_view = HsmApp(session), HsmApp(session)
    async with gm.run_test(size=SIZE) as a, table_view.run_test(size=SIZE) as b:
        await _keys(a, "f4")
        await _keys(b, "f4")
        assert _view(gm) == _view(table_view)

        await _keys(a, "L")  # A loads the example encounter
        await _next_frame(b)
        assert "Kestrel Vance" in str(_view(table_view)["table"])
        assert _view(table_view) == _view(gm)

        await _keys(a, "s")  # A rolls initiative
        await _next_frame(b)
        assert _view(table_view)["round"] == "Round 1"
        assert "▶14 Kestrel Vance" in str(_view(table_view)["initiative"])
        assert _view(table_view) == _view(gm)

        await _keys(a, "a", "enter", "k", "1")  # attack, keep the roll, the boarder dives
        await _next_frame(b)
        assert any("Dive for cover" in line for line in _view(table_view)["log"])  # type: ignore[union-attr]
        assert _view(table_view) == _view(gm)

        await _keys(b, "n")  # B ends Kestrel's turn
        await _next_frame(a)
        assert "Roan Maddox" in str(_view(gm)["subtitle"])
        assert _view(gm) == _view(table_view)

        await _keys(b, "u")  # B undoes it: A is back on Kestrel's turn
        await _next_frame(a)
        assert "Kestrel Vance" in str(_view(gm)["subtitle"])
        assert _view(gm) == _view(table_view)


async def test_each_view_refreshes_inside_its_own_app(monkeypatch) -> None:
    """A change made in one app refreshes the other from the other's own queue: Textual's
    ``self.app`` is the app whose context runs the code, so a refresh run inside the
    issuing app would read (and notify, focus, …) the wrong app.
    """
    ran_in = _spy_home_refreshes(monkeypatch)
    gm, table_view = _two_homes()
    async with gm.run_test(size=SIZE) as a, table_view.run_test(size=SIZE) as b:
        await _keys(a, "a", *"kestrel", "enter")  # A adds a Hero to the party
        await _next_frame(b)
        ran_in.clear()
        await _keys(a, "plus")  # A grants a Clue: both views refresh
        await _next_frame(b)
        assert {id(own) for own, _ in ran_in} == {id(gm), id(table_view)}
        assert all(own is running for own, running in ran_in)
        party = table_view.screen.query_one("#party")
        assert "Clues 1" in str(party.get_option_at_index(0).prompt)


async def test_a_hidden_screen_catches_up_once_when_shown_again(monkeypatch) -> None:
    """Screens of other modes stay mounted: they skip the refreshes while hidden (each
    would cost a redraw per command) and refresh once when shown, up to date.
    """
    from hsm_tui.campaign.party import GrantClues
    from hsm_tui.ui.screens.campaign import CampaignScreen

    calls: list[object] = []
    original = CampaignScreen.refresh_from_session

    def spy(screen: CampaignScreen) -> None:
        calls.append(screen)
        original(screen)

    monkeypatch.setattr(CampaignScreen, "refresh_from_session", spy)
    session = Session(seed=SEED)
    session.load_content()
    app = HsmApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await _keys(pilot, "a", *"kestrel", "enter")  # home: add a Hero
        await _keys(pilot, "f2")
        calls.clear()
        for _ in range(3):
            session.apply(GrantClues("kestrel-vance", 1))
        await pilot.pause()
        assert calls == []  # home is hidden: no redraws
        await _keys(pilot, "f8")
        assert len(calls) == 1
        party = app.screen.query_one("#party")
        assert "Clues 3" in str(party.get_option_at_index(0).prompt)


async def test_changes_from_another_app_coalesce_into_one_refresh(monkeypatch) -> None:
    """Issue 21: a burst of changes made in one app (a Batch's commands, a busy player)
    schedules one refresh in each other view, not one per change.
    """
    from textual._context import active_app

    from hsm_tui.campaign.party import GrantClues

    ran_in = _spy_home_refreshes(monkeypatch)
    gm, table_view = _two_homes()
    session = gm.session
    async with gm.run_test(size=SIZE) as a, table_view.run_test(size=SIZE) as b:
        await _keys(a, "a", *"kestrel", "enter")  # A adds a Hero to the party
        await _next_frame(b)
        ran_in.clear()
        issuing = active_app.set(gm)  # three changes at once, made in A
        try:
            for _ in range(3):
                session.apply(GrantClues("kestrel-vance"))
        finally:
            active_app.reset(issuing)
        await _next_frame(b)
        await _next_frame(a)
        owners = [own for own, _running in ran_in]
        assert owners.count(gm) == 3 and owners.count(table_view) == 1
        party = table_view.screen.query_one("#party")
        assert "Clues 3" in str(party.get_option_at_index(0).prompt)


def _spy_home_refreshes(monkeypatch) -> list[tuple[object, object]]:
    """Record each home-screen refresh as (the screen's own app, the app running it)."""
    from hsm_tui.ui.screens.campaign import CampaignScreen

    ran_in: list[tuple[object, object]] = []
    original = CampaignScreen.refresh_from_session

    def spy(screen: CampaignScreen) -> None:
        ran_in.append((screen.parent, screen.app))
        original(screen)

    monkeypatch.setattr(CampaignScreen, "refresh_from_session", spy)
    return ran_in


def _two_homes() -> tuple[HsmApp, HsmApp]:
    """Two apps on one session with its packs (the GM's and another view)."""
    session = Session(seed=SEED)
    session.load_content()
    return HsmApp(session), HsmApp(session)
