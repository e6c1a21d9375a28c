"""bench/ssh.py's figures under attack: silent TCP connections (opened, never a byte
sent) held while the GM types, and while a player logs in under ``ulimit -n 1024``; a
player's key flood while the GM changes the game; a watcher's window changes while the GM
types.

The silent ones come from :data:`ATTACKER` (one machine, as in the issue's attack), the
logging-in player from :data:`PLAYERS_HOST`, the flooding seats from :data:`FLOODER`: on
one host, loopback addresses stand for machines (a player at the attacker's address would
share its per-address limit, and its penalty for flooding); the GM logged in before the
attack.
Each silent connection is held until the figure is taken, whatever the server did with it
(the door turns most away at once; ``--per-source-max-startups`` keeps five).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import asyncssh

from hsm_tui.share.terminal import RESIZE_FLOOD

ATTACKER, PLAYERS_HOST, FLOODER = "127.0.0.3", "127.0.0.2", "127.0.0.4"
SILENT_TYPING, SILENT_LOGIN, LOGIN_NOFILE = 500, 1500, 1024
"""Silent connections while the GM types; while a player logs in, and the server's
``ulimit -n`` then (the issue's attack: 1,500 under 1,024 locked the players out)."""
LOGIN_TARGET_MS = 150.0
"""A login's first frame under the flood: the bench's first-frame target, since silent
connections the door turns away should cost a player nothing they notice."""
FLOOD_KEYS = b"almvtxnA"
"""What a flooding player types: the player's keys that open a screen or a menu."""
FLOOD_RATE = 190
"""Keys a second the flooding player types: just under what the server takes from a
client (200), since one that types flat out is dropped within seconds."""
RETRY = 0.05
"""Seconds a player waits before trying again when turned away (an ssh in a loop)."""
RESIZE_RATE = RESIZE_FLOOD - 10
"""Window changes a second the resize flooder sends: just under what drops a client, each
a size of its own (between 20×10 and 319×159), so that every one the server hands on is
a re-layout at another size."""


@contextlib.asynccontextmanager
async def silent(port: int, count: int) -> AsyncIterator[int]:
    """``count`` silent connections from :data:`ATTACKER`, held while the block runs;
    yields how many the server still held open a moment after the last was made."""
    writers: list[asyncio.StreamWriter] = []
    readers: list[asyncio.StreamReader] = []
    try:
        for _ in range(count):
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(ATTACKER, 0)
                )
                readers.append(reader)
                writers.append(writer)
        await asyncio.sleep(0.5)
        yield sum(not r.at_eof() for r in readers)
    finally:
        for writer in writers:
            writer.close()


async def login_ms(
    join: Callable[..., Awaitable[tuple[object, float, float]]],
    first: Callable[[object, float], Awaitable[float | None]],
    timeout: float = 30.0,
) -> tuple[float | None, int]:
    """A player's login, trying again when turned away, until its first frame: ms from
    the first try (None: not within ``timeout``), and the tries it took."""
    start = time.monotonic()
    tries = 0
    while time.monotonic() - start < timeout:
        tries += 1
        try:
            player, _, _ = await join()
        except (asyncssh.Error, OSError):
            await asyncio.sleep(RETRY)
            continue
        seen = await first(player, start)
        await player.close()  # type: ignore[attr-defined]
        return (None if seen is None else (seen - start) * 1000), tries
    return None, tries


async def _key_flood(conn: asyncssh.SSHClientConnection, stop: asyncio.Future[bytes]) -> str:
    """Sends the player's keys, :data:`FLOOD_RATE` a second, until ``stop``; the bytes sent."""
    rng = random.Random(0)
    keys = bytes(rng.choice(FLOOD_KEYS) for _ in range(1 << 16))
    loop = asyncio.get_running_loop()
    sent = 0

    async def send(stdin: asyncssh.SSHWriter[bytes]) -> None:
        nonlocal sent
        began = loop.time()
        with contextlib.suppress(asyncssh.Error, OSError):  # dropped: the flood is over
            while True:
                due = int((loop.time() - began) * FLOOD_RATE)
                start = sent % len(keys)
                stdin.write(keys[start : start + due - sent])
                await stdin.drain()
                sent = due
                await asyncio.sleep(1 / 60)

    process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    await asyncio.sleep(1.0)  # its first frame
    print("flooding", flush=True)
    flooding = asyncio.create_task(send(process.stdin))
    await asyncio.wait([flooding, stop], return_when=asyncio.FIRST_COMPLETED)
    flooding.cancel()
    return str(sent)


