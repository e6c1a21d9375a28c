"""The shared table end to end (issue 21): the real game served to real SSH clients on
127.0.0.1, the GM's app and a player's app on one Session. What the player's screen
shows never holds what only the GM's shows; a change reaches the player; the player
attacks from their screen as their seat; a dropped player loses nothing.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from hsm_tui.campaign.combat import Reveal, SetCover
from hsm_tui.persistence import autosave, store
from hsm_tui.table.session import Session
from tests.share.conftest import HIDDEN_NAME, SECRET_NOTE, fight, hsm_serve, joined, port_of, until


async def test_a_players_screen_never_shows_what_only_the_gms_shows(game) -> None:
    session = fight()
    table = await game(session)
    gm, kara = await table.join("gm", (120, 40)), await table.join("kara", (120, 40))
    await kara.shows("YOUR TURN")
    gm.send(b"\x1b[14~")  # F4: the GM's combat screen lists everyone
    await gm.shows(HIDDEN_NAME)
    assert "Pirate raider" in kara.text and "Kestrel" in kara.text
    assert HIDDEN_NAME not in kara.text and SECRET_NOTE not in kara.text
    assert HIDDEN_NAME not in kara.raw.decode(errors="replace")  # not even off-screen
    session.apply(Reveal("cultist-zealot-1"))  # the GM springs the ambush
    await kara.shows(HIDDEN_NAME)


async def test_r_atk_1_a_player_attacks_from_their_screen_and_the_gm_sees_it(game) -> None:
    session = fight(seed=0)  # Kestrel acts first
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("YOUR TURN")
    kara.send(b"a")
    await kara.shows("Attack (R-ATK-1)")
    kara.send(b"1")
    await until(
        lambda: any(type(c).__name__ == "Attack" for c in session.history),
        lambda: kara.text,
    )
    attack = next(c for c in session.history if type(c).__name__ == "Attack")
    assert attack.issuer == "player:kara" and attack.attacker == "kestrel-vance-1"


async def test_a_players_command_for_another_turn_is_refused_on_their_screen(game) -> None:
    session = fight(seed=3)  # the raiders act first: the GM's turn
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("turn: Pirate raider")
    kara.send(b"n")
    await kara.shows("Refused")
    assert type(session.history[-1]).__name__ == "StartCombat"


async def test_a_dropped_player_loses_nothing_and_is_told_what_they_missed(game) -> None:
    session = fight(seed=3)
    table = await game(session)
    kara = await table.join("kara")
    await kara.shows("turn: Pirate raider")
    table.conns[-1].abort()  # the network is gone: no goodbye
    await until(lambda: not table.server.connections, lambda: "still connected")
    session.apply(SetCover("pirate-raider-2", "heavy"))  # the game goes on without her
    back = await table.join("kara")
    await back.shows("Since you left: 1 entry")
    await back.shows("Pirate raider 2: heavy cover")


async def test_the_gm_sees_who_sits_at_the_table(game) -> None:
    table = await game(fight())
    gm = await table.join("gm", (120, 40))
    await gm.shows("Scene notes")
    await table.join("kara")
    gm.send(b"\x14")  # ctrl+t
    await gm.shows("seats and who is connected")
    await gm.shows("kara")
    assert "○ not joined" in gm.text  # the watcher has not come
    lines = [line for line in gm.text.splitlines() if "kara" in line]
    assert any("● here since" in line and "80×24" in line for line in lines)


def test_hsm_serve_headless_listens_serves_and_saves_on_sigterm(tmp_path: Path, user_keys) -> None:
    session = fight()
    with hsm_serve(tmp_path, user_keys, session) as (server, campaign, lines):
        assert lines[0].startswith("host key fingerprint SHA256:")
        assert lines[2].startswith("listening on 127.0.0.1:")
        port = port_of(lines)

        async def visit() -> str:
            async with joined(port, "kara", user_keys["kara"]) as client:
                await client.shows("YOUR TURN")
                seen = client.text
                client.send(b"n")  # her turn ends: a change the server autosaves (issue 20)
                for _ in range(100):
                    if auto.exists():
                        break
                    await asyncio.sleep(0.05)
                return seen

        auto = autosave.path_for(
            campaign, "", writer=autosave.Writer(socket.gethostname(), server.pid)
        )
        assert "Kestrel" in asyncio.run(visit())
        assert auto.exists() and autosave.newer(auto)  # headless: the server autosaved
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=30)
    assert server.returncode == 0
    assert f"saved to {campaign}" in out
    assert not auto.exists()  # saved on stop: the autosave is gone
    reopened = Session()
    reopened.load_content()
    store.load(reopened, campaign)
    assert len(reopened.log) > len(session.log)  # her ended turn is in the file
    assert (tmp_path / "config" / "ssh_host_ed25519_key").exists()


def test_hsm_serve_refuses_a_bad_players_file_with_file_line_and_key(tmp_path: Path) -> None:
    (tmp_path / "players.toml").write_text('[[seat]]\nuser = "kara"\nrole = "captain"\nkeys = []\n')
    env = {**os.environ, "HSM_CONFIG_DIR": str(tmp_path / "config"), "HSM_SAVES": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "hsm_tui", "serve", "--headless", "--port", "0"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("hsm: error: ")
    assert "players.toml:3: key seat[0].role: expected one of gm, player, watcher" in result.stderr


async def test_the_gm_pastes_a_players_key_and_they_log_in(game, tmp_path: Path) -> None:
    """ctrl+t, a: the GM types the seat and pastes the key; it is written to the players
    file and opens the seat at the next login."""
    session = fight()
    table = await game(session)
    sharing = table.server_game
    sharing.players = tmp_path / "players.toml"
    otto = asyncssh.generate_private_key("ssh-ed25519")
    line = otto.export_public_key().decode().strip()
    gm = await table.join("gm", (120, 40))
    await gm.shows("Scene notes")
    gm.send(b"\x14")  # ctrl+t
    await gm.shows("seats and who is connected")
    gm.send(b"a")
    await gm.shows("paste the key")
    app = next(app for seat, _, app in table.built if seat.user == "gm")
    await until(lambda: type(app.focused).__name__ == "Input", lambda: "no field has focus")
    for text in ("otto", "", "roan-maddox", line):  # the role stays player
        field = app.focused
        gm.send(text.encode())  # typed (a key line arrives whole, as a paste does)
        await until(lambda f=field, t=text: f.value.endswith(t), lambda: gm.text)
        gm.send(b"\r")  # Enter: a key Textual binds, so sent on its own as a hand would
        await until(lambda f=field: app.focused is not f, lambda: gm.text)
    await gm.shows("Key added")
    assert "otto" in sharing.players.read_text(encoding="utf-8")
    newcomer = await table.join("otto", key=otto)  # the shared keys stay as they were
    await newcomer.shows("otto · player")
    assert any(c.seat.user == "otto" for c in table.server.connections)


async def test_the_gms_own_app_hears_who_joins_and_leaves(game) -> None:
    """hsm serve's local app: a notice when a player comes and when they go."""
    from hsm_tui.share.serve import announce_comings
    from hsm_tui.ui.app import HsmApp

    session = fight()
    table = await game(session)
    app = HsmApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        unsubscribe = announce_comings(app, table.server_game)
        kara = await table.join("kara")
        await kara.shows("YOUR TURN")
        await until(lambda: "kara joined (player)" in _notices(app), lambda: _notices(app))
        table.conns[-1].abort()
        await until(lambda: "kara left the table" in _notices(app), lambda: _notices(app))
        unsubscribe()
        await pilot.pause()


def _notices(app) -> str:
    return " | ".join(n.message for n in app._notifications)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_r_task_1_a_players_task_dialog_shows_every_field_and_the_odds(game, size) -> None:
    """Over SSH, in the player's own app (whose styles are not the GM's): both traits,
    the skill, the Talent, the difficulty and the exact odds, before Enter rolls."""
    session = fight(seed=0)
    table = await game(session)
    kara = await table.join("kara", size)
    await kara.shows("YOUR TURN")
    kara.send(b"t")
    await kara.shows("a task (R-TASK-1)")
    for field in ("Trait 1", "Trait 2", "Skill", "Talent", "Difficulty", "Success"):
        await kara.shows(field)
    kara.send(b"\x1b[C")  # → on Trait 1: the odds follow the field
    kara.send(b"\r")
    await until(lambda: type(session.history[-1]).__name__ == "RollTask", lambda: kara.text)
    assert session.history[-1].issuer == "player:kara"
