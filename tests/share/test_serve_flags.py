"""``hsm serve``'s limits as the GM sets them: the real command, headless, with its flags,
and real SSH clients on 127.0.0.1; what it writes in its config folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from hsm_tui.persistence import store
from hsm_tui.share.limits import Limits

from .conftest import OLD_CLIENT, offer, until
from .test_shared_table import fight

NOFILE = resource.RLIMIT_NOFILE


@dataclass
class Served:
    """A running ``hsm serve``: its port, its config folder, what it said on stderr (once
    it has stopped)."""

    port: int
    config: Path
    pid: int
    stdout: str = ""
    stderr: str = ""


@contextlib.contextmanager
def served(
    tmp_path: Path, key: asyncssh.SSHKey, *flags: str, nofile: int | None = None
) -> Iterator[Served]:
    """``hsm serve --headless`` with Kara's watcher seat on a free port, its config folder
    ``tmp_path/config``, under ``ulimit -n nofile`` if given; stopped with SIGTERM after,
    and it must stop cleanly.
    """
    public = key.export_public_key().decode().strip()
    (tmp_path / "players.toml").write_text(
        f'[[seat]]\nuser = "kara"\nrole = "watcher"\nkeys = ["{public}"]\n'
    )
    env = {**os.environ, "HSM_CONFIG_DIR": str(tmp_path / "config"), "HSM_SAVES": str(tmp_path)}
    command = [sys.executable, "-m", "hsm_tui", "serve", "--headless", "--port", "0", *flags]
    limit = None if nofile is None else lambda: resource.setrlimit(NOFILE, (nofile, nofile))
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=limit,
    )  # fmt: skip
    try:
        port = int([server.stdout.readline() for _ in range(3)][2].rsplit(":", 1)[1])
        run = Served(port, tmp_path / "config", server.pid)
        yield run
        server.send_signal(signal.SIGTERM)
        run.stdout, run.stderr = server.communicate(timeout=30)
        assert server.returncode == 0, run.stderr
    finally:
        server.kill()


async def login(port: int, keys: list[asyncssh.SSHKey], **options: Any) -> None:
    """Log in as kara offering ``keys`` in turn, then leave."""
    async with asyncssh.connect(
        "127.0.0.1", port, username="kara", client_keys=keys,
        known_hosts=None, agent_path=None, config=None, **options,
    ):  # fmt: skip
        pass


def test_max_auth_tries_is_the_gms_to_set(tmp_path: Path, user_keys) -> None:
    wrong = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    right = user_keys["kara"]
    with served(tmp_path, right, "--max-auth-tries", "2") as run:
        asyncio.run(login(run.port, [wrong[0], right]))
        with pytest.raises(asyncssh.PermissionDenied, match="too many authentication attempts"):
            asyncio.run(login(run.port, [*wrong, right]))


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_config_folder_key_and_log_are_the_gms_alone(tmp_path: Path, user_keys) -> None:
    with served(tmp_path, user_keys["kara"]) as run:
        asyncio.run(offer(run.port, **OLD_CLIENT))
        files = run.config / "ssh_host_ed25519_key", run.config / "serve.log"
        assert (mode(run.config), mode(files[0]), mode(files[1])) == (0o700, 0o600, 0o600)
        asyncio.run(
            until(lambda: "no algorithm in common" in files[1].read_text(), files[1].read_text)
        )
    assert run.stderr == ""


def test_files_open_to_others_are_closed_and_the_gm_told(tmp_path: Path, user_keys) -> None:
    config = tmp_path / "config"
    config.mkdir()
    config.chmod(0o755)
    (config / "serve.log").write_text("")
    (config / "serve.log").chmod(0o644)
    kara = user_keys["kara"]
    with served(tmp_path, kara) as first:
        asyncio.run(login(first.port, [kara]))
        assert (mode(config), mode(config / "serve.log")) == (0o700, 0o600)
        (config / "ssh_host_ed25519_key").chmod(0o640)
    assert first.stderr.splitlines() == [
        f"hsm: warning: {config} was open to others (755): now 700",
        f"hsm: warning: {config}/serve.log was open to others (644): now 600",
    ]
    with served(tmp_path, kara) as again:
        asyncio.run(login(again.port, [kara]))
    assert again.stderr.splitlines() == [
        f"hsm: warning: {config}/ssh_host_ed25519_key was open to others (640): now 600"
    ]


async def knock(port: int, count: int) -> tuple[list[asyncio.StreamWriter], int]:
    """Open ``count`` silent connections; the ones let in (each greeted with the SSH
    banner) and how many were turned away (closed with no word)."""
    kept, turned = [], 0
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        if (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-"):
            kept.append(writer)
        else:
            turned += 1
            writer.close()
    return kept, turned


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_under_a_low_ulimit_connections_leave_the_reserve_free(tmp_path: Path, user_keys):
    campaign = store.save(fight(), tmp_path / "dig.toml")
    flags = ["--fd-reserve", "80", "--per-source-max-startups", "64", "--max-startups", "64"]
    with served(tmp_path, user_keys["kara"], str(campaign), *flags, nofile=128) as run:

        async def flood() -> None:
            kept, turned = await knock(run.port, 120)
            held = len(os.listdir(f"/proc/{run.pid}/fd"))
            assert kept and turned and held <= 128 - 80
            for writer in kept:
                writer.close()

        asyncio.run(flood())
    assert f"saved in {campaign}" in run.stdout
    log = (run.config / "serve.log").read_text()
    assert "turned away: no descriptors to spare" in log and "Too many open files" not in log


def test_every_limit_flag_reaches_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from hsm_tui.cli import serve as command
    from hsm_tui.cli.command import build_parser

    given: list[Limits] = []
    monkeypatch.setattr("hsm_tui.share.serve.run_serve", lambda o: given.append(o.limits) or 0)
    flags = "--max-auth-tries 2 --max-startups 3:50:9 --per-source-max-startups 4"
    flags += " --login-grace-time 11 --unused-connection-timeout 12 --max-sessions 1"
    flags += " --flood-penalty 13 --fd-reserve 99"
    assert command.run(build_parser().parse_args(["serve", *flags.split()])) == 0
    assert given == [Limits(2, (3, 50, 9), 4, 11, 12, 1, 13, 99)]
    command.run(build_parser().parse_args(["serve"]))
    assert given[1] == Limits()


def test_sigterm_as_the_server_starts_still_closes_the_table_and_saves(tmp_path: Path) -> None:
    """The stop signals are taken before the table opens: a SIGTERM at the first line the
    server prints (its host key) closes the table as its end does instead of killing it."""
    (tmp_path / "players.toml").write_text("")
    env = {**os.environ, "HSM_CONFIG_DIR": str(tmp_path / "config"), "HSM_SAVES": str(tmp_path)}
    command = [sys.executable, "-m", "hsm_tui", "serve", "--headless", "--port", "0"]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None and "fingerprint" in server.stdout.readline()
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    finally:
        server.kill()
    assert server.returncode == 0, err  # not -15: the signal was taken
    assert out.splitlines()[-1] == "nothing to save"  # it closed as it does at the end
