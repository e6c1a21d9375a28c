"""The player's app (issue 21): built from the seat's projection only; the hero's
attacks, moves and turn from menus the engine checked; a question opens for its player;
the bell rings for the player's turn; below 80×24 a "please enlarge" view.
"""

from __future__ import annotations

from hsm_tui.campaign.combat import AddCombatants, AddZone, SetBand, SetCover, StartCombat
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from hsm_tui.ui.player.app import PlayerApp
from hsm_tui.ui.too_small import TooSmallScreen

KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")
WES = Seat(Role.WATCHER, "wes")


def _session(seed: int = 0, hidden: bool = True) -> Session:
    session = Session(seed=seed)
    session.load_content()
    for command in (
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        AddCombatants("minion", "pirate-raider", "ambush", "ridge", hidden=hidden),
        SetCover("pirate-raider-1", "medium"),
        StartCombat(),
    ):
        session.apply(command)
    return session


def screen_text(app: PlayerApp) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def test_r_atk_1_a_player_attacks_from_the_engines_menu_and_it_is_their_seats() -> None:
    session = _session(seed=0)  # Kestrel acts first
    app = PlayerApp(SeatedSession(session, KARA))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "YOUR TURN" in text and "Kestrel" in text
        await pilot.press("a")
        await pilot.pause()
        dialog = app.screen
        labels = [o.label for o in dialog.options]
        assert labels and all("Pirate raider" in label for label in labels)
        assert any("medium cover" in label and "TN" in label for label in labels)
        assert not any("ambush" in label for label in labels)  # a hidden foe is no target
        await pilot.press(dialog.options[0].key)
        await pilot.pause()
        while app.screen is not app.screen_stack[1]:  # answer (keep) any re-roll question
            await pilot.press("escape")
            await pilot.pause()
    attack = next(c for c in session.history if type(c).__name__ == "Attack")
    assert attack.issuer == "player:kara" and attack.attacker == "kestrel-vance-1"


async def test_a_players_screen_shows_no_hidden_combatant_nor_minion_numbers() -> None:
    session = _session(seed=0)
    hidden = next(c for c in session.encounter.combatants if c.hidden)
    app = PlayerApp(SeatedSession(session, KARA))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
    assert "ambush" not in text and hidden.id not in text
    assert "Pirate raider" in text and "unhurt" in text


async def test_a_watcher_sees_the_fight_and_is_refused_a_turn() -> None:
    session = _session(seed=0)
    app = PlayerApp(SeatedSession(session, WES))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        refusals = [n.message for n in app._notifications if n.severity == "error"]
    assert refusals == ["wes is watching: a watcher's seat issues no commands"]
    assert type(session.history[-1]).__name__ == "StartCombat"


async def test_the_bell_rings_when_the_players_turn_starts() -> None:
    session = _session(seed=3)  # the raiders act first
    assert session.encounter.turn.actor != "kestrel-vance-1"
    app = PlayerApp(SeatedSession(session, KARA))
    rings: list[int] = []
    app.bell = lambda: rings.append(1)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while session.encounter.turn.actor != "kestrel-vance-1":
            from hsm_tui.campaign.combat import EndTurn

            session.apply(EndTurn())  # the GM ends the raiders' turns
        await pilot.pause()
        assert rings == [1]
        assert "YOUR TURN" in screen_text(app)


async def test_below_80x24_a_player_is_asked_to_enlarge_the_window() -> None:
    app = PlayerApp(SeatedSession(_session(), KARA))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.pause()  # the table, then the request to enlarge over it
        assert isinstance(app.screen, TooSmallScreen)
        assert "Please enlarge" in screen_text(app)  # painted, not only composed
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)


async def test_since_you_left_lists_the_entries_missed() -> None:
    session = _session()
    app = PlayerApp(SeatedSession(session, KARA), missed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [n.title for n in app._notifications]
    assert titles == ["Since you left: 2 entries"]


async def test_r_task_1_a_player_rolls_their_own_heros_task_with_exact_odds() -> None:
    session = _session(seed=3)
    app = PlayerApp(SeatedSession(session, KARA))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        odds = str(app.screen.query_one("#player-task-odds").render())
        assert "TN " in odds and "Success" in odds
        await pilot.press("enter")
        await pilot.pause()
    roll = session.history[-1]
    assert type(roll).__name__ == "RollTask"
    assert (roll.issuer, roll.who) == ("player:kara", "kestrel-vance-1")


async def test_an_undone_entry_reads_struck_through_on_a_players_screen() -> None:
    session = _session(seed=0, hidden=False)
    app = PlayerApp(SeatedSession(session, KARA))
    async with app.run_test(size=(80, 24)) as pilot:
        session.apply(SetCover("kestrel-vance-1", "heavy"))
        session.undo()  # the GM takes it back
        await pilot.pause()
        await pilot.pause()
        assert "[undone] Kestrel Vance: heavy cover" in screen_text(app)


async def test_f1_opens_the_players_own_help() -> None:
    from hsm_tui.ui.screens.help import HelpScreen

    app = PlayerApp(SeatedSession(_session(), KARA))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Your seat at the table" in app.screen.screen_help
