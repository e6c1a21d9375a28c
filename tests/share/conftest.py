"""A real table server on 127.0.0.1 and real SSH clients, each reading what it receives
into a terminal emulator (pyte) to see the screen its player sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pyte
import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from hsm_tui.campaign.combat import AddCombatants, AddZone, SetBand, SetCover, StartCombat
from hsm_tui.campaign.party import SetScene
from hsm_tui.persistence import store
from hsm_tui.share.players import SeatEntry
from hsm_tui.share.serve import Table as Game
from hsm_tui.share.server import Connection, TableServer
from hsm_tui.table.seats import Role, Seat
from hsm_tui.table.session import Session

USERS = {"gm": Role.GM, "kara": Role.PLAYER, "otto": Role.PLAYER, "wes": Role.WATCHER}
HEROES = {"kara": "kestrel-vance", "otto": "roan-maddox"}
"""Each player's hero (the fights below give Otto's hero a place only where a test asks)."""


class Probe(App[None], inherit_bindings=False):
    """A player's stand-in app: one line with its seat, its size and the last key; "!"
    makes it fail. No quit key and no palette, so no junk can close it.
    """

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, seat: Seat) -> None:
        super().__init__()
        self.seat = seat
        self.last = ""
        self.resizes = 0

    def compose(self) -> ComposeResult:
        yield Static(id="line")

    def show(self, size: Any = None) -> None:
        size = size or self.size
        size = f"{size.width}x{size.height}"
        self.query_one(Static).update(f"seat {self.seat.user} size {size} key <{self.last}>")

    def on_mount(self) -> None:
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        self.resizes += 1
        self.show(event.size)  # before App's own handler has stored it as self.size

    def on_key(self, event: events.Key) -> None:
        if event.key == "exclamation_mark":
            raise RuntimeError("the probe was asked to fail")
        self.last = event.key
        self.show()


async def until(check: Callable[[], bool], what: Callable[[], str], timeout: float = 10) -> None:
    """Wait until ``check()`` holds; fail with ``what()`` after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            pytest.fail(f"timed out; {what()}")
        await asyncio.sleep(0.02)


