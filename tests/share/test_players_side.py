"""The players' side of the shared table, through a real SSH client and pyte: what a
group meets on its first evening, each seat's screen read as the player sees it.
"""

from __future__ import annotations

import asyncio
import signal
from dataclasses import replace
from pathlib import Path

import pytest

from hsm_tui.campaign.combat import AddCombatants, Attack, EndTurn, SetCover, StartCombat
from hsm_tui.campaign.combat.outcome import PendingDive
from hsm_tui.campaign.freeflow import AskRoll, PendingRerolls, RollTask, SpendRerolls
from hsm_tui.persistence import store
from hsm_tui.rules import Rank, task_tn
from hsm_tui.table.session import Session
from hsm_tui.table.state import Say
from tests.share.conftest import HIDDEN_NAME, SECRET_NOTE, fight, hsm_serve, joined, port_of, until
from tests.test_unseen import SNIPER, K, snipers


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


def _history(session: Session) -> list[str]:
    return [type(c).__name__ for c in session.history]


async def _karas_reroll_question(game, session: Session):
    """Kara rolls a task and fails it: her re-roll question opens on her screen."""
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("YOUR TURN")
    kara.send(b"t")
    await kara.shows("a task (R-TASK-1)")
    kara.send(b"\r\r")  # the roll, and an impatient second Enter in the same burst
    await kara.shows("Re-rolls for")
    return table, kara


async def test_r_task_6_the_enter_that_rolls_never_also_answers_the_reroll_question(game):
    session = fight(seed=0)
    _table, kara = await _karas_reroll_question(game, session)
    await asyncio.sleep(0.5)  # time for the second Enter to reach the dialog: it must not
    assert isinstance(session.pending, PendingRerolls) and "Re-rolls for" in kara.text
    assert _history(session)[-1] == "RollTask"  # the second Enter spent nothing
    kara.send(b"k")  # a key typed once the question is on her screen answers it
    await until(lambda: _history(session)[-1] == "SpendRerolls", lambda: kara.text)
    assert session.history[-1].issuer == "player:kara"


async def test_a_question_answered_for_the_player_closes_their_dialog(game) -> None:
    session = fight(seed=0)
    _table, kara = await _karas_reroll_question(game, session)
    question = session.pending
    session.apply(SpendRerolls(0, 0), answering=question)  # the GM answers for her
    await kara.shows("That question no longer waits")
    await until(lambda: "Re-rolls for" not in kara.text, lambda: kara.text)
    kara.send(b"\r")  # her Enter now opens nothing, and answers nothing
    await kara.shows("no question waits for you")
    assert _history(session)[-2:] == ["RollTask", "SpendRerolls"]
    assert session.history[-1].issuer == "gm"


async def test_a_waiting_question_opens_again_when_the_player_comes_back(game) -> None:
    session = fight(seed=0)
    table, _kara = await _karas_reroll_question(game, session)
    table.conns[-1].abort()  # her network drops with the question open
    await until(lambda: not table.server.connections, lambda: "still connected")
    back = await table.join("kara")
    await back.shows("Re-rolls for")  # asked again without a key
    back.send(b"k")
    await until(lambda: _history(session)[-1] == "SpendRerolls", lambda: back.text)


async def test_r_init_1_a_player_sees_the_initiative_order_without_hidden_groups(game) -> None:
    session = fight(seed=0)
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("Range bands")  # the party's pane is drawn, the order above the bands
    pane = [line.split("││")[-1] for line in kara.text.splitlines() if "││" in line]
    at = next(i for i, line in enumerate(pane) if "Initiative" in line)
    assert [line.strip(" │") for line in pane[at + 1 : at + 3]] == [
        "▶ Kestrel Vance",  # her turn, marked
        "Pirate raider ×2",
    ]
    await kara.shows("Pirate raider ×2")
    assert "Cultist" not in kara.text and "zealot" not in kara.text
    kara.send(b"l")  # her log: the initiative entry, without the hidden group's line
    await kara.shows("Initiative (R-INIT-1/2)")
    assert "Cultist" not in kara.text


