"""SSH-shared table figures: a player's first frame, a GM change reaching 20 players,
the server memory each extra player costs and what 30 reconnects leave behind, and a GM
seat's key to screen with and without a resize flood, beside the same figures for a bare
Textual hello-world served the same way.

Run: ``.venv/bin/python bench/ssh.py`` (about 2 minutes; ``--quick``, about 1, for fewer
runs; ``--profile`` adds the hsm server's cProfile during the GM changes). Prints a table;
never fails on timing. Targets, for hsm (hello-world is the floor Textual and asyncssh
set; hsm / hello is the ratio): first frame ≤ 150 ms median; a GM change on each of 20
players' screens within 60 ms median (and ≤ 3× hello-world's) and 100 ms p90; ≤ 1 MB of
server memory per extra player; ≤ 2 MB kept after 30 reconnects; a flood adds at most a
frame to the GM's p95, and so do 500 silent connections, and a player's key flood to
the 20 players' p90; a login under 1,500 silent
connections and ``ulimit -n 1024`` ≤ 150 ms.

The server runs in a process of its own, as ``hsm serve`` does: one asyncio loop for the
TableServer on 127.0.0.1 (port 0), an app per SSH connection, and the GM's own app,
headless, on the same Session; the GM's change is applied from that app's context (as a
key pressed in it would be), so the players' screens refresh from their own queues. hsm:
the fight of tests/share/test_shared_table.py (Kestrel Vance, the player's hero; two
pirate raiders; hidden zealots), every client a ``player`` seat of its own user name
playing kestrel-vance, the change ``SetCover("pirate-raider-1", …)`` heavy and light in
turn. hello-world: an App with one Static, "Hello, world", for every seat, redrawn when a
shared number changes (the GM's app is one too).

The clients (asyncssh, an 80×24 xterm-256color PTY each) run in this process, so the
server's memory is its own. Each client stamps every chunk it reads with the time it came
(``time.monotonic``: CLOCK_MONOTONIC, which both processes share) and feeds its pyte
screen from them only once the output has gone quiet, so parsing never delays a stamp. A
figure ends at the stamp of the chunk after which the client's screen shows the text.

- first frame: from the start of ``asyncssh.connect`` (second line: from opening the
  session, i.e. without the SSH handshake) until "Kestrel" ("Hello, world") shows; one
  client at a time, a fresh connection each run; median.
- GM change → 20 players: 20 clients connected and idle; from just before
  ``session.apply`` (the server's stamp) until the raider's row in each client's table
  shows the new cover ("Hello, world [n]"); every client × every change (one unmeasured
  change first): median and p90; the p90 again while a 21st player types the player's
  keys 190 a second, the most a client may without being dropped (bench/ssh_door.py;
  target: idle p90 + a frame); the last of the 20 to
  see each change (median over the changes), the server's own time in
  ``session.apply`` (the GM's screen redraws inside it, the players' are scheduled on
  their own queues), and the CPU time the server's loop spent from just before
  ``session.apply`` until the bench asks, once every client has shown the change and
  gone quiet (its thread's time, so other processes on a shared machine move it far
  less than the wall-clock figures: the one to judge a change by when those are noisy).
- RSS growth over 30 reconnects: the server's VmRSS (as below) after a player's login,
  first frame and logout 30 times over, minus before them (after the first-frame runs,
  so warm); target ≤ 2 MB.
- GM key → screen p95, idle and under a resize flood: a ``gm`` seat's client opens the
  command palette (ctrl+p) and types 20 letters, each but the first (which starts the
  palette's search) timed from its send until the palette's input shows it, three times
  over (57 samples); then again while a watcher's client, in a process of its own
  (bench/ssh_door.py), sends window changes 110 a second (just under what drops a client), each
  at another size, trying
  to log in again each time the server drops it for flooding. Target: the flood adds no
  more than a frame (16.7 ms) to the idle p95. Then once more while 500 silent TCP
  connections are held (bench/ssh_door.py: from another loopback address; same target).
- login under 1,500 silent connections: a second server under ``ulimit -n 1024`` (the
  issue's attack locked players out there); 1,500 silent connections held, then a player
  from a third address connects, trying again when turned away, until its first frame.
  Target: the first frame's, 150 ms (the door turns the silent ones away: a player should
  not notice them).
- memory per extra player: the server process's VmRSS (``/proc/self/status``, after
  ``gc.collect()`` and a quiet half second) with 21 players connected minus with 1, over
  20; players join one by one, each waiting for its first frame. RSS rather than
  tracemalloc: it is what the GM's machine pays (Python objects, allocator slack, C
  buffers, SSH channel buffers), and with the clients elsewhere it is the server's alone.
  Without ``/proc`` the peak RSS (``ru_maxrss``) stands in, and the table says so.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import resource
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncssh
import textual
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Static

from bench.ssh_clients import TIMEOUT, Player, join, shown, typed
from bench.ssh_door import (
    LOGIN_NOFILE,
    PLAYERS_HOST,
    SILENT_LOGIN,
    SILENT_TYPING,
    flooding,
    login_ms,
    silent,
)
from bench.ssh_rows import PLAYERS, RECONNECTS, Figures, report

COVERS = ("light", "heavy")
"""Pirate raider 1 starts in light cover; change n puts it in ``COVERS[n % 2]``."""


# -- the server process -----------------------------------------------------------------
class HsmGame:
    """The game as ``hsm serve`` runs it: its Table's apps, the GM's HsmApp on F4."""

    first = "Kestrel"

    def __init__(self) -> None:
        from hsm_tui.share.serve import Table
        from tests.share.test_shared_table import fight

        self.session = fight()
        self.make_app = Table(self.session).make_app

    def gm_app(self) -> App[Any]:
        from hsm_tui.ui.app import HsmApp

        return HsmApp(self.session)

    @staticmethod
    async def gm_ready(pilot: Pilot[Any]) -> None:
        await pilot.press("f4")  # the combat screen, where a GM sets cover
        await pilot.pause()

    def change(self, n: int) -> None:
        from hsm_tui.campaign.combat import SetCover

        self.session.apply(SetCover("pirate-raider-1", COVERS[n % 2]))

    @staticmethod
    def changed(n: int) -> str:
        """What change ``n`` shows: the raider's row (``… dig  heavy  unhurt``), not the
        log line (``Pirate raider 1: heavy cover``)."""
        return rf"\bdig +{COVERS[n % 2]}\b"


class Board:
    """hello-world's shared state: a number the "GM" sets, and the apps that follow it."""

    def __init__(self) -> None:
        self.n = 0
        self._followers: list[Callable[[], None]] = []

    @property
    def text(self) -> str:
        return f"Hello, world [{self.n}]" if self.n else "Hello, world"

    def follow(self, callback: Callable[[], None]) -> Callable[[], None]:
        self._followers.append(callback)
        return lambda: self._followers.remove(callback)

    def set(self, n: int) -> None:
        self.n = n
        for callback in list(self._followers):
            callback()


