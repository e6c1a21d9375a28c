"""``hsm serve --web``'s flags: the real command, headless, on 127.0.0.1; what it says
when it cannot serve browsers (one ``hsm: error:`` line, exit 2), and a real run that
serves the page beside SSH and stops with SIGTERM as the SSH side does.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from hsm_tui.share.web.server import HEADERS

AIOHTTP_GONE = "import sys; sys.modules['aiohttp'] = None; import runpy; "
AIOHTTP_GONE += (
    "sys.argv = ['hsm', *sys.argv[1:]]; runpy.run_module('hsm_tui', run_name='__main__')"
)
"""``python -m hsm_tui`` where importing aiohttp fails, as without the web extra."""


def hsm_serve(tmp_path: Path, *flags: str, python: tuple[str, ...] = ("-m", "hsm_tui")):
    """``hsm serve --headless --port 0 FLAGS`` with a players file of one keyless seat
    (browsers only); the process, its output read as text."""
    (tmp_path / "players.toml").write_text(
        '[[seat]]\nuser = "kara"\nrole = "player"\nhero = "kestrel-vance"\n'
    )
    env = {**os.environ, "HSM_CONFIG_DIR": str(tmp_path / "config"), "HSM_SAVES": str(tmp_path)}
    command = [sys.executable, *python, "serve", "--headless", "--port", "0", *flags]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=Path(__file__).parents[2],
    )  # fmt: skip


def refused(tmp_path: Path, *flags: str, python: tuple[str, ...] = ("-m", "hsm_tui")) -> str:
    """What ``hsm serve`` says on stderr as it refuses to start (exit 2, nothing out)."""
    server = hsm_serve(tmp_path, *flags, python=python)
    try:
        out, err = server.communicate(timeout=60)
    finally:
        server.kill()
    assert server.returncode == 2 and out == "", (out, err)
    return err


def test_web_without_aiohttp_says_how_to_get_it(tmp_path: Path) -> None:
    err = refused(tmp_path, "--web", python=("-c", AIOHTTP_GONE))
    assert err == "hsm: error: --web needs aiohttp: pip install 'hsm-tui[web]'\n"


def test_ssh_alone_needs_no_aiohttp(tmp_path: Path) -> None:
    server = hsm_serve(tmp_path, python=("-c", AIOHTTP_GONE))
    try:
        assert server.stdout is not None
        assert "listening on" in [server.stdout.readline() for _ in range(3)][2]
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
    finally:
        server.kill()
    assert server.returncode == 0


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--web", "nowhere"], "--web takes [HOST:]PORT with a port from 0 to 65535"),
        (["--web", "::1:80"], "an IPv6 host goes in brackets"),
        (["--web", "--web-public-url", "https://x.org/table"], "with no path"),
        (["--web", "--web-cert", "c.pem"], "--web-cert and --web-key go together"),
        (["--web-public-url", "https://x.org"], "need --web"),
    ],
)
def test_bad_web_flags_are_one_error_line(tmp_path: Path, flags: list[str], said: str) -> None:
    err = refused(tmp_path, *flags)
    assert err.startswith("hsm: error: ") and said in err and err.count("\n") == 1


def test_a_certificate_that_cannot_be_used_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pem"
    err = refused(tmp_path, "--web", "--web-cert", str(missing), "--web-key", str(missing))
    assert err == f"hsm: error: --web-cert {missing}: No such file or directory\n"
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    err = refused(tmp_path, "--web", "--web-cert", str(junk), "--web-key", str(junk))
    assert err.startswith(f"hsm: error: --web-cert {junk}: not a PEM file")


def test_plain_http_others_can_reach_is_warned_about(tmp_path: Path) -> None:
    """Said before anything listens (here the players file is missing, so nothing does)."""
    err = refused(tmp_path, "--web", "192.0.2.1:8022", "--players", str(tmp_path / "none.toml"))
    warning, error = err.splitlines()
    assert warning.startswith("hsm: warning: --web on 192.0.2.1 is plain HTTP")
    assert "docs/shared-table.md" in warning and error.startswith("hsm: error: no players file")


def test_web_serves_the_page_beside_ssh_and_stops_with_sigterm(tmp_path: Path) -> None:
    server = hsm_serve(tmp_path, "--web", "127.0.0.1:0")
    try:
        assert server.stdout is not None
        said = [server.stdout.readline() for _ in range(4)]
        assert said[2].startswith("listening on 127.0.0.1:")
        origin = said[3].split()[3].rstrip("/")
        assert said[3].startswith("browsers join at http://127.0.0.1:")

        async def visit() -> tuple[int, dict[str, str]]:
            async with aiohttp.ClientSession() as http, http.get(f"{origin}/whoami") as answer:
                return answer.status, dict(answer.headers)

        status, headers = asyncio.run(visit())
        assert status == 401 and all(headers[name] == value for name, value in HEADERS.items())
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    finally:
        server.kill()
    assert server.returncode == 0, err
    assert out.splitlines()[-1] == "nothing to save" and err == ""