GM_KEYS = [(b"u", "u is the GM's key"), (b"\x1bOQ", "f2 is the GM's")]  # u, F2


@pytest.mark.parametrize(("key", "says"), GM_KEYS)
async def test_a_gm_key_on_a_players_screen_says_why_it_does_nothing(game, key, says) -> None:
    table = await game(fight(seed=0))
    kara = await table.join("kara")
    await kara.shows("YOUR TURN")
    kara.send(key)
    await kara.shows("Not on your screen")
    assert says in " ".join(line.strip(" ▌▐") for line in kara.text.splitlines())


async def test_a_watchers_key_bar_offers_only_what_a_watcher_does(game) -> None:
    session = fight(seed=0)
    table = await game(session)
    wes = await table.join("wes")
    await wes.shows("Log")
    bar = wes.text.splitlines()[-1]
    assert "Help" in bar and "Attack" not in bar and "Move" not in bar
    wes.send(b"a")
    await wes.shows("wes is watching")
    assert type(session.history[-1]).__name__ == "StartCombat"


async def test_a_dialogs_key_bar_is_the_players_last_line_not_mid_screen(game) -> None:
    table = await game(fight(seed=0))
    kara = await table.join("kara")
    await kara.shows("YOUR TURN")
    bar = kara.text.splitlines()[-1]
    assert all(key in bar for key in ("l Log", "Help", "q Leave"))  # kept at 80 columns
    kara.send(b"v")
    await kara.shows("pgdn Page down")
    lines = kara.text.splitlines()
    assert "pgdn Page down" in lines[-1]
    assert sum("Help" in line for line in lines) == 1  # one key bar, the dialog's


def test_the_players_are_told_the_gm_closed_the_table_and_the_campaign_is_saved(
    tmp_path: Path, user_keys
) -> None:
    """hsm serve stops (SIGTERM): the campaign is saved once every app has stopped, and
    each player reads why their connection closed."""
    with hsm_serve(tmp_path, user_keys, fight()) as (server, campaign, started):
        port = port_of(started)

        async def visit() -> str:
            async with joined(port, "kara", user_keys["kara"]) as client:
                await client.shows("YOUR TURN")
                client.send(b"n")  # her turn ends: something to save
                await client.shows("turn: Pirate raider")
                server.send_signal(signal.SIGTERM)
                said = await asyncio.wait_for(client.process.stderr.read(), 30)
                return said.decode()

        said = asyncio.run(visit())
        out, _ = server.communicate(timeout=30)
    assert "The GM closed the table: the campaign is saved." in said
    assert f"saved to {campaign}" in out
    assert not (tmp_path / "dig.toml.bak2").exists()  # saved once


def test_a_save_the_gm_made_is_not_made_again_and_quit_without_saving_stands(
    tmp_path: Path,
) -> None:
    from hsm_tui.share.serve import save_on_stop

    session = fight()
    path = store.save(session, tmp_path / "dig.toml")
    written = path.read_bytes()
    assert save_on_stop(session) == f"saved in {path}"  # saved in the quit dialog: once
    assert not list(tmp_path.glob("*.bak*"))
    session.apply(SetCover("pirate-raider-2", "heavy"))
    assert save_on_stop(session, discard=True) == "not saved: the GM quit without saving"
    assert path.read_bytes() == written


async def test_quit_without_saving_is_the_apps_result() -> None:
    from hsm_tui.ui.app import UNSAVED, HsmApp

    session = fight()
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("q")  # quit without saving (q again)
        await pilot.pause()
    assert app.return_value == UNSAVED


def test_the_players_file_is_not_listed_as_a_campaign(tmp_path: Path) -> None:
    store.save(fight(), tmp_path / "dig.toml")
    (tmp_path / store.PLAYERS_FILE).write_text('[[seat]]\nuser = "kara"\nrole = "watcher"\n')
    listed = store.recent(tmp_path)
    assert [entry.path.name for entry in listed] == ["dig.toml"]


