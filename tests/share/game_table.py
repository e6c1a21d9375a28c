"""The game's side of a shared table for tests that need no connection: a serve.Table
over a TableServer that is made (the conftest's seats and keys) but never started."""

from __future__ import annotations

import asyncssh

from hsm_tui.share.serve import Table
from hsm_tui.share.server import TableServer
from hsm_tui.table.session import Session

from .conftest import seat_entries


def game_table(
    user_keys: dict[str, asyncssh.SSHKey], host_key: asyncssh.SSHKey, session: Session
) -> Table:
    """gm, kara, otto and wes seated, as ``hsm serve`` makes the table (not listening)."""
    game = Table(session)
    game.server = TableServer(seat_entries(user_keys), game.make_app, host_key)
    return game