class Hello(App[None]):
    """The baseline: one Static, redrawn from its own queue when the board changes (as a
    player's screen is from the Session)."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board
        self._unfollow: Callable[[], None] = lambda: None

    def compose(self) -> ComposeResult:
        yield Static(self.board.text)

    def on_mount(self) -> None:
        self._unfollow = self.board.follow(lambda: self.call_later(self._show))

    def on_unmount(self) -> None:
        self._unfollow()

    def _show(self) -> None:
        self.query_one(Static).update(self.board.text)


class HelloGame:
    """hello-world served the same way: a Hello for every seat and for the GM."""

    first = "Hello, world"

    def __init__(self) -> None:
        self.board = Board()

    def make_app(self, _seat: object, _connection: object) -> App[Any]:
        return Hello(self.board)

    def gm_app(self) -> App[Any]:
        return Hello(self.board)

    @staticmethod
    async def gm_ready(pilot: Pilot[Any]) -> None:
        await pilot.pause()

    def change(self, n: int) -> None:
        self.board.set(n)

    @staticmethod
    def changed(n: int) -> str:
        return rf"Hello, world \[{n}\]"


GAMES: dict[str, type[HsmGame] | type[HelloGame]] = {"hsm": HsmGame, "hello": HelloGame}


def rss_kib() -> tuple[int, str]:
    """The process's resident memory in KiB, and what it is (current, else the peak)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]), "VmRSS"
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (peak // 1024 if sys.platform == "darwin" else peak), "peak RSS"


async def gm_started(game: HsmGame | HelloGame) -> tuple[App[Any], asyncio.Task[Any]]:
    """The GM's app, headless at 120×40 and at the game's screen, and the task it runs in."""
    gm = game.gm_app()
    ready = asyncio.Event()

    async def gm_ready(pilot: Pilot[Any]) -> None:
        await game.gm_ready(pilot)
        ready.set()

    gm_task = asyncio.create_task(gm.run_async(headless=True, size=(120, 40), auto_pilot=gm_ready))
    await ready.wait()
    return gm, gm_task


async def serve(kind: str) -> None:
    """The server process: one JSON request a line on stdin, one JSON answer a line."""
    from hsm_tui.share.players import SeatEntry
    from hsm_tui.share.server import TableServer
    from hsm_tui.table.seats import Role, Seat

    out = os.fdopen(os.dup(1), "w", buffering=1)  # each app swaps sys.stdout while it runs

    def answer(**fields: Any) -> None:
        out.write(json.dumps(fields) + "\n")

    loop = asyncio.get_running_loop()
    requests = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(requests), sys.stdin)
    keys: dict[str, str] = json.loads(await requests.readline())["keys"]
    roles = {"gm": Role.GM, "flood": Role.WATCHER}
    seats = [
        SeatEntry(Seat(roles.get(u, Role.PLAYER), u, "" if u in roles else "kestrel-vance"), (k,))
        for u, k in keys.items()
    ]
    game = GAMES[kind]()
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    server = TableServer(
        seats, game.make_app, host_key, max_seats=len(seats) + 1, per_user=len(seats)
    )
    gm, gm_task = await gm_started(game)
    await server.start("127.0.0.1", 0)
    answer(port=server.port)
    profiler = cProfile.Profile()

    def change(n: int) -> None:  # runs in the GM's app, as a key of the GM's would
        start, cpu = time.monotonic(), time.thread_time()
        game.change(n)
        answer(t0=start, apply=time.monotonic() - start, cpu=cpu)

    while line := await requests.readline():
        request = json.loads(line)
        op = request["op"]
        if op == "rss":
            await asyncio.sleep(0.5)
            gc.collect()
            answer(rss=rss_kib())
        elif op == "count":
            answer(count=len(server.connections))
        elif op == "cpu":
            answer(cpu=time.thread_time())
        elif op == "change":
            gm.call_later(change, request["n"])
        elif op == "profile":
            profiler.enable()
            answer()
        elif op == "stats":
            profiler.disable()
            text = io.StringIO()
            stats = pstats.Stats(profiler, stream=text)
            stats.sort_stats("cumulative").print_stats(r"site-packages/(textual|rich)|hsm_tui", 25)
            stats.sort_stats("tottime").print_stats(12)
            answer(text=text.getvalue())
        elif op == "quit":
            break
    await server.close()
    gm.exit()
    await gm_task
    answer()