Connect = Callable[[], Awaitable[asyncssh.SSHClientConnection]]


async def _resize_flood(connect: Connect, stop: asyncio.Future[bytes]) -> str:
    """Window changes, :data:`RESIZE_RATE` a second, until ``stop``, logging in again
    whenever dropped (turned away: again after :data:`RETRY`
    s); says "flooding" once in; the changes sent and how many times it was dropped."""
    sent = dropped = 0
    while not stop.done():
        try:
            conn = await connect()
        except (asyncssh.Error, OSError):  # turned away (the flooder's penalty)
            await asyncio.sleep(RETRY)
            continue
        if not sent:
            print("flooding", flush=True)
        closed = asyncio.ensure_future(conn.wait_closed())
        with contextlib.suppress(asyncssh.Error, OSError):  # dropped as it opened
            process = await conn.create_process(
                term_type="xterm", term_size=(80, 24), encoding=None
            )
            began, start = asyncio.get_running_loop().time(), sent
            while not (stop.done() or closed.done()):
                due = start + int((asyncio.get_running_loop().time() - began) * RESIZE_RATE)
                while sent < due:
                    sent += 1
                    process.change_terminal_size(20 + sent % 300, 10 + sent % 150)
                await asyncio.sleep(1 / 60)
        dropped += closed.done()
        conn.close()
        await closed
    return f"{sent} {dropped}"


async def _flood(mode: str, port: int, user: str, key: asyncssh.SSHKey) -> None:
    """A flooding client (``keys`` or ``resize``) from :data:`FLOODER` (the penalty for
    flooding then turns away no measuring client): logs in, says so on stdout, floods
    until its stdin closes, then prints what it sent."""
    logging.getLogger("asyncio").setLevel(logging.ERROR)  # "socket.send() raised": dropped
    stop = asyncio.get_running_loop().run_in_executor(None, sys.stdin.buffer.read)

    def connect() -> Awaitable[asyncssh.SSHClientConnection]:
        return asyncssh.connect(
            "127.0.0.1", port, username=user, client_keys=[key], local_addr=(FLOODER, 0),
            known_hosts=None, agent_path=None, config=None,
        )  # fmt: skip

    if mode == "resize":
        print(await _resize_flood(connect, stop), flush=True)
        return
    async with await connect() as conn:
        print(await _key_flood(conn, stop), flush=True)


@contextlib.asynccontextmanager
async def flooding(
    mode: str, port: int, user: str, key: asyncssh.SSHKey
) -> AsyncIterator[list[int]]:
    """``user`` flooding (``keys``: a player typing; ``resize``: window changes) from a
    process of its own (its client's work, encrypting and sending, is then not the
    measuring clients'), while the block runs; the list yielded gets what it sent."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, mode, str(port), user,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(key.export_private_key())
    await process.stdin.drain()
    sent: list[int] = []
    try:
        if await asyncio.wait_for(process.stdout.readline(), 30) != b"flooding\n":
            raise RuntimeError(f"the {mode} flooder never logged in")
        yield sent
    finally:
        process.stdin.close()
        out = await asyncio.wait_for(process.stdout.read(), 30)
        await process.wait()
        sent.extend(int(n) for n in out.split() or [0])


def _read_key() -> asyncssh.SSHKey:
    """The flooding player's private key, the first lines on stdin (to its END line)."""
    lines = [sys.stdin.buffer.readline()]
    while not lines[-1].startswith(b"-----END") and lines[-1]:
        lines.append(sys.stdin.buffer.readline())
    return asyncssh.import_private_key(b"".join(lines))


if __name__ == "__main__":
    asyncio.run(_flood(sys.argv[1], int(sys.argv[2]), sys.argv[3], _read_key()))