async def test_the_players_do_not_watch_the_gm_build_the_encounter(game) -> None:
    session = fight(started=False)
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("No fight on")
    await kara.shows("Kestrel Vance")
    assert "Pirate raider" not in kara.text and "dig" not in kara.text
    session.apply(StartCombat())
    await kara.shows("Pirate raider")
    assert HIDDEN_NAME not in kara.text


def _ask_kestrel(session: Session, hidden: bool) -> None:
    """The GM asks Kara's hero for Senses (doubled) at difficulty 2."""
    task = RollTask(task_tn([("Senses", 3), ("Senses", 3)], difficulties=[2]), Rank.HERO)
    session.apply(AskRoll((replace(task, label="Senses", who="kestrel-vance-1"),), hidden))


@pytest.mark.parametrize("hidden", [False, True])
async def test_r_task_1_the_gm_asks_for_a_roll_and_the_player_rolls_it(game, hidden) -> None:
    session = fight(seed=3)  # the raiders' turn: her roll is asked outside her turn
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("turn: Pirate raider")
    _ask_kestrel(session, hidden)
    await kara.shows("the GM asks you to roll Senses")
    kara.send(b"t")
    await kara.shows("The GM asks Kestrel Vance to roll: Senses")
    if hidden:
        await kara.shows("TN hidden")
        assert "Success" not in kara.text and "TN 4" not in kara.text
    else:
        await kara.shows("TN 4")  # Senses 3 doubled, difficulty 2
        await kara.shows("Success")
    kara.send(b"\r")
    await until(lambda: session.asked == (), lambda: kara.text)
    rolled = session.history[-1]
    assert rolled.issuer == "player:kara" and rolled.asked and rolled.tn_hidden is hidden


async def test_a_player_speaks_to_the_table_and_whispers_to_the_gm(game) -> None:
    session = fight(seed=0)
    table = await game(session)
    kara, wes = await table.join("kara"), await table.join("wes")
    await kara.shows("YOUR TURN")
    await wes.shows("Log")
    for key, text, heard in (
        (b"'", "we hold the ridge", "kara to the table: we hold the ridge"),
        (b'"', "I pocket the relic", "kara whispers to the GM: I pocket the relic"),
    ):
        kara.send(key)
        await kara.shows("Say to the table" if key == b"'" else "Whisper to the GM")
        kara.send(text.encode())
        await kara.shows(text)
        kara.send(b"\r")
        await until(lambda h=heard: session.log[-1].title == h, lambda: kara.text)
    await wes.shows("kara to the table: we hold the ridge")
    await kara.shows("kara whispers to the GM")
    assert "pocket" not in wes.text and b"pocket" not in bytes(wes.raw)