class Server:
    """The server process, asked one request at a time."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.port = 0

    @classmethod
    async def start(
        cls, kind: str, keys: dict[str, asyncssh.SSHKey], nofile: int | None = None
    ) -> Server:
        """The server process for ``kind``, under ``ulimit -n nofile`` if given."""
        nofile_limit = (nofile, nofile)

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, nofile_limit)

        process = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve",
            kind,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            preexec_fn=None if nofile is None else limit,
        )
        server = cls(process)
        lines = {u: k.export_public_key().decode().strip() for u, k in keys.items()}
        server.port = (await server.ask(keys=lines))["port"]
        return server

    async def ask(self, **request: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        await self.process.stdin.drain()
        line = await asyncio.wait_for(self.process.stdout.readline(), 60)
        if not line:
            raise RuntimeError(f"the {request.get('op', 'start')!r} request ended the server")
        return dict(json.loads(line))

    async def seated(self, count: int) -> None:
        """Wait until exactly ``count`` players sit at the table."""
        end = time.monotonic() + TIMEOUT
        while (await self.ask(op="count"))["count"] != count:
            if time.monotonic() > end:
                raise TimeoutError(f"the server still does not have {count} player(s)")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        if self.process.returncode is None:
            try:
                await self.ask(op="quit")
                await asyncio.wait_for(self.process.wait(), 30)
            finally:
                if self.process.returncode is None:
                    self.process.kill()
                    await self.process.wait()


async def measure(kind: str, runs: int, changes: int, profile: bool) -> Figures:
    game = GAMES[kind]
    users = [f"p{i:02d}" for i in range(PLAYERS + 1)]
    keys = {user: asyncssh.generate_private_key("ssh-ed25519") for user in [*users, "gm", "flood"]}
    figures = Figures()
    server = await Server.start(kind, keys)
    try:
        figures.rss["idle"], figures.rss_kind = (await server.ask(op="rss"))["rss"]

        async def seat(user: str) -> tuple[Player, float, float]:
            player, start, opened = await join(server.port, user, keys[user])
            (seen,) = await shown([player], game.first, start)
            if seen is None:
                raise RuntimeError(f"{game.first!r} never showed for {user}")
            return player, seen - start, seen - opened

        first, *_ = await seat(users[0])
        figures.rss["1"] = (await server.ask(op="rss"))["rss"][0]
        others = [(await seat(user))[0] for user in users[1:]]
        figures.rss[str(len(users))] = (await server.ask(op="rss"))["rss"][0]
        await first.close()
        await server.seated(PLAYERS)

        if profile:
            await server.ask(op="profile")
        for n in range(changes + 1):  # change 0 is unmeasured
            answer = await server.ask(op="change", n=n + 1)
            found = await shown(others, game.changed(n + 1), answer["t0"])
            cpu = (await server.ask(op="cpu"))["cpu"] - answer["cpu"]
            if n:
                figures.cpu.append(cpu)
                times = [t - answer["t0"] for t in found if t is not None]
                figures.change += times
                figures.last += times and [max(times)]
                figures.missed += found.count(None)
                figures.apply.append(answer["apply"])
        if profile:
            figures.profile = (await server.ask(op="stats"))["text"]
        async with flooding("keys", server.port, users[0], keys[users[0]]) as sent:
            for n in range(changes + 2, 2 * changes + 2):
                answer = await server.ask(op="change", n=n)
                found = await shown(others, game.changed(n), answer["t0"])
                figures.change_flooded += [t - answer["t0"] for t in found if t is not None]
                figures.missed += found.count(None)
        figures.key_flood = sent[0]
        for player in others:
            await player.close()
        await server.seated(0)

        for _ in range(runs):
            player, first_frame, after_open = await seat(users[0])
            figures.first.append(first_frame)
            figures.opened.append(after_open)
            await player.close()
            await server.seated(0)

        figures.rss["before"] = (await server.ask(op="rss"))["rss"][0]
        for _ in range(RECONNECTS):
            player, _, _ = await seat(users[0])
            await player.close()
            await server.seated(0)
        figures.rss["after"] = (await server.ask(op="rss"))["rss"][0]

        gm, _, _ = await join(server.port, "gm", keys["gm"])
        await shown([gm], ".", 0.0)  # its first frame, whatever it shows
        figures.keys = await typed(gm)
        async with flooding("resize", server.port, "flood", keys["flood"]) as sent:
            figures.flooded = await typed(gm)
        figures.flood = (sent[0], sent[1])
        async with silent(server.port, SILENT_TYPING) as held:
            figures.silent = await typed(gm)
        await gm.close()
    finally:
        await server.stop()
    server = await Server.start(kind, keys, nofile=LOGIN_NOFILE)
    try:
        async with silent(server.port, SILENT_LOGIN) as held_at_login:

            async def first(player: Player, since: float) -> float | None:
                return (await shown([player], game.first, since))[0]

            figures.login = await login_ms(
                lambda: join(server.port, users[0], keys[users[0]], PLAYERS_HOST), first
            )
        figures.held = (held, held_at_login)
    finally:
        await server.stop()
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 first frames, 5 changes")
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the hsm server during the changes"
    )
    parser.add_argument("--serve", choices=sorted(GAMES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve(args.serve))
        return 0
    runs, changes = (5, 5) if args.quick else (30, 30)
    print(
        f"Python {platform.python_version()} · Textual {textual.__version__} · "
        f"asyncssh {asyncssh.__version__} · {platform.machine()} · {os.cpu_count()} CPU(s)"
    )
    print(
        "server in its own process (TableServer, the GM's app headless), clients in this one,"
        " on 127.0.0.1"
    )
    hello = asyncio.run(measure("hello", runs, changes, profile=False))
    hsm = asyncio.run(measure("hsm", runs, changes, profile=args.profile))
    report(runs, changes, hsm, hello)
    if hsm.profile:
        print(
            "\ncProfile of the hsm server process during the GM changes: by cumulative time"
            " (Textual, Rich, hsm_tui), then by own time"
        )
        print(hsm.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
