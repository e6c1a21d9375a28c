"""Issue 20, done when: "Kill the app mid-fight, start it again, recover, continue:
nothing differs." The real ``hsm serve --headless`` process runs the fight; Kara ends
her turn over SSH (a change the server autosaves); the process is killed with SIGKILL,
no chance to save; ``hsm play``'s app on the campaign offers the autosave, recovers it,
and the fight goes on with the very dice the session that was never killed rolls.
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

from hsm_tui.campaign.combat import EndTurn
from hsm_tui.persistence import autosave, store
from hsm_tui.table.seated import SeatedSession
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session
from hsm_tui.ui.app import HsmApp, release
from hsm_tui.ui.screens.decision_dialog import DecisionDialog
from tests.share.conftest import fight, joined, until

KARA = Seat(Role.PLAYER, "kara", hero="kestrel-vance")


def _served_then_killed(campaign: Path, tmp_path: Path, key: asyncssh.SSHKey) -> None:
    """Serve ``campaign`` headless, let Kara end her turn, SIGKILL the server once the
    change is autosaved."""
    public = key.export_public_key().decode().strip()
    (tmp_path / "players.toml").write_text(
        f'[[seat]]\nuser = "kara"\nrole = "player"\nhero = "kestrel-vance"\nkeys = ["{public}"]\n'
    )
    env = {**os.environ, "HSM_CONFIG_DIR": str(tmp_path / "config"), "HSM_SAVES": str(tmp_path)}
    command = [sys.executable, "-m", "hsm_tui", "serve", str(campaign), "--headless", "--port", "0"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    auto = autosave.path_for(campaign, "", writer=autosave.Writer(socket.gethostname(), server.pid))
    try:
        port = int([server.stdout.readline() for _ in range(3)][2].rsplit(":", 1)[1])

        async def end_her_turn() -> None:
            async with joined(port, "kara", key) as client:
                await client.shows("YOUR TURN")
                client.send(b"n")
                await until(auto.exists, lambda: "no autosave after her change", timeout=15)

        asyncio.run(end_her_turn())
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
    finally:
        server.kill()
    assert server.returncode == -signal.SIGKILL


def _state(session: Session) -> tuple[object, ...]:
    return session.encounter, session.log, session.pending, session.rng.getstate()


async def test_killed_mid_fight_recovered_and_continued_nothing_differs(
    tmp_path: Path, user_keys
) -> None:
    campaign = store.save(fight(), tmp_path / "dig.toml")
    await asyncio.to_thread(_served_then_killed, campaign, tmp_path, user_keys["kara"])
    never_killed = fight()
    SeatedSession(never_killed, KARA).apply(EndTurn())  # what Kara's n sent
    opened = Session()
    opened.load_content()
    store.load(opened, campaign)  # as hsm play opens it: the file holds the fight's start
    assert _state(opened) != _state(never_killed)
    app = HsmApp(opened, guard=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            if isinstance(app.screen, DecisionDialog):
                break
            await pilot.pause(0.02)
        assert "dig.toml" in app.screen.question  # the autosave is offered
        await pilot.press("r")
        await pilot.pause()
        recovered = app.session
        assert _state(recovered) == _state(never_killed)
        for session in (recovered, never_killed):  # the fight goes on: the same dice
            session.apply(EndTurn())
            session.apply(EndTurn())
        assert _state(recovered) == _state(never_killed)
        assert recovered.undo() == never_killed.undo()  # its history came back too
        assert _state(recovered) == _state(never_killed)
    release(app)
