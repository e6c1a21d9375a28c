"""Browser-shared table figures beside the SSH ones, from one server in the same run: a
player's first frame, the GM's key to screen, a GM change reaching 20 players, and the
server memory each extra player costs, over WebSocket (``hsm serve --web``) and over SSH.

Run: ``.venv/bin/python bench/web.py`` (about 2½ minutes; ``--quick``, about 2, for
fewer first frames and changes: the memory and key rows take as long). Prints a table;
never fails on timing. Targets, for the browser seat: a
browser seat costs what an SSH seat does, so a GM change's median on 20 players and the
memory per extra player at most 1.25× the SSH figure of the same run; beside them the
SSH bench's (bench/ssh.py): first frame ≤ 150 ms median; a GM change on each of 20
players' screens within 60 ms median and 100 ms p90; ≤ 1 MB of server memory per extra
player. The result column says web's verdict, then SSH's.

The server (bench/web_serve.py) runs in a process of its own: bench/ssh.py's, the fight
of tests/share/test_shared_table.py with the GM's app headless applying
``SetCover("pirate-raider-1", …)`` from its own context, and beside its TableServer the
WebServer of ``hsm serve --web`` on the same seating, both on 127.0.0.1 (port 0). Every
client has a seat of its own (SSH: a key; web: an invite the server process makes when
asked, traded at ``POST /join`` for the session cookie the WebSocket is opened with),
plays kestrel-vance at 80×24, and is read by bench/ssh_clients.py's Player: every chunk
(web: every binary message) stamped as it comes, the pyte screen fed once output is
quiet, a figure ending at the stamp of the chunk after which the screen shows the text.

- first frame: from the start of ``asyncssh.connect`` / of the ``POST /join`` until
  "Kestrel" shows (second line: from opening the SSH session / the WebSocket's
  connect); one client at a time, a fresh connection (web: a fresh invite) each run,
  SSH and web in turn; median.
- GM key → screen: a ``gm`` seat's client (SSH: by key; web: by invite) opens the
  command palette and types 20 letters, each but the first timed from its send until
  the palette shows it, three times over (57 samples); p50 and p95.
- GM change → 20 players: 20 clients of one kind connected and idle (the other kind
  gone); from just before ``session.apply`` (the server's stamp) until the raider's row
  on each client's table shows the new cover; every client × every change, one
  unmeasured change first; two blocks of SSH then web, so drift in the machine's load
  falls on both; median and p90.
- memory per extra player: the server's VmRSS (``/proc/self/status`` after
  ``gc.collect()`` and a quiet half second, as bench/ssh.py reads it) before and after
  each join, each waiting for its first frame; one SSH and one browser player seated
  first, then 20 more of each joining in turn (SSH first, then web first, alternately,
  so neither always gets the memory the other's join left free); the mean growth per
  join of each kind.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import asyncssh
import textual

from bench.ssh import HsmGame
from bench.ssh_clients import Player, join, shown, typed
from bench.ssh_rows import PLAYERS
from bench.web_clients import enter
from bench.web_rows import Side, report
from bench.web_serve import GM_SSH, GM_WEB, WebTable, serve

KINDS = ("ssh", "web")
Joined = tuple[Player, float, float]


async def measure(runs: int, changes: int) -> tuple[Side, Side, str]:
    """The figures of both kinds from one server, and what kind of RSS it read."""
    users = {kind: [f"{kind[0]}{i:02d}" for i in range(PLAYERS + 1)] for kind in KINDS}
    keys = {u: asyncssh.generate_private_key("ssh-ed25519") for u in [*users["ssh"], GM_SSH]}
    server = await WebTable.open(__file__, keys, [*users["web"], GM_WEB])

    async def by_web(user: str) -> Joined:
        return await enter(server.url, server.origin, await server.invite(user))

    joins: dict[str, Callable[[str], Awaitable[Joined]]] = {
        "ssh": lambda user: join(server.port, user, keys[user]),
        "web": by_web,
    }
    sides = {kind: Side() for kind in KINDS}

    async def seat(kind: str, user: str) -> tuple[Player, float, float]:
        player, start, opened = await joins[kind](user)
        (seen,) = await shown([player], HsmGame.first, start)
        if seen is None:
            raise RuntimeError(f"{HsmGame.first!r} never showed for {kind} player {user}")
        return player, seen - start, seen - opened

    rss_kind = ""

    async def rss() -> int:
        nonlocal rss_kind
        kib, rss_kind = (await server.ask(op="rss"))["rss"]
        return int(kib)

    try:
        for run in range(runs):
            for kind in KINDS[:: 1 if run % 2 else -1]:
                player, first, after_open = await seat(kind, users[kind][0])
                sides[kind].first.append(first)
                sides[kind].opened.append(after_open)
                await player.close()
                await server.seated(0)

        players = [(await seat(kind, users[kind][0]))[0] for kind in KINDS]
        before = await rss()
        for i in range(1, PLAYERS + 1):
            for kind in KINDS[:: 1 if i % 2 else -1]:
                players.append((await seat(kind, users[kind][i]))[0])
                after = await rss()
                sides[kind].rss.append(after - before)
                before = after
        for player in players:
            await player.close()
        await server.seated(0)

        n = 0
        for _ in range(2):
            for kind in KINDS:
                players = [(await seat(kind, user))[0] for user in users[kind][1:]]
                for measured in [False] + [True] * max(1, changes // 2):
                    n += 1
                    answer = await server.ask(op="change", n=n)
                    found = await shown(players, HsmGame.changed(n), answer["t0"])
                    if measured:
                        sides[kind].change += [t - answer["t0"] for t in found if t is not None]
                        sides[kind].missed += found.count(None)
                for player in players:
                    await player.close()
                await server.seated(0)

        for kind, gm_user in zip(KINDS, (GM_SSH, GM_WEB), strict=True):
            gm, _, _ = await joins[kind](gm_user)
            await shown([gm], ".", 0.0)  # its first frame, whatever it shows
            sides[kind].keys = await typed(gm)
            await gm.close()
            await server.seated(0)
    finally:
        await server.stop()
    return sides["web"], sides["ssh"], rss_kind


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="6 first frames, 6 changes")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve())
        return 0
    runs, changes = (6, 6) if args.quick else (30, 30)
    print(
        f"Python {platform.python_version()} · Textual {textual.__version__} · "
        f"asyncssh {asyncssh.__version__} · aiohttp {aiohttp.__version__} · "
        f"{platform.machine()} · {os.cpu_count()} CPU(s)"
    )
    print(
        "one server process (TableServer and WebServer on one seating, the GM's app"
        " headless), clients in this one, on 127.0.0.1"
    )
    web, ssh, rss_kind = asyncio.run(measure(runs, changes))
    report(runs, web, ssh, rss_kind)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
