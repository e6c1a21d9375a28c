"""``hsm serve``'s limits as the GM sets them: the real command, headless, with its flags,
and real SSH clients on 127.0.0.1; what it writes in its config folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest


@contextlib.contextmanager
def served(tmp_path: Path, key: asyncssh.SSHKey, *flags: str) -> Iterator[int]:
    """``hsm serve --headless`` with no campaign and Kara's watcher seat, on a free port
    (yielded); stopped with SIGTERM after, and it must stop cleanly.
    """
    public = key.export_public_key().decode().strip()
    (tmp_path / "players.toml").write_text(
        f'[[seat]]\nuser = "kara"\nrole = "watcher"\nkeys = ["{public}"]\n'
    )
    env = {**os.environ, "HSM_CONFIG_DIR": str(tmp_path / "config"), "HSM_SAVES": str(tmp_path)}
    command = [sys.executable, "-m", "hsm_tui", "serve", "--headless", "--port", "0", *flags]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        port = int([server.stdout.readline() for _ in range(3)][2].rsplit(":", 1)[1])
        yield port
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
        assert server.returncode == 0
    finally:
        server.kill()


async def login(port: int, keys: list[asyncssh.SSHKey]) -> None:
    """Log in as kara offering ``keys`` in turn, then leave."""
    async with asyncssh.connect(
        "127.0.0.1", port, username="kara", client_keys=keys,
        known_hosts=None, agent_path=None, config=None,
    ):  # fmt: skip
        pass


def test_max_auth_tries_is_the_gms_to_set(tmp_path: Path, user_keys) -> None:
    wrong = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    right = user_keys["kara"]
    with served(tmp_path, right, "--max-auth-tries", "2") as port:
        asyncio.run(login(port, [wrong[0], right]))
        with pytest.raises(asyncssh.PermissionDenied, match="too many authentication attempts"):
            asyncio.run(login(port, [*wrong, right]))