class Client:
    """One SSH client with a PTY, and the screen it shows."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process: Any, size: tuple[int, int]):
        self.conn = conn
        self.process = process
        self.screen = pyte.Screen(*size)
        self._stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(asyncssh.ConnectionLost, OSError):  # dropped by the server
            while data := await self.process.stdout.read(1 << 16):
                self.raw += data
                self._stream.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def shows(self, text: str, timeout: float = 10) -> None:
        await until(lambda: text in self.text, lambda: f"{text!r} not on\n{self.text}", timeout)

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)
        self.process.change_terminal_size(cols, rows)

    async def ended(self, timeout: float = 10) -> None:
        await asyncio.wait_for(self._reader, timeout)
        await asyncio.wait_for(self.process.wait_closed(), timeout)


OLD_CLIENT = {
    "kex": "diffie-hellman-group14-sha1,diffie-hellman-group1-sha1",
    "host_key": "ssh-rsa,ssh-dss",
    "cipher": "aes128-cbc,3des-cbc",
    "mac": "hmac-sha1,hmac-md5",
}
"""What an SSH client of 2010 offers: SHA-1 and MD5 throughout, CBC ciphers."""
NEW_CLIENT = {
    "kex": "curve25519-sha256",
    "host_key": "ssh-ed25519",
    "cipher": "aes128-ctr",
    "mac": "hmac-sha2-256-etm@openssh.com",
}


async def offer(port: int, **offered: str) -> bytes:
    """Open a TCP connection, say hello as an SSH client and offer ``offered``'s
    algorithms (of each kind not named, :data:`NEW_CLIENT`'s); returns all the server
    sends until it closes. Unlike an asyncssh client, which drops the connection the
    moment it sees no common algorithm, this one waits for the server's answer, as
    OpenSSH's does: the server then always tells why.
    """
    algs = {**NEW_CLIENT, **offered}
    lists = [algs["kex"], algs["host_key"], algs["cipher"], algs["cipher"], algs["mac"]]
    lists += [algs["mac"], "none", "none", "", ""]
    payload = b"\x14" + bytes(16)
    payload += b"".join(len(n).to_bytes(4, "big") + n.encode() for n in lists) + bytes(5)
    pad = 8 - (5 + len(payload)) % 8 + 8
    packet = (1 + len(payload) + pad).to_bytes(4, "big") + bytes([pad]) + payload + bytes(pad)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"SSH-2.0-OpenSSH_5.3\r\n" + packet)
    try:
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


@contextlib.asynccontextmanager
async def joined(
    port: int, user: str, key: asyncssh.SSHKey, size: tuple[int, int] = (80, 24)
) -> AsyncIterator[Client]:
    """A client with a PTY of a server started elsewhere (an ``hsm serve`` process)."""
    async with asyncssh.connect(
        "127.0.0.1", port, username=user, client_keys=[key],
        known_hosts=None, agent_path=None, config=None,
    ) as conn:  # fmt: skip
        process = await conn.create_process(term_type="xterm", term_size=size, encoding=None)
        yield Client(conn, process, size)


@dataclass
class Table:
    """A started server, the keys of its seats, and the apps it built."""

    server: TableServer
    keys: dict[str, asyncssh.SSHKey]
    built: list[tuple[Seat, Connection, App[Any]]] = field(default_factory=list)
    conns: list[asyncssh.SSHClientConnection] = field(default_factory=list)

    async def connect(
        self, user: str, key: asyncssh.SSHKey | None = None, **options: Any
    ) -> asyncssh.SSHClientConnection:
        if "password" not in options:
            options.setdefault("client_keys", [key or self.keys[user]])
        conn = await asyncssh.connect(
            self.server.host,
            self.server.port,
            username=user,
            known_hosts=None,
            agent_path=None,
            config=None,
            **options,
        )
        self.conns.append(conn)
        return conn

    async def join(
        self,
        user: str,
        size: tuple[int, int] = (80, 24),
        term: str = "xterm-256color",
        key: asyncssh.SSHKey | None = None,
    ) -> Client:
        conn = await self.connect(user, key)
        process = await conn.create_process(term_type=term, term_size=size, encoding=None)
        return Client(conn, process, size)


def seat_entries(keys: dict[str, asyncssh.SSHKey]) -> list[SeatEntry]:
    return [
        SeatEntry(
            Seat(USERS[user], user, HEROES.get(user, "")),
            (key.export_public_key().decode().strip(),),
        )
        for user, key in keys.items()
    ]


@pytest.fixture(scope="session")
def user_keys() -> dict[str, asyncssh.SSHKey]:
    return {user: asyncssh.generate_private_key("ssh-ed25519") for user in USERS}


@pytest.fixture(scope="session")
def host_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
async def serve(
    user_keys: dict[str, asyncssh.SSHKey], host_key: asyncssh.SSHKey
) -> AsyncIterator[Callable[..., Awaitable[Table]]]:
    """Start a table server (the GM's seat runs HsmApp, the others a Probe); every server
    and client is closed after the test.
    """
    tables: list[Table] = []

    async def start(game: Callable[[Seat, Connection], App[Any]] | None = None, **limits: Any):
        """``game``: the app factory (default: the GM's HsmApp on a fresh Session, a
        Probe for every other seat)."""
        from hsm_tui.ui.app import HsmApp

        def make_app(seat: Seat, connection: Connection) -> App[Any]:
            app: App[Any]
            if game is not None:
                app = game(seat, connection)
            elif seat.role is Role.GM:
                app = HsmApp(Session(seed=1), seat=seat)
            else:
                app = Probe(seat)
            table.built.append((seat, connection, app))
            return app

        server = TableServer(seat_entries(user_keys), make_app, host_key, **limits)
        table = Table(server, user_keys)
        tables.append(table)
        await server.start("127.0.0.1", 0)
        return table

    yield start
    for table in tables:
        await table.server.close()
        for conn in table.conns:
            conn.close()
        for conn in table.conns:
            await asyncio.wait_for(conn.wait_closed(), 10)


@pytest.fixture
async def table(serve: Callable[..., Awaitable[Table]]) -> Table:
    return await serve()


SECRET_NOTE = "the zealots wait behind the relic"
HIDDEN_NAME = "Cultist zealot"


def fight(seed: int = 0, started: bool = True) -> Session:
    """Kestrel (Kara's hero) and two raiders in sight; zealots hidden in ambush; a note;
    the fight started (else the GM is still building it)."""
    session = Session(seed=seed)
    session.load_content()
    for command in (
        SetScene(SECRET_NOTE),
        AddZone("ridge"),
        AddZone("dig"),
        SetBand("ridge", "dig", "short"),
        AddCombatants("hero", "kestrel-vance", "heroes", "ridge", player=True),
        AddCombatants("minion", "pirate-raider", "pirates", "dig", count=2),
        AddCombatants("minion", "cultist-zealot", "cult", "ridge", count=2, hidden=True),
        SetCover("pirate-raider-1", "light"),
        *((StartCombat(),) if started else ()),
    ):
        session.apply(command)
    return session


@pytest.fixture
def game(serve):
    """The game's own server: the GM's HsmApp and the player's PlayerApp on one Session."""

    async def start(session: Session) -> Table:
        game = Game(session)
        table = await serve(game.make_app)
        game.server = table.server  # as hsm serve does: the GM's app lists its seats
        table.server_game = game
        return table

    return start


@contextlib.contextmanager
def hsm_serve(
    folder: Path, keys: dict[str, asyncssh.SSHKey], session: Session
) -> Iterator[tuple[subprocess.Popen[str], Path, list[str]]]:
    """A real ``hsm serve --headless`` process on ``session`` saved in ``folder`` (the
    saves and config folders too), Kara's seat in its players file: the process, the
    campaign file and the three lines it printed as it started (the port is the last's).
    """
    campaign = store.save(session, folder / "dig.toml")
    kara = keys["kara"].export_public_key().decode().strip()
    (folder / "players.toml").write_text(
        f'[[seat]]\nuser = "kara"\nrole = "player"\nhero = "kestrel-vance"\nkeys = ["{kara}"]\n'
    )
    env = {**os.environ, "HSM_CONFIG_DIR": str(folder / "config"), "HSM_SAVES": str(folder)}
    command = [sys.executable, "-m", "hsm_tui", "serve", str(campaign), "--headless", "--port", "0"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        yield server, campaign, [server.stdout.readline() for _ in range(3)]
    finally:
        server.kill()


def port_of(started: list[str]) -> int:
    """The port ``hsm serve`` said it listens on."""
    return int(started[2].rsplit(":", 1)[1])


@pytest.fixture
async def web(serve, tmp_path: Path):
    """The real game (a Session, ``hsm serve``'s Table) served over SSH and, on the same
    seating, to browsers; a page folder of its own. Every browser and server is closed
    after the test."""
    from hsm_tui.share.invites import Invites, JoinLimiter
    from hsm_tui.share.web.server import WebServer

    from .web_client import Clock, Web

    (tmp_path / "index.html").write_text("<!doctype html><title>hsm</title>\n")
    started: list[Web] = []

    async def start(
        session: Session,
        clock: Clock | None = None,
        per_minute: int = 10,
        tls: ssl.SSLContext | None = None,
        **limits: Any,
    ) -> Web:
        game = Game(session)
        table = await serve(game.make_app, **limits)
        game.server = table.server
        invites = Invites(clock=clock or Clock())
        server = WebServer(
            table.server.seating, lambda: table.server.seats, invites,
            limiter=JoinLimiter(per_minute), tls=tls, static=tmp_path,
        )  # fmt: skip
        await server.start("127.0.0.1", 0)
        started.append(Web(table, game, server, invites))
        return started[-1]

    yield start
    for run in started:
        await run.table.server.close()
        for browser in run.browsers:
            await browser.close()
        await run.server.close()