async def test_a_two_player_evening_keeps_every_gm_secret_off_the_players_screens(game) -> None:
    """Two players and a watcher at 80×24 for an evening: the GM builds in private, starts,
    asks Kara for a roll with the difficulty kept, Otto whispers, the GM rolls in secret
    and whispers to Kara, Kara drops and comes back, and a hidden zealot stabs her from
    hiding (noticed, not named). Every screen each seat showed, and
    every byte it received, is searched for what only the GM (or another seat) may know."""
    session = fight(seed=0, started=False)
    session.apply(AddCombatants("hero", "roan-maddox", "heroes", "ridge", player=True))
    table = await game(session)
    kara, otto, wes = [await table.join(u) for u in ("kara", "otto", "wes")]
    seen: dict[str, list[str]] = {"kara": [], "otto": [], "wes": []}
    clients = {"kara": kara, "otto": otto, "wes": wes}

    def look() -> None:
        for user, client in clients.items():
            seen[user].append(client.text)

    await kara.shows("No fight on")
    await otto.shows("Captain Roan")
    look()  # built in private: no raider yet
    assert not any("Pirate raider" in text for texts in seen.values() for text in texts)
    session.apply(StartCombat())
    await kara.shows("Pirate raider")
    look()
    _ask_kestrel(session, hidden=True)  # Senses doubled, difficulty 2: TN 4, kept
    await kara.shows("the GM asks you")
    kara.send(b"t")
    await kara.shows("TN hidden")
    look()
    kara.send(b"\r")
    await until(lambda: session.asked == (), lambda: kara.text)
    if isinstance(session.pending, PendingRerolls):  # her Luck may pay: she keeps the roll
        await kara.shows("Re-rolls for")
        kara.send(b"k")
        await until(lambda: session.pending is None, lambda: kara.text)
    otto.send(b'"')
    await otto.shows("Whisper to the GM")
    otto.send(b"I slip away with the relic")
    await otto.shows("slip away")
    otto.send(b"\r")
    await until(lambda: "slip away" in session.log[-1].title, lambda: otto.text)
    session.apply(RollTask(task_tn([("Senses", 2)]), Rank.MINION, "Zealots ready", hidden=True))
    session.apply(Say("You smell incense", to="player:kara"))
    await kara.shows("You smell incense")
    look()
    table.conns[0].abort()  # Kara's network drops
    await until(lambda: len(table.server.connections) == 2, lambda: "kara still seated")
    session.apply(SetCover("pirate-raider-2", "heavy"))
    back = await table.join("kara")
    clients["kara"] = back
    await back.shows("Since you left: 1 entry")
    look()
    while not session.encounter.turn.actor.startswith("cultist"):  # type: ignore[union-attr]
        session.apply(EndTurn())
    session.apply(Attack("cultist-zealot-1", "kestrel-vance-1", "dagger"))  # from hiding
    await back.shows("Someone unseen in the ridge attacks Kestrel Vance")
    await otto.shows("Someone unseen in the ridge attacks Kestrel Vance")
    look()
    gm_only = (SECRET_NOTE, HIDDEN_NAME, "Zealots ready", "TN Senses 3 + Senses 3")
    for user, texts in seen.items():
        raw = b"".join(bytes(c.raw) for c in (clients[user], *((kara,) if user == "kara" else ())))
        for secret in gm_only:
            assert not any(secret in text for text in texts), (user, secret)
            assert secret.encode() not in raw, (user, secret)
    for user in ("kara", "wes"):  # Otto's whisper is the GM's and his
        assert not any("slip away" in text for text in seen[user])
    for user in ("otto", "wes"):  # the GM's whisper is Kara's
        assert not any("incense" in text for text in seen[user])


async def test_r_atk_5_a_hidden_shooter_is_noticed_and_her_dive_is_asked_of_her(game) -> None:
    """Item 10: the hidden raiders' turn reads "the GM's"; their shot is noticed, not
    named ("someone unseen in the dig"), her Fear comes with its line, and the dive
    question is hers, on her screen, with the shooter unsaid."""
    seed = next(s for s in range(200) if _hits_kestrel_first(s))
    session = snipers(seed)
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("turn: the GM's")
    session.apply(Attack(SNIPER, K, "laser-pistol"))
    await kara.shows("Someone unseen in the dig attacks Kestrel Vance")
    await kara.shows("a question waits for you")
    kara.send(b"\r")
    await kara.shows("dive for cover")
    kara.send(b"n")
    await until(lambda: _history(session)[-1] != "Attack", lambda: kara.text)
    assert session.history[-1].issuer == "player:kara"
    kara.send(b"l")
    await kara.shows("Fear (R-ATK-4)")
    assert b"Pirate" not in kara.raw and b"pirate-raider" not in kara.raw


def _hits_kestrel_first(seed: int) -> bool:
    """Whether the hidden raiders act first with ``seed`` and their shot needs her dive."""
    s = snipers(seed)
    if s.encounter.turn is None or s.encounter.turn.actor != "pirate-raider@pirates":
        return False
    s.apply(Attack(SNIPER, K, "laser-pistol"))
    return isinstance(s.pending, PendingDive)
