"""bench/web.py's server process: bench/ssh.py's hsm game and TableServer, with the
WebServer of ``hsm serve --web`` on the same seating, asked one JSON request a line on
stdin (one JSON answer a line on stdout), and the bench's handle on it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import asyncssh

from bench.ssh import HsmGame, Server, gm_started, rss_kib

GM_SSH, GM_WEB = "gm", "wgm"
"""The GM's seats: one logs in by key, the other by invite."""
HERO = "kestrel-vance"


class WebGame(HsmGame):
    """bench/ssh.py's hsm game, its apps made by a Table that is kept: the web server's
    invites are that Table's, as under ``hsm serve --web``."""

    def __init__(self) -> None:
        from hsm_tui.share.serve import Table

        super().__init__()
        self.table = Table(self.session)
        self.make_app = self.table.make_app


async def serve() -> None:
    """The server process: the first request names the seats (SSH users with their public
    keys, browser users), then ops until ``quit`` or stdin closes."""
    from hsm_tui.share.players import SeatEntry
    from hsm_tui.share.server import TableServer
    from hsm_tui.share.web.server import WebServer
    from hsm_tui.table.seats import Role, Seat

    out = os.fdopen(os.dup(1), "w", buffering=1)  # each app swaps sys.stdout while it runs
    loop = asyncio.get_running_loop()
    requests = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(requests), sys.stdin)
    seating: dict[str, list[str]] = json.loads(await requests.readline())
    users = {**seating["ssh"], **{user: [] for user in seating["web"]}}
    seats = [
        SeatEntry(
            Seat(Role.GM, user, "") if user in (GM_SSH, GM_WEB) else Seat(Role.PLAYER, user, HERO),
            tuple(keys),
        )
        for user, keys in users.items()
    ]
    game = WebGame()
    table = game.table
    ssh = table.server = TableServer(
        seats,
        game.make_app,
        asyncssh.generate_private_key("ssh-ed25519"),
        max_seats=len(seats) + 1,
        per_user=len(seats),
    )
    gm, gm_task = await gm_started(game)
    await ssh.start("127.0.0.1", 0)
    web = WebServer(ssh.seating, lambda: table.seats, table.invites, door=ssh.door)
    await web.start("127.0.0.1", 0)
    table.web_url = web.origin

    def say(**fields: Any) -> None:
        out.write(json.dumps(fields) + "\n")

    def change(n: int) -> None:  # runs in the GM's app, as a key of the GM's would
        start = time.monotonic()
        game.change(n)
        say(t0=start, apply=time.monotonic() - start)

    async def rss(_: dict[str, Any]) -> None:
        await asyncio.sleep(0.5)
        gc.collect()
        say(rss=rss_kib())

    async def count(_: dict[str, Any]) -> None:
        say(count=len(ssh.connections))

    async def invite(request: dict[str, Any]) -> None:
        say(token=table.invite(request["user"]).token)

    async def changed(request: dict[str, Any]) -> None:
        gm.call_later(change, request["n"])

    ops: dict[str, Callable[[dict[str, Any]], Awaitable[None]]] = {
        "rss": rss, "count": count, "invite": invite, "change": changed,
    }  # fmt: skip
    say(port=ssh.port, url=f"http://{web.host}:{web.port}", origin=web.origin)
    while (line := await requests.readline()) and (request := json.loads(line))["op"] != "quit":
        await ops[request["op"]](request)
    await ssh.close()
    await web.close()
    gm.exit()
    await gm_task
    say()


class WebTable(Server):
    """The server process, as bench/ssh.py's Server asks it, with the web server's
    address (:attr:`url`, and :attr:`origin`, the ``Origin`` its pages must send)."""

    url = origin = ""

    @classmethod
    async def open(cls, script: str, ssh: dict[str, asyncssh.SSHKey], web: list[str]) -> WebTable:
        """Start ``script --serve`` with SSH seats for ``ssh``'s users (by their keys)
        and browser seats for ``web``'s."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, script, "--serve",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        table = cls(process)
        keys = {u: [k.export_public_key().decode().strip()] for u, k in ssh.items()}
        answer = await table.ask(ssh=keys, web=web)
        table.port, table.url, table.origin = answer["port"], answer["url"], answer["origin"]
        return table

    async def invite(self, user: str) -> str:
        """A fresh invite's token for ``user``'s seat."""
        return str((await self.ask(op="invite", user=user))["token"])
