"""An app built for a seat (issue 21): every command its screens send goes out as that
seat's, and the Session's seat policy refuses what the seat may not do, on screen.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import AddCombatants, AddZone, StartCombat
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp

KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")


def _session(seed: int) -> Session:
    session = Session(seed=seed)
    session.load_content()
    for command in (
        AddZone("dig"),
        AddCombatants("hero", "kestrel-vance", "heroes", "dig", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        StartCombat(),
    ):
        session.apply(command)
    return session


async def _end_turn_then_undo(app: HsmApp) -> list[str]:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        await pilot.press("n")  # end the turn
        await pilot.pause()
        refusals = [n.message for n in app._notifications if n.severity == "error"]
        await pilot.press("u")
        await pilot.pause()
        assert any("may not undo: only the GM" in n.message for n in app._notifications)
        return refusals


async def test_a_players_app_ends_its_heros_turn_as_its_seat() -> None:
    session = _session(seed=0)  # Kestrel acts first
    assert session.encounter.turn.actor == "kestrel-vance-1"
    assert await _end_turn_then_undo(HsmApp(session, seat=KARA)) == []
    assert session.history[-1].issuer == "player:kara"  # stamped: the screen never set it


async def test_a_players_app_shows_the_policys_refusal_for_a_minions_turn() -> None:
    session = _session(seed=3)  # the raiders act first: their turn is the GM's
    assert session.encounter.turn.actor == "pirate-raider@pirates"
    refusals = await _end_turn_then_undo(HsmApp(session, seat=KARA))
    assert refusals == ["kara plays kestrel-vance: that is for another seat to do"]
    assert session.history[-1] == StartCombat()
